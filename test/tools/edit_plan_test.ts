/**
 * edit_file's pure parts: the two slip rules, every other line edit written
 * exactly, line endings, and the guard.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import {
  describeIndentation,
  describeReplacement,
  guardEdit,
  planReplace,
  quoteShown,
} from "../../src/tools/edit_file.ts";

function apply(original: string, args: { find?: string; line?: number; content: string }): string {
  const plan = planReplace(original, args);
  if (!plan.ok) throw new Error(plan.error);
  const refusal = guardEdit(original, plan.edit);
  if (refusal) throw new Error(refusal);
  return plan.edit.text;
}

function refusal(
  original: string,
  args: { find?: string; line?: number; content: string },
): string {
  const plan = planReplace(original, args);
  if (plan.ok) throw new Error(`expected a refusal, got ${JSON.stringify(plan.edit.text)}`);
  return plan.error;
}

const PY = "def f():\n    x = 1\n    return 1\n";

Deno.test("line edit: content replaces the whole line, its ending kept", () => {
  assertEquals(apply("a\nb\nc\n", { line: 2, content: "B" }), "a\nB\nc\n");
  assertEquals(apply("a\nb", { line: 2, content: "B" }), "a\nB");
  assertEquals(
    apply('let version = "0.1.0"\n', { line: 1, content: 'let version = "0.2.0"' }),
    'let version = "0.2.0"\n',
  );
});

Deno.test("slip 1: unindented content for an indented line keeps the indentation, and says so", () => {
  const plan = planReplace(PY, { line: 3, content: "return 10" });
  assert(plan.ok);
  assertEquals(plan.edit.text, "def f():\n    x = 1\n    return 10\n");
  assertEquals(plan.edit.indentation, "    ");
  assertEquals(
    describeReplacement("/repo/b.py", PY, plan.edit, 42),
    'replaced at line 3 of /repo/b.py, keeping the line\'s indentation (4 spaces); now 42 bytes; line 3 now: "    return 10"',
  );
  assertEquals(apply("\tif x:\n", { line: 1, content: "if y:" }), "\tif y:\n");
  assertEquals(describeIndentation("\t\t  "), "2 tabs and 2 spaces");
});

Deno.test("every other line edit is written exactly (deliberate whitespace changes work)", () => {
  // indent
  assertEquals(apply("return 1\n", { line: 1, content: "    return 1" }), "    return 1\n");
  // dedent: the stripped texts are equal
  assertEquals(apply("    y = 2\n", { line: 1, content: "y = 2" }), "y = 2\n");
  // tabs to spaces
  assertEquals(apply("\tz\n", { line: 1, content: "    z" }), "    z\n");
  // trailing spaces stripped
  assertEquals(apply("    w   \n", { line: 1, content: "    w" }), "    w\n");
  // an indented line emptied
  assertEquals(apply("a\n    b\nc\n", { line: 2, content: "" }), "a\n\nc\n");
  // The blind spot: a text change and a dedent to the margin keeps the indentation.
  assertEquals(apply("    return 1\n", { line: 1, content: "print(1)" }), "    print(1)\n");
});

Deno.test("slip 2: a stale line number is reconciled by find when exactly one line holds it", () => {
  const plan = planReplace(PY, { line: 2, find: "return 1", content: "return 10" });
  assert(plan.ok);
  assertEquals(plan.edit.text, "def f():\n    x = 1\n    return 10\n");
  assertEquals(
    describeReplacement("/repo/b.py", PY, plan.edit, 42),
    'line 2 did not contain "return 1"; replaced line 3 of /repo/b.py, the one line that does; now 42 bytes; line 3 now: "    return 10"',
  );
  // find on the named line: replaced there, nowhere else.
  assertEquals(apply("x = 1\nx = 1\n", { line: 2, find: "1", content: "2" }), "x = 1\nx = 2\n");
  // Several lines hold it and the named one does not: refused, naming them.
  assertMatch(
    refusal("a\nb = 1\nc = 1\n", { line: 1, find: "= 1", content: "= 2" }),
    /2 lines do \(2, 3\)/,
  );
  assertMatch(
    refusal("a\nb\n", { line: 1, find: "zzz", content: "q" }),
    /^text to replace not found/,
  );
  // A line past the end with a unique find is reconciled too.
  assertEquals(apply("a\nb\n", { line: 9, find: "b", content: "B" }), "a\nB\n");
});

Deno.test("find: exactly once, else refused with the count; spans lines when asked", () => {
  assertEquals(apply("one two\nthree\n", { find: "two", content: "2" }), "one 2\nthree\n");
  assertEquals(
    refusal("ab ab\n", { find: "ab", content: "x" }),
    'text to replace occurs 2 times, include more surrounding text: "ab"',
  );
  assertEquals(refusal("ab\n", { find: "zz", content: "x" }), 'text to replace not found: "zz"');
  const plan = planReplace("1\n2\n3\n4\n5\n6\n", { find: "2\n3", content: "a\nb\nc\nd\ne" });
  assert(plan.ok);
  assertEquals(plan.edit.text, "1\na\nb\nc\nd\ne\n4\n5\n6\n");
  assertEquals(
    describeReplacement("/f", "1\n2\n3\n4\n5\n6\n", plan.edit, 20),
    'replaced at lines 2–3 of /f; now 20 bytes; lines 2–6 now: "a", "b", "c" and 2 more',
  );
  // A fragment cut.
  assertEquals(
    apply("keep this, drop that\n", { find: ", drop that", content: "" }),
    "keep this\n",
  );
});

Deno.test("line endings: CRLF, CR-only and mixed files edited by line and by find keep every ending", () => {
  assertEquals(apply("a\r\nb\r\nc\r\n", { line: 2, content: "B" }), "a\r\nB\r\nc\r\n");
  assertEquals(apply("a\rb\rc\r", { line: 3, content: "C" }), "a\rb\rC\r");
  assertEquals(apply("a\r\nb\rc\n", { line: 2, content: "B" }), "a\r\nB\rc\n");
  assertEquals(apply("a\r\nb\r\n", { find: "b", content: "B" }), "a\r\nB\r\n");
  assertEquals(apply("x\r\n    y\r\n", { line: 2, content: "z" }), "x\r\n    z\r\n");
  // Line 2 of a CRLF file exists (it is not one long line 1).
  assertMatch(
    refusal("a\r\nb\r\n", { line: 3, content: "c" }),
    /line 3 is past the end of the file \(it has 2 lines\)/,
  );
});

Deno.test("the guard refuses any edit wider than it names", () => {
  const original = "a\r\nb\r\nc\r\n";
  const good = planReplace(original, { line: 2, content: "B" });
  assert(good.ok);
  assertEquals(guardEdit(original, good.edit), null);
  // A construction fault that dropped every line break.
  assertEquals(
    guardEdit(original, { ...good.edit, text: "aBc" }),
    "the file would have 0 line breaks, not 3, more than the edit names",
  );
  // One that changed a line the edit does not name.
  assertEquals(
    guardEdit(original, { ...good.edit, text: "A\r\nB\r\nc\r\n" }),
    "line 1, which the edit does not name, would change",
  );
  assertEquals(
    guardEdit(original, { ...good.edit, text: "a\r\nB\r\nC\r\n" }),
    "line 3, which the edit does not name, would change",
  );
  // One that changed the touched line's ending (CRLF to LF).
  assertEquals(
    guardEdit(original, { ...good.edit, text: "a\r\nB\nc\r\n" }),
    "the ending of line 2 would change",
  );
  // Content with line breaks is counted: the edit names the breaks it adds.
  assertEquals(apply("a\nb\nc\n", { line: 2, content: "b1\nb2" }), "a\nb1\nb2\nc\n");
});

Deno.test("quoteShown escapes and cuts at 200 characters", () => {
  assertEquals(quoteShown('a\tb"c\\d\ne\rf'), '"a\\tb\\"c\\\\d\\ne\\rf"');
  const long = quoteShown("x".repeat(300));
  assertEquals(long, `"${"x".repeat(200)}"…`);
});

Deno.test("refusals name what was wrong", () => {
  assertEquals(
    refusal("a\nb\n", { line: 9, find: "zzz", content: "q" }),
    'text to replace not found: "zzz" (not on line 9 nor on any other line); nothing changed',
  );
  // A stale number with the text on exactly one other line is reconciled, not refused.
  assertEquals(apply("a = 1\nb\n", { line: 2, find: "=", content: ":=" }), "a := 1\nb\n");
  assertMatch(refusal("x x\n", { line: 1, find: "x", content: "y" }), /occurs 2 times on line 1/);
  assertMatch(refusal("a\nb\n", { content: "y" }), /^replace needs line .* or find/);
  assertMatch(refusal("a\nb\n", { line: 1, find: "a\nb", content: "y" }), /no line breaks/);
  // Content with a break on a last line that has none would change that line's ending: refused.
  const plan = planReplace("a\nb", { line: 2, content: "x\n" });
  assert(plan.ok);
  assertEquals(guardEdit("a\nb", plan.edit), "the ending of line 2 would change");
});

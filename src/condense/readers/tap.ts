/**
 * TAP (node --test's tap reporter, tape, prove, bats): `not ok N - name`
 * with its YAML block (`location`, `error`, `stack`). Subtests are indented;
 * their names are joined with " > ". A suite that failed only through its
 * subtests, and TODO/SKIP lines, are not findings. Perl's Test::More writes
 * a failure's place and values as diagnostics (`#   Failed test 'name'`,
 * `#   at t/x.t line 7.`, `#          got: '6'`, `#     expected: '7'`) on
 * stderr, so before or after its `not ok` line: they are joined to the
 * failure by its name (an unnamed one by its order).
 */
import { blockStart, type Finding, finding } from "../findings.ts";
import {
  frameInBody,
  FramePicker,
  indentOf,
  isJsSpace,
  jsFrameAfterAt,
  ownFrame,
} from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { assertionEvidence } from "./evidence.ts";
import { bustedFailure } from "./busted.ts";
import {
  CARRIAGE_RETURN,
  COLON,
  DASH,
  DIGIT_0,
  DIGIT_9,
  DOT,
  HASH,
  isDigit,
  isLower,
  isUpper,
  LINE_FEED,
  LINE_SEPARATOR,
  LOWER_N,
  LOWER_O,
  PARAGRAPH_SEPARATOR,
  UNDERSCORE,
  UPPER_T,
} from "../chars.ts";

const NOT_OK = /^(\s*)not ok \d+(?: -)? ?(.*?)(?:\s+#\s*(TODO|SKIP)\b.*)?$/i;
const OK = /^\s*ok \d+\b/;
const SUBTEST = /^(\s*)# Subtest: (.*)$/;
const COUNTS = /# (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /;
const TAP_LINE =
  /^\s*(?:TAP version \d+|\d+\.\.\d+|# (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) )/;
/** Test::Builder's diagnostic for a failed test: named (its place on the next line) or not. */
const TB_FAILED = /^#\s+Failed (?:\(TODO\) )?test (?:'(.*)'|at (.+) line (\d+)\.)$/;
const TB_AT = /^#\s+at (.+) line (\d+)\.$/;
/** Test::Builder when the script ends early: `# Looks like your test exited with 255 just after 1.` */
const TB_EXITED =
  /^# Looks like your test exited with (\d+) (?:just after (\d+)|before it could output anything)\.$/;
/** prove's line for a test file: `t/cart.t .. ` (dots pad the names to one width). */
const PROVE_FILE = /^(\S+?) \.{2,} ?(?:ok|skipped.*|\d+\/\d+)?$/;
const YAML_START = /^\s*---$/;
/** An indented TAP line of a subtest (not an error's text). */
const TAP_INDENTED = /^\s+(?:ok \d|not ok\b|# Subtest:|\d+\.\.\d+|---$)/;
/** Deno's message for a test that failed through its steps. */
const STEPS_FAILED = /^\d+ test steps? failed\.$/;
/** Colour codes kept, escaped, inside a JSON string (the normalising layer saw only the escape's text). */
// deno-lint-ignore no-control-regex
const ESCAPED_COLOUR = /\x1b\[[0-9;]*m/g;

/**
 * A YAML block written as one JSON object: its `message` split into the error's lines (the stack's
 * `at` lines going to `stack`), and its `at` place as the `location` when the stack gives none.
 */
function jsonBlock(line: string, yaml: Map<string, string[]>): void {
  let value: unknown;
  try {
    value = JSON.parse(line.trim());
  } catch {
    return;
  }
  if (typeof value !== "object" || value === null) return;
  const o = value as { message?: unknown; at?: { file?: unknown; line?: unknown } };
  if (typeof o.message === "string") {
    const text: string[] = [];
    const stack: string[] = [];
    for (const raw of o.message.replace(ESCAPED_COLOUR, "").split("\n")) {
      const l = raw.trim();
      if (l.startsWith("at ")) stack.push(l);
      else if (l !== "" && !/^[~^]+$/.test(l)) text.push(l);
    }
    yaml.set("message", text);
    yaml.set("stack", stack);
  }
  if (o.at && typeof o.at.file === "string" && typeof o.at.line === "number") {
    yaml.set("location", [`${o.at.file}:${o.at.line}`]);
  }
}
const YAML_END = /^\s*\.\.\.$/;

// The YAML markers' patterns need the line to end in --- or ...: that is tested first.
function isYamlStart(line: string): boolean {
  return line.endsWith("---") && YAML_START.test(line);
}
function isYamlEnd(line: string): boolean {
  return line.endsWith("...") && YAML_END.test(line);
}

/** The keys of a failure's YAML block that the finding is made from. */
const YAML_KEYS_READ = new Set([
  "failureType",
  "at",
  "assertion",
  "details",
  "tapCaught",
  "stack",
  "location",
  "error",
  "message",
  "expected",
  "actual",
]);

function isWordOrDash(c: number): boolean {
  return isLower(c) || isUpper(c) || isDigit(c) || c === UNDERSCORE ||
    c === DASH;
}

/**
 * `/^\s*([\w-]+):\s?(.*)$/` by hand (a YAML line's key and value): the pattern cost more than the
 * rest of the reader. The key is the whole run of word characters (a colon is not one, so the
 * pattern cannot match a shorter run); the value may hold no line terminator (`.` matches none).
 */
export function yamlKey(line: string): [string, string] | undefined {
  let p = 0;
  while (p < line.length && isJsSpace(line.charCodeAt(p))) p++;
  let q = p;
  while (q < line.length && isWordOrDash(line.charCodeAt(q))) q++;
  if (q === p || line.charCodeAt(q) !== COLON) return undefined;
  let r = q + 1;
  if (r < line.length && isJsSpace(line.charCodeAt(r))) r++;
  for (let k = r; k < line.length; k++) {
    const c = line.charCodeAt(k);
    if (
      c === LINE_FEED || c === CARRIAGE_RETURN || c === LINE_SEPARATOR || c === PARAGRAPH_SEPARATOR
    ) return undefined;
  }
  return [line.slice(p, q), line.slice(r)];
}

function unquote(s: string): string {
  const t = s.trim();
  if ((t.startsWith("'") && t.endsWith("'")) || (t.startsWith('"') && t.endsWith('"'))) {
    return t.slice(1, -1).replace(/''/g, "'");
  }
  return t;
}

/** Test::Builder's diagnostics of one failed test: its place and the lines that say why. */
interface Diagnostic {
  name?: string;
  location?: string;
  detail: string[];
  /** A TODO test's failure: expected, never a finding. */
  todo: boolean;
  /** Whether a `not ok` line took it. */
  used?: boolean;
  /** A subtest's group failing through the failures just above it. */
  parent?: boolean;
  /** The line it starts at. */
  at: number;
}

/** The diagnostic that starts at line i (a TB_FAILED match), and the index of its last line. */
function diagnostic(
  lines: string[],
  i: number,
  m: RegExpExecArray,
): { d: Diagnostic; end: number } {
  const d: Diagnostic = {
    name: m[1],
    detail: [],
    todo: lines[i].includes("Failed (TODO) test"),
    at: i,
  };
  if (m[2]) d.location = `${m[2]}:${m[3]}`;
  let j = i + 1;
  for (; j < lines.length && j - i < 40; j++) {
    // A subtest's diagnostics are indented as its TAP lines are.
    const l = lines[j].trimStart();
    if (!l.startsWith("#") || TB_FAILED.test(l) || /^# Looks like /.test(l)) break;
    const at = d.location === undefined ? TB_AT.exec(l) : null;
    if (at) d.location = `${at[1]}:${at[2]}`;
    else if (l.slice(1).trim() !== "") d.detail.push(l.slice(1).trim());
  }
  return { d, end: j - 1 };
}

/** A line only TAP prints: an `ok` result, the version, a plan, a subtest's heading. */
const TAP_STRUCTURE = /^\s*(?:ok \d|TAP version \d|\d+\.\.\d+(?:\s|$)|# Subtest: )/;

/** How far from a bare `not ok` line the other lines of its TAP stream are looked for. */
const TAP_NEAR = 20;

const PLAN = /^\s*\d+\.\.\d+(?:\s|$)/;
const RESULT_LINE = /^\s*(?:not )?ok\b/;

/** Whether the plan at line k closes a stream: results stand above it (skipping `#` comments and blanks). */
function closingPlan(lines: string[], k: number): boolean {
  for (let p = k - 1; p >= 0 && p >= k - TAP_NEAR; p--) {
    const l = lines[p];
    if (l.trim() === "" || /^\s*#/.test(l)) continue;
    return RESULT_LINE.test(l);
  }
  return false;
}

/**
 * Whether a line of TAP's own structure stands within TAP_NEAR lines of line `i`. A plan that
 * closes a stream above (`1..5` after its results) ends that stream: its lines are not near a line
 * after it, which another step of the log printed.
 */
function tapNear(lines: string[], i: number): boolean {
  for (let k = i - 1; k >= 0 && k >= i - TAP_NEAR; k--) {
    if (!TAP_STRUCTURE.test(lines[k])) continue;
    if (PLAN.test(lines[k]) && closingPlan(lines, k)) break;
    return true;
  }
  const to = Math.min(lines.length, i + TAP_NEAR + 1);
  for (let k = i + 1; k < to; k++) {
    if (TAP_STRUCTURE.test(lines[k])) return true;
  }
  return false;
}

/** Whether the `not ok` line at `i` is followed by its account: an indented line or a `#` diagnostic. */
function hasOwnAccount(lines: string[], i: number): boolean {
  const next = lines[i + 1] ?? "";
  return /^[ \t]+\S/.test(next) || next.startsWith("#");
}

function readTap(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const names: string[] = [];
  /** The line of each of `names`' `# Subtest:` headings. */
  const namesAt: number[] = [];
  const diagnostics: Diagnostic[] = [];
  const deaths: Finding[] = [];
  /** The indent of the last subtest's closing "Looks like you failed" among the diagnostics. */
  let subtestClosedAt: number | undefined;
  /** For each subtest level open, whether a test under it failed. */
  const childFailed: boolean[] = [];
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c = shape.lead[i];
    if (c === HASH) {
      const line = shape.first[i] === HASH ? lines[i] : lines[i].trimStart();
      const tb = line.includes("Failed ") ? TB_FAILED.exec(line) : null;
      if (tb) {
        const { d, end } = diagnostic(lines, i, tb);
        // Right after a subtest's own diagnostics (more indented, closed by its "Looks like you
        // failed"), a failure is the subtest's group failing through them: not another finding.
        const indent = indentOf(lines[i]);
        if (subtestClosedAt !== undefined && indent < subtestClosedAt) d.parent = true;
        subtestClosedAt = undefined;
        diagnostics.push(d);
        ctx.explain(i, end);
        i = end;
        continue;
      }
      const died = line.startsWith("# Looks like your test exited with ")
        ? TB_EXITED.exec(line)
        : null;
      if (died) {
        // The script died between tests: what it printed last (a die message) is just above, and
        // prove names the file on the next line (`t/x.t .. `).
        const before = i > 0 && !ctx.explained(i - 1) && lines[i - 1].trim() !== "" &&
            !lines[i - 1].trimStart().startsWith("#")
          ? lines[i - 1].trim()
          : undefined;
        const file = PROVE_FILE.exec(lines[i + 1] ?? "")?.[1];
        ctx.explain(before === undefined ? i : i - 1, i);
        deaths.push(
          finding("error", before ?? `the test script exited with ${died[1]}`, {
            location: file,
            detail: [`exited with ${died[1]} after test ${died[2]}`],
            at: before === undefined ? i : i - 1,
          }),
        );
        continue;
      }
      if (line.startsWith("# Looks like you ") && diagnostics.length > 0) {
        ctx.explain(i);
        const indent = indentOf(lines[i]);
        if (indent > 0) subtestClosedAt = indent;
        continue;
      }
    }
    // not ok, ok, # Subtest / # tests, TAP version, 1..N
    if (
      c !== LOWER_N && c !== LOWER_O && c !== HASH && c !== UPPER_T && (c < DIGIT_0 || c > DIGIT_9)
    ) continue;
    const line = lines[i];
    // Each pattern is tried only on lines its first character allows (every test of a pattern
    // allocates, and the garbage of millions of them cost more than the tests).
    const subtest = c === HASH && line.includes("# Subtest: ");
    if (
      (c === LOWER_N && !line.includes("not ok")) || (c === LOWER_O && !line.includes("ok ")) ||
      (c === HASH && !subtest && !COUNTS.test(line)) ||
      (c === UPPER_T && !line.startsWith("TAP version")) || (isDigit(c) && !line.includes(".."))
    ) continue;
    const s = subtest ? SUBTEST.exec(line) : null;
    if (s) {
      const level = Math.floor(s[1].length / 4);
      names.length = level;
      names[level] = s[2];
      namesAt.length = level;
      namesAt[level] = i;
      childFailed.length = level;
      childFailed[level] = false;
      ctx.explain(i);
      continue;
    }
    const ok = c === LOWER_O && OK.test(line);
    if (ok || (c !== LOWER_N && c !== LOWER_O && TAP_LINE.test(line))) {
      ctx.explain(i);
      if (ok && isYamlStart(lines[i + 1] ?? "")) {
        let j = i + 2;
        while (
          j < lines.length && j - i < 200 && !(shape.lead[j] === DOT && YAML_END.test(lines[j]))
        ) j++;
        ctx.explain(i, j);
        i = j;
      }
      continue;
    }
    if (c !== LOWER_N) continue; // "not ok" is all that is left
    const n = NOT_OK.exec(line);
    if (!n) continue;
    // A program may print a line that reads `not ok 1 - …` (a test's output under another runner's
    // reporter). TAP's own `not ok` has its account after it (a YAML block, `#` diagnostics or the
    // error's indented lines) or other TAP lines near it; a bare one in text with neither is not.
    if (!hasOwnAccount(lines, i) && !tapNear(lines, i)) continue;
    const level = Math.floor(n[1].length / 4);
    // node-tap ends a subtest's line with its time (`not ok 1 - group # time=17.2ms`).
    if (n[2].includes("# time=")) n[2] = n[2].replace(TIME_DIRECTIVE, "");
    const path = [...names.slice(0, level), n[2]].filter((x) =>
      x !== undefined && x !== ""
    ).join(" > ") || n[2];
    // Its block starts at the heading its path's first name was read from (a subtest's own
    // `# Subtest:` line comes before its tests), else at this line.
    const at = level > 0 || (names[0] === n[2] && namesAt[0] !== undefined)
      ? Math.min(namesAt[0] ?? i, i)
      : i;
    let j = i + 1;
    const yaml = new Map<string, string[]>();
    // How many of the stack's values came on its key's line (unquoted there, so not to be trimmed again).
    let stackInline = 0;
    if (isYamlStart(lines[j] ?? "")) {
      let base = indentOf(lines[j]);
      j++;
      // ava --tap indents the block's keys under its `---`: they are read at their own indent.
      if (j < lines.length && indentOf(lines[j]) > base && yamlKey(lines[j])) {
        base = indentOf(lines[j]);
      }
      // The value being read; undefined under a key this reader never looks at (its lines are skipped).
      let value: string[] | undefined;
      let stackValue: string[] | undefined;
      while (j < lines.length && j - i < 200 && !isYamlEnd(lines[j])) {
        const l = lines[j];
        // Only a line at the block's own indent can start a key: the pattern is tried on no other.
        const kv = indentOf(l) === base ? yamlKey(l) : undefined;
        if (kv) {
          value = undefined;
          if (YAML_KEYS_READ.has(kv[0])) {
            value = kv[1] === "|-" || kv[1] === "|" || kv[1] === ">-" || kv[1] === ""
              ? []
              : [unquote(kv[1])];
            yaml.set(kv[0], value);
            if (kv[0] === "stack") {
              stackValue = value;
              stackInline = value.length;
            }
          }
        } else if (value) {
          // A stack's lines are trimmed when read (most are never read: the frame is decided early).
          value.push(value === stackValue ? l : l.trim());
        } else if (indentOf(l) === base && l.trimStart().startsWith("{")) {
          // Deno's TAP reporter writes the block as one JSON object (YAML's flow form):
          // {"message": "…\n    at file:///…:6:10", "severity": "fail", "at": {"file", "line"}}.
          jsonBlock(l, yaml);
        }
        j++;
      }
    } else {
      // No YAML block: mocha's TAP reporter writes the error's message and stack as plain lines
      // indented under the "not ok" line.
      const own = indentOf(line);
      let k = j;
      const text: string[] = [];
      const stack: string[] = [];
      while (k < lines.length && k - i < 200) {
        const l = lines[k];
        if (l.trim() === "") {
          k++;
          continue;
        }
        if (indentOf(l) <= own || TAP_INDENTED.test(l)) break;
        const t = l.trim();
        if (t.startsWith("at ")) stack.push(t);
        else if (stack.length === 0) text.push(t);
        k++;
      }
      while (k > j && lines[k - 1].trim() === "") k--;
      if (text.length > 0 || stack.length > 0) {
        yaml.set("message", text);
        yaml.set("stack", stack);
        stackInline = stack.length;
      }
      j = k - 1;
      // Or `#` comments right under it (bats, busted -o TAP): the test's place and the failure's
      // lines, where they are not Test::Builder's diagnostics (read apart, by the test's name).
      if (k === i + 1) j = commentDiagnostics(lines, i + 1, yaml) - 1;
    }
    ctx.explain(i, j);
    i = j;
    if (n[3]) continue; // TODO and SKIP do not fail the run
    // A test cancelled because its suite failed first (node's before hook threw) did not fail on its
    // own, and its suite is not a group failing through it: the suite's own error is the finding.
    if (yaml.get("failureType")?.[0] === "cancelledByParent") continue;
    // A subtest's own line after its tests (`not ok 5 - group`): when a test under it failed, that
    // test is the finding and the group is not another.
    const parentOf = level < names.length && names[level] === n[2] && childFailed[level + 1];
    for (let k = 0; k < level; k++) childFailed[k + 1] = true;
    if (parentOf) continue;
    if (yaml.get("failureType")?.[0] === "subtestsFailed") continue;
    // Deno's test that failed only through its steps: "1 test step failed."
    if (STEPS_FAILED.test(yaml.get("message")?.[0] ?? "")) continue;
    const loc = yaml.get("location")?.[0];
    const testFile = loc ? /^(.*?):\d+:\d+$/.exec(loc)?.[1] : undefined;
    // The stack is parsed only until the frame is decided (usually its first line, in the test file).
    const picker = new FramePicker(testFile);
    const stack = yaml.get("stack") ?? [];
    for (let k = 0; k < stack.length; k++) {
      const l = k < stackInline ? stack[k] : stack[k].trim();
      const f = jsFrameAfterAt(l.startsWith("at ") ? l.slice(3) : l);
      if (f && picker.add(f)) break;
    }
    // Deno's block names the file and line the test is defined on (`./x_test.ts:9`): the frame in
    // the test's body is at or after it, past a helper of the file defined above.
    const definedIn = loc ? /^(.*?):(\d+)$/.exec(loc) : null;
    const inBody = definedIn
      ? frameInBody(
        stack.map((l) => jsFrameAfterAt(l.trim().replace(/^at /, ""))).filter((f) =>
          f !== undefined
        ),
        definedIn[1],
        Number(definedIn[2]),
      )
      : undefined;
    const frame = inBody ?? picker.pick() ?? atFrame(yaml.get("at"));
    let errorLines = (yaml.get("error") ?? yaml.get("message") ?? []).filter((l) => l !== "");
    if (errorLines.length === 0) {
      // node-tap names a caught error's test by the error's message; ava's failed assertion has an
      // empty message and names the assertion.
      const assertion = yaml.get("assertion")?.[0];
      if (yaml.has("tapCaught")) errorLines = [n[2]];
      else if (assertion) errorLines = [`${assertion} failed`, ...(yaml.get("details") ?? [])];
    }
    const expected = yaml.get("expected");
    const actual = yaml.get("actual");
    const detail = [
      ...assertionEvidence(errorLines.slice(1), 5),
      ...(expected ? [`expected: ${expected.join(" ")}`] : []),
      ...(actual ? [`actual: ${actual.join(" ")}`] : []),
    ];
    out.push(
      finding("test_failure", errorLines[0] ?? "failed", {
        test: path,
        location: frame
          ? (frame.col ? `${frame.file}:${frame.line}:${frame.col}` : `${frame.file}:${frame.line}`)
          : loc,
        detail,
        at,
      }),
    );
  }
  if (diagnostics.length > 0) joinDiagnostics(out, diagnostics);
  // Diagnostics no `not ok` line took (prove without -v prints none): each is its failed test.
  for (const d of diagnostics) {
    if (d.used || d.todo || d.parent) continue;
    out.push(
      finding("test_failure", "failed", {
        test: d.name,
        location: d.location,
        detail: d.detail,
        at: d.at,
      }),
    );
  }
  out.push(...deaths);
  return out;
}

/** Each failure without a place takes its Test::Builder diagnostic's place and lines (by name, else in order). */
function joinDiagnostics(out: Finding[], diagnostics: Diagnostic[]): void {
  // Each name's diagnostics in order, and the unnamed ones in order: a queue each, so a long output
  // of many failures is joined in one pass.
  const byName = new Map<string, Diagnostic[]>();
  const unnamed: Diagnostic[] = [];
  for (const d of diagnostics) {
    if (d.todo || d.parent) continue;
    if (d.name === undefined) unnamed.push(d);
    else {
      const list = byName.get(d.name);
      if (list) list.push(d);
      else byName.set(d.name, [d]);
    }
  }
  let nextUnnamed = 0;
  const take = (name: string): Diagnostic | undefined => {
    const list = byName.get(name);
    while (list && list.length > 0) {
      const d = list.shift()!;
      if (!d.used) return d;
    }
    return undefined;
  };
  for (let k = 0; k < out.length; k++) {
    const f = out[k];
    // A subtest's test is named by its path (`group > inner`); its diagnostic by its own name.
    let d: Diagnostic | undefined;
    if (f.test) {
      const own = f.test.split(" > ").pop()!;
      d = take(f.test) ?? (own !== f.test ? take(own) : undefined);
    } else if (nextUnnamed < unnamed.length) d = unnamed[nextUnnamed++];
    if (d) d.used = true;
    if (f.location || !d) continue;
    out[k] = finding(f.kind, f.message, {
      test: f.test,
      location: d.location,
      detail: [...(f.detail ?? []), ...d.detail],
      at: Math.min(blockStart(f) ?? d.at, d.at),
    });
  }
}

/** node-tap's time after a subtest's name. */
const TIME_DIRECTIVE = /\s+# time=[\d.]+m?s$/;
/** bats's place of a failed command: `# (in test file test/a.bats, line 21)`. */
const BATS_PLACE = /\bin test file (.+), line (\d+)\)$/;
/** busted's place of a test: `# spec/a_spec.lua @ 9`. */
const BUSTED_PLACE = /^(\S+) @ (\d+)$/;

/**
 * The `#` comments under a `not ok` line from `start`, up to the next line of another kind (or a
 * Test::Builder diagnostic): a place (bats's, busted's) goes to `location`, the rest to `message`
 * (busted's `Failure message: ` taken off). Returns the line after them.
 */
function commentDiagnostics(lines: string[], start: number, yaml: Map<string, string[]>): number {
  const text: string[] = [];
  let bustedTest: { file: string; line: string } | undefined;
  let k = start;
  for (; k < lines.length && k - start < 60; k++) {
    const l = lines[k];
    if (!l.startsWith("#") || TB_FAILED.test(l) || l.startsWith("# Subtest: ")) break;
    if (COUNTS.test(l) || l.startsWith("# Looks like ")) break;
    const t = l.slice(1).trim();
    const bats = yaml.has("location") ? null : BATS_PLACE.exec(t);
    const busted = yaml.has("location") || bats ? null : BUSTED_PLACE.exec(t);
    if (bats) yaml.set("location", [`${bats[1]}:${bats[2]}`]);
    else if (busted) {
      yaml.set("location", [`${busted[1]}:${busted[2]}`]);
      bustedTest = { file: busted[1], line: busted[2] };
    } else if (t !== "") text.push(t.replace(/^Failure message: /, ""));
  }
  if (bustedTest) {
    // Placed as busted's own output places it: at the assertion's line in the test's file.
    const failure = bustedFailure(bustedTest.file, bustedTest.line, text[0]);
    yaml.set("location", [failure.location]);
    if (text.length > 0) text[0] = failure.message;
  }
  if (text.length > 0) yaml.set("message", text);
  return k;
}

/**
 * A YAML block's `at` as a place: node-tap's mapping (`fileName`, `lineNumber`, `columnNumber`) or
 * ava's frame (`fn (file:line:col)`); none in a dependency's code.
 */
function atFrame(
  at: string[] | undefined,
): { file: string; line: string; col: string } | undefined {
  if (!at || at.length === 0) return undefined;
  const field = (key: string) =>
    at.find((l) => l.startsWith(key + ": "))?.slice(key.length + 2).trim();
  const file = field("fileName");
  const line = field("lineNumber");
  if (file && line) return { file, line, col: field("columnNumber") ?? "" };
  // A frame (`fn (file:line:col)`), as ava writes it; a bare place says not whose it is.
  const text = at.join(" ").trim();
  if (!text.endsWith(")")) return undefined;
  const f = jsFrameAfterAt(text);
  return f && ownFrame(f) ? f : undefined;
}

export const tap: Reader = { name: "tap", read: readTap };

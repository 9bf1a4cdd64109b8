import { assertEquals } from "../support/assert.ts";
import { parse } from "jsonc-parser";
import { removeFromText, setInText } from "../../src/config/text_edit.ts";

const read = (text: string) => parse(text, [], { allowTrailingComma: true });

Deno.test("a new member goes after the last one's trailing comment, at its indentation", () => {
  const text = '{\n    "a": {\n        "b": 1 // about b\n    }\n}\n';
  assertEquals(
    setInText(text, ["a", "c"], true),
    '{\n    "a": {\n        "b": 1, // about b\n        "c": true\n    }\n}\n',
  );
  // A file that ends members with a comma keeps doing so.
  assertEquals(
    setInText('{\n  "a": 1, // one\n}\n', ["b"], 2),
    '{\n  "a": 1, // one\n  "b": 2,\n}\n',
  );
});

Deno.test("a new object is laid out with the file's own step, tabs included, and its line endings", () => {
  assertEquals(
    setInText('{\r\n\t"a": 1\r\n}\r\n', ["x", "y"], "z"),
    '{\r\n\t"a": 1,\r\n\t"x": {\r\n\t\t"y": "z"\r\n\t}\r\n}\r\n',
  );
  assertEquals(setInText("{}\n", ["x", "y"], 1), '{\n  "x": {\n    "y": 1\n  }\n}\n');
  assertEquals(setInText("", ["x"], [1, 2]), '{\n  "x": [1, 2]\n}\n');
});

Deno.test("members on one line stay on one line; a value is replaced where it stands", () => {
  assertEquals(setInText('{ "a": { "b": 1 } }', ["a", "c"], 2), '{ "a": { "b": 1, "c": 2 } }');
  assertEquals(
    setInText('{\n  "a": [\n    "x"\n  ], // list\n  "b": 1\n}', ["a"], ["y", "z"]),
    '{\n  "a": ["y", "z"], // list\n  "b": 1\n}',
  );
  // A "}" right after the last member on its line.
  assertEquals(setInText('{\n  "a": 1 }', ["b"], 2), '{\n  "a": 1,\n  "b": 2 }');
});

Deno.test("comment markers inside strings are not comments", () => {
  const text = '{\n  "url": "http://x//y", /* real */\n  "b": 1\n}\n';
  const edited = setInText(text, ["c"], 3);
  assertEquals(edited, '{\n  "url": "http://x//y", /* real */\n  "b": 1,\n  "c": 3\n}\n');
  assertEquals(
    removeFromText(edited, ["url"]),
    '{\n  "b": 1,\n  "c": 3\n}\n',
  );
});

Deno.test("an empty object over several lines, holding a comment, gets its member before the brace", () => {
  assertEquals(
    setInText('{\n  "a": {\n    // later\n  }\n}\n', ["a", "b"], 1),
    '{\n  "a": {\n    // later\n    "b": 1\n  }\n}\n',
  );
});

Deno.test("a value where an object belongs is replaced by the object (mending a malformed file)", () => {
  assertEquals(
    setInText('{\n  "approval": 5\n}\n', ["approval", "threshold"], "safe"),
    '{\n  "approval": {\n    "threshold": "safe"\n  }\n}\n',
  );
});

Deno.test("unset takes the member's own comments, fixes the comma, and removes emptied objects", () => {
  const text = [
    "{",
    "  // the model",
    '  "model": "ollama:x", // mine',
    '  "approval": {',
    "    /* why */",
    '    "threshold": "safe"',
    "  },",
    '  "audit": { "keep": 3, "maxBytes": 9 }',
    "}",
    "",
  ].join("\n");
  assertEquals(
    removeFromText(text, ["approval", "threshold"]),
    '{\n  // the model\n  "model": "ollama:x", // mine\n  "audit": { "keep": 3, "maxBytes": 9 }\n}\n',
  );
  assertEquals(
    removeFromText(text, ["audit", "keep"]),
    text.replace('{ "keep": 3, "maxBytes": 9 }', '{ "maxBytes": 9 }'),
  );
  assertEquals(
    removeFromText(text, ["audit", "maxBytes"]),
    text.replace('{ "keep": 3, "maxBytes": 9 }', '{ "keep": 3 }'),
  );
  // The last member goes: the one before it loses its comma, keeping its comment.
  const lastGone = removeFromText(removeFromText(text, ["audit", "keep"]), ["audit", "maxBytes"]);
  assertEquals(lastGone.includes('"audit"'), false);
  assertEquals(read(lastGone), { model: "ollama:x", approval: { threshold: "safe" } });
  assertEquals(lastGone.includes("  },\n}"), false, lastGone);
  assertEquals(removeFromText(text, ["model"]).includes("the model"), false);
  assertEquals(removeFromText('{ "a": 1 }\n', ["a"]), "{}\n");
});

Deno.test("a key written twice is removed in every copy", () => {
  const edited = removeFromText('{\n  "a": 1,\n  "b": 2,\n  "a": 3\n}\n', ["a"]);
  assertEquals(read(edited), { b: 2 });
});

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

Deno.test("random files and edits: the result parses to exactly the edit, and no other comment is lost", () => {
  const next = random(7);
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
  for (let round = 0; round < 400; round++) {
    const indent = pick(["  ", "    ", "\t"]);
    const eol = pick(["\n", "\r\n"]);
    const trailing = next() < 0.3;
    const keys = ["a", "b", "c"].filter(() => next() < 0.7);
    const lines = ["{"];
    keys.forEach((key, i) => {
      const value = next() < 0.5 ? `{ "x": ${i} }` : String(i);
      const comma = i < keys.length - 1 || trailing ? "," : "";
      const note = next() < 0.5 ? ` // note-${key}` : "";
      if (next() < 0.3) lines.push(`${indent}/* above-${key} */`);
      lines.push(`${indent}"${key}": ${value}${comma}${note}`);
    });
    lines.push("}", "");
    const text = lines.join(eol);
    const before = read(text) as Record<string, unknown>;
    const target = pick(["a", "b", "c", "d"]);
    const path = next() < 0.5 ? [target] : [target, "x"];
    const comments = (t: string) => new Set(t.match(/(note|above)-\w/g) ?? []);
    // set
    const set = setInText(text, path, 42);
    const errors: unknown[] = [];
    const after = parse(set, errors as never, { allowTrailingComma: true });
    assertEquals(
      errors.length,
      0,
      `round ${round}: ${JSON.stringify(text)} → ${JSON.stringify(set)}`,
    );
    const expected = structuredClone(before);
    if (path.length === 1) expected[target] = 42;
    else {
      const inner = expected[target];
      expected[target] = inner && typeof inner === "object" ? { ...inner, x: 42 } : { x: 42 };
    }
    assertEquals(after, expected, `round ${round}: ${JSON.stringify(set)}`);
    assertEquals(comments(set), comments(text), `round ${round}: ${JSON.stringify(set)}`);
    // unset
    const unset = removeFromText(text, path);
    const removed = parse(unset, [], { allowTrailingComma: true });
    const expectedRemoved = structuredClone(before);
    if (path.length === 1) delete expectedRemoved[target];
    else if (expectedRemoved[target] && typeof expectedRemoved[target] === "object") {
      delete expectedRemoved[target];
    }
    assertEquals(removed, expectedRemoved, `round ${round}: ${JSON.stringify(unset)}`);
    const removedKey = target in before &&
      (path.length === 1 || (before[target] !== null && typeof before[target] === "object"));
    for (const comment of comments(text)) {
      if (!comment.endsWith(`-${target}`) || !removedKey) {
        assertEquals(unset.includes(comment), true, `round ${round} lost ${comment}: ${unset}`);
      }
    }
    // Every line left keeps its indentation.
    for (const line of unset.split(eol)) {
      if (line.trim() !== "" && line !== "{" && line !== "}") {
        assertEquals(line.startsWith(indent), true, `round ${round}: ${JSON.stringify(unset)}`);
      }
    }
  }
});

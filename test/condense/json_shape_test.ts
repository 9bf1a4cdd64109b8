import { assertEquals, assertMatch, assertThrows } from "../support/assert.ts";
import { jsonShape } from "../../src/condense/json_shape.ts";

Deno.test("json_shape: keys and types, optional keys counted, enums, arrays merged, nulls in unions", () => {
  const doc = {
    users: Array.from({ length: 120 }, (_, i) => ({
      id: i,
      name: `user ${i}`,
      role: ["admin", "user"][i % 2],
      ...(i % 3 ? { email: `x${i}@example.com` } : {}),
      score: i / 3,
      manager: i % 2 ? null : `user ${i - 1}`,
    })),
    next: null,
    meta: { page: 1, tags: ["a", "b"] },
  };
  assertEquals(
    jsonShape(JSON.stringify(doc)).text,
    [
      "object:",
      '  "users": array (120) of:',
      "    object (120 seen):",
      '      "id": integer',
      '      "name": string',
      '      "role": "admin" | "user"',
      '      "score": number',
      '      "manager": string | null',
      '      "email"? (in 80 of 120): string',
      '  "next": null',
      '  "meta": object:',
      '    "page": integer',
      '    "tags": [string] (2)',
    ].join("\n"),
  );
});

Deno.test("json_shape: a map of many keys is shown by its merged value; depth and keys are bounded", () => {
  const packages: Record<string, unknown> = {};
  for (let i = 0; i < 50; i++) {
    packages[`pkg-${i}@1.0.${i}`] = {
      integrity: `sha512-${i}-0123456789abcdefghijklmnop`,
      ...(i % 2 ? { dependencies: [`dep-${i}`] } : {}),
    };
  }
  const text = jsonShape(JSON.stringify({ version: "5", npm: packages })).text;
  assertMatch(
    text,
    /"npm": map of 50 keys \(such as "pkg-0@1\.0\.0"\) to:\n {4}object \(50 seen\):\n {6}"integrity": string\n {6}"dependencies"\? \(in 25 of 50\): \[string\] \(1\)/,
  );
  const wide = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, i]));
  assertMatch(jsonShape(JSON.stringify(wide), { maxKeys: 3 }).text, /… 7 more keys \(held back\)$/);
  const deep = { a: { b: { c: { d: { e: 1 } } } } };
  assertEquals(
    jsonShape(JSON.stringify(deep), { maxDepth: 2 }).text,
    'object:\n  "a": object:\n    "b": object (1 keys) …',
  );
});

Deno.test("json_shape: JSON Lines are records merged; neither is an error naming the line", () => {
  const r = jsonShape(
    '{"level":"info","msg":"a"}\n{"level":"error","msg":"b","err":"x"}\n{"level":"info","msg":"c"}\n',
  );
  assertEquals(r.kind, "jsonl");
  assertEquals(r.records, 3);
  assertMatch(r.text, /^3 records, each:\nobject \(3 seen\):/);
  assertMatch(r.text, /"err"\? \(in 1 of 3\): string/);
  assertThrows(() => jsonShape('{"a":1}\nnot json\n'), Error, "line 2 does not parse");
  assertThrows(() => jsonShape("nope"), Error, "not JSON");
});

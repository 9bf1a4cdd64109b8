import { assertEquals, assertMatch, assertThrows } from "../support/assert.ts";
import {
  absorb,
  jsonShape,
  merge,
  type Shape,
  shapeOfValue,
} from "../../src/condense/json_shape.ts";

/** A shape as plain data (sets as sorted lists, maps as entries in order), to compare exactly. */
function plain(shape: Shape): unknown {
  switch (shape.t) {
    case "string":
      return { ...shape, values: shape.values ? [...shape.values].sort() : null };
    case "array":
      return { ...shape, item: shape.item ? plain(shape.item) : undefined };
    case "object":
      return {
        ...shape,
        keys: [...shape.keys].map(([k, v]) => [k, plain(v.shape), v.count]),
      };
    case "union":
      return { t: "union", of: shape.of.map(plain) };
    default:
      return shape;
  }
}

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

Deno.test("json_shape: absorbing values in place equals merging their shapes, on random documents", () => {
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = ["a", "b", "c", "d", "e", "f", "g", "h"];
  const keys = ["id", "kind", "tags", "at", "x", "y", "z"];
  function value(depth: number): unknown {
    const r = random();
    if (depth > 4 || r < 0.15) return null;
    if (r < 0.25) return random() < 0.5;
    if (r < 0.4) return random() < 0.5 ? Math.floor(random() * 100) : random();
    if (r < 0.6) {
      return random() < 0.8
        ? words[Math.floor(random() * (random() < 0.5 ? 3 : 8))]
        : "x".repeat(30);
    }
    if (r < 0.75) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = 0; i < 1 + Math.floor(random() * 5); i++) {
      o[keys[Math.floor(random() * keys.length)]] = value(depth + 1);
    }
    return o;
  }
  for (let trial = 0; trial < 2000; trial++) {
    const values = Array.from({ length: 1 + Math.floor(random() * 30) }, () => value(0));
    let merged: Shape | undefined;
    let absorbed: Shape | undefined;
    for (const v of values) {
      merged = merged ? merge(merged, shapeOfValue(v)) : shapeOfValue(v);
      absorbed = absorb(absorbed, v);
    }
    assertEquals(plain(absorbed!), plain(merged!), JSON.stringify(values));
  }
});

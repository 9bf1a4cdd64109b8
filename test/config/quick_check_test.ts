/**
 * The quick check (src/config/quick_check.ts) against the zod schema it
 * mirrors. Every field the zod schema describes (read from its JSON Schema,
 * so a field added there is tried here without editing this test) is set to
 * each of a battery of values, in an otherwise empty config and in a full
 * one; for each, the quick check must either doubt (leaving the answer to
 * zod) or give exactly zod's config, key order included — and it must not
 * doubt a config zod accepts, or `wisp config` would load zod after all.
 */
import { z } from "zod";
import { assert, assertEquals } from "../support/assert.ts";
import { configSchema } from "../../src/config/schema.ts";
import { quickCheckConfig } from "../../src/config/quick_check.ts";

type Json = Record<string, unknown>;
type Path = (string | number)[];

/** The key every map (record) of the schema is tried with; FULL uses it too. */
const KEY = "k1";

/** A valid config with an entry in every list and map, so their items' fields are tried too. */
const FULL: Json = {
  model: "ollama:qwen3:8b",
  approval: { threshold: "dangerous", coremlModel: "risk@0.1.0-default" },
  commandPolicy: {
    deny: ["^rm "],
    sandbox: { writablePaths: ["/tmp/x"], environment: { include: ["LANG"], set: { [KEY]: "v" } } },
  },
  mcp: { elicitation: { [KEY]: "off" } },
  tools: {
    custom: [{
      name: "greet",
      description: "say hello",
      command: `echo hello {${KEY}}`,
      arguments: { [KEY]: { type: "string", description: "who" } },
    }],
  },
  ollama: {
    host: "http://127.0.0.1:11434",
    models: { [KEY]: { think: true, verified: { date: "2026-01-01", passed: [], failed: [] } } },
  },
  llamacpp: { models: { [KEY]: { capabilities: ["toolCalling"] } } },
  routing: { ladder: ["ollama:a"], tasks: { [KEY]: "ollama:a" } },
  facts: { kinds: [{ name: "tool", class: "permanent" }] },
  someday: { unknown: true },
};

/** Values tried at every field: each type, edges of the schema's bounds, names of each kind. */
const BATTERY: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1,
  1.5,
  0.5,
  0.25,
  0.6,
  100,
  101,
  1024,
  1025,
  3600,
  3601,
  2 ** 53,
  "",
  "x",
  "system",
  "ollama:a",
  "nope:a",
  "http://127.0.0.1:8080/v1",
  "http://example.com/v1",
  "127.0.0.1:8080",
  ":11434",
  "(",
  "A=B",
  "A*",
  "risk@0.1.0-default",
  "risk@0.1.0-local.0",
  "on",
  "read_file",
  "tool",
  [],
  ["x"],
  ["system"],
  ["ollama:a", 1],
  ["("],
  ["read_file"],
  [{}],
  [{ name: "n", description: "d", command: "c" }],
  {},
  { [KEY]: "on" },
  { [KEY]: {} },
  { [KEY]: 1 },
  { "": "on" },
  { "A=B": "x" },
  { x: 1 },
];

/** Every field path of a JSON Schema, maps entered at KEY and lists at their first item. */
function* fieldPaths(schema: Json, path: Path = []): Generator<{ path: Path; schema: Json }> {
  if (path.length > 0) yield { path, schema };
  const properties = schema.properties as Record<string, Json> | undefined;
  for (const [name, field] of Object.entries(properties ?? {})) {
    yield* fieldPaths(field, [...path, name]);
  }
  const extra = schema.additionalProperties as Json | undefined;
  if (!properties && extra && typeof extra === "object" && Object.keys(extra).length > 0) {
    yield* fieldPaths(extra, [...path, KEY]);
  }
  if (schema.items && typeof schema.items === "object") {
    yield* fieldPaths(schema.items as Json, [...path, 0]);
  }
}

/** `base` with `value` at `path` (missing steps made), as a fresh copy. */
function withValue(base: Json, path: Path, value: unknown): Json {
  const copy = structuredClone(base);
  let at: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) {
    const next = at[step];
    if (next === null || typeof next !== "object") at[step] = typeof step === "number" ? [] : {};
    at = at[step] as Record<string | number, unknown>;
  }
  at[path[path.length - 1]] = value;
  return copy;
}

/** The quick check agrees with zod on `raw`; a message naming the case when not. */
function disagreement(raw: Json): string | undefined {
  const byZod = configSchema.safeParse(raw);
  const quick = quickCheckConfig(raw);
  if (quick === undefined) {
    return byZod.success ? "zod accepts it, the quick check doubts it" : undefined;
  }
  if (!byZod.success) {
    return `zod refuses it (${byZod.error.issues[0].message}), the quick check accepts it`;
  }
  const [a, b] = [JSON.stringify(quick), JSON.stringify(byZod.data)];
  return a === b ? undefined : `the configs differ:\n quick ${a}\n zod   ${b}`;
}

const jsonSchema = z.toJSONSchema(configSchema, { io: "input", unrepresentable: "any" }) as Json;
const paths = [...fieldPaths(jsonSchema)];

Deno.test("the quick check and the zod schema agree on the defaults and the full sample", () => {
  assertEquals(disagreement({}), undefined);
  assertEquals(disagreement(FULL), undefined);
  // The full sample reaches every part of the schema the battery then changes.
  assert(quickCheckConfig(FULL) !== undefined);
  assert(paths.length > 80, `only ${paths.length} fields read from the schema`);
});

for (const [name, base] of [["an empty config", {}], ["a full config", FULL]] as const) {
  Deno.test(`the quick check and the zod schema agree on every field's values, in ${name}`, () => {
    const problems: string[] = [];
    for (const { path, schema } of paths) {
      const values = [...BATTERY, ...((schema.enum as unknown[]) ?? [])];
      if (schema.default !== undefined) values.push(schema.default);
      for (const value of values) {
        const problem = disagreement(withValue(base, path, value));
        if (problem) problems.push(`${path.join(".")} = ${JSON.stringify(value)}: ${problem}`);
      }
    }
    assertEquals(problems.slice(0, 10), []);
  });
}

Deno.test("the quick check doubts what the schema's cross-field checks refuse", () => {
  // The default model is disabled; two custom tools share a name.
  const disabled = { model: "ollama:a", models: { disabled: ["ollama:a"] } };
  assertEquals(quickCheckConfig(disabled), undefined);
  assert(!configSchema.safeParse(disabled).success);
  const tool = (FULL.tools as Json).custom as Json[];
  const twice = { tools: { custom: [tool[0], tool[0]] } };
  assertEquals(quickCheckConfig(twice), undefined);
  assert(!configSchema.safeParse(twice).success);
});

/**
 * The audit catalogue's field checks (src/audit/fields.ts) against zod's:
 * the catalogue's own source is built a second time with zod in place of
 * fields.ts, and for every event kind each field (read from zod's JSON
 * Schema of the kind, so a field added to the catalogue is tried without
 * editing this test) is given each of a battery of values in an otherwise
 * valid event; both must accept or both refuse.
 */
import { z } from "zod";
import { assert, assertEquals } from "../support/assert.ts";
import { AUDIT_CATALOGUE, type AuditKind } from "../../src/audit/catalogue.ts";

type Json = Record<string, unknown>;
type Checker = { safeParse(value: unknown): { success: boolean } };

const FIELDS_IMPORT = 'import * as z from "./fields.ts";';

/** The catalogue as zod builds it, from catalogue.ts's own text. */
async function catalogueByZod(): Promise<Record<string, z.ZodType>> {
  const source = await Deno.readTextFile(new URL("../../src/audit/catalogue.ts", import.meta.url));
  assert(
    source.includes(FIELDS_IMPORT),
    "catalogue.ts no longer imports fields.ts as this test expects",
  );
  const withZod = source.replace(FIELDS_IMPORT, 'import { z } from "zod";');
  const module = await import(
    `data:application/typescript;base64,${btoa(unescape(encodeURIComponent(withZod)))}`
  );
  return module.AUDIT_CATALOGUE;
}

/** A value a JSON Schema accepts, built from its first type (the simplest of each kind). */
function sample(schema: Json): unknown {
  if (schema.anyOf) return sample((schema.anyOf as Json[])[0]);
  if (schema.enum) return (schema.enum as unknown[])[0];
  switch (schema.type) {
    case "string":
      return "s";
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    case "null":
      return null;
    case "array":
      return [];
    case "object": {
      const object: Json = {};
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      for (const name of (schema.required ?? []) as string[]) {
        object[name] = sample(properties[name]);
      }
      return object;
    }
  }
  return "anything";
}

const BATTERY: unknown[] = [
  undefined,
  null,
  "",
  "s",
  0,
  1,
  -1,
  1.5,
  2 ** 53,
  true,
  [],
  ["s"],
  [1],
  [{}],
  [{ name: "n" }],
  {},
  { a: 1 },
  { a: "s" },
];

/** Every field path of an event's schema, with the field's schema (nested objects and list items too). */
function* fieldPaths(
  schema: Json,
  path: (string | number)[] = [],
): Generator<{ path: (string | number)[]; schema: Json }> {
  if (path.length > 0) yield { path, schema };
  for (const option of (schema.anyOf ?? []) as Json[]) yield* fieldPaths(option, path);
  for (const [name, field] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
    yield* fieldPaths(field, [...path, name]);
  }
  if (schema.items && typeof schema.items === "object") {
    yield* fieldPaths(schema.items as Json, [...path, 0]);
  }
}

function withValue(base: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(base) as Json;
  let at: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) {
    const next = at[step];
    if (next === null || typeof next !== "object") at[step] = typeof step === "number" ? [] : {};
    at = at[step] as Record<string | number, unknown>;
  }
  if (value === undefined) delete at[path[path.length - 1]];
  else at[path[path.length - 1]] = value;
  return copy;
}

Deno.test("every audit event kind accepts and refuses what zod would", async () => {
  const byZod = await catalogueByZod();
  const kinds = Object.keys(AUDIT_CATALOGUE) as AuditKind[];
  assertEquals(Object.keys(byZod).sort(), [...kinds].sort());
  const problems: string[] = [];
  let tried = 0;
  for (const kind of kinds) {
    const ours = AUDIT_CATALOGUE[kind] as unknown as Checker;
    const theirs = byZod[kind];
    const schema = z.toJSONSchema(theirs, { io: "input", unrepresentable: "any" }) as Json;
    const valid = sample(schema);
    const cases = [valid, undefined, null, [], "s"];
    for (const { path, schema: field } of fieldPaths(schema)) {
      for (const value of [...BATTERY, ...((field.enum ?? []) as unknown[])]) {
        cases.push(withValue(valid, path, value));
      }
    }
    assert(theirs.safeParse(valid).success, `${kind}: the sample is not valid`);
    for (const event of cases) {
      tried++;
      const [a, b] = [ours.safeParse(event).success, theirs.safeParse(event).success];
      if (a !== b) {
        problems.push(
          `${kind} ${JSON.stringify(event)}: fields.ts ${a ? "accepts" : "refuses"}, zod ${
            b ? "accepts" : "refuses"
          }`,
        );
      }
    }
  }
  assertEquals(problems.slice(0, 10), []);
  assert(tried > 2000, `only ${tried} events tried`);
});

Deno.test("a refused event says which field and what was expected", () => {
  const result = AUDIT_CATALOGUE["session.start"].safeParse({ face: "sandbox", pid: 1.5, cwd: 3 });
  assert(!result.success);
  assertEquals(result.error.issues, [
    { path: ["pid"], message: "expected a whole number" },
    { path: ["cwd"], message: "expected a string" },
  ]);
});

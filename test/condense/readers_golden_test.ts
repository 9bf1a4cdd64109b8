/**
 * Every reader over every fixture log (and over all of them one after
 * another, with noise, CRLF and colour between): the findings, the lines
 * accounted for and the readers that recognised something must be exactly
 * what the committed golden file records (readers_golden.ts made it from the
 * readers before their speed work). A change of findings fails here, naming
 * the log and the part that differs.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { computeGolden, fixtureLogNames, GOLDEN } from "./readers_golden.ts";

Deno.test("every reader over every fixture log gives exactly the recorded findings and marks", () => {
  const want = JSON.parse(Deno.readTextFileSync(GOLDEN)) as Record<string, Record<string, unknown>>;
  const got = JSON.parse(JSON.stringify(computeGolden())) as Record<
    string,
    Record<string, unknown>
  >;
  assertEquals(
    Object.keys(got).sort(),
    Object.keys(want).sort(),
    "the set of fixture logs changed",
  );
  for (const name of Object.keys(want)) {
    for (const part of Object.keys(want[name])) {
      assertEquals(got[name][part], want[name][part], `${name}: ${part} differs`);
    }
  }
});

Deno.test("the golden file is not trivially empty: failing logs have findings, readers ran alone", () => {
  const want = JSON.parse(Deno.readTextFileSync(GOLDEN)) as Record<
    string,
    { all: { findings: unknown[] }; each: Record<string, unknown> }
  >;
  assert(fixtureLogNames().length >= 60);
  const withFindings = Object.values(want).filter((v) => v.all.findings.length > 0).length;
  assert(withFindings >= 40, `only ${withFindings} logs with findings`);
  const readersSeen = new Set(Object.values(want).flatMap((v) => Object.keys(v.each)));
  assert(readersSeen.size >= 18, `only ${readersSeen.size} readers recognised anything`);
});

/**
 * Reading the captured fixture logs as triage does: each with the exit status
 * exits.tsv records for it, and a check that a log gives exactly the findings
 * expected (kind, place, test and a piece of the message).
 */
import { assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type TriageResult, triageText } from "../../src/condense/triage.ts";
import type { Finding } from "../../src/condense/findings.ts";

export const FIXTURES = fileURLToPath(new URL("../fixtures/condense/", import.meta.url));

/** The exit status exits.tsv records for a fixture log (`tool/name.log`). */
export function exitOf(name: string): number {
  const [dir, file] = name.split("/");
  const rows = Deno.readTextFileSync(join(FIXTURES, dir, "exits.tsv")).split("\n");
  const row = rows.find((r) => r.split("\t")[0] === file.replace(/\.log$/, ""));
  if (!row) throw new Error(`${name} has no row in exits.tsv`);
  return Number(row.split("\t")[1]);
}

/** Triage of a fixture log with its recorded exit status. */
export function triageFixture(name: string): TriageResult {
  return triageText(Deno.readTextFileSync(join(FIXTURES, name)), {
    exitStatus: exitOf(name),
    cap: 500,
  });
}

/** [kind, location, test, a piece of the message] — location and test exactly as the tool printed them. */
export type Want = [Finding["kind"], string | undefined, string | undefined, string];

export function brief(findings: Finding[]): string {
  return findings.map((f) =>
    `${f.kind} ${f.location ?? "-"} ${f.file ? f.file + " " : ""}${f.test ?? "-"} | ${f.message}`
  ).join("\n");
}

/** The log's findings are exactly these (in any order), each once. */
export function expectFindings(name: string, want: Want[]): Finding[] {
  const got = triageFixture(name).findings;
  assertEquals(got.length, want.length, `${name}: expected ${want.length}, got:\n${brief(got)}`);
  for (const [kind, location, test, piece] of want) {
    const here = got.filter((f) =>
      f.kind === kind && f.location === location && f.test === test && f.message.includes(piece)
    );
    assert(
      here.length === 1,
      `${name}: no single ${kind} at ${location} for ${test} saying "${piece}"; got:\n${
        brief(got)
      }`,
    );
  }
  return got;
}

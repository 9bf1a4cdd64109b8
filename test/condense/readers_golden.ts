/**
 * What the exact readers make of every fixture log, as one JSON value: the
 * findings `readAll` gives (in full, detail included), which lines it marked
 * as accounted for, which readers recognised something, and the same for
 * each reader run alone. readers_golden_test.ts compares the current code
 * against the committed value, so work on the readers' speed provably
 * changes no finding.
 *
 * Regenerate only when a change of findings is intended (and say so in the
 * commit): deno run -A test/condense/readers_golden.ts --write
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FAILED_RUN_READERS, readAll, READERS } from "../../src/condense/readers/index.ts";
import { computeShape, type ReadContext } from "../../src/condense/readers/reader.ts";
import { outputLines } from "../../src/condense/normalise.ts";
import { triageText } from "../../src/condense/triage.ts";

export const FIXTURES = fileURLToPath(new URL("../fixtures/condense/", import.meta.url));
export const GOLDEN = fileURLToPath(new URL("./golden/readers.json", import.meta.url));

/** Every fixture log, as `tool/name.log`, sorted. */
export function fixtureLogNames(): string[] {
  const names: string[] = [];
  for (const dir of Deno.readDirSync(FIXTURES)) {
    if (!dir.isDirectory) continue;
    for (const f of Deno.readDirSync(join(FIXTURES, dir.name))) {
      if (f.isFile && f.name.endsWith(".log")) names.push(`${dir.name}/${f.name}`);
    }
  }
  return names.sort();
}

/** Marked line indexes as `a-b` ranges: compact and readable in a diff. */
function ranges(marks: Uint8Array): string {
  const out: string[] = [];
  for (let i = 0; i < marks.length; i++) {
    if (marks[i] !== 1) continue;
    let j = i;
    while (j + 1 < marks.length && marks[j + 1] === 1) j++;
    out.push(i === j ? `${i}` : `${i}-${j}`);
    i = j;
  }
  return out.join(",");
}

/** One reader alone over the lines: its findings and the lines it accounted for. */
function alone(name: string, lines: string[]): { findings: unknown[]; marks: string } {
  const reader = READERS.find((r) => r.name === name)!;
  const marks = new Uint8Array(lines.length);
  const ctx: ReadContext = {
    explain(from: number, to: number = from) {
      for (let k = Math.max(0, from); k <= Math.min(to, lines.length - 1); k++) marks[k] = 1;
    },
    explained: (i: number) => marks[i] === 1,
    shape: computeShape(lines),
  };
  const findings = reader.read(lines, ctx);
  return { findings, marks: ranges(marks) };
}

function readWhole(text: string, skipCrash: boolean) {
  const r = readAll(text, skipCrash ? { skip: FAILED_RUN_READERS } : {});
  return { findings: r.findings, marks: ranges(r.marks), readers: r.readers };
}

/** A log of every fixture one after another, and one with CRLF ends, colour and noise interleaved. */
export function combinedLogs(): Record<string, string> {
  const logs = fixtureLogNames().map((n) => Deno.readTextFileSync(join(FIXTURES, n)));
  const noisy = logs.map((log, i) =>
    [
      log,
      `2026-11-30T10:00:${
        String(i % 60).padStart(2, "0")
      }Z INFO request id=${i} status=200 error_count=0`,
      `\x1b[32mINFO\x1b[0m worker ${i} done\r`,
    ].join(i % 2 === 0 ? "\n" : "\r\n")
  );
  return { "all formats": logs.join("\n"), "noise, CRLF and colour": noisy.join("\n") };
}

export function computeGolden(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const texts: [string, string][] = fixtureLogNames().map((
    n,
  ) => [n, Deno.readTextFileSync(join(FIXTURES, n))]);
  for (const [name, text] of Object.entries(combinedLogs())) texts.push([name, text]);
  for (const [name, text] of texts) {
    const lines = outputLines(text);
    const each: Record<string, unknown> = {};
    for (const reader of READERS) {
      const r = alone(reader.name, lines);
      if (r.findings.length > 0 || r.marks !== "") each[reader.name] = r;
    }
    const t = triageText(text, { cap: 1000 });
    out[name] = {
      lines: lines.length,
      all: readWhole(text, false),
      exit0: readWhole(text, true),
      each,
      // The chunks follow from the marks above; their number and size say they were cut alike.
      triage: {
        headline: t.headline,
        findings: t.findings.length,
        unexplained: [t.unexplained.length, t.unexplained.reduce((n, c) => n + c.length, 0)],
      },
    };
  }
  return out;
}

if (import.meta.main) {
  const json = JSON.stringify(computeGolden(), null, 1) + "\n";
  if (Deno.args.includes("--write")) {
    Deno.writeTextFileSync(GOLDEN, json);
    console.log(`wrote ${json.length} characters`);
  } else {
    console.log(json.length);
  }
}

/**
 * Triage throughput: the exact readers (and the cutting of what they leave
 * into chunks) over 10 MiB logs, each beside a baseline in the same run:
 * splitting the same text into lines and looking at each once.
 *
 * - one row per tool: a 10 MiB log made of that tool's captured logs (a long
 *   run of one known format, as a real build or test run is);
 * - "all formats": every captured log of every tool, one after another (every
 *   reader finds work: the worst case for the readers);
 * - "mixed": the same with an equal share of service-log noise no reader knows.
 *
 * Goal: ≥ 50 MB/s on a log of known formats.
 *
 *   deno run -A bench/condense_bench.ts
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { triageText } from "../src/condense/triage.ts";

const FIXTURES = fileURLToPath(new URL("../test/fixtures/condense/", import.meta.url));
const TARGET = 10 * 1024 * 1024;

function fixtureLogs(only?: string): string[] {
  const logs: string[] = [];
  for (const dir of [...Deno.readDirSync(FIXTURES)].sort((a, b) => a.name.localeCompare(b.name))) {
    if (!dir.isDirectory || (only && dir.name !== only)) continue;
    for (
      const f of [...Deno.readDirSync(join(FIXTURES, dir.name))].sort((a, b) =>
        a.name.localeCompare(b.name)
      )
    ) {
      if (f.name.endsWith(".log")) {
        logs.push(Deno.readTextFileSync(join(FIXTURES, dir.name, f.name)));
      }
    }
  }
  return logs;
}

function knownLog(logs: string[]): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < TARGET; i++) {
    const log = logs[i % logs.length];
    parts.push(log);
    size += log.length + 1;
  }
  return parts.join("\n");
}

function noiseLine(i: number): string {
  const levels = ["INFO", "DEBUG", "WARN", "INFO", "INFO"];
  return `2026-11-30T10:${String(i % 60).padStart(2, "0")}:${
    String((i * 7) % 60).padStart(2, "0")
  }.${i % 1000}Z ${levels[i % 5]} ` +
    `request id=${(i * 2654435761 >>> 0).toString(16)} path=/api/items/${i % 977} status=${
      i % 13 === 0 ? 404 : 200
    } ` +
    `duration_ms=${(i * 31) % 500} retries=0 error_count=0 user=u${i % 311}`;
}

function mixedLog(logs: string[]): string {
  const parts: string[] = [];
  let size = 0;
  let n = 0;
  for (let i = 0; size < TARGET; i++) {
    const log = logs[i % logs.length];
    parts.push(log);
    size += log.length + 1;
    const noise: string[] = [];
    let added = 0;
    while (added < log.length) {
      const line = noiseLine(n++);
      noise.push(line);
      added += line.length + 1;
    }
    parts.push(noise.join("\n"));
    size += added;
  }
  return parts.join("\n");
}

/** The baseline: split into lines and look at each one once. */
function lineSplit(text: string): number {
  let n = 0;
  for (const line of text.split("\n")) if (line.length > 0 && line.charCodeAt(0) === 101) n++;
  return n;
}

/** Median milliseconds of each function, the two measured in alternation so that load on the machine hits both alike. */
function measurePair(a: () => unknown, b: () => unknown, rounds = 7): [number, number] {
  a();
  b();
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let t = performance.now();
    a();
    ta.push(performance.now() - t);
    t = performance.now();
    b();
    tb.push(performance.now() - t);
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return [median(ta), median(tb)];
}

const cases: [string, string][] = [];
for (const tool of ["cargo", "gcc", "go", "jest", "maven", "pytest", "node_test", "deno"]) {
  cases.push([tool, knownLog(fixtureLogs(tool))]);
}
const all = fixtureLogs();
cases.push(["all formats", knownLog(all)], ["mixed", mixedLog(all)]);
const rows: string[][] = [];
const speeds: number[] = [];
for (const [name, text] of cases) {
  const mb = new TextEncoder().encode(text).length / 1e6;
  // Triage reads every line of the log (scan.ts).
  const whole = { cap: 25 };
  const [readersMs, baseMs] = measurePair(() => triageText(text, whole), () => lineSplit(text));
  const r = triageText(text, whole);
  if (name !== "all formats" && name !== "mixed") speeds.push(mb / (readersMs / 1000));
  rows.push([
    name,
    `${mb.toFixed(1)} MB`,
    `${(mb / (readersMs / 1000)).toFixed(0)} MB/s`,
    `${(mb / (baseMs / 1000)).toFixed(0)} MB/s`,
    `${(readersMs / baseMs).toFixed(1)}x`,
    `${r.counts.errors + r.counts.test_failures + r.counts.warnings}`,
    `${r.unexplained.length}`,
  ]);
}
const header = [
  "log",
  "size",
  "triage (readers)",
  "line split",
  "triage/split time",
  "findings",
  "unexplained chunks",
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const fmt = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join("  ");
console.log(fmt(header));
for (const r of rows) console.log(fmt(r));
speeds.sort((a, b) => a - b);
console.log(
  `\none tool's log: median ${speeds[Math.floor(speeds.length / 2)].toFixed(0)} MB/s, slowest ${
    speeds[0].toFixed(0)
  } MB/s (goal 50)`,
);
console.log(
  `load average: ${
    Deno.loadavg().map((x) => x.toFixed(1)).join(" ")
  } on ${navigator.hardwareConcurrency} cores`,
);

/**
 * The fact book on the path of every request, beside baselines in the same
 * run:
 *
 *   - lines() of a book holding 500 current facts (what composition puts into
 *     each request), against joining 500 ready-made lines of the same text;
 *   - recording 10,000 tool observations (twenty distinct test commands, two
 *     results alternating, as a long session's commands give them), against
 *     the naive version of the same bookkeeping: the command line's words
 *     joined with single spaces as the key, and a Map.set.
 *
 * Goal: lines() within 20× of the join and under 1 ms; a recorded
 * observation within 30× of the naive bookkeeping.
 *
 *   deno run -A bench/facts_bench.ts
 */
import { FactBook, lineOf } from "../src/context/facts/book.ts";
import { resolveKinds } from "../src/context/facts/kinds.ts";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const kinds = resolveKinds([{ name: "ticket" }]);
const book = new FactBook({ kinds });
for (let i = 0; i < 500; i++) {
  book.record({
    subject: i % 2 === 0 ? "ticket" : "entity",
    name: `item ${i}`,
    value: `value number ${i} with a few words`,
    source: { by: "model", method: "noted", turn: 1 + (i % 40) },
  });
}
const ready = book.current().map(lineOf);

const join: number[] = [];
const lines: number[] = [];
for (let run = 0; run < 30; run++) {
  let start = performance.now();
  for (let k = 0; k < 20; k++) [...ready].join("\n");
  join.push((performance.now() - start) / 20);
  start = performance.now();
  for (let k = 0; k < 20; k++) book.lines().join("\n");
  lines.push((performance.now() - start) / 20);
}

const commands = Array.from({ length: 20 }, (_, i) => `deno test -A tests/part${i}`);
const mapSet: number[] = [];
const record: number[] = [];
for (let run = 0; run < 8; run++) {
  const map = new Map<string, string>();
  let start = performance.now();
  for (let i = 0; i < 10_000; i++) {
    const line = `cd repo && ${commands[i % 20]} 2>&1 | tail -3`;
    map.set(`tests\u0000${line.trim().split(/\s+/).join(" ")}`, i % 3 === 0 ? "passed" : "failed");
  }
  mapSet.push(performance.now() - start);
  const observed = new FactBook({ kinds });
  start = performance.now();
  for (let i = 0; i < 10_000; i++) {
    observed.record({
      subject: "tests",
      name: `cd repo && ${commands[i % 20]} 2>&1 | tail -3`,
      value: i % 3 === 0 ? "passed (exit 0)" : "failed (exit 1)",
      source: { by: "tool", method: "observed", tool: "run_command", turn: i, entry: i },
    });
  }
  record.push(performance.now() - start);
}

const j = median(join.slice(1));
const l = median(lines.slice(1));
const m = median(mapSet.slice(1));
const r = median(record.slice(1));
console.log(`| measure | median |`);
console.log(`| --- | --- |`);
console.log(`| join 500 ready lines (baseline) | ${(j * 1000).toFixed(0)} µs |`);
console.log(`| book.lines() of 500 facts | ${(l * 1000).toFixed(0)} µs |`);
console.log(`| 10,000 naive keys and Map.set (baseline) | ${m.toFixed(2)} ms |`);
console.log(`| 10,000 observations recorded | ${r.toFixed(2)} ms |`);
console.log(
  `ratio lines / join: ${(l / j).toFixed(1)}× (goal ≤ 20×, and under 1 ms: ${
    l < 1 ? "yes" : "no"
  })`,
);
console.log(`ratio record / naive: ${(r / m).toFixed(1)}× (goal ≤ 30×)`);

/**
 * json_shape over a 15 MiB JSON Lines file, beside a baseline in the same
 * run: JSON.parse of every line and nothing else (the part no shape reader
 * can avoid). Reported as MB/s and the ratio of json_shape's time to the
 * baseline's.
 *
 * Goal: json_shape within 3× of parsing alone.
 *
 *   deno run -A bench/json_shape_bench.ts
 */
import { jsonShape } from "../src/condense/json_shape.ts";

function records(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = JSON.stringify({
      id: i,
      kind: `k${i % 5}`,
      tags: ["a", "b", `t${i % 3}`],
      at: { day: i % 28, note: i % 2 === 0 ? null : "text of a middling length" },
      ...(i % 7 === 0 ? { extra: { nested: [i, i + 1], flag: i % 2 === 0 } } : {}),
    });
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const text = records(15 * 1024 * 1024);
const mb = text.length / 1e6;
const parse: number[] = [];
const shape: number[] = [];
for (let run = 0; run < 6; run++) {
  let start = performance.now();
  for (const line of text.split("\n")) JSON.parse(line);
  parse.push(performance.now() - start);
  start = performance.now();
  jsonShape(text);
  shape.push(performance.now() - start);
}
// The first run warms the JIT; the median of the rest is reported.
const p = median(parse.slice(1));
const s = median(shape.slice(1));
console.log(`| measure | median | MB/s |`);
console.log(`| --- | --- | --- |`);
console.log(
  `| JSON.parse of each line (baseline) | ${p.toFixed(0)} ms | ${(mb / (p / 1000)).toFixed(0)} |`,
);
console.log(`| json_shape | ${s.toFixed(0)} ms | ${(mb / (s / 1000)).toFixed(0)} |`);
console.log(`ratio json_shape / baseline: ${(s / p).toFixed(2)}× (goal ≤ 3×)`);

/**
 * The gate's speed: Gate.check on every line of the shipped labelled set,
 * without asking (threshold never, so policy, parse and rules all run), beside
 * a baseline in the same run: tree-sitter parsing the same line and nothing
 * else. Prints lines per second, the median and p99 per line, the ratio to
 * the baseline, and the over-rating rate on the set's safe lines.
 *
 *   deno run -A bench/gate_bench.ts [--rounds N]
 */
import { createRequire } from "node:module";
import { Language, Parser } from "web-tree-sitter";
import { Gate } from "../src/gate/gate.ts";
import { parseExamples, percentile } from "../src/gate/measure.ts";
import { homePaths } from "../src/config/home.ts";
import { configSchema } from "../src/config/schema.ts";
import type { AuditSink } from "../src/audit/writer.ts";

const roundsArg = Deno.args.indexOf("--rounds");
const ROUNDS = roundsArg >= 0 ? Number(Deno.args[roundsArg + 1]) : 5;
const file = new URL("../test/fixtures/gate/examples.tsv", import.meta.url).pathname;
const examples = parseExamples(Deno.readTextFileSync(file), file);

const home = await Deno.makeTempDir({ prefix: "wisp-gate-bench-" });
const nullAudit: AuditSink = { session: "bench", record: () => ({}) as never };
const gate = new Gate({
  config: configSchema.parse({ approval: { threshold: "never" } }),
  home: homePaths(`${home}/.wisp`),
  audit: nullAudit,
});
const ctx = { cwd: Deno.cwd(), root: Deno.cwd(), origin: "model" as const };

// Baseline: the bare parser on the same lines.
const require = createRequire(import.meta.url);
await Parser.init();
const parser = new Parser();
parser.setLanguage(await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm")));

async function time(run: (line: string) => unknown | Promise<unknown>): Promise<number[]> {
  const all: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const e of examples) {
      const started = performance.now();
      await run(e.line);
      all.push((performance.now() - started) * 1000);
    }
  }
  return all;
}

// Warm both up.
for (const e of examples) {
  await gate.check(e.line, ctx);
  parser.parse(e.line)?.delete();
}
const base = await time((line) => parser.parse(line)?.delete());
const checked = await time((line) => gate.check(line, ctx));

// Over-rating on safe lines, from the rules' verdicts.
let safeLines = 0;
let safeOver = 0;
for (const e of examples) {
  if (e.label !== "safe") continue;
  safeLines++;
  const d = await gate.check(e.line, ctx);
  if (!d.allowed || d.level !== "safe") safeOver++;
}

function stats(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  return {
    perSecond: times.length / (total / 1e6),
    median: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}
const b = stats(base);
const g = stats(checked);
/** Each line's median over the rounds: robust to a round's preemption on a busy machine. */
function perLineMedians(times: number[]): number[] {
  const n = examples.length;
  return examples.map((_, i) => {
    const mine = Array.from({ length: ROUNDS }, (_, r) => times[r * n + i]).sort((x, y) => x - y);
    return mine[Math.floor(mine.length / 2)];
  }).sort((x, y) => x - y);
}
const gLines = perLineMedians(checked);
const bLines = perLineMedians(base);
const row = (name: string, s: ReturnType<typeof stats>, ratio: string) =>
  `${name.padEnd(30)} ${s.perSecond.toFixed(0).padStart(9)} ${s.median.toFixed(1).padStart(10)} ${
    s.p99.toFixed(1).padStart(10)
  } ${ratio.padStart(8)}`;
console.log(
  `${examples.length} lines × ${ROUNDS} rounds (load average ${
    Deno.loadavg().map((x) => x.toFixed(2)).join(" ")
  })`,
);
console.log(
  `${"".padEnd(30)} ${"lines/s".padStart(9)} ${"median µs".padStart(10)} ${"p99 µs".padStart(10)} ${
    "×base".padStart(8)
  }`,
);
console.log(row("baseline: tree-sitter parse", b, "1.0"));
console.log(row("Gate.check (no asking)", g, (g.median / b.median).toFixed(1)));
console.log(
  `per-line medians over the rounds: baseline p99 ${
    percentile(bLines, 99).toFixed(1)
  } µs, Gate.check p99 ${percentile(gLines, 99).toFixed(1)} µs, slowest line ${
    gLines[gLines.length - 1].toFixed(1)
  } µs`,
);
console.log(`goal: median ≤ 100 µs, p99 ≤ 1000 µs`);
console.log(
  `over-rating on safe lines: ${safeOver} of ${safeLines} (${
    ((100 * safeOver) / Math.max(1, safeLines)).toFixed(1)
  } %)`,
);
await Deno.remove(home, { recursive: true });

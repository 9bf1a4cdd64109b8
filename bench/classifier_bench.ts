/**
 * The trained classifier's speed: the time of one verdict (features from the
 * gate's analysis, then the weights) on every part of the shipped labelled
 * set that the gate would send it, beside the rules alone (parse, policy and
 * rules on the whole line) in the same run. Prints the median and p99 of
 * each, the verdict's ratio to the rules, and the goal (a verdict ≤ 200 µs).
 *
 *   deno run -A bench/classifier_bench.ts [--rounds N]
 */
import { Gate } from "../src/gate/gate.ts";
import { parseExamples, percentile } from "../src/gate/measure.ts";
import { homePaths } from "../src/config/home.ts";
import { configSchema } from "../src/config/schema.ts";
import type { PartVerdict } from "../src/gate/rules.ts";
import { TrainedClassifier } from "../src/gate/trained/classifier.ts";
import { bundledDefault, defaultVersion } from "../src/gate/trained/store.ts";

const roundsArg = Deno.args.indexOf("--rounds");
const ROUNDS = roundsArg >= 0 ? Number(Deno.args[roundsArg + 1]) : 10;
const WARMUP = 3;
const GOAL_MICROS = 200;
const file = new URL("../test/fixtures/gate/examples.tsv", import.meta.url).pathname;
const examples = parseExamples(Deno.readTextFileSync(file), file);

const tmp = await Deno.makeTempDir({ prefix: "wisp-classifier-bench-" });
const userHome = Deno.env.get("HOME") ?? "/";
const gate = new Gate({
  config: configSchema.parse({ approval: { classifier: "rules", threshold: "never" } }),
  home: homePaths(`${tmp}/.wisp`),
  audit: { session: "bench", record: () => ({}) as never },
});
const classifier = new TrainedClassifier(
  "coreml",
  defaultVersion(),
  bundledDefault().weights,
  userHome,
);
const cwd = Deno.cwd();

// The parts the gate would send: neither read-only nor dangerous already.
const open: Array<{ line: string; part: PartVerdict }> = [];
for (const e of examples) {
  const a = await gate.assess(e.line, { cwd, origin: "model" });
  for (const part of a.parts) {
    if (!part.readOnly && part.level !== "dangerous") open.push({ line: e.line, part });
  }
}

async function timeRules(): Promise<number[]> {
  const out: number[] = [];
  for (const e of examples) {
    const started = performance.now();
    await gate.assess(e.line, { cwd, origin: "model" });
    out.push((performance.now() - started) * 1000);
  }
  return out;
}

function timeVerdicts(): number[] {
  const out: number[] = [];
  for (const { line, part } of open) {
    const started = performance.now();
    classifier.judge({
      command: part.command,
      argv: part.argv,
      line,
      cwd,
      root: cwd,
      rulesLevel: part.level,
      verdict: part,
    });
    out.push((performance.now() - started) * 1000);
  }
  return out;
}

for (let i = 0; i < WARMUP; i++) {
  await timeRules();
  timeVerdicts();
}
const rules: number[] = [];
const verdicts: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  rules.push(...await timeRules());
  verdicts.push(...timeVerdicts());
}
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const r = sorted(rules);
const v = sorted(verdicts);
const rMedian = percentile(r, 50);
const vMedian = percentile(v, 50);
const row = (name: string, n: number, median: number, p99: number, ratio: string) =>
  console.log(
    `${name.padEnd(34)} ${String(n).padStart(6)}  median ${median.toFixed(1).padStart(7)} µs  p99 ${
      p99.toFixed(1).padStart(8)
    } µs  ${ratio}`,
  );
console.log(
  `${examples.length} lines, ${open.length} parts sent to the classifier, ${ROUNDS} rounds`,
);
row("rules alone, per line (baseline)", examples.length, rMedian, percentile(r, 99), "1.00×");
row(
  "trained verdict, per part",
  open.length,
  vMedian,
  percentile(v, 99),
  `${(vMedian / rMedian).toFixed(2)}× the rules`,
);
console.log(
  `goal: a trained verdict ≤ ${GOAL_MICROS} µs — median ${
    vMedian <= GOAL_MICROS ? "meets it" : "misses it"
  }, p99 ${percentile(v, 99) <= GOAL_MICROS ? "meets it" : "misses it"}`,
);
await Deno.remove(tmp, { recursive: true });

/**
 * The gate's speed: Gate.check on every line of the shipped labelled set,
 * without asking, beside a baseline in the same run: tree-sitter parsing the
 * same line and nothing else. Prints lines per second, the median and p99 per
 * line, the ratio to the baseline, and the over-rating rate on the set's safe
 * lines.
 *
 * Rows:
 *  - threshold never (policy, parse and rules run; nothing is looked up),
 *    with no audit log, with a disabled one, and with one that writes;
 *  - threshold moderate with no host: every part at or above moderate looks
 *    for a remembered approval in approvals.json, then is refused (never asked).
 *
 * The first pass over the set runs while V8 is still compiling the gate's code
 * on its background threads; it is shown on its own line ("cold") and the
 * measured rounds start after WARMUP passes. Per line, the bench also keeps
 * the median and the p99 over the rounds: a line slow in most rounds is slow,
 * a line slow in one round was preempted or met a garbage collection.
 *
 *   deno run -A bench/gate_bench.ts [--rounds N]
 */
import { createRequire } from "node:module";
import { Language, Parser } from "web-tree-sitter";
import { Gate, type GateContext } from "../src/gate/gate.ts";
import { parseExamples, percentile } from "../src/gate/measure.ts";
import { homePaths } from "../src/config/home.ts";
import { configSchema } from "../src/config/schema.ts";
import { AuditLog, type AuditSink } from "../src/audit/writer.ts";

const roundsArg = Deno.args.indexOf("--rounds");
const ROUNDS = roundsArg >= 0 ? Number(Deno.args[roundsArg + 1]) : 10;
const WARMUP = 5;
const file = new URL("../test/fixtures/gate/examples.tsv", import.meta.url).pathname;
const examples = parseExamples(Deno.readTextFileSync(file), file);

const tmp = await Deno.makeTempDir({ prefix: "wisp-gate-bench-" });
const home = homePaths(`${tmp}/.wisp`);
// A real home, as wisp has one: the policy resolves it through links on every write.
Deno.mkdirSync(home.root, { recursive: true, mode: 0o700 });
const nullAudit: AuditSink = { session: "bench", record: () => ({}) as never };
const auditLog = (enabled: boolean) =>
  new AuditLog({ path: home.auditLog, enabled, maxBytes: 64 * 1024 * 1024, keep: 1 });
const never = configSchema.parse({ approval: { threshold: "never" } });
const moderate = configSchema.parse({ approval: { threshold: "moderate" } });
const ctx: GateContext = { cwd: Deno.cwd(), root: Deno.cwd(), origin: "model" };

// Baseline: the bare parser on the same lines.
const require = createRequire(import.meta.url);
await Parser.init();
const parser = new Parser();
parser.setLanguage(await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm")));

/** One timing per line per round, round-major. */
async function time(
  run: (line: string) => unknown | Promise<unknown>,
): Promise<{ cold: number[]; times: number[] }> {
  const pass = async () => {
    const out: number[] = [];
    for (const e of examples) {
      const started = performance.now();
      await run(e.line);
      out.push((performance.now() - started) * 1000);
    }
    return out;
  };
  const cold = await pass();
  for (let i = 1; i < WARMUP; i++) await pass();
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) times.push(...await pass());
  return { cold, times };
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

/** Each line's median and p99 over the rounds. */
function perLine(times: number[]) {
  const n = examples.length;
  return examples.map((e, i) => {
    const mine = Array.from({ length: ROUNDS }, (_, r) => times[r * n + i]).sort((x, y) => x - y);
    return {
      line: e.line,
      median: percentile(mine, 50),
      p99: percentile(mine, 99),
      over1ms: mine.filter((t) => t > 1000).length,
    };
  });
}

const rows: { name: string; cold: number[]; times: number[] }[] = [];
const base = await time((line) => parser.parse(line)?.delete());
rows.push({ name: "baseline: tree-sitter parse", ...base });
const variants: [string, () => Gate][] = [
  ["Gate.check, no audit", () => new Gate({ config: never, home, audit: nullAudit })],
  ["Gate.check, audit disabled", () => new Gate({ config: never, home, audit: auditLog(false) })],
  ["Gate.check, audit written", () => new Gate({ config: never, home, audit: auditLog(true) })],
  [
    "Gate.check, moderate, no host",
    () => new Gate({ config: moderate, home, audit: nullAudit }),
  ],
];
const gates: Gate[] = [];
for (const [name, make] of variants) {
  const gate = make();
  gates.push(gate);
  rows.push({ name, ...await time((line) => gate.check(line, ctx)) });
}

// Over-rating on safe lines, from the rules' verdicts.
let safeLines = 0;
let safeOver = 0;
for (const e of examples) {
  if (e.label !== "safe") continue;
  safeLines++;
  const d = await gates[0].check(e.line, ctx);
  if (!d.allowed || d.level !== "safe") safeOver++;
}

const b = stats(base.times);
const num = (x: number, w = 10, digits = 1) => x.toFixed(digits).padStart(w);
console.log(
  `${examples.length} lines × ${ROUNDS} rounds after ${WARMUP} warm-up passes (load average ${
    Deno.loadavg().map((x) => x.toFixed(2)).join(" ")
  })`,
);
console.log(
  `${"".padEnd(31)} ${"lines/s".padStart(9)} ${"median µs".padStart(10)} ${"p99 µs".padStart(10)} ${
    "×base".padStart(6)
  } ${"cold p99".padStart(9)} ${"line p99".padStart(9)} ${"slow lines".padStart(10)}`,
);
for (const r of rows) {
  const s = stats(r.times);
  const lines = perLine(r.times);
  const medians = lines.map((l) => l.median).sort((x, y) => x - y);
  // A line is slow when it takes over 1 ms in more than half of the rounds.
  const slow = lines.filter((l) => l.over1ms > ROUNDS / 2).length;
  console.log(
    `${r.name.padEnd(31)} ${s.perSecond.toFixed(0).padStart(9)} ${num(s.median)} ${num(s.p99)} ${
      num(s.median / b.median, 6)
    } ${num(stats(r.cold).p99, 9, 0)} ${num(percentile(medians, 99), 9)} ${
      String(slow).padStart(10)
    }`,
  );
}
console.log(
  `line p99: the p99 over lines of each line's median over the rounds; slow lines: over 1 ms in most rounds`,
);
const first = perLine(rows[1].times).sort((x, y) => y.median - x.median).slice(0, 5);
console.log(`slowest lines (Gate.check, no audit), median and p99 over the rounds:`);
for (const l of first) {
  console.log(
    `  ${num(l.median, 7, 0)} ${num(l.p99, 7, 0)} µs  ${l.line.replace(/\n/g, "\\n").slice(0, 70)}`,
  );
}
console.log(`goal: median ≤ 100 µs, p99 ≤ 1000 µs`);
console.log(
  `over-rating on safe lines: ${safeOver} of ${safeLines} (${
    ((100 * safeOver) / Math.max(1, safeLines)).toFixed(1)
  } %)`,
);
await Deno.remove(tmp, { recursive: true });

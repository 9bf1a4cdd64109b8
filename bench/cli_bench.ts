/**
 * Start-up and audit throughput (issue: foundation).
 *
 * - `wisp --version` and `wisp config` wall time, each as a ratio to
 *   `deno run` of an empty module under the same permission set (goal ≤ 1.3×).
 * - Audit appends per second from 1 process and from 8 at once (goal ≥ 50,000/s
 *   from 1), beside a baseline of the same lines appended with plain writeSync.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AuditLog } from "../src/audit/writer.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CONFIG = join(ROOT, "deno.json");
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 21);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeCommand(args: string[], env: Record<string, string>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const start = performance.now();
    const out = await new Deno.Command(Deno.execPath(), {
      args,
      env,
      stdout: "null",
      stderr: "piped",
    }).output();
    const elapsed = performance.now() - start;
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    if (i >= 2) samples.push(elapsed); // two warm-up runs
  }
  return median(samples);
}

const home = await Deno.makeTempDir({ prefix: "wisp-bench-" });
const empty = join(home, "empty.ts");
Deno.writeTextFileSync(empty, "");
const base = ["run", "-q", "-P=wisp", "--config", CONFIG];
const env = { WISP_HOME: join(home, "home"), NO_COLOR: "1" };

const emptyMs = await timeCommand([...base, empty], env);
const versionMs = await timeCommand([...base, join(ROOT, "main.ts"), "--version"], env);
const configMs = await timeCommand([...base, join(ROOT, "main.ts"), "config"], env);

console.log("start-up (median of %d runs)", RUNS);
console.log("  deno run empty module   %s ms   1.00×", emptyMs.toFixed(1));
console.log(
  "  wisp --version          %s ms   %s×  (goal ≤ 1.3×)",
  versionMs.toFixed(1),
  (versionMs / emptyMs).toFixed(2),
);
console.log(
  "  wisp config             %s ms   %s×  (goal ≤ 1.3×)",
  configMs.toFixed(1),
  (configMs / emptyMs).toFixed(2),
);

// Audit appends from one process.
const EVENTS = 100_000;
const auditPath = join(home, "one", "audit.jsonl");
const log = new AuditLog({ path: auditPath, enabled: true, maxBytes: 1 << 30, keep: 5 });
let start = performance.now();
for (let i = 0; i < EVENTS; i++) {
  log.record("command.outcome", { command: `git status ${i}`, exitStatus: 0, origin: "model" });
}
const auditSeconds = (performance.now() - start) / 1000;
log.close();
const sample = Deno.readTextFileSync(auditPath).split("\n")[0] + "\n";

const rawPath = join(home, "raw.jsonl");
const raw = Deno.openSync(rawPath, { append: true, create: true });
const bytes = new TextEncoder().encode(sample);
start = performance.now();
for (let i = 0; i < EVENTS; i++) raw.writeSync(bytes);
const rawSeconds = (performance.now() - start) / 1000;
raw.close();

// Eight processes at once.
const worker = join(ROOT, "test/fixtures/audit/append_worker.ts");
const eightPath = join(home, "eight", "audit.jsonl");
const PER = 20_000;
start = performance.now();
await Promise.all(Array.from({ length: 8 }, () =>
  new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", worker, eightPath, String(PER), String(1 << 30), "5"],
    stdout: "null",
  }).output()));
const eightSeconds = (performance.now() - start) / 1000;
const eightLines = Deno.readTextFileSync(eightPath).split("\n").filter(Boolean).length;

console.log("audit appends");
console.log(
  "  plain writeSync of the same line  %s /s",
  Math.round(EVENTS / rawSeconds).toLocaleString("en"),
);
console.log(
  "  AuditLog.record, 1 process        %s /s   %s× the plain write  (goal ≥ 50,000/s)",
  Math.round(EVENTS / auditSeconds).toLocaleString("en"),
  (rawSeconds / auditSeconds).toFixed(2),
);
console.log(
  "  AuditLog.record, 8 processes      %s /s in all (%s lines, none lost: %s; includes process start-up)",
  Math.round((8 * PER) / eightSeconds).toLocaleString("en"),
  eightLines,
  eightLines === 8 * PER,
);
await Deno.remove(home, { recursive: true });

/**
 * Triage of logs of very many findings (test/support/many_findings_log.ts),
 * beside the 100 MB verbose test log with one failure in the middle
 * (test/support/big_log.ts) in the same run: MB/s of each, and each log's
 * MB/s as a fraction of the one-failure log's. A scan whose time per finding
 * is bounded reads a log of 300,000 distinct findings at a speed of the same
 * order as a log of one (the bookkeeping of kept, counted and remembered
 * findings grows with nothing but what is kept).
 *
 * Each side runs in a process of its own; the sides alternate, three rounds,
 * and the spread of the rounds is printed with the load average.
 *
 *   deno run -A bench/triage_many_findings_bench.ts [findings, default 300000]
 */
import { join } from "node:path";
import { writeBigLog } from "../test/support/big_log.ts";
import { type ManyFindingsShape, writeManyFindingsLog } from "../test/support/many_findings_log.ts";

const ROUNDS = 3;

/** One side, in this process: prints the milliseconds its scan took. */
async function child(path: string): Promise<void> {
  const { TriageScanner } = await import("../src/condense/scan.ts");
  // Warm up the code paths on a few lines before the clock starts.
  const warm = new TriageScanner();
  warm.pushText(
    "a.c:1:2: warning: unused variable 'x' [-Wunused-variable]\n--- FAIL: TestW (0.00s)\n",
  );
  warm.end();
  const file = await Deno.open(path);
  const buf = new Uint8Array(64 * 1024);
  const started = performance.now();
  const scanner = new TriageScanner();
  for (;;) {
    const n = await file.read(buf);
    if (n === null) break;
    scanner.pushBytes(buf.subarray(0, n));
  }
  const scanned = scanner.end();
  const ms = performance.now() - started;
  file.close();
  const found = scanned.findings.length + scanned.overflow.errors + scanned.overflow.warnings +
    scanned.overflow.test_failures;
  console.log(JSON.stringify({ ms, found }));
}

async function side(path: string): Promise<{ ms: number; found: number }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, "--child", path],
    stdin: "null",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`the scan of ${path} failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!);
}

if (Deno.args[0] === "--child") {
  await child(Deno.args[1]);
} else {
  const count = Number(Deno.args[0] ?? 300_000);
  const dir = Deno.makeTempDirSync({ prefix: "wisp-bench-" });
  try {
    const logs: { name: string; path: string; bytes: number }[] = [];
    const oneFailure = join(dir, "one-failure.log");
    logs.push({
      name: "100 MB, one failure",
      path: oneFailure,
      bytes: writeBigLog(oneFailure, 100e6),
    });
    const shapes: ManyFindingsShape[] = ["distinct-warnings", "one-message", "test-failures"];
    for (const shape of shapes) {
      const path = join(dir, `${shape}.log`);
      logs.push({
        name: `${count} ${shape}`,
        path,
        bytes: writeManyFindingsLog(path, shape, count),
      });
    }
    const rates: number[][] = logs.map(() => []);
    const found: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < logs.length; k++) {
        const r = await side(logs[k].path);
        rates[k].push(logs[k].bytes / 1e6 / (r.ms / 1000));
        found[k] = r.found;
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const base = median(rates[0]);
    console.log("| log | MB | findings | MB/s (median) | spread | of the one-failure log |");
    console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (let k = 0; k < logs.length; k++) {
      const m = median(rates[k]);
      console.log(
        `| ${logs[k].name} | ${(logs[k].bytes / 1e6).toFixed(0)} | ${found[k]} | ${
          m.toFixed(1)
        } | ${Math.min(...rates[k]).toFixed(1)}–${Math.max(...rates[k]).toFixed(1)} | ${
          (m / base).toFixed(2)
        } |`,
      );
    }
    console.log(
      `load average: ${
        Deno.loadavg().map((x) => x.toFixed(1)).join(" ")
      } on ${navigator.hardwareConcurrency} cores`,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

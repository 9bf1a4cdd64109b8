/**
 * Triage over a 100 MB verbose test log with one failure in the middle
 * (test/support/big_log.ts), every byte through the exact readers
 * (src/condense/scan.ts), beside a baseline in the same run: reading the same
 * file, decoding it and cutting it into lines, holding a window of lines as
 * the scan does. Each side runs in a process of its own, so its peak RSS
 * (VmHWM, Linux) is its own.
 *
 * Prints MB/s of each and their ratio, the peak RSS growth of each over the
 * process's size before it started reading, and whether the failure was
 * found. Goals: ≥ 50 MB/s; peak RSS growth ≤ 64 MiB (aimed at: ≥ 70 MB/s and
 * ≤ 48 MiB on a quiet machine, ADR 0684). Also, for each side, MB/s of the
 * process's CPU time (steadier than the wall clock on a loaded machine) and
 * the size V8's young generation had grown to by the end (what drives the
 * peak: ADR 0650).
 *
 * A third side runs the same scan in a process whose young generation is
 * held to BOUNDED_SEMI_SPACE_MIB per semi-space (a V8 flag of the whole
 * process, which wisp does not set today): the row that shows what that flag
 * would do to the peak and the speed (ADR 0684).
 *
 *   deno run -A bench/triage_stream_bench.ts [size in MB, default 100]
 */
import { join } from "node:path";
import process from "node:process";
import v8 from "node:v8";
import { PLANTED, writeBigLog } from "../test/support/big_log.ts";

/** The semi-space bound the third side runs with (MiB): V8's default grows to 16 under a long scan. */
const BOUNDED_SEMI_SPACE_MIB = 8;

interface Side {
  ms: number;
  growthMiB: number;
  found?: boolean;
  /** CPU time of the process while reading (all its threads: the collector's too). */
  cpuMs: number;
  /** V8's new space at the end. */
  youngMiB: number;
}

function statusKiB(field: string): number {
  const m = new RegExp(`${field}:\\s+(\\d+)`).exec(Deno.readTextFileSync("/proc/self/status"));
  return m ? Number(m[1]) : NaN;
}

/** One side, in this process: prints its Side as JSON. */
async function child(kind: string, path: string): Promise<void> {
  const { TriageScanner } = await import("../src/condense/scan.ts");
  // Warm up the code paths on a few lines before the size is taken.
  const warm = new TriageScanner();
  warm.pushText("=== RUN   TestWarm\n--- PASS: TestWarm (0.00s)\n");
  warm.end();
  const before = statusKiB("VmRSS");
  const cpuBefore = process.cpuUsage();
  const file = await Deno.open(path);
  const buf = new Uint8Array(64 * 1024);
  const started = performance.now();
  let found: boolean | undefined;
  if (kind === "scan") {
    const scanner = new TriageScanner();
    for (;;) {
      const n = await file.read(buf);
      if (n === null) break;
      scanner.pushBytes(buf.subarray(0, n));
    }
    const scanned = scanner.end();
    found = scanned.findings.some((f) =>
      f.test === PLANTED.test && f.location === PLANTED.location
    );
  } else {
    // The baseline: decode, cut into lines, hold about a window of them, look at each once.
    const decoder = new TextDecoder();
    let window: string[] = [];
    let chars = 0;
    let seen = 0;
    for (;;) {
      const n = await file.read(buf);
      if (n === null) break;
      for (const line of decoder.decode(buf.subarray(0, n), { stream: true }).split("\n")) {
        window.push(line);
        chars += line.length + 1;
        if (line.charCodeAt(0) === 45) seen++;
        if (chars > 4 * 1024 * 1024) {
          window = [];
          chars = 0;
        }
      }
    }
    found = seen > 0;
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  file.close();
  const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  const side: Side = {
    ms,
    growthMiB: (statusKiB("VmHWM") - before) / 1024,
    found,
    cpuMs: (cpu.user + cpu.system) / 1000,
    youngMiB: (young?.space_size ?? 0) / (1024 * 1024),
  };
  console.log(JSON.stringify(side));
}

async function side(kind: string, path: string, v8Flags: string[] = []): Promise<Side> {
  const flags = v8Flags.length > 0 ? [`--v8-flags=${v8Flags.join(",")}`] : [];
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...flags, new URL(import.meta.url).pathname, "--child", kind, path],
    stdin: "null",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`the ${kind} side failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!);
}

if (Deno.args[0] === "--child") {
  await child(Deno.args[1], Deno.args[2]);
} else {
  const mb = Number(Deno.args[0] ?? 100);
  const dir = Deno.makeTempDirSync({ prefix: "wisp-bench-" });
  try {
    const path = join(dir, "verbose.log");
    const bytes = writeBigLog(path, mb * 1e6, 0.5);
    const rounds: [Side, Side, Side][] = [];
    // Alternate the sides so that load on the machine hits them alike; keep the median round.
    for (let i = 0; i < 3; i++) {
      rounds.push([
        await side("baseline", path),
        await side("scan", path),
        await side("scan", path, [`--max-semi-space-size=${BOUNDED_SEMI_SPACE_MIB}`]),
      ]);
    }
    rounds.sort((a, b) => a[1].ms - b[1].ms);
    const [base, scan, bounded] = rounds[1];
    const rate = (s: Side) => bytes / 1e6 / (s.ms / 1000);
    console.log(`log: ${(bytes / 1e6).toFixed(0)} MB, one failing test in the middle`);
    console.log(
      `baseline (decode + lines): ${rate(base).toFixed(0)} MB/s, peak RSS growth ${
        base.growthMiB.toFixed(0)
      } MiB`,
    );
    console.log(
      `triage scan:               ${rate(scan).toFixed(0)} MB/s, peak RSS growth ${
        scan.growthMiB.toFixed(0)
      } MiB, failure found: ${scan.found}`,
    );
    console.log(
      `scan/baseline: time ${(scan.ms / base.ms).toFixed(1)}x, peak RSS growth ${
        (scan.growthMiB / base.growthMiB).toFixed(2)
      }x (goals: ≥ 50 MB/s, ≤ 64 MiB)`,
    );
    console.log(
      `scan, semi-space ≤ ${BOUNDED_SEMI_SPACE_MIB} MiB: ${
        rate(bounded).toFixed(0)
      } MB/s, peak RSS growth ${
        bounded.growthMiB.toFixed(0)
      } MiB, failure found: ${bounded.found} (a V8 flag wisp does not set)`,
    );
    const cpuRate = (s: Side) => bytes / 1e6 / (s.cpuMs / 1000);
    console.log(
      `CPU time: baseline ${cpuRate(base).toFixed(0)} MB/s, scan ${
        cpuRate(scan).toFixed(0)
      } MB/s, bounded ${
        cpuRate(bounded).toFixed(0)
      } MB/s; V8 young generation at the end: baseline ${base.youngMiB.toFixed(0)} MiB, scan ${
        scan.youngMiB.toFixed(0)
      } MiB, bounded ${bounded.youngMiB.toFixed(0)} MiB`,
    );
    console.log(
      `load average: ${
        Deno.loadavg().map((x) => x.toFixed(1)).join(" ")
      } on ${navigator.hardwareConcurrency} cores`,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

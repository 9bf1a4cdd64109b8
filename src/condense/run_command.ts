/**
 * Running the command triage reads: through the gate (policy, classifier,
 * approval) and the one runner (sandbox, process group, bounded capture),
 * exactly as run_command runs a model's command, with origin "triage". The
 * output is kept whole up to the capture limit: stdout, then stderr.
 */
import type { AuditSink } from "../audit/writer.ts";
import type { Config } from "../config/schema.ts";
import type { HomePaths } from "../config/home.ts";
import { type ApprovalHost, Gate } from "../gate/gate.ts";
import { runCommand } from "../exec/runner.ts";
import { checkThenRun } from "../gate/check_then_run.ts";
import type { CapturedStream } from "../exec/capture.ts";
import { WispError } from "../util/errors.ts";
import { CAPTURE_LIMIT } from "./triage.ts";
import { joinScans, type Scanned, type ScanWatch, TriageScanner } from "./scan.ts";
import { TrailedBuffer } from "../exec/background.ts";

export interface TriageRunOptions {
  config: Config;
  paths: HomePaths;
  audit: AuditSink;
  cwd?: string;
  /** The launch directory, the sandbox's writable root (default: cwd). */
  root?: string;
  /** Approve what would be asked (never a run outside the sandbox). */
  yes?: boolean;
  host?: ApprovalHost;
  gate?: Gate;
  signal?: AbortSignal;
  timeoutSeconds?: number;
  /** Read every byte through the exact readers as it arrives (triage); the result's `scanned`. */
  scan?: boolean;
  /** With `scan`: `onScanning` is called once as the command starts. */
  onScanning?: ScanWatch["onScanning"];
}

export interface TriageRunResult {
  text: string;
  bytes: number;
  droppedBytes: number;
  exitStatus: number | null;
  /** With `scan`: what the readers found in the whole output (stdout, then stderr). */
  scanned?: Scanned;
}

/** One stream as text: whole when it was captured whole, else its head and tail. */
function streamText(stream: CapturedStream): { text: string; dropped: number } {
  const decoder = new TextDecoder();
  if (stream.complete) return { text: decoder.decode(stream.head), dropped: 0 };
  const dropped = Math.max(0, stream.bytes - stream.head.length - stream.tail.length);
  return { text: `${decoder.decode(stream.head)}\n${decoder.decode(stream.tail)}`, dropped };
}

/** The command triage reads: every byte of its output through the readers as it arrives. */
export function runForTriage(line: string, opts: TriageRunOptions): Promise<TriageRunResult> {
  return runCaptured(line, "triage", { ...opts, scan: true });
}

/** A command for one of the condensing faces (triage, draft, watch): the gate, then the runner, output kept whole up to the limit. */
export async function runCaptured(
  line: string,
  origin: "triage" | "draft" | "watch",
  opts: TriageRunOptions,
): Promise<TriageRunResult> {
  const cwd = opts.cwd ?? Deno.cwd();
  const root = opts.root ?? cwd;
  const gate = opts.gate ?? new Gate({ config: opts.config, home: opts.paths, audit: opts.audit });
  // Each stream through a scanner of its own as it arrives; stderr without the supervisor's trailer.
  const scanners = opts.scan ? { out: new TriageScanner(), err: new TriageScanner() } : undefined;
  const errBytes = scanners
    ? new TrailedBuffer({ push: (b) => scanners.err.pushBytes(b) })
    : undefined;
  const gated = await checkThenRun(gate, line, {
    cwd,
    root,
    origin,
    ...(opts.host ? { host: opts.host } : {}),
    ...(opts.yes ? { yes: true } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  }, () => {
    if (scanners) opts.onScanning?.(() => scanners.out.linesRead + scanners.err.linesRead);
    return runCommand({
      command: line,
      cwd,
      root,
      origin,
      timeoutSeconds: opts.timeoutSeconds,
      // Each stream keeps half the capture limit at each end in memory; the rest spills to the output store.
      budgetBytes: Math.floor(CAPTURE_LIMIT / 2),
      config: opts.config,
      home: opts.paths,
      audit: opts.audit,
      ...(opts.signal ? { signal: opts.signal } : {}),
      memory: false,
      ...(scanners
        ? {
          onOutput: (stream: "stdout" | "stderr", chunk: Uint8Array) =>
            stream === "stdout" ? scanners.out.pushBytes(chunk) : errBytes!.push(chunk),
        }
        : {}),
    });
  }, opts.signal);
  if (!gated.ran) {
    if ("stopped" in gated) throw new WispError(`${line} was stopped before it started`);
    const refusal = gated.refusal.replace(/^error: /, "");
    throw new WispError(
      `${refusal}${
        !opts.yes && !opts.host && gated.decision.level !== "dangerous"
          ? " (add --yes to approve it for this run)"
          : ""
      }`,
    );
  }
  const result = gated.result;
  if (result.error !== undefined && result.exitStatus === null) {
    throw new WispError(`${line} could not start: ${result.error}`);
  }
  const out = streamText(result.stdout);
  const err = streamText(result.stderr);
  const text = err.text === ""
    ? out.text
    : out.text === ""
    ? err.text
    : `${out.text.replace(/\n?$/, "\n")}${err.text}`;
  let scanned: Scanned | undefined;
  if (scanners) {
    errBytes!.end();
    scanned = joinScans(scanners.out.end(), scanners.err.end());
  }
  return {
    text,
    bytes: result.stdout.bytes + result.stderr.bytes,
    droppedBytes: out.dropped + err.dropped,
    exitStatus: result.exitStatus,
    ...(scanned ? { scanned } : {}),
  };
}

/**
 * The same command run `times` times (flaky_tests): the first run passes the
 * gate as any does; approving it covers the repeats, which still pass the
 * policy and run in the sandbox. Stops early when the signal aborts.
 */
export async function runRepeatedly(
  line: string,
  times: number,
  opts: TriageRunOptions,
): Promise<TriageRunResult[]> {
  const results: TriageRunResult[] = [];
  for (let i = 0; i < times && !opts.signal?.aborted; i++) {
    // Each run read whole by the readers as it arrives (its `scanned`), as triage reads one.
    results.push(
      await runCaptured(line, "triage", { ...opts, scan: true, yes: opts.yes || i > 0 }),
    );
  }
  return results;
}

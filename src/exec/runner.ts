/**
 * THE runner: every command wisp starts — the model's, the person's (`!`,
 * `!!`), a custom tool's, triage's, watch's, draft's, `wisp sandbox`'s — goes
 * through `runCommand`. It starts the command under the platform's launcher
 * (confined, or with the allow-all profile when it runs outside the sandbox),
 * under the supervisor that owns its lifetime (src/exec/supervisor.ts),
 * captures each stream within bounds (spilling the whole to the output store
 * the moment a byte would be dropped), enforces the time limit, renders the
 * result as run_command's, and records command.outcome.
 */
import type { Config } from "../config/schema.ts";
import { ensureHome, type HomePaths } from "../config/home.ts";
import type { AuditSink } from "../audit/writer.ts";
import { currentPlatform, nestedSandboxProbe, type Platform } from "../platform/index.ts";
import { plantedLink, realpathLongest, writableSet, writeAllowed } from "../platform/paths.ts";
import { setAsidePlanted } from "../platform/planted.ts";
import type { WritableSet } from "../platform/types.ts";
import { newOutputId, OutputStore } from "../audit/output_store.ts";
import { type CapturedStream, StreamCapture } from "./capture.ts";
import { diagnoseRefusal, type Refusal } from "./refusal.ts";
import {
  decideMode,
  type ModeDecision,
  type Origin,
  plainShellAllowed,
  type SandboxMode,
} from "./mode.ts";
import { statusOf } from "./status.ts";
import { exitLine, keepWhole, type KeptWhole } from "./keep.ts";
import { removeQuietly } from "../util/fs_safe.ts";
import { drain } from "./drain.ts";
import { environmentFor, resolveOnOwnPath } from "./environment.ts";
import { copyOut, feedStdin, type Passing, passingOnce } from "./passthrough.ts";
import {
  splitTrailer,
  StartMarkReader,
  supervisorArgv,
  type Trailer,
  TRAILER_MAX_BYTES,
} from "./supervisor.ts";
import { timedOutLine, type TimeoutSource } from "./timeouts.ts";
import { enabled, log, masked, quotedArgv } from "../util/log.ts";

export type { Origin, SandboxMode } from "./mode.ts";
export { decideMode } from "./mode.ts";
export { statusOf } from "./status.ts";

export interface RunRequest {
  /** A shell line, run as `sh -c`. */
  command: string;
  /**
   * How the result is shown (the run_command tool's rendering); without one,
   * `rendered` is the exit line and the whole output is not kept.
   */
  render?: CommandRenderer;
  /** Where it runs (never widens the writable set). */
  cwd: string;
  /** The launch directory: the writable root. */
  root: string;
  origin: Origin;
  /** undefined/0: no timeout (a command the person typed). */
  timeoutSeconds?: number;
  timeoutSource?: TimeoutSource;
  timeoutClamped?: boolean;
  /** The tool-output budget (an eighth of the window, 4–64 KiB). */
  budgetBytes: number;
  /** Already approved by a person (or typed after `!!`). */
  outsideSandbox?: boolean;
  /** Abort = stop: SIGTERM to everything the command runs, SIGKILL two seconds later. */
  signal?: AbortSignal;
  /** Abort = kill at once (a second interrupt). */
  killSignal?: AbortSignal;
  config: Config;
  home: HomePaths;
  audit: AuditSink;
  /** wisp sandbox: inherit stdio instead of capturing. */
  passthrough?: boolean;
  /** --unsafe: the sandbox is off for this session. */
  unsafe?: boolean;
  /** The stored output's id (the audit call id of the tool call); a new one when absent. */
  outputId?: string;
  /** The output store; undefined: the home's store for the audit session; null: none (nothing is kept). */
  outputStore?: OutputStore | null;
  /** The conversation has the memory tool (the held-back note names its recalls). Default true. */
  memory?: boolean;
  /** Extra network setting for `wisp sandbox --no-network`; default the config's. */
  allowNetwork?: boolean;
  /** Extra writable paths for `wisp sandbox --writable`. */
  extraWritable?: string[];
  /**
   * Also hands each chunk of output to this listener as it arrives (a
   * background process's poll buffers, src/exec/background.ts). The chunk is
   * only valid during the call. stderr's chunks include the supervisor's
   * trailer at the very end, which the listener strips (supervisor.ts).
   */
  onOutput?: OutputListener;
  /** Where the face shows a warning (the sandbox is off); the runner itself never prints. */
  warn?: (line: string) => void;
}

/** A finished command's output, as the runner hands it to a renderer. */
export interface CommandOutput {
  exitStatus: number | null;
  stdout: CapturedStream;
  stderr: CapturedStream;
  /** timed out / stopped / sandbox lines, in order. */
  notes: string[];
  /** The room the rendering has, in bytes. */
  budget: number;
  /** The conversation has the memory tool (the held-back note names its recalls). */
  memory: boolean;
}

/**
 * How a caller shows a command's result to its reader: the run_command
 * tool's rendering (src/tools/command_result.ts). The runner asks whether
 * the result fits whole, keeps the whole output in the store when it does
 * not, then has it rendered with where it was kept.
 */
export interface CommandRenderer {
  fits(output: CommandOutput): boolean;
  render(output: CommandOutput & { kept: KeptWhole | null }): string;
}

/** See RunRequest.onOutput. */
export type OutputListener = (stream: "stdout" | "stderr", chunk: Uint8Array) => void;

export interface RunResult {
  /** The exit status; a killed command reports its signal negated (-15); null when it could not start. */
  exitStatus: number | null;
  /** The signal's name when it was killed by one. */
  signal?: string;
  timedOut: boolean;
  stopped: boolean;
  durationMs: number;
  stdout: CapturedStream;
  stderr: CapturedStream;
  outputId?: string;
  sandbox: { mode: SandboxMode; refusal?: string; verdict?: Refusal["verdict"]; nested: boolean };
  /** The result as the request's renderer shows it (the run_command text); the exit line without one. */
  rendered: string;
  /** Why it could not start, when it could not. */
  error?: string;
}

/** A running command: stop() once to stop it (TERM, KILL 2 s later), twice to kill it at once. */
export interface RunningCommand {
  stop(): void;
  kill(): void;
  readonly result: Promise<RunResult>;
}

/** What a sandbox-off run says on stderr (the face prints it). */
export const SANDBOX_OFF_WARNING =
  "warning: the sandbox is off: commands can write anywhere you can, wisp's home included";

function emptyStream(): CapturedStream {
  return { bytes: 0, lines: 0, head: new Uint8Array(), tail: new Uint8Array(), complete: true };
}

function bytesOfStreams(stream: CapturedStream): string {
  const decoder = new TextDecoder();
  return stream.complete
    ? decoder.decode(stream.head)
    : decoder.decode(stream.head) + "\n" + decoder.decode(stream.tail);
}

/** Start a command; the handle stops it, and `result` says how it ended. */
export function startCommand(
  req: RunRequest,
  platform: Platform = currentPlatform(),
): RunningCommand {
  let stopRequested = 0;
  let onStop: (() => void) | undefined;
  let onKill: (() => void) | undefined;
  const handle: RunningCommand = {
    stop() {
      stopRequested++;
      if (stopRequested >= 2) onKill?.();
      else onStop?.();
    },
    kill() {
      stopRequested = Math.max(stopRequested, 2);
      onKill?.();
    },
    result: undefined as unknown as Promise<RunResult>,
  };
  req.signal?.addEventListener("abort", () => handle.stop(), { once: true });
  req.killSignal?.addEventListener("abort", () => handle.kill(), { once: true });
  const result = run(req, platform, {
    register(stop, kill) {
      onStop = stop;
      onKill = kill;
      // A stop that came before the command started.
      if (stopRequested >= 2 || req.killSignal?.aborted) kill();
      else if (stopRequested === 1 || req.signal?.aborted) stop();
    },
  });
  (handle as { result: Promise<RunResult> }).result = result;
  return handle;
}

export function runCommand(req: RunRequest): Promise<RunResult> {
  return startCommand(req).result;
}

/**
 * Start a command that outlives the call that started it (the process tool's
 * background processes): runCommand's path exactly — launcher, supervisor,
 * time limit (its lifetime), bounded capture, command.outcome — with its
 * output also handed to `onOutput` as it arrives, so it can be polled.
 */
export function startWatchedCommand(req: RunRequest, onOutput: OutputListener): RunningCommand {
  return startCommand({ ...req, onOutput });
}

interface Hooks {
  register(stop: () => void, kill: () => void): void;
}

/**
 * The working and launch directories as real paths, and wisp's home made
 * sure of (bound read-only, a home that does not exist yet could be created
 * and planted by the command); or why the command cannot start.
 */
function resolveDirectories(req: RunRequest): { cwd: string; root: string } | { error: string } {
  let cwd: string;
  try {
    cwd = Deno.realPathSync(req.cwd);
    if (!Deno.statSync(cwd).isDirectory) {
      return { error: `the working directory ${req.cwd} is not a directory` };
    }
  } catch {
    return { error: `the working directory ${req.cwd} does not exist` };
  }
  let root: string;
  try {
    root = Deno.realPathSync(req.root);
  } catch {
    return { error: `the launch directory ${req.root} does not exist` };
  }
  try {
    ensureHome(req.home);
  } catch (error) {
    return {
      error: `wisp's home ${req.home.root} cannot be created (${(error as Error).message})`,
    };
  }
  return { cwd, root };
}

/** The config with `wisp sandbox --writable` folders added to the writable paths. Pure. */
function withExtraWritable(config: Config, extra: string[] | undefined): Config {
  if (!extra?.length) return config;
  const sandbox = config.commandPolicy.sandbox;
  return {
    ...config,
    commandPolicy: {
      ...config.commandPolicy,
      sandbox: { ...sandbox, writablePaths: [...sandbox.writablePaths, ...extra] },
    },
  };
}

/** What the person is warned of about a confined command's writable set. Pure. */
export function sandboxWarnings(set: WritableSet, os: string): string[] {
  const lines: string[] = [];
  for (const path of set.refused ?? []) {
    lines.push(
      `warning: ${path} is not writable in the sandbox: a symbolic link on its way lies where a ` +
        "command could have planted it; name its real path instead",
    );
  }
  for (const path of set.unprotected ?? []) {
    lines.push(
      `warning: ${path} is protected but writable here (commandPolicy.sandbox.unprotectedPaths): ` +
        "a command can plant code there that runs later outside the sandbox",
    );
  }
  for (const path of set.shared ?? []) {
    lines.push(
      `warning: ${path} is protected but has another hard link; a write through that name is not stopped`,
    );
  }
  if (os === "linux") {
    for (const path of set.missing.filter((p) => !writeAllowed(p, set))) {
      lines.push(`warning: ${path} does not exist, so the sandbox cannot make it writable`);
    }
  }
  return lines;
}

/**
 * The program and arguments that start the command: the supervisor alone
 * in a process group of its own (plain), or inside the platform's launcher
 * (confined, outside, nested). Pure.
 */
export function launchArgv(plan: {
  launch: ModeDecision["launch"];
  platform: Platform;
  command: string;
  timeout: number;
  capture: boolean;
  writable: WritableSet;
  allowNetwork: boolean;
  cwd: string;
}): { program: string; args: string[] } {
  if (plan.launch === "plain") {
    const [program, ...args] = supervisorArgv("pgroup", plan.command, plan.timeout, plan.capture);
    return { program, args };
  }
  const inner = supervisorArgv(
    plan.platform.supervisorFlavour,
    plan.command,
    plan.timeout,
    plan.capture,
  );
  return plan.platform.launch({
    mode: plan.launch,
    writable: plan.writable,
    allowNetwork: plan.allowNetwork,
    cwd: plan.cwd,
    inner,
  });
}

/** How long after the supervisor's own time limit wisp's backstop timer fires. */
const BACKSTOP_MS = 500;
/**
 * How long a capturing launcher may take to start the supervisor before the
 * backstop counts from the launch instead (a sandbox is set up in well under
 * a second; this is for a launcher that hangs).
 */
const LAUNCH_ALLOWANCE_MS = 30_000;

async function run(req: RunRequest, platform: Platform, hooks: Hooks): Promise<RunResult> {
  const started = performance.now();
  const launch = await planLaunch(req, platform);
  if ("error" in launch) return failedRun(req, started, launch.mode, launch.nested, launch.error);
  const streams = openStreams(req);
  const spawned = await spawnLauncher(req, launch);
  if ("error" in spawned) {
    return failedRun(req, started, launch.decision.mode, launch.nested, spawned.error);
  }
  const ended = await superviseUntilExit(req, launch, spawned, streams, hooks);
  return finishRun(req, launch, streams, ended, started);
}

/** Everything decided about a command's launch before it starts. */
interface Launch {
  decision: ModeDecision;
  nested: boolean;
  cwd: string;
  set: WritableSet;
  /** Seconds; 0: none. */
  timeout: number;
  /** Captured (the runner reads its streams), or passed through (`wisp sandbox`). */
  capture: boolean;
  program: string;
  args: string[];
}

/** Why a command cannot start, with the mode it would have run in. */
interface LaunchRefusal {
  error: string;
  mode: SandboxMode;
  nested: boolean;
}

/**
 * Decide how the command starts: the sandbox mode, the directories, the
 * writable set (warning of what the person should know), the time limit and
 * the launcher's argv; or why it cannot start.
 */
async function planLaunch(req: RunRequest, platform: Platform): Promise<Launch | LaunchRefusal> {
  const sandboxConfig = req.config.commandPolicy.sandbox;
  const probe = await nestedSandboxProbe(platform);
  const decision = decideMode({
    origin: req.origin,
    outsideSandbox: !!req.outsideSandbox,
    sandboxEnabled: sandboxConfig.enabled,
    unsafe: !!req.unsafe,
    allowOutsideSandbox: sandboxConfig.allowOutsideSandbox,
    probe,
    plainAllowed: plainShellAllowed(),
  });
  const nested = probe.state === "nested";
  const refuse = (error: string): LaunchRefusal => ({ error, mode: decision.mode, nested });
  if (decision.error) return refuse(decision.error);
  if (decision.mode === "off") req.warn?.(SANDBOX_OFF_WARNING);

  const dirs = resolveDirectories(req);
  if ("error" in dirs) return refuse(dirs.error);
  const { cwd, root } = dirs;
  const config = withExtraWritable(req.config, req.extraWritable);
  const set: WritableSet = writableSet({ config, root, home: req.home.root, os: platform.os });
  if (decision.launch === "confined") {
    for (const line of sandboxWarnings(set, platform.os)) req.warn?.(line);
  }
  // wisp opens its home by the path it was given. A symlink on that path
  // inside the writable set could be swapped by a command for a folder of
  // its own, which the next wisp would take as its home: refuse to run.
  if (decision.launch === "confined" && plantedLink(req.home.root, set.roots)) {
    return refuse(
      `wisp's home ${req.home.root} is reached through a symbolic link inside the sandbox's writable set, ` +
        "which a command could replace; set WISP_HOME to its real path",
    );
  }
  const timeout = req.timeoutSeconds && req.timeoutSeconds > 0 ? req.timeoutSeconds : 0;
  const capture = !req.passthrough;
  const { program, args } = launchArgv({
    launch: decision.launch,
    platform,
    command: req.command,
    timeout,
    capture,
    writable: set,
    allowNetwork: req.allowNetwork ?? sandboxConfig.allowNetwork,
    cwd,
  });
  // The argv with secrets masked; the scanner is loaded only when someone reads the line.
  if (enabled("debug")) {
    log("debug", `launcher: ${await masked(quotedArgv([program, ...args]))}`);
  }
  return { decision, nested, cwd, set, timeout, capture, program, args };
}

/** The result of a command that could not start, recorded. */
function failedRun(
  req: RunRequest,
  started: number,
  mode: SandboxMode,
  nested: boolean,
  message: string,
): RunResult {
  const result: RunResult = {
    exitStatus: null,
    timedOut: false,
    stopped: false,
    durationMs: Math.round(performance.now() - started),
    stdout: emptyStream(),
    stderr: emptyStream(),
    sandbox: { mode, nested },
    rendered: `error: ${message}`,
    error: message,
  };
  record(req, result, mode, nested);
  return result;
}

/** Where a command's output goes: bounded captures that spill to the output store. */
interface Streams {
  outputId: string;
  store: OutputStore | null;
  out: StreamCapture;
  err: StreamCapture;
}

/** The output store and each stream's capture, spilling to files named by the output id. */
function openStreams(req: RunRequest): Streams {
  // The id names files: a call id that could not is replaced by a fresh one.
  const outputId = req.outputId && /^[A-Za-z0-9_-]{1,64}$/.test(req.outputId)
    ? req.outputId
    : newOutputId();
  let store: OutputStore | null = null;
  if (req.outputStore !== null) {
    try {
      store = req.outputStore ?? new OutputStore(req.home, req.audit.session);
    } catch {
      store = null;
    }
  }
  const keep = Math.max(1024, req.budgetBytes);
  const spillOpener = (label: string) => () => store?.create(`${outputId}-${label}`);
  return {
    outputId,
    store,
    out: new StreamCapture(keep, spillOpener("stdout")),
    err: new StreamCapture(keep, spillOpener("stderr"), TRAILER_MAX_BYTES),
  };
}

/** A started launcher, with how its three descriptors were set up. */
interface Spawned {
  child: Deno.ChildProcess;
  passing: [Passing, Passing, Passing];
}

/** Start the launcher with the policy's environment; or why it could not start. */
async function spawnLauncher(
  req: RunRequest,
  launch: Launch,
): Promise<Spawned | { error: string }> {
  const { program, args, cwd, capture } = launch;
  // Every command gets the policy's environment, never wisp's own (src/exec/environment.ts).
  const environment = environmentFor(req.config.commandPolicy.sandbox.environment);
  // wisp sandbox: the caller's descriptors only where they are no door (src/exec/passthrough.ts).
  const passing: [Passing, Passing, Passing] = capture
    ? ["piped", "piped", "piped"]
    : await passingOnce();
  try {
    const child = new Deno.Command(resolveOnOwnPath(program), {
      args,
      cwd,
      env: environment.env,
      clearEnv: true,
      stdin: passing[0],
      stdout: passing[1],
      stderr: passing[2],
      // Its own session: a Ctrl-C at wisp's terminal reaches wisp, which stops
      // the command (TERM, then KILL), not the launcher directly. Passthrough
      // keeps the terminal's group, so Ctrl-C ends it at once.
      detached: capture,
    }).spawn();
    return { child, passing };
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) {
      return {
        error: `wisp's permission fence refused to start ${program} (${(error as Error).message})`,
      };
    }
    return { error: `${program} could not start (${(error as Error).message})` };
  }
}

/** How the launcher ended, and what wisp itself did to it. */
interface Ended {
  status: Deno.CommandStatus;
  endedAt: number;
  /** The person stopped it. */
  stopped: boolean;
  /** wisp's backstop timer fired. */
  timedOutHere: boolean;
  /** wisp killed the launcher itself. */
  killedHere: boolean;
}

/**
 * Wait for the launcher to exit while its output is read: stop and kill on
 * the person's word, the backstop timer for the time limit, then at most one
 * second more for whatever still holds a pipe.
 */
async function superviseUntilExit(
  req: RunRequest,
  launch: Launch,
  { child, passing }: Spawned,
  { out, err }: Streams,
  hooks: Hooks,
): Promise<Ended> {
  const { capture, timeout } = launch;
  let stopped = false;
  let timedOutHere = false;
  let killedHere = false;
  let exited = false;
  const timers: ReturnType<typeof setTimeout>[] = [];
  const control = capture ? child.stdin.getWriter() : undefined;
  const send = (message: string) => {
    control?.write(new TextEncoder().encode(message + "\n")).catch(() => {});
  };
  const killNow = () => {
    if (exited) return;
    killedHere = true;
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  };
  const stopGracefully = () => {
    if (exited) return;
    if (capture) {
      send("stop");
      // Backstop: the supervisor kills at 2 s; the launcher is killed at 2.5 s.
      timers.push(setTimeout(killNow, 2500));
    } else {
      // Passthrough has no control pipe: ending the launcher ends everything inside.
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      timers.push(setTimeout(killNow, 2000));
    }
  };
  // A stop that comes after the command ended on its own changes nothing.
  hooks.register(() => {
    if (exited) return;
    stopped = true;
    stopGracefully();
  }, () => {
    if (exited) return;
    stopped = true;
    killNow();
  });
  // The supervisor's own timer fires first; this one is the backstop for a
  // supervisor whose timer a command managed to kill. It counts from the
  // command's start, which the supervisor marks on stderr: a launcher that
  // takes long to set up the sandbox must not eat into the command's time.
  const backstop = () => {
    if (exited) return;
    timedOutHere = true;
    stopGracefully();
  };
  let beforeStart: ReturnType<typeof setTimeout> | undefined;
  const startMark = capture
    ? new StartMarkReader(() => {
      if (timeout <= 0 || exited) return;
      clearTimeout(beforeStart);
      timers.push(setTimeout(backstop, timeout * 1000 + BACKSTOP_MS));
    })
    : undefined;
  if (timeout > 0) {
    // Until the start is seen (and always in passthrough, which has no mark)
    // it counts from the launch; a capture's launcher gets LAUNCH_ALLOWANCE_MS
    // more, so one that hangs before its supervisor runs still ends.
    beforeStart = setTimeout(
      backstop,
      timeout * 1000 + BACKSTOP_MS + (capture ? LAUNCH_ALLOWANCE_MS : 0),
    );
    timers.push(beforeStart);
  }

  let cancel: () => void = () => {};
  const cancelled = new Promise<void>((resolve) => (cancel = resolve));
  const readers = capture
    ? Promise.all([
      drain(child.stdout, out, cancelled, req.onOutput && ((c) => req.onOutput!("stdout", c))),
      drain(
        child.stderr,
        err,
        cancelled,
        req.onOutput && ((c) => req.onOutput!("stderr", c)),
        startMark,
      ),
    ])
    : Promise.all([
      passing[1] === "piped" ? copyOut(child.stdout, Deno.stdout) : undefined,
      passing[2] === "piped" ? copyOut(child.stderr, Deno.stderr) : undefined,
    ]);
  // Its input is copied, not awaited: a caller's stdin may stay open after the program ends.
  if (!capture && passing[0] === "piped") void feedStdin(child.stdin);
  const status = await child.status;
  exited = true;
  const endedAt = performance.now();
  for (const t of timers) clearTimeout(t);
  // Whatever still holds a pipe after the launcher exits is given one second.
  let capTimer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    readers,
    new Promise<void>((resolve) => (capTimer = setTimeout(resolve, 1000))),
  ]);
  clearTimeout(capTimer);
  cancel();
  await readers.catch(() => {});
  try {
    await control?.close();
  } catch { /* the supervisor is gone */ }
  return { status, endedAt, stopped, timedOutHere, killedHere };
}

/**
 * The ended command's result: the status as the supervisor's trailer tells
 * it, the notes (time limit, stop, sandbox), the sandbox's refusal read from
 * the output, the whole output kept when it does not fit, the rendering;
 * recorded.
 */
function finishRun(
  req: RunRequest,
  launch: Launch,
  { outputId, store, out, err }: Streams,
  ended: Ended,
  started: number,
): RunResult {
  const { decision, nested, cwd, set, timeout, capture } = launch;
  const { stopped } = ended;
  let trailer: Trailer | undefined;
  const stdout = out.finish();
  const stderr = err.finish((tail) => {
    const split = splitTrailer(tail);
    trailer = split.trailer;
    return split.rest;
  });
  const code = trailer?.status ?? ended.status.code;
  const { exitStatus, signal } = statusOf(
    code,
    ended.killedHere ? "SIGKILL" : ended.status.signal,
    trailer?.kind,
  );
  const timedOut = !stopped && (trailer?.reason === "timeout" || ended.timedOutHere);
  const durationMs = Math.round(ended.endedAt - started);

  const notes: string[] = [];
  if (timedOut) {
    notes.push(timedOutLine(timeout, req.config.commandTimeoutCapSeconds, req.origin === "model"));
  }
  if (stopped) notes.push("stopped: the person stopped the command");
  notes.push(...decision.notes);
  if (decision.launch === "confined") {
    const planted = setAsidePlanted(set);
    notes.push(...planted);
    if (!capture) { for (const line of planted) req.warn?.(line); }
  }
  let refusal: Refusal | undefined;
  if (decision.mode === "confined" && capture) {
    refusal = diagnoseRefusal({
      output: bytesOfStreams(stdout) + "\n" + bytesOfStreams(stderr),
      exitStatus,
      cwd,
      set,
      allowOutside: req.config.commandPolicy.sandbox.allowOutsideSandbox,
      realpath: (p) => realpathLongest(p),
    });
    if (refusal) notes.push(refusal.line);
  }

  const renderInput = {
    exitStatus,
    stdout,
    stderr,
    notes,
    budget: req.budgetBytes,
    memory: req.memory ?? true,
  };
  let kept: KeptWhole | null = null;
  const renderer = req.render;
  if (capture && renderer && !renderer.fits(renderInput) && store) {
    try {
      kept = keepWhole(store, outputId, exitStatus, stdout, stderr);
    } catch {
      kept = null;
    }
  }
  removeQuietly(stdout.spill?.path);
  removeQuietly(stderr.spill?.path);
  const rendered = capture && renderer
    ? renderer.render({ ...renderInput, kept })
    : exitLine(exitStatus);

  const result: RunResult = {
    exitStatus,
    ...(signal ? { signal } : {}),
    timedOut,
    stopped,
    durationMs,
    stdout,
    stderr,
    ...(kept ? { outputId: kept.id } : {}),
    sandbox: {
      mode: decision.mode,
      nested,
      ...(refusal ? { refusal: refusal.line, verdict: refusal.verdict } : {}),
    },
    rendered,
  };
  record(req, result, decision.mode, nested);
  return result;
}

function record(req: RunRequest, result: RunResult, mode: SandboxMode, nested: boolean): void {
  log(
    "debug",
    () => `command ran ${result.durationMs} ms (${mode}), ${exitLine(result.exitStatus)}`,
  );
  try {
    req.audit.record("command.outcome", {
      command: req.command,
      exitStatus: result.exitStatus,
      ...(result.signal ? { signal: result.signal } : {}),
      timedOut: result.timedOut,
      stopped: result.stopped,
      durationMs: result.durationMs,
      stdoutBytes: result.stdout.bytes,
      stderrBytes: result.stderr.bytes,
      ...(result.outputId ? { stored: result.outputId } : {}),
      ...(req.timeoutSeconds ? { timeoutSeconds: req.timeoutSeconds } : {}),
      ...(req.timeoutSource ? { timeoutSource: req.timeoutSource } : {}),
      ...(req.timeoutClamped !== undefined ? { timeoutClamped: req.timeoutClamped } : {}),
      sandbox: mode,
      ...(result.sandbox.verdict ? { sandboxRefusal: result.sandbox.verdict } : {}),
      nested,
      outsideSandbox: !!req.outsideSandbox,
      origin: req.origin,
      cwd: req.cwd,
      ...(result.error ? { error: result.error } : {}),
    });
  } catch { /* the audit's own failure never changes a command's result */ }
}

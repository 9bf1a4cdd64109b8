/**
 * The session's table of background processes: commands the model started
 * with the process tool that keep running after the call returns. Each is
 * started by the one runner (src/exec/runner.ts `startWatchedCommand`: the
 * launcher, the supervisor, bounded capture, command.outcome) with its
 * lifetime as the runner's time limit, so nothing here spawns or signals a
 * process itself.
 *
 * What the table adds is ownership: an id per process; poll buffers that keep
 * only the most recent output between two polls and count what they drop; the
 * exit status once (and only once) the process has ended; a cap on how many
 * run at once; and `killAll`, which the session calls when it closes, so a
 * server the model started does not outlive the session.
 */
import type { RunningCommand, RunRequest, RunResult } from "./runner.ts";
import { startWatchedCommand } from "./runner.ts";
import { splitTrailer, TRAILER_MAX_BYTES } from "./supervisor.ts";

export type ProcessState = "running" | "exited" | "timed out" | "stopped" | "failed";

/** The most processes a session runs at once. */
export const MAX_RUNNING = 8;
/** Ended processes kept for a last poll (the oldest is forgotten first). */
const MAX_ENDED_KEPT = 16;
/** Bytes of unread output kept per stream between two polls (the newest). */
const POLL_KEEP_BYTES = 64 * 1024;
/** A lifetime the model did not choose. */
const DEFAULT_LIFETIME_SECONDS = 30 * 60;
/** The longest lifetime when the operator set no cap (commandTimeoutCapSeconds 0). */
const MAX_LIFETIME_SECONDS = 4 * 60 * 60;

/**
 * A process's lifetime: what was asked (or the default), never past the
 * operator's cap, and never unbounded.
 */
export function resolveLifetime(
  asked: number | undefined,
  cap: number,
): { seconds: number; clamped: boolean } {
  const ceiling = cap > 0 ? cap : MAX_LIFETIME_SECONDS;
  const wanted = asked && asked > 0 ? Math.ceil(asked) : DEFAULT_LIFETIME_SECONDS;
  return wanted > ceiling
    ? { seconds: ceiling, clamped: true }
    : { seconds: wanted, clamped: false };
}

/** What one poll of one stream takes out of its buffer. */
export interface Taken {
  /** The new bytes shown (the newest of them when some were dropped). */
  bytes: Uint8Array;
  /** Bytes that arrived since the last poll. */
  arrived: number;
  /** Of those, how many are not shown. */
  dropped: number;
}

/**
 * The unread output of one stream: a queue of chunks holding at most `keep`
 * bytes, the oldest dropped (and counted) first.
 */
export class PollBuffer {
  #chunks: Uint8Array[] = [];
  #held = 0;
  #arrived = 0;
  #dropped = 0;
  #total = 0;

  constructor(readonly keep: number = POLL_KEEP_BYTES) {}

  /** Bytes that arrived since the last take. */
  get unread(): number {
    return this.#arrived;
  }

  /** Bytes the stream carried since it started. */
  get total(): number {
    return this.#total;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#total += chunk.length;
    this.#arrived += chunk.length;
    // Copy: the runner reuses its read buffer.
    const own = chunk.length > this.keep ? chunk.slice(chunk.length - this.keep) : chunk.slice();
    this.#dropped += chunk.length - own.length;
    this.#chunks.push(own);
    this.#held += own.length;
    while (this.#held > this.keep) {
      const first = this.#chunks[0];
      const over = this.#held - this.keep;
      if (first.length <= over) {
        this.#chunks.shift();
        this.#held -= first.length;
        this.#dropped += first.length;
      } else {
        this.#chunks[0] = first.subarray(over);
        this.#held -= over;
        this.#dropped += over;
      }
    }
  }

  /** Take what arrived since the last take, at most `max` bytes of it (the newest). */
  take(max: number = this.keep): Taken {
    const all = new Uint8Array(this.#held);
    let at = 0;
    for (const chunk of this.#chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    let start = Math.max(0, all.length - Math.max(0, max));
    // Never start inside a UTF-8 character.
    while (start > 0 && start < all.length && (all[start] & 0xc0) === 0x80) start++;
    const taken: Taken = {
      bytes: all.subarray(start),
      arrived: this.#arrived,
      dropped: this.#dropped + start,
    };
    this.#chunks = [];
    this.#held = 0;
    this.#arrived = 0;
    this.#dropped = 0;
    return taken;
  }
}

/**
 * stderr's buffer: the supervisor ends stderr with a trailer line, so the
 * last few bytes are held back until the stream ends, when the trailer is cut
 * off them (src/exec/supervisor.ts splitTrailer).
 */
export class TrailedBuffer {
  #pending = new Uint8Array(0);
  constructor(readonly inner: { push(chunk: Uint8Array): void }) {}

  push(chunk: Uint8Array): void {
    const merged = new Uint8Array(this.#pending.length + chunk.length);
    merged.set(this.#pending);
    merged.set(chunk, this.#pending.length);
    const cut = Math.max(0, merged.length - TRAILER_MAX_BYTES);
    if (cut > 0) this.inner.push(merged.subarray(0, cut));
    this.#pending = merged.slice(cut);
  }

  /** The stream ended: commit what was held back, less the trailer. */
  end(): void {
    this.inner.push(splitTrailer(this.#pending).rest);
    this.#pending = new Uint8Array(0);
  }
}

export interface ManagedProcess {
  id: string;
  command: string;
  cwd: string;
  startedAt: number;
  lifetimeSeconds: number;
  state: ProcessState;
  /** Set once it has ended. */
  result?: RunResult;
  endedAt?: number;
  stdout: PollBuffer;
  stderr: PollBuffer;
  /** Resolves when it has ended and its output is all in the buffers. */
  ended: Promise<void>;
  /** The exit status has been reported by a poll. */
  reported: boolean;
}

/** How a process ended, from the runner's result. */
function stateOf(result: RunResult): ProcessState {
  if (result.error !== undefined) return "failed";
  if (result.stopped) return "stopped";
  if (result.timedOut) return "timed out";
  return "exited";
}

/** The start function the table uses: the runner's, replaceable only by tests of the table. */
export type Starter = (
  req: RunRequest,
  onOutput: (stream: "stdout" | "stderr", chunk: Uint8Array) => void,
) => RunningCommand;

export class ProcessTable {
  #entries = new Map<string, ManagedProcess>();
  #handles = new Map<string, RunningCommand>();
  #next = 1;
  #listeners = new Set<() => void>();
  #closed = false;

  constructor(
    readonly start: Starter = startWatchedCommand,
    readonly now: () => number = Date.now,
  ) {}

  /** Processes still running. */
  running(): ManagedProcess[] {
    return [...this.#entries.values()].filter((p) => p.state === "running");
  }

  /** Every process the table holds, oldest first. */
  list(): ManagedProcess[] {
    return [...this.#entries.values()];
  }

  get(id: string): ManagedProcess | undefined {
    return this.#entries.get(id);
  }

  /**
   * Start a command in the background. `req.timeoutSeconds` is its lifetime.
   * Throws (with a sentence for the model) when the session is closed or
   * MAX_RUNNING are running.
   */
  launch(req: RunRequest): ManagedProcess {
    if (this.#closed) throw new Error("the session is ending, so no process can start");
    if (this.running().length >= MAX_RUNNING) {
      throw new Error(
        `${MAX_RUNNING} background processes are running already; stop one (process with action stop) first`,
      );
    }
    const id = `p${this.#next++}`;
    const stdout = new PollBuffer();
    const stderr = new PollBuffer();
    const trailed = new TrailedBuffer(stderr);
    const handle = this.start(req, (stream, chunk) => {
      if (stream === "stdout") stdout.push(chunk);
      else trailed.push(chunk);
      this.#notify();
    });
    const entry: ManagedProcess = {
      id,
      command: req.command,
      cwd: req.cwd,
      startedAt: this.now(),
      lifetimeSeconds: req.timeoutSeconds ?? 0,
      state: "running",
      stdout,
      stderr,
      reported: false,
      ended: handle.result.then((result) => {
        trailed.end();
        entry.result = result;
        entry.state = stateOf(result);
        entry.endedAt = this.now();
        this.#handles.delete(id);
        this.#prune();
        this.#notify();
      }),
    };
    this.#entries.set(id, entry);
    this.#handles.set(id, handle);
    return entry;
  }

  /**
   * Wait up to `ms` for something new: unread output, or the end of `id`.
   * Returns at once when there is unread output already or it has ended.
   */
  async waitForNews(id: string, ms: number): Promise<void> {
    const entry = this.#entries.get(id);
    if (!entry || ms <= 0) return;
    const deadline = this.now() + ms;
    const news = () =>
      entry.state !== "running" || entry.stdout.unread > 0 || entry.stderr.unread > 0;
    while (!news()) {
      const left = deadline - this.now();
      if (left <= 0) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let listener: (() => void) | undefined;
      await new Promise<void>((resolve) => {
        listener = resolve;
        this.#listeners.add(listener);
        timer = setTimeout(resolve, left);
      });
      clearTimeout(timer);
      if (listener) this.#listeners.delete(listener);
    }
  }

  /** Stop one: TERM to everything it runs, KILL two seconds later (the supervisor's). Resolves when it has ended. */
  async stop(id: string, graceMs = 5000): Promise<ManagedProcess | undefined> {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    const handle = this.#handles.get(id);
    if (handle && entry.state === "running") {
      handle.stop();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((
        resolve,
      ) => (timer = setTimeout(() => resolve("late"), graceMs)));
      const how = await Promise.race([entry.ended.then(() => "ended" as const), late]);
      clearTimeout(timer);
      if (how === "late") {
        handle.kill();
        await entry.ended;
      }
    }
    return entry;
  }

  /**
   * The session is closing: end every running process now and start no more.
   * Each gets the supervisor's stop (its control-pipe reader, a process of its
   * own, TERMs the command's group and KILLs it two seconds later: what ends
   * it where the launcher is not a PID namespace, as on macOS) and then
   * SIGKILL to its launcher (which under bwrap ends everything inside at
   * once). Synchronous, because a face may exit right after closing.
   */
  killAll(): void {
    this.#closed = true;
    for (const handle of this.#handles.values()) {
      handle.stop();
      handle.kill();
    }
  }

  /** Resolves when every process has ended (after killAll, for a caller that can wait). */
  async settled(): Promise<void> {
    await Promise.all([...this.#entries.values()].map((p) => p.ended));
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
    this.#listeners.clear();
  }

  #prune(): void {
    const ended = this.list().filter((p) => p.state !== "running");
    for (const entry of ended.slice(0, Math.max(0, ended.length - MAX_ENDED_KEPT))) {
      this.#entries.delete(entry.id);
    }
  }
}

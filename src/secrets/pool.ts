/**
 * Scanning many files on several threads: a small pool of workers
 * (scan_worker.ts) reads and scans files while the caller prints and audits
 * the results strictly in the order the files were given, so the output is
 * the same as one thread's. A bounded number of files is in flight; a file
 * too large to be read whole is handed back to the caller to stream.
 *
 * What crosses between threads is a path and options one way, and findings
 * (kind, location, masked preview) and counts the other: never a value.
 */
import type { ScanOptions, SecretFinding } from "./types.ts";
import type { InputResult } from "./scan_input.ts";

export interface PoolRequest {
  id: number;
  path: string;
  options: ScanOptions;
}

export type PoolReply =
  | { id: number; result: InputResult; findings: SecretFinding[] }
  | { id: number; large: true }
  | { id: number; error: { name: string; message: string } };

/** One file's outcome: scanned, too large for a worker (stream it yourself), or an error. */
export type FileOutcome =
  | { path: string; kind: "scanned"; result: InputResult; findings: SecretFinding[] }
  | { path: string; kind: "large" }
  | { path: string; kind: "error"; error: Error };

/** How many files each worker may have queued: enough to keep it busy while replies travel. */
const QUEUE_PER_WORKER = 4;

/**
 * The number of worker threads to scan with (0: scan on the calling thread), from
 * WISP_SCAN_THREADS. Off unless asked for: measured on two shared cores, each thread's own
 * start (loading the rules, compiling their expressions, warming the JIT: ~0.1 CPU s) cost more
 * than it saved on a 24 MB tree, in CPU time and in wall-clock time (docs/adr/0126-secrets-scan-speed.md).
 */
export function poolSize(env: string | undefined, cores: number): number {
  if (env === undefined || env.trim() === "") return 0;
  const n = Number(env);
  if (!Number.isInteger(n) || n < 0) return 0;
  // More threads than cores only queue behind each other.
  return Math.min(n, Math.max(1, cores), 16);
}

/** Rebuild an error a worker reported, keeping Deno's error classes (NotFound, …) by name. */
export function reviveError(error: { name: string; message: string }): Error {
  const errors = Deno.errors as unknown as Record<string, new (message: string) => Error>;
  const Class = Object.hasOwn(errors, error.name) ? errors[error.name] : undefined;
  const revived = Class ? new Class(error.message) : new Error(error.message);
  if (!Class) revived.name = error.name;
  return revived;
}

export class ScanPool {
  readonly #workers: Worker[] = [];
  readonly #load: number[] = [];
  readonly #pending = new Map<number, { worker: number; resolve: (reply: PoolReply) => void }>();
  #nextId = 0;
  #failure: Error | undefined;

  constructor(readonly size: number) {
    if (size < 1) throw new Error("a scan pool needs at least one worker");
  }

  /** Files that may be in flight at once. */
  get capacity(): number {
    return this.size * QUEUE_PER_WORKER;
  }

  #start(index: number): Worker {
    const worker = new Worker(new URL("./scan_worker.ts", import.meta.url).href, {
      type: "module",
    });
    worker.onmessage = (event: MessageEvent<PoolReply>) => {
      const waiting = this.#pending.get(event.data.id);
      if (!waiting) return;
      this.#pending.delete(event.data.id);
      this.#load[waiting.worker]--;
      waiting.resolve(event.data);
    };
    // A worker that dies fails every file it held (fail closed: an unscanned file is an error).
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#failure = new Error(`a scanning thread failed: ${event.message}`);
      for (const [id, waiting] of this.#pending) {
        if (waiting.worker !== index) continue;
        this.#pending.delete(id);
        this.#load[index]--;
        waiting.resolve({ id, error: { name: "Error", message: this.#failure.message } });
      }
    };
    return worker;
  }

  /** Scan one file on the least busy worker (workers start on first use). */
  scan(path: string, options: ScanOptions): Promise<FileOutcome> {
    if (this.#failure) return Promise.resolve({ path, kind: "error", error: this.#failure });
    let index = 0;
    if (this.#workers.length < this.size && this.#load.every((n) => n > 0)) {
      index = this.#workers.length;
      this.#workers.push(this.#start(index));
      this.#load.push(0);
    } else {
      for (let i = 1; i < this.#workers.length; i++) {
        if (this.#load[i] < this.#load[index]) index = i;
      }
    }
    const id = this.#nextId++;
    this.#load[index]++;
    return new Promise<PoolReply>((resolve) => {
      this.#pending.set(id, { worker: index, resolve });
      this.#workers[index].postMessage({ id, path, options } satisfies PoolRequest);
    }).then((reply): FileOutcome => {
      if ("error" in reply) return { path, kind: "error", error: reviveError(reply.error) };
      if ("large" in reply) return { path, kind: "large" };
      return { path, kind: "scanned", result: reply.result, findings: reply.findings };
    });
  }

  close(): void {
    for (const worker of this.#workers) worker.terminate();
    this.#workers.length = 0;
  }
}

/**
 * The outcomes of scanning `paths` through `pool`, in the order of `paths`, with at most the
 * pool's capacity in flight. An error while listing the paths (a folder that cannot be read)
 * is thrown after the outcomes of the paths listed before it, as a sequential scan would.
 */
export async function* scanInOrder(
  pool: ScanPool,
  paths: Iterable<string>,
  options: ScanOptions,
): AsyncGenerator<FileOutcome> {
  const inFlight: Promise<FileOutcome>[] = [];
  const iterator = paths[Symbol.iterator]();
  let listingError: unknown;
  let listed = false;
  const fill = () => {
    while (!listed && listingError === undefined && inFlight.length < pool.capacity) {
      let next: IteratorResult<string>;
      try {
        next = iterator.next();
      } catch (error) {
        listingError = error;
        return;
      }
      if (next.done) listed = true;
      else inFlight.push(pool.scan(next.value, options));
    }
  };
  fill();
  while (inFlight.length > 0) {
    const outcome = await inFlight.shift()!;
    fill();
    yield outcome;
  }
  if (listingError !== undefined) throw listingError;
}

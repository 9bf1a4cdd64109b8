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
  /** Scanned one after another; the reply holds one outcome per path, in this order. */
  paths: string[];
  options: ScanOptions;
  /** Scan a file too large to be read whole here too (in windows), instead of handing it back. */
  scanLarge: boolean;
}

/** One file's reply from a worker. */
export type FileReply =
  | { result: InputResult; findings: SecretFinding[] }
  | { large: true }
  | { error: { name: string; message: string } };

export interface PoolReply {
  id: number;
  replies: FileReply[];
}

/** One file's outcome: scanned, too large for a worker (stream it yourself), or an error. */
export type FileOutcome =
  | { path: string; kind: "scanned"; result: InputResult; findings: SecretFinding[] }
  | { path: string; kind: "large" }
  | { path: string; kind: "error"; error: Error };

/**
 * Files sent to a worker in one message. A message each way costs a thread's wake-up and a copy;
 * one per file cost more CPU than the scan of a small file (ADR 0655).
 */
const FILES_PER_BATCH = 32;

/** How many batches each worker may have queued: enough to keep it busy while replies travel. */
const BATCHES_PER_WORKER = 2;

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
  readonly #pending = new Map<
    number,
    { worker: number; files: number; resolve: (replies: FileReply[]) => void }
  >();
  #nextId = 0;
  #failure: Error | undefined;

  /**
   * `size` workers. With `scanLarge`, a worker also scans a file too large to be read whole (in
   * bounded windows, as the calling thread would), so the calling thread only walks, prints and
   * audits, and a tree's large files do not stall the pool while that thread scans them.
   */
  constructor(readonly size: number, readonly scanLarge = false) {
    if (size < 1) throw new Error("a scan pool needs at least one worker");
  }

  /** Batches that may be in flight at once. */
  get capacity(): number {
    return this.size * BATCHES_PER_WORKER;
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
      waiting.resolve(event.data.replies);
    };
    // A worker that dies fails every file it held (fail closed: an unscanned file is an error).
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#failure = new Error(`a scanning thread failed: ${event.message}`);
      for (const [id, waiting] of this.#pending) {
        if (waiting.worker !== index) continue;
        this.#pending.delete(id);
        this.#load[index]--;
        const error = { name: "Error", message: this.#failure.message };
        waiting.resolve(Array.from({ length: waiting.files }, () => ({ error })));
      }
    };
    return worker;
  }

  /** Scan one file on the least busy worker (workers start on first use). */
  async scan(path: string, options: ScanOptions): Promise<FileOutcome> {
    return (await this.scanBatch([path], options))[0];
  }

  /** Scan files one after another on the least busy worker; their outcomes in the same order. */
  scanBatch(paths: string[], options: ScanOptions): Promise<FileOutcome[]> {
    const failure = this.#failure;
    if (failure) {
      return Promise.resolve(paths.map((path) => ({ path, kind: "error", error: failure })));
    }
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
    return new Promise<FileReply[]>((resolve) => {
      this.#pending.set(id, { worker: index, files: paths.length, resolve });
      this.#workers[index].postMessage(
        { id, paths, options, scanLarge: this.scanLarge } satisfies PoolRequest,
      );
    }).then((replies) => replies.map((reply, k) => outcomeOf(paths[k], reply)));
  }

  close(): void {
    for (const worker of this.#workers) worker.terminate();
    this.#workers.length = 0;
  }
}

/** A worker's reply for one file as the caller's outcome. */
function outcomeOf(path: string, reply: FileReply): FileOutcome {
  if ("error" in reply) return { path, kind: "error", error: reviveError(reply.error) };
  if ("large" in reply) return { path, kind: "large" };
  return { path, kind: "scanned", result: reply.result, findings: reply.findings };
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
  const inFlight: Promise<FileOutcome[]>[] = [];
  const iterator = paths[Symbol.iterator]();
  let listingError: unknown;
  let listed = false;
  const fill = () => {
    while (!listed && listingError === undefined && inFlight.length < pool.capacity) {
      const batch: string[] = [];
      while (batch.length < FILES_PER_BATCH) {
        let next: IteratorResult<string>;
        try {
          next = iterator.next();
        } catch (error) {
          listingError = error;
          break;
        }
        if (next.done) {
          listed = true;
          break;
        }
        batch.push(next.value);
      }
      if (batch.length > 0) inFlight.push(pool.scanBatch(batch, options));
    }
  };
  fill();
  while (inFlight.length > 0) {
    const outcomes = await inFlight.shift()!;
    fill();
    yield* outcomes;
  }
  if (listingError !== undefined) throw listingError;
}

/**
 * The threads a server holds: respond conversations named by thread_id, at
 * most `maxThreads` of them, the least recently used dropped to make room
 * (never one whose turn is running). What shapes a thread is fixed when it
 * starts; a later call that tries to change it is an error.
 */
import { THREAD_ID_PATTERN } from "./uri.ts";
import { randomHex } from "../../util/random_id.ts";

/** A turn's failure the caller should read as the tool's error text (not a protocol error). */
export class TurnFailure extends Error {}

/** The arguments that shape a thread, taken only when it starts. */
export interface ThreadShape {
  model?: string;
  /** Tools offered; [] for none. Undefined: the server's default. */
  tools?: string[];
  instructions?: string;
  commandTimeoutSeconds?: number;
  workingDirectory?: string;
}

const SHAPE_KEYS = [
  "model",
  "tools",
  "instructions",
  "commandTimeoutSeconds",
  "workingDirectory",
] as const satisfies readonly (keyof ThreadShape)[];

export interface Thread<C> {
  id: string;
  shape: ThreadShape;
  /** Whatever the engine keeps for the conversation. */
  conversation: C;
  createdAt: number;
  lastUsed: number;
  turns: number;
  /** Turns running or queued on this thread. */
  busy: number;
  /** The tail of this thread's turn queue: turns run one at a time. */
  queue: Promise<unknown>;
  /** Stored outputs its turns produced (ids in the output store). */
  outputs: string[];
}

export interface ClosedThread {
  id: string;
  shape: ThreadShape;
  turns: number;
  closedAt: number;
  why: "closed" | "evicted";
}

export class ThreadError extends Error {}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Shape arguments given on a call to an existing thread that differ from its own. */
export function shapeConflicts(existing: ThreadShape, given: Partial<ThreadShape>): string[] {
  const out: string[] = [];
  for (const key of SHAPE_KEYS) {
    if (given[key] === undefined) continue;
    if (!sameValue(given[key], existing[key])) out.push(key);
  }
  return out;
}

function newThreadId(taken: (id: string) => boolean): string {
  for (;;) {
    const id = "t" + randomHex(4);
    if (!taken(id)) return id;
  }
}

/** Closed and evicted threads remembered, so a reader hears "closed" rather than "unknown". */
const CLOSED_KEPT = 256;

export class ThreadTable<C> {
  #threads = new Map<string, Thread<C>>();
  #closed = new Map<string, ClosedThread>();

  constructor(
    readonly max: number,
    readonly make: (id: string, shape: ThreadShape) => C,
    readonly dispose: (thread: Thread<C>, why: "closed" | "evicted") => void = () => {},
    readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.#threads.size;
  }

  get(id: string): Thread<C> | undefined {
    return this.#threads.get(id);
  }

  closed(id: string): ClosedThread | undefined {
    return this.#closed.get(id);
  }

  /** Open threads, least recently used first. */
  list(): Thread<C>[] {
    return [...this.#threads.values()];
  }

  /**
   * The thread for a call: the existing one (its shape unchanged) or a new
   * one. Marks it used. Throws ThreadError with a sentence for the caller.
   */
  open(id: string | undefined, shape: Partial<ThreadShape>, defaults: ThreadShape): {
    thread: Thread<C>;
    created: boolean;
    evicted?: string;
  } {
    if (id !== undefined && !THREAD_ID_PATTERN.test(id)) {
      throw new ThreadError(
        `thread_id "${id}" is not a valid id: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
      );
    }
    const existing = id === undefined ? undefined : this.#threads.get(id);
    if (existing) {
      const conflicts = shapeConflicts(existing.shape, shape);
      if (conflicts.length > 0) {
        throw new ThreadError(
          `thread ${existing.id} already started; ${conflicts.join(", ")} ${
            conflicts.length === 1 ? "is" : "are"
          } taken only when a thread starts: leave ${
            conflicts.length === 1 ? "it" : "them"
          } out, or use a new thread_id`,
        );
      }
      this.#touch(existing);
      return { thread: existing, created: false };
    }
    let evicted: string | undefined;
    if (this.#threads.size >= this.max) {
      const victim = [...this.#threads.values()].find((t) => t.busy === 0);
      if (!victim) {
        throw new ThreadError(
          `all ${this.max} threads are running a turn; wait for one to finish or raise maxThreads`,
        );
      }
      this.#drop(victim, "evicted");
      evicted = victim.id;
    }
    const newId = id ??
      newThreadId((candidate) => this.#threads.has(candidate) || this.#closed.has(candidate));
    this.#closed.delete(newId);
    const full: ThreadShape = { ...defaults };
    for (const key of SHAPE_KEYS) {
      if (shape[key] !== undefined) (full as Record<string, unknown>)[key] = shape[key];
    }
    const at = this.now();
    const thread: Thread<C> = {
      id: newId,
      shape: full,
      conversation: this.make(newId, full),
      createdAt: at,
      lastUsed: at,
      turns: 0,
      busy: 0,
      queue: Promise.resolve(),
      outputs: [],
    };
    this.#threads.set(newId, thread);
    return { thread, created: true, ...(evicted ? { evicted } : {}) };
  }

  /** Run `work` as the thread's next turn, after any turn already queued on it. */
  runTurn<T>(thread: Thread<C>, work: () => Promise<T>): Promise<T> {
    thread.busy++;
    const run = thread.queue.then(() => {
      thread.turns++;
      return work();
    });
    thread.queue = run.catch(() => {}).finally(() => {
      thread.busy--;
      thread.lastUsed = this.now();
    });
    return run;
  }

  /** Free one thread; false when there is none of that id. */
  close(id: string): boolean {
    const thread = this.#threads.get(id);
    if (!thread) return false;
    this.#drop(thread, "closed");
    return true;
  }

  closeAll(): void {
    for (const thread of [...this.#threads.values()]) this.#drop(thread, "closed");
  }

  #touch(thread: Thread<C>): void {
    thread.lastUsed = this.now();
    this.#threads.delete(thread.id);
    this.#threads.set(thread.id, thread);
  }

  #drop(thread: Thread<C>, why: "closed" | "evicted"): void {
    this.#threads.delete(thread.id);
    this.#closed.set(thread.id, {
      id: thread.id,
      shape: thread.shape,
      turns: thread.turns,
      closedAt: this.now(),
      why,
    });
    while (this.#closed.size > CLOSED_KEPT) {
      this.#closed.delete(this.#closed.keys().next().value!);
    }
    try {
      this.dispose(thread, why);
    } catch { /* disposing never stops a close */ }
  }
}

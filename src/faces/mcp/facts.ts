/**
 * The MCP face's facts: each open thread's fact book, `set_fact_scope`, and
 * the facts resources' rows.
 *
 * A caller may ask that a thread's fact be kept as a permanent fact; only
 * the person admits one. The request is filed on the pending board (kind
 * fact) exactly as an approval is, a notification names it, and the call
 * returns at once saying what waits: the agent tells the person the id, and
 * the person answers with `wisp facts keep|drop <id>` at a terminal. The
 * server watches the request's socket for as long as it runs, and the first
 * answer wins; keep writes the fact to facts.json (even when the thread has
 * closed meanwhile), drop leaves it in its thread, which does not ask again.
 * A request the server could not see answered outlives it (pending.ts).
 */
import { resolve } from "node:path";
import type { AuditSink } from "../../audit/writer.ts";
import type { Config } from "../../config/schema.ts";
import type { HomePaths } from "../../config/home.ts";
import type { PendingBoard, PendingFactRequest } from "../../gate/pending.ts";
import {
  type FactBook,
  FactError,
  factText,
  type FactVersion,
  keepPermanentFact,
  lineOf,
  observe,
  openFactBook,
  readPermanentFacts,
  sourceText,
} from "../../context/facts/mod.ts";

/** set_fact_scope's arguments, checked by the server's schema. */
export interface FactScopeArgs {
  thread_id: string;
  fact?: string;
  subject?: string;
  name?: string;
  value?: string;
  scope: "thread" | "permanent";
}

/** set_fact_scope's result. */
export interface FactScopeResult {
  thread_id: string;
  /** The fact's id in the thread, and its line. */
  fact?: string;
  line?: string;
  /** permanent (already kept), pending (waiting for the person), thread (this thread's alone). */
  scope: "thread" | "permanent" | "pending";
  /** The pending request's id, while it waits. */
  pending_id?: string;
  message: string;
}

/** A call the caller must change: the server returns it as the tool's error. */
export class FactScopeError extends Error {}

/** What the desk needs from the server: config, home, audit, the board, threads, client, notifier, log. */
export interface FactDeskOptions {
  config: Pick<Config, "facts">;
  paths: Pick<HomePaths, "facts">;
  audit: Pick<AuditSink, "record" | "session">;
  /** Absent when approval.outOfBand is false (or the board could not open). */
  board?: PendingBoard;
  /** Whether a thread is open now, and its working directory. */
  threadOpen(id: string): boolean;
  threadDirectory?(id: string): string | undefined;
  client(): string;
  notify(title: string, message: string): Promise<string | null>;
  log(level: "debug" | "info" | "error", text: string): void;
  /** How often a waiting request's socket is looked at. */
  pollMs?: number;
}

interface Waiting {
  request: PendingFactRequest;
  thread: string;
  factId: string;
  timer: ReturnType<typeof setTimeout> | undefined;
  stopped: boolean;
}

/** The labels of run_command's result that are not what the command printed (command_result.ts). */
const RESULT_LABEL =
  /^(exit status: .*|stdout:|stderr:|(timed out|stopped|sandbox|held back): .*)$/;

/**
 * What a command printed, from its run_command result as the model read it
 * (`exit status: 0`, `stdout:` and its lines, `stderr:` and its lines, then
 * notes): the labels removed, the streams' lines kept in order.
 */
export function printedOf(result: string): string {
  return result.split("\n").filter((line) => !RESULT_LABEL.test(line)).join("\n");
}

/** The server's facts: a book per open thread, set_fact_scope, the requests it watches. */
export class FactDesk {
  #books = new Map<string, FactBook>();
  #waiting = new Map<string, Waiting>();

  constructor(readonly options: FactDeskOptions) {}

  /** Whether threads keep facts (facts.enabled). */
  get enabled(): boolean {
    return this.options.config.facts.enabled;
  }

  /** The thread's book, opened at first use; undefined when facts are off. */
  bookFor(thread: string): FactBook | undefined {
    if (!this.enabled) return undefined;
    let book = this.#books.get(thread);
    if (!book) {
      book = openFactBook({
        config: this.options.config,
        paths: this.options.paths,
        audit: {
          record: (kind, fields) => this.options.audit.record(kind, { ...fields, thread } as never),
        },
        cwd: this.options.threadDirectory?.(thread),
      })!;
      this.#books.set(thread, book);
    }
    return book;
  }

  /** The thread has closed: its book goes with it (a waiting request stays). */
  forget(thread: string): void {
    this.#books.delete(thread);
  }

  /** Record what a caller states for the thread (respond's task). */
  recordStated(thread: string, turn: number, subject: string, value: string, name = ""): void {
    const book = this.bookFor(thread);
    if (!book) return;
    book.beginTurn(turn);
    try {
      book.record({ subject, name, value, source: { by: "caller", method: "stated", turn } });
    } catch (error) {
      if (!(error instanceof FactError)) throw error;
      this.options.log("info", `thread ${thread}: ${error.message}`);
    }
  }

  /**
   * Record what a turn's commands showed (observe.ts): where each ran, and,
   * when its result was small enough to be given whole, the branch or test
   * result it reported. A result given only by reference is not guessed at.
   */
  observeTurn(
    thread: string,
    turn: number,
    calls: readonly {
      tool: string;
      arguments: unknown;
      command?: string;
      exitStatus?: number;
      output?: string;
      outputRef?: string;
    }[],
    root: string,
  ): void {
    const book = this.bookFor(thread);
    if (!book) return;
    const base = this.options.threadDirectory?.(thread) ?? root;
    for (const call of calls) {
      if (call.command === undefined || call.exitStatus === undefined) continue;
      const given = (call.arguments as { workingDirectory?: unknown } | undefined)
        ?.workingDirectory;
      const cwd = typeof given === "string" ? resolve(base, given) : base;
      const whole = call.outputRef === undefined && call.output !== undefined
        ? printedOf(call.output)
        : undefined;
      const facts = observe({
        tool: call.tool,
        command: call.command,
        cwd,
        exitStatus: call.exitStatus,
        output: whole ?? "",
        turn,
      });
      for (const fact of facts) {
        if (whole === undefined && fact.subject !== "workdir") continue;
        try {
          book.record(fact);
        } catch (error) {
          if (!(error instanceof FactError)) throw error;
        }
      }
    }
  }

  /** set_fact_scope: see the module comment. Throws FactScopeError with a sentence. */
  async setScope(args: FactScopeArgs): Promise<FactScopeResult> {
    const thread = args.thread_id;
    if (!this.enabled) {
      throw new FactScopeError(
        "facts.enabled is false in the config, so threads keep no facts; ask the person to turn it on",
      );
    }
    if (!this.options.threadOpen(thread)) {
      throw new FactScopeError(`there is no open thread ${thread}; wisp://threads lists them`);
    }
    const book = this.bookFor(thread)!;
    const version = this.#resolve(book, thread, args);
    const result = await this.#apply(book, thread, version, args.scope);
    this.options.audit.record("fact.scope", {
      thread,
      factId: version.id,
      scope: args.scope,
      result: result.scope,
    });
    return result;
  }

  #resolve(book: FactBook, thread: string, args: FactScopeArgs): FactVersion {
    if (args.fact !== undefined) {
      if (args.subject !== undefined || args.value !== undefined) {
        throw new FactScopeError("give either fact (an id) or subject and value, not both");
      }
      const found = book.find(args.fact);
      if (!found) {
        throw new FactScopeError(
          `thread ${thread} has no fact ${args.fact}; wisp://threads/${thread}/facts lists them`,
        );
      }
      const current = book.currentOf(found);
      if (!current) {
        throw new FactScopeError(`fact ${found.id} of thread ${thread} is no longer current`);
      }
      return current;
    }
    if (args.subject === undefined || args.value === undefined) {
      throw new FactScopeError(
        "name the fact: fact (its id, such as c3) or subject, name and value to state one",
      );
    }
    try {
      return book.record({
        subject: args.subject,
        name: args.name ?? "",
        value: args.value,
        source: { by: "caller", method: "stated", ...(book.turn > 0 ? { turn: book.turn } : {}) },
      });
    } catch (error) {
      if (error instanceof FactError) throw new FactScopeError(error.message);
      throw error;
    }
  }

  async #apply(
    book: FactBook,
    thread: string,
    version: FactVersion,
    scope: "thread" | "permanent",
  ): Promise<FactScopeResult> {
    const base = { thread_id: thread, fact: version.id, line: lineOf(version) };
    const waiting = [...this.#waiting.values()].find((w) =>
      w.thread === thread && book.find(w.factId) !== undefined &&
      book.currentOf(book.find(w.factId)!) === version
    );
    if (scope === "thread") {
      if (waiting) {
        this.#stop(waiting);
        this.options.board?.settle(waiting.request.id, {
          status: "closed",
          by: "caller",
          reason: "the caller withdrew it (set_fact_scope thread)",
        });
        return { ...base, scope: "thread", message: `withdrew the request to keep ${version.id}` };
      }
      if (version.scope === "permanent") {
        return {
          ...base,
          scope: "permanent",
          message:
            `${version.id} is a permanent fact the person kept; only the person can change that`,
        };
      }
      return { ...base, scope: "thread", message: `${version.id} is this thread's alone` };
    }
    if (version.scope === "permanent") {
      return { ...base, scope: "permanent", message: `${version.id} is already a permanent fact` };
    }
    if (version.class === "ephemeral") {
      throw new FactScopeError(
        `${version.id} is an ${version.subject}, which lasts only its turn; it cannot be kept`,
      );
    }
    if (book.declined(version)) {
      return {
        ...base,
        scope: "thread",
        message: `the person chose not to keep ${version.id}; it stays in this thread only`,
      };
    }
    if (waiting) {
      return {
        ...base,
        scope: "pending",
        pending_id: waiting.request.id,
        message: this.#waitingMessage(waiting.request.id),
      };
    }
    const board = this.options.board;
    if (!board) {
      throw new FactScopeError(
        "approval.outOfBand is false, so the person cannot be asked; only the person keeps a permanent fact",
      );
    }
    const client = this.options.client();
    const request = board.fileFact({
      session: this.options.audit.session,
      client,
      thread,
      fact: {
        id: version.id,
        subject: version.subject,
        name: version.name,
        key: version.key,
        value: version.value,
        by: version.source.by,
        source: sourceText(version.source),
      },
    });
    this.options.audit.record("fact.pending", {
      pendingId: request.id,
      factId: version.id,
      thread,
      client,
      fact: factText(version),
    });
    const entry: Waiting = {
      request,
      thread,
      factId: version.id,
      timer: undefined,
      stopped: false,
    };
    this.#waiting.set(request.id, entry);
    this.#watch(entry);
    const title = "wisp: keep as a permanent fact?";
    const message = `${
      version.name || version.subject
    } = ${version.value} — wisp facts keep ${request.id}`;
    const route = await this.options.notify(title, message).catch(() => null);
    this.options.audit.record("notification", {
      route,
      posted: route !== null,
      source: "fact",
      title,
      message,
      id: request.id,
      thread,
    });
    return {
      ...base,
      scope: "pending",
      pending_id: request.id,
      message: this.#waitingMessage(request.id),
    };
  }

  #waitingMessage(id: string): string {
    return `waiting for the person to keep it: tell them the id ${id} (wisp facts keep ${id} or wisp facts drop ${id}) and do not answer it yourself`;
  }

  #watch(entry: Waiting): void {
    const board = this.options.board!;
    const tick = async () => {
      if (entry.stopped) return;
      const answer = await board.take(entry.request.id, ({ reason, pid }) => {
        this.options.audit.record("fact.answer_refused", {
          pendingId: entry.request.id,
          reason,
          answererPid: pid,
          thread: entry.thread,
        });
        this.options.log("info", `refused an answer to ${entry.request.id}: ${reason}`);
      });
      if (entry.stopped) return;
      if (!answer) {
        entry.timer = setTimeout(tick, this.options.pollMs ?? 100);
        Deno.unrefTimer(entry.timer);
        return;
      }
      this.#stop(entry);
      if (answer.decision === "keep") this.#keep(entry);
      else this.#drop(entry);
    };
    entry.timer = setTimeout(tick, 0);
    Deno.unrefTimer(entry.timer);
  }

  #keep(entry: Waiting): void {
    const { request } = entry;
    let kept;
    try {
      kept = keepPermanentFact(this.options.paths.facts, {
        subject: request.fact.subject,
        name: request.fact.name,
        key: request.fact.key,
        value: request.fact.value,
        from: {
          client: request.client,
          thread: request.thread,
          factId: request.fact.id,
          source: request.fact.source,
        },
        via: "terminal",
      });
    } catch (error) {
      this.options.board?.settle(request.id, {
        status: "refused",
        by: "server",
        reason: `the fact could not be kept: ${(error as Error).message}`,
      });
      this.options.log("error", `could not keep ${request.id}: ${(error as Error).message}`);
      return;
    }
    this.#books.get(entry.thread)?.markPermanent(entry.factId);
    this.options.board?.settle(request.id, { status: "kept", by: "terminal" });
    this.options.audit.record("fact.kept", {
      fact: factText(request.fact),
      permanentId: kept.fact.id,
      by: "terminal",
      pendingId: request.id,
      thread: request.thread,
    });
  }

  #drop(entry: Waiting): void {
    const { request } = entry;
    this.#books.get(entry.thread)?.decline(entry.factId);
    this.options.board?.settle(request.id, { status: "dropped", by: "terminal" });
    this.options.audit.record("fact.dropped", {
      fact: factText(request.fact),
      by: "terminal",
      pendingId: request.id,
      thread: request.thread,
    });
  }

  #stop(entry: Waiting): void {
    entry.stopped = true;
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    this.#waiting.delete(entry.request.id);
  }

  /** Stop watching (the server is stopping; the board releases the requests). */
  close(): void {
    for (const entry of [...this.#waiting.values()]) this.#stop(entry);
  }

  /** wisp://facts: the permanent facts, and the requests this server has waiting. */
  permanentRows(): { facts: Record<string, unknown>[]; pending: Record<string, unknown>[] } {
    let facts: Record<string, unknown>[];
    try {
      facts = readPermanentFacts(this.options.paths.facts).map((f) => ({
        id: f.id,
        subject: f.subject,
        name: f.name,
        value: f.value,
        keptAt: f.keptAt,
        ...(f.from ? { from: f.from } : {}),
      }));
    } catch (error) {
      throw new FactScopeError((error as Error).message);
    }
    const pending = [...this.#waiting.values()].map((w) => ({
      pending_id: w.request.id,
      thread_id: w.thread,
      fact: w.factId,
      keep: `${w.request.fact.name || w.request.fact.subject} = ${w.request.fact.value}`,
    }));
    return { facts, pending };
  }

  /** wisp://threads/{id}/facts: the thread's current facts as lines, and every version. */
  threadRows(thread: string): { lines: string[]; versions: Record<string, unknown>[] } {
    const book = this.bookFor(thread);
    if (!book) {
      throw new FactScopeError(
        "facts.enabled is false in the config, so threads keep no facts",
      );
    }
    return {
      lines: book.lines(),
      versions: book.all().map((v) => ({
        id: v.id,
        subject: v.subject,
        name: v.name,
        value: v.value,
        class: v.class,
        state: v.state,
        scope: v.scope,
        source: sourceText(v.source),
        at: v.at,
        ...(v.supersedes ? { supersedes: v.supersedes } : {}),
      })),
    };
  }
}

/**
 * What waits in `wisp mcp` servers, sent to a `wisp chat --json` front end
 * as protocol lines when its hello asked for them (ADR 0595):
 *
 * - `approve-mcp`: each command waiting for approval is an `approval` line
 *   with `source: "mcp"` and its client and thread;
 * - `keep-facts`: each fact a caller asks to keep is an `approval` line of
 *   kind "fact";
 * - `answer-questions`: each question the model asks is a `choice` line of
 *   kind "question" with `source: "mcp"`.
 *
 * The pending folder is listed every half second; a request sent before and
 * no longer waiting gets a `withdrawn` line saying how it ended. An answer
 * to one of these lines goes through the chat's one answering path
 * (waiting.ts), where the server's answerer check applies: a chat that a
 * program drives is not an answerer, so the answer is refused with a note
 * naming the terminal command that answers it.
 */
import {
  approvalWords,
  listPendingFacts,
  listPendingItems,
  listUnreadable,
  type PendingFactRequest,
  type PendingItem,
} from "../../gate/pending.ts";
import { log } from "../../util/log.ts";
import { messageOf } from "../../util/errors.ts";
import type { ChoiceLine, OutLine } from "./protocol.ts";
import { outcomeWords } from "../../gate/pending.ts";
import { readOutcome, unreadableNote } from "./waiting.ts";

/** How often the pending folder is listed. */
export const MCP_POLL_MS = 500;

/** Which kinds of waiting request the hello asked to be sent. */
export interface McpLineEffects {
  approvals: boolean;
  facts: boolean;
  questions: boolean;
}

/** The effects a hello's list asks for. Pure. */
export function mcpLineEffects(effects: readonly string[]): McpLineEffects {
  return {
    approvals: effects.includes("approve-mcp"),
    facts: effects.includes("keep-facts"),
    questions: effects.includes("answer-questions"),
  };
}

/** A request sent as a line: an approval, a fact to keep, or a question. */
type SentRequest = PendingItem | PendingFactRequest;

/**
 * The approval line for a command or a model action waiting in a wisp mcp
 * server; a model action is answered once or no, as its server takes it. Pure.
 */
export function approvalLineFor(request: PendingItem & { kind: "approval" }): OutLine {
  const model = request.asks === "model";
  return {
    type: "approval",
    id: request.id,
    kind: model ? "model" : "command",
    words: approvalWords(request),
    source: "mcp",
    level: request.level,
    command: request.command,
    line: request.command,
    cwd: request.cwd,
    reasons: request.reasons,
    pattern: request.pattern ?? request.command,
    outsideSandbox: request.outsideSandbox,
    options: request.outsideSandbox || model
      ? ["once", "no"]
      : ["once", "session", "project", "always", "no"],
    client: request.client,
    thread: request.thread,
  };
}

/** The approval line of kind "fact" for a fact a caller asks to keep. Pure. */
export function factLineFor(request: PendingFactRequest): OutLine {
  const { fact } = request;
  const words = `${fact.name || fact.subject} = ${fact.value}`;
  return {
    type: "approval",
    id: request.id,
    kind: "fact",
    words,
    source: "mcp",
    level: "safe",
    command: words,
    line: words,
    cwd: "",
    reasons: [`proposed by ${fact.by} (${fact.source}) in thread ${request.thread}`],
    pattern: fact.key,
    outsideSandbox: false,
    options: ["keep", "drop"],
    client: request.client,
    thread: request.thread,
  };
}

/** The choice line for a question the model asks in a wisp mcp server. Pure. */
export function questionLineFor(request: PendingItem & { kind: "question" }): ChoiceLine {
  return {
    type: "choice",
    id: request.id,
    kind: "question",
    title: `${request.question} (${request.client}, thread ${request.thread})`,
    options: request.options.map((value) => ({ value })),
    typed: request.options.length === 0,
    source: "mcp",
  };
}

/** Sends what waits in wisp mcp servers as lines, until stopped. */
export class McpRequestLines {
  readonly #dir: string;
  readonly #effects: McpLineEffects;
  readonly #emit: (line: OutLine) => void;
  /** Requests sent and still waiting when last listed. */
  #sent = new Map<string, SentRequest>();
  /** Unreadable request files already noted (each once). */
  #unreadableNoted = new Set<string>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #listing: Promise<void> | undefined;

  constructor(dir: string, effects: McpLineEffects, emit: (line: OutLine) => void) {
    this.#dir = dir;
    this.#effects = effects;
    this.#emit = emit;
  }

  /** Whether the hello asked for any of these lines. */
  get wanted(): boolean {
    return this.#effects.approvals || this.#effects.facts || this.#effects.questions;
  }

  /** The request sent under `id`, while it waits. */
  sent(id: string): SentRequest | undefined {
    return this.#sent.get(id);
  }

  /** List now and every half second after. */
  start(): void {
    if (!this.wanted || this.#timer !== undefined) return;
    void this.poll();
    this.#timer = setInterval(() => void this.poll(), MCP_POLL_MS);
  }

  /** Stop listing (the chat ends); waits for a listing under way. */
  async stop(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#listing;
  }

  /** One listing: lines for requests newly waiting, withdrawn lines for those gone. */
  poll(): Promise<void> {
    // One listing at a time: a slow folder never stacks them up.
    this.#listing ??= this.#list().finally(() => this.#listing = undefined);
    return this.#listing;
  }

  async #list(): Promise<void> {
    let now: SentRequest[];
    try {
      const items = (this.#effects.approvals || this.#effects.questions)
        ? await listPendingItems(this.#dir)
        : [];
      const facts = this.#effects.facts ? await listPendingFacts(this.#dir) : [];
      now = [
        ...items.map((l) => l.request).filter((r) =>
          r.kind === "approval" ? this.#effects.approvals : this.#effects.questions
        ),
        ...facts.map((l) => l.request),
      ];
    } catch (error) {
      log("info", `chat: cannot list ${this.#dir}: ${messageOf(error)}`);
      return;
    }
    // A request file that cannot be read is never left out as if nothing waited: with approvals
    // asked for, each is a warning note once, since no dialog could say what it asks.
    if (this.#effects.approvals) {
      for (const { id, why } of listUnreadable(this.#dir)) {
        if (this.#unreadableNoted.has(id)) continue;
        this.#unreadableNoted.add(id);
        this.#emit({ type: "note", text: unreadableNote(id, why), tone: "warn", kind: "waiting" });
      }
    }
    const current = new Map(now.map((r) => [r.id, r]));
    for (const id of [...this.#sent.keys()]) {
      if (current.has(id)) continue;
      this.#sent.delete(id);
      this.#emit({ type: "withdrawn", id, reason: outcomeWords(readOutcome(this.#dir, id)) });
    }
    for (const [id, request] of current) {
      if (this.#sent.has(id)) continue;
      this.#sent.set(id, request);
      this.#emit(
        request.kind === "approval"
          ? approvalLineFor(request)
          : request.kind === "fact"
          ? factLineFor(request)
          : questionLineFor(request),
      );
    }
  }
}

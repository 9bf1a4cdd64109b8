/**
 * A conversation's context: its store, and the composing and condensing that
 * make every request fit the model's window. The turn loop (agent/turn.ts)
 * begins a turn with the person's message, adds each message of the turn,
 * and asks for the messages of each request; it never holds the
 * conversation itself.
 *
 * Before each request, when the context, the next message and a turn of
 * average size would pass 85% of the window, the context is condensed to
 * the target share of the window (context.target, 0.6 by default): first the
 * running turn's earlier outputs become references, then the oldest turns
 * are handed to the running summary and the facts and dropped from view,
 * measuring after each step and always keeping the running turn. A request
 * the server refuses as too long is condensed the same way (the calibration
 * first learns that the estimate fell short) and the turn retries it once.
 * Each condensing is audited as `context.condensed`. ADR 0502 explains the
 * order and the numbers.
 */
import type { AuditSink } from "../audit/writer.ts";
import type { ChatMessage, ToolSpec } from "../models/backend.ts";
import { composeMessages, type RunningSummary } from "./compose.ts";
import { type FactSink, NULL_FACT_SINK } from "./facts_sink.ts";
import { ConversationStore, type StoreSnapshot, type StoreTurn } from "./store.ts";
import { exactSummary, type Summariser, turnsText } from "./summary.ts";
import { CHARS_PER_TOKEN, requestTokens, TokenCalibration } from "./tokens.ts";
import type { AuditEvent } from "../audit/catalogue.ts";

/** Condense when a request and an average turn would pass this share of the window. */
export const CONDENSE_THRESHOLD = 0.85;
/** The share of the window condensing aims for, unless context.target says otherwise. */
export const DEFAULT_TARGET = 0.6;
/** The running summary takes at most this share of the window. */
const SUMMARY_SHARE = 0.1;
/** A summary side call carries at most this share of the window of turns. */
const SUMMARY_INPUT_SHARE = 0.5;
/** An average turn is counted at most at this share of the window. */
const AVERAGE_TURN_SHARE = 0.25;
/** The average turn is taken over this many recent turns. */
const AVERAGE_OVER_TURNS = 8;

/** How a conversation's context is made: its instructions, window, target, and what it hands dropped turns to. */
export interface ContextOptions {
  /** wisp's instructions with the extension layers: the start of every request. */
  instructions: string;
  /** The model's window, in tokens. */
  window: number;
  /** The share of the window to condense to (context.target). */
  target?: number;
  /** The conversation has the memory tool (references name its recall). */
  memory?: boolean;
  /** The audit log writes its file, so the store may let outputs go (it can be read there). */
  auditHolds?: boolean;
  /** The file the store copies dropped entries the audit does not hold into (ADR 0590). */
  copyFile?: string;
  /** Folds dropped turns into the running summary; without one the exact summary is used. */
  summariser?: Summariser;
  /** Where dropped turns are distilled into facts, and facts are read from. */
  facts?: FactSink;
  /** One of wisp's own side calls to the conversation's model (fixed prompt, no tools, thinking off). */
  sideCall?: SideCall;
}

/** Ask the conversation's model once, outside the conversation: instructions and a message in, its text out. */
export type SideCall = (
  instructions: string,
  message: string,
  signal?: AbortSignal,
) => Promise<string>;

/** One condensing, as audited. */
export interface Condensing {
  reason: "threshold" | "overflow";
  beforeTokens: number;
  afterTokens: number;
  referenced: number[];
  droppedTurns: number[];
}

/** A context as saved: its store and the running summary (the facts live in their book). */
export interface ContextSnapshot {
  store: StoreSnapshot;
  summary: RunningSummary | null;
}

/** A conversation's store, and the composing and condensing of each request from it. */
export class ConversationContext {
  readonly store: ConversationStore;
  readonly calibration = new TokenCalibration();
  readonly window: number;
  readonly target: number;
  readonly memory: boolean;
  readonly instructions: string;
  #summary: RunningSummary | null = null;
  #referenced = new Set<number>();
  #audit: AuditSink | undefined;
  #lastEstimate = 0;
  #turnSizes: number[] = [];
  #condensedThisTurn: Condensing[] = [];
  readonly #summariser: Summariser | undefined;
  readonly #facts: FactSink;
  /** The conversation's side call to its model, when it has a model (the memory tool's condense). */
  readonly sideCall: SideCall | undefined;

  constructor(options: ContextOptions) {
    this.instructions = options.instructions;
    this.window = options.window;
    this.target = options.target ?? DEFAULT_TARGET;
    this.memory = options.memory ?? false;
    this.store = new ConversationStore({
      auditHolds: options.auditHolds ?? false,
      ...(options.copyFile ? { copyFile: options.copyFile } : {}),
    });
    this.#summariser = options.summariser;
    this.#facts = options.facts ?? NULL_FACT_SINK;
    this.sideCall = options.sideCall;
  }

  /** The conversation's facts. */
  get facts(): FactSink {
    return this.#facts;
  }

  /** The running summary of the dropped turns, or null while nothing was dropped. */
  get summary(): RunningSummary | null {
    return this.#summary;
  }

  /** The condensings of the running (or last) turn. */
  get condensedThisTurn(): readonly Condensing[] {
    return this.#condensedThisTurn;
  }

  /** The store and the summary as plain JSON (a chat's transcript). */
  snapshot(): ContextSnapshot {
    return {
      store: this.store.snapshot(),
      summary: this.#summary ? { ...this.#summary } : null,
    };
  }

  /** Carry on a saved conversation: its store and summary, before its first new turn. */
  restore(snapshot: ContextSnapshot): void {
    this.store.restore(snapshot.store);
    this.#summary = snapshot.summary ? { ...snapshot.summary } : null;
  }

  /** Begin a turn with the person's message; condensing records through `audit`. */
  begin(prompt: string, audit?: AuditSink): void {
    this.#audit = audit;
    this.#referenced = new Set();
    this.#condensedThisTurn = [];
    this.store.begin(prompt);
  }

  /** Add a message of the running turn. */
  add(message: ChatMessage): void {
    this.store.add(message);
  }

  /** The turn ended: link its entries to the audit events that recorded them. */
  end(events: readonly AuditEvent[] = []): void {
    const turn = this.store.current;
    if (!turn) return;
    this.#turnSizes.push(turn.entries.reduce((sum, e) => sum + e.tokens, 0));
    if (this.#turnSizes.length > AVERAGE_OVER_TURNS) this.#turnSizes.shift();
    this.store.end(events);
    this.#referenced = new Set();
  }

  /** The messages as the next request would carry them (no condensing). */
  compose(): ChatMessage[] {
    return composeMessages({
      instructions: this.instructions,
      facts: this.#facts.lines(),
      summary: this.#summary,
      turns: this.store.turns,
      referenced: this.#referenced,
      memory: this.memory,
    });
  }

  /** A request's size in tokens: estimated, then calibrated. */
  measure(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): number {
    return this.calibration.tokens(requestTokens(messages, tools));
  }

  /** The tokens a turn of average size adds (0 before any turn ended). */
  averageTurnTokens(): number {
    if (this.#turnSizes.length === 0) return 0;
    const mean = this.#turnSizes.reduce((a, b) => a + b, 0) / this.#turnSizes.length;
    return Math.min(
      Math.ceil(this.calibration.tokens(mean)),
      Math.floor(this.window * AVERAGE_TURN_SHARE),
    );
  }

  /** The messages of the next request, condensed first when they and an average turn would not fit. */
  async request(tools: readonly ToolSpec[], signal?: AbortSignal): Promise<ChatMessage[]> {
    let messages = this.compose();
    const tokens = this.measure(messages, tools);
    if (tokens + this.averageTurnTokens() > CONDENSE_THRESHOLD * this.window) {
      await this.#condense("threshold", tools, tokens, signal);
      messages = this.compose();
    }
    this.#lastEstimate = requestTokens(messages, tools);
    return messages;
  }

  /** The server counted the last request's input tokens: calibrate the estimate. */
  reported(inputTokens: number | undefined): void {
    this.calibration.observe(this.#lastEstimate, inputTokens);
  }

  /**
   * The server refused the last request as too long: the estimate fell short
   * of at least the window, so calibrate to that, then condense to the
   * target. False when nothing more could go.
   */
  async overflowed(tools: readonly ToolSpec[], signal?: AbortSignal): Promise<boolean> {
    if (this.#lastEstimate > 0) {
      this.calibration.observe(this.#lastEstimate, Math.ceil(this.window * 1.05));
    }
    const before = this.measure(this.compose(), tools);
    return await this.#condense("overflow", tools, before, signal);
  }

  /** Condense to the target; true when anything changed. */
  async #condense(
    reason: "threshold" | "overflow",
    tools: readonly ToolSpec[],
    beforeTokens: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const goal = Math.floor(this.target * this.window);
    const referenced: number[] = [];
    let size = beforeTokens;
    const now = () => this.measure(this.compose(), tools);

    // 1. The running turn's earlier outputs become references; its latest round stays whole.
    const current = this.store.current;
    if (current && size > goal) {
      const lastReply = current.entries.findLastIndex((e) => e.kind === "reply");
      for (const entry of current.entries.slice(0, Math.max(0, lastReply))) {
        if (size <= goal) break;
        if (entry.kind !== "output" || this.#referenced.has(entry.n)) continue;
        this.#referenced.add(entry.n);
        referenced.push(entry.n);
        size = now();
      }
    }

    // 2. The oldest turns go to the summary and the facts, leaving room for the summary to grow.
    const summaryMaxChars = Math.floor(this.window * SUMMARY_SHARE * CHARS_PER_TOKEN);
    const growth = () =>
      this.calibration.tokens(
        Math.max(0, summaryMaxChars - (this.#summary?.text.length ?? 0)) / CHARS_PER_TOKEN,
      );
    const dropped: StoreTurn[] = [];
    // Dropping starts only when the context is over the goal; once it has, it goes on until
    // the summary can grow to its limit and still fit.
    while (
      (size > goal || (dropped.length > 0 && size + growth() > goal)) &&
      this.store.turns.length > 1 && !this.store.turns[0].open
    ) {
      dropped.push(...this.store.drop(1));
      size = now();
    }
    let summaryBy: "model" | "exact" | undefined;
    if (dropped.length > 0) {
      // Stopped while folding (the turn's signal reached a side call), condensing is undone
      // whole: the turns back in view, the references gone, no fact from it kept.
      const undoFacts = this.#facts.checkpoint?.();
      try {
        summaryBy = await this.#fold(dropped, summaryMaxChars, signal);
      } catch (error) {
        this.store.undrop(dropped);
        for (const n of referenced) this.#referenced.delete(n);
        undoFacts?.();
        throw error;
      }
      size = now();
    }

    if (referenced.length === 0 && dropped.length === 0) return false;
    const record: Condensing = {
      reason,
      beforeTokens,
      afterTokens: size,
      referenced,
      droppedTurns: dropped.map((t) => t.n),
    };
    this.#condensedThisTurn.push(record);
    this.#audit?.record("context.condensed", {
      ...record,
      window: this.window,
      ...(this.#summary ? { summary: this.#summary.text } : {}),
      ...(summaryBy ? { summaryBy } : {}),
    });
    return true;
  }

  /** Fold dropped turns into the summary (in chunks that fit a side call) and hand them to the facts. */
  async #fold(
    dropped: StoreTurn[],
    maxChars: number,
    signal?: AbortSignal,
  ): Promise<"model" | "exact"> {
    const chunkChars = Math.floor(
      (this.window * SUMMARY_INPUT_SHARE * CHARS_PER_TOKEN) / this.calibration.factor,
    );
    const outputChars = Math.max(256, Math.floor(chunkChars / 8));
    let summary = this.#summary?.text ?? "";
    let by: "model" | "exact" = this.#summariser ? "model" : "exact";
    const chunks: StoreTurn[][] = [];
    let chunk: StoreTurn[] = [];
    for (const turn of dropped) {
      if (chunk.length > 0 && turnsText([...chunk, turn], outputChars).length > chunkChars) {
        chunks.push(chunk);
        chunk = [];
      }
      chunk.push(turn);
    }
    if (chunk.length > 0) chunks.push(chunk);
    for (const part of chunks) {
      const text = turnsText(part, outputChars).slice(0, chunkChars);
      const source = part.length === 1
        ? `turn ${part[0].n}`
        : `turns ${part[0].n}–${part[part.length - 1].n}`;
      try {
        await this.#facts.distil(text, source, signal);
      } catch {
        // The facts' own failure never stops condensing: the summary still holds these turns.
      }
      if (signal?.aborted) throw new DOMException("aborted", "AbortError");
      if (this.#summariser && by === "model") {
        try {
          summary = await this.#summariser.summarise(summary, text, maxChars, signal);
          continue;
        } catch {
          if (signal?.aborted) throw new DOMException("aborted", "AbortError");
          by = "exact"; // the model could not: this and later chunks are summarised exactly
        }
      }
      summary = exactSummary(summary, part, maxChars);
    }
    this.#summary = { text: summary, throughTurn: dropped[dropped.length - 1].n };
    return by;
  }
}

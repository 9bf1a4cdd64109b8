/**
 * A conversation: the one place a face's message becomes a turn of the
 * agent. Every face (respond, the MCP server's threads, and the chat and TUI
 * to come) opens one per conversation and calls `turn()` per message; faces
 * keep only their host effects (how to ask, notify, show) and presentation.
 *
 * Opening composes wisp's instructions for the tools offered, sizes the
 * tool-output budget from the model's window, and makes the conversation's
 * context (src/context/), which every request is composed from and
 * condensed in. A turn runs inside the
 * session's turn (so every event it causes, whoever records it, is tagged
 * with the turn and collected), runs the turn loop (turn.ts), and then reads
 * what the turn did from those events: the calls, the `ran:` line and — when
 * verification is on and the turn was not stopped — the claims in the reply
 * no call's whole output supports. "once" approvals end with the turn.
 *
 * The session is reached through `ConversationHost`, which the session
 * satisfies, so this module imports nothing above the agent.
 */
import { join } from "node:path";
import type { AuditEvent } from "../audit/catalogue.ts";
import { callsFromEvents, type TurnCall } from "../audit/calls.ts";
import type { Config } from "../config/schema.ts";
import type { Backend } from "../models/backend.ts";
import { ConversationContext } from "../context/context.ts";
import { type FactSink, NULL_FACT_SINK } from "../context/facts_sink.ts";
import { modelSummariser, sideCallOf } from "../context/summary.ts";
import { budgetBytes } from "../tools/budget.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { AnyTool, ToolContext } from "../tools/tool.ts";
import { randomHex } from "../util/random_id.ts";
import { composeInstructions } from "./instructions.ts";
import { ranLine } from "./receipts.ts";
import { runTurn, type TurnHooks, type TurnOutcome } from "./turn.ts";
import { type Claim, unsupportedClaims, unsupportedLine } from "./verify.ts";
import { storeReader, withWholeOutputs } from "./whole_outputs.ts";

/** What a conversation asks of the session when a turn begins. */
export interface TurnRequest {
  /** Where commands and relative paths start; the session's root by default. */
  cwd?: string;
  /** The tool-output budget in bytes. */
  budgetBytes: number;
  signal?: AbortSignal;
  /** A thread's time limit for commands (0: none, up to the operator's cap). */
  commandTimeoutSeconds?: number;
  /** Fields every event of the turn carries besides the turn's id (an MCP thread and its turn). */
  tags?: Record<string, unknown>;
}

/** A turn as the session opens it. */
export interface TurnHandle {
  readonly id: string;
  /** The context the turn's tool calls run with. */
  readonly context: ToolContext;
  /** The events recorded inside `run` so far, in order. */
  readonly events: readonly AuditEvent[];
  /** Run the turn's work; every event recorded meanwhile is tagged and kept in `events`. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** The turn is over: approvals given "once" lapse. */
  end(): void;
}

/** What a conversation needs of its session (src/session/session.ts satisfies it). */
export interface ConversationHost {
  readonly config: Config;
  /** The launch directory: instructions name it when a conversation gives no directory. */
  readonly root: string;
  readonly registry: ToolRegistry;
  readonly outputStore: {
    readRange(id: string, offset: number, length: number): Promise<Uint8Array>;
    /** The session's folder of outputs; the store's own copy lives beside them (ADR 0590). */
    readonly dir?: string;
  };
  /** The audit log, to be told before a log file the store refers into rotates away (ADR 0590). */
  readonly audit?: { onRotation(listener: (file: string) => void): () => void };
  beginTurn(request: TurnRequest): TurnHandle;
}

export interface ConversationOptions {
  backend: Backend;
  /** The tools this conversation offers (the session's `tools()`). */
  tools: readonly AnyTool[];
  /** The caller's instructions, layered after wisp's and the configured extension. */
  instructions?: string;
  /** The conversation's working directory; the session's root by default. */
  cwd?: string;
  /** Where dropped turns are distilled into facts and facts are read from; none by default. */
  facts?: FactSink;
}

export interface TurnInput {
  prompt: string;
  /** The reply must match this JSON Schema. */
  schema?: Record<string, unknown>;
  signal?: AbortSignal;
  hooks?: TurnHooks;
  commandTimeoutSeconds?: number;
  tags?: Record<string, unknown>;
}

/** What one turn did, read from its events. */
export interface TurnReport {
  turnId: string;
  outcome: TurnOutcome;
  /** Every event the turn caused, in order. */
  events: readonly AuditEvent[];
  calls: TurnCall[];
  /** The `ran:` line, or null when the turn ran nothing worth a line. */
  ran: string | null;
  /** Claims no call supports; null when the turn was not verified (off, or stopped). */
  claims: Claim[] | null;
  /** The `unsupported:` line, or null. */
  unsupported: string | null;
}

/** The model failed part-way through a turn; `ran` says what the turn had run by then. */
export class TurnFailed extends Error {
  constructor(
    readonly failure: unknown,
    readonly ran: string | null,
    readonly events: readonly AuditEvent[],
  ) {
    super(failure instanceof Error ? failure.message : String(failure));
    this.name = "TurnFailed";
  }
}

/**
 * Have the store copy what it refers into an audit log file before that file
 * rotates away (ADR 0590). The subscription holds the context weakly: a
 * conversation has no close (a chat's /new, an evicted MCP thread just let it
 * go), so the listener unsubscribes itself once the context is collected.
 */
function keepCopiesBeforeRotation(host: ConversationHost, context: ConversationContext): void {
  if (!host.audit) return;
  const held = new WeakRef(context);
  const unsubscribe = host.audit.onRotation((file) => {
    const alive = held.deref();
    if (alive) alive.store.copyBeforeRotation(file);
    else unsubscribe();
  });
}

export class Conversation {
  /** The conversation's store and what composes and condenses each request from it. */
  readonly context: ConversationContext;
  readonly backend: Backend;
  readonly tools: readonly AnyTool[];
  /** The model's context window, in tokens. */
  readonly window: number;
  /** The tool-output budget, in bytes. */
  readonly budget: number;
  readonly cwd: string;

  private constructor(
    readonly host: ConversationHost,
    options: ConversationOptions,
    window: number,
  ) {
    this.backend = options.backend;
    this.tools = options.tools;
    this.window = window;
    this.budget = budgetBytes(window);
    this.cwd = options.cwd ?? host.root;
    this.context = new ConversationContext({
      instructions: composeInstructions({
        tools: options.tools.map((t) => t.name),
        extension: host.config.systemPromptExtension,
        instructions: options.instructions,
        cwd: this.cwd,
      }),
      window,
      target: host.config.context.target,
      memory: options.tools.some((t) => t.name === "memory"),
      auditHolds: host.config.audit.enabled,
      ...(host.outputStore.dir
        ? { copyFile: join(host.outputStore.dir, `${randomHex(8)}.store`) }
        : {}),
      summariser: modelSummariser(options.backend),
      sideCall: (instructions, message, signal) =>
        sideCallOf(options.backend, instructions, message, signal),
      facts: options.facts ?? NULL_FACT_SINK,
    });
    keepCopiesBeforeRotation(host, this.context);
  }

  /** Open a conversation: asks the backend for its window and composes the instructions. */
  static async open(host: ConversationHost, options: ConversationOptions): Promise<Conversation> {
    return new Conversation(host, options, await options.backend.contextWindow());
  }

  /** wisp's instructions as the model receives them. */
  get instructions(): string {
    return this.context.instructions;
  }

  /** The names of the tools offered. */
  get toolNames(): string[] {
    return this.tools.map((t) => t.name);
  }

  /** One turn: the prompt in, the reply and what the turn did out. Throws TurnFailed when the model fails. */
  async turn(input: TurnInput): Promise<TurnReport> {
    const names = this.toolNames;
    const turn = this.host.beginTurn({
      cwd: this.cwd,
      budgetBytes: this.budget,
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.commandTimeoutSeconds !== undefined
        ? { commandTimeoutSeconds: input.commandTimeoutSeconds }
        : {}),
      ...(input.tags ? { tags: input.tags } : {}),
    });
    try {
      return await turn.run(async () => {
        let outcome: TurnOutcome;
        try {
          outcome = await runTurn({
            backend: this.backend,
            transcript: this.context,
            prompt: input.prompt,
            tools: this.tools,
            registry: this.host.registry,
            context: turn.context,
            ...(input.schema ? { schema: input.schema } : {}),
            ...(input.signal ? { signal: input.signal } : {}),
            ...(input.hooks ? { hooks: input.hooks } : {}),
          });
        } catch (error) {
          this.context.end(turn.events);
          const ran = ranLine(callsFromEvents(turn.events), "", names);
          throw new TurnFailed(error, ran, [...turn.events]);
        }
        const events = [...turn.events];
        this.context.end(events);
        const calls = callsFromEvents(events);
        const ran = ranLine(calls, outcome.text, names);
        let claims: Claim[] | null = null;
        if (this.host.config.verification.mode !== "off" && !outcome.stopped) {
          const whole = await withWholeOutputs(calls, storeReader(this.host.outputStore));
          claims = unsupportedClaims(outcome.text, whole, names);
        }
        return {
          turnId: turn.id,
          outcome,
          events,
          calls,
          ran,
          claims,
          unsupported: claims ? unsupportedLine(claims) : null,
        };
      });
    } finally {
      turn.end();
    }
  }
}

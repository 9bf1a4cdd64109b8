/**
 * respond on a thread: one turn of the same agent `wisp respond` runs, on a
 * conversation the thread keeps. One Session serves the whole server, so an
 * approval given "for this session" lasts the server's life and the audit
 * has one session id; every event recorded during a thread's turn carries
 * `thread` (and `threadTurn`), which the thread's resources and receipts
 * read.
 */
import type { Backend } from "../../models/backend.ts";
import type { FactSink } from "../../context/facts_sink.ts";
import type { AnyTool } from "../../tools/tool.ts";
import type { Session } from "../../session/session.ts";
import type { Conversation as AgentConversation } from "../../agent/conversation.ts";
import { messageOf } from "../../util/errors.ts";
import { load } from "../../util/lazy.ts";
import { log, logLocally } from "../../util/log.ts";
import { type Thread, type ThreadShape, TurnFailure } from "./threads.ts";
import { callAnnouncer } from "./announce.ts";
import type { Receipt } from "./receipt.ts";

/**
 * The conversation, the model clients and the receipt, loaded at the first
 * turn: a server that only serves the condensing tools never loads them,
 * and initialize is answered without them.
 */
async function turnCode() {
  const [registry, choose, conversation, receipt] = await Promise.all([
    load<typeof import("../../models/registry.ts")>(
      import.meta.resolve("../../models/registry.ts"),
    ),
    load<typeof import("../../models/choose.ts")>(import.meta.resolve("../../models/choose.ts")),
    load<typeof import("../../agent/conversation.ts")>(
      import.meta.resolve("../../agent/conversation.ts"),
    ),
    load<typeof import("./receipt.ts")>(import.meta.resolve("./receipt.ts")),
  ]);
  return {
    ...registry,
    chooseModel: choose.chooseModel,
    ...conversation,
    buildReceipt: receipt.buildReceipt,
  };
}

/** A thread's conversation: opened at its first turn, kept for the rest. */
export interface Conversation {
  agent?: AgentConversation;
  /** The thread's facts for the model it opens on (the face's fact book); none when absent. */
  factsFor?: (backend: Backend) => FactSink;
}

export interface TurnCall {
  prompt: string;
  task?: string;
  schema?: Record<string, unknown>;
  signal?: AbortSignal;
}

export interface EngineOptions {
  /**
   * Tests and benchmarks only: the backend for a model name instead of
   * resolveModel (the scripted double is never reachable from a name).
   */
  backendFor?: (name: string) => Backend;
  /** A thread was closed or evicted: what waits for it (a parked question) is withdrawn. */
  threadEnded?: (thread: string) => void;
}

export class SessionEngine {
  /**
   * Notes for each thread that arrived after its last turn, in order: a pull
   * it asked for ended, or a question its parked turn left was answered,
   * declined or ran out (inquiry_host.ts).
   */
  readonly #notices = new Map<string, string[]>();

  constructor(readonly session: Session, readonly options: EngineOptions = {}) {
    // Both record their end, with the note, on the thread that asked.
    session.audit.onEvent((event) => {
      const tells = event.kind === "model.pull" ||
        (event.kind === "inquiry.settled" && event.parked === true);
      if (!tells || typeof event.note !== "string") return;
      if (typeof event.thread !== "string") return;
      const queue = this.#notices.get(event.thread) ?? [];
      queue.push(event.note);
      this.#notices.set(event.thread, queue);
    });
  }

  /** A thread was closed or evicted: its notices go with it, and what waits for it is withdrawn. */
  threadEnded(thread: string): void {
    this.#notices.delete(thread);
    this.options.threadEnded?.(thread);
  }

  newConversation(): Conversation {
    return {};
  }

  /** The tools a thread of this shape gets; an unknown name throws a sentence. */
  toolsFor(shape: ThreadShape): AnyTool[] {
    return this.session.tools(
      shape.tools === undefined
        ? {}
        : shape.tools.length === 0
        ? { noTools: true }
        : { only: shape.tools },
    );
  }

  async #open(thread: Thread<Conversation>): Promise<AgentConversation> {
    const held = thread.conversation.agent;
    if (held) return held;
    const { chooseModel, checkAvailable, Conversation } = await turnCode();
    let tools: AnyTool[];
    try {
      tools = this.toolsFor(thread.shape);
    } catch (error) {
      throw new TurnFailure(messageOf(error));
    }
    try {
      const name = thread.shape.model ?? this.session.config.model;
      let backend: Backend;
      if (this.options.backendFor) {
        backend = this.options.backendFor(name);
        await checkAvailable(backend, { tools: tools.length > 0 });
      } else {
        // A caller's model never falls back; the default that cannot exist here gives way to a local one.
        const chosen = await chooseModel(name, this.session.config, {
          tools: tools.length > 0,
          explicit: thread.shape.model !== undefined,
          // stderr here; the client hears it from the announcement below, once.
          note: (line) => logLocally("info", line),
        });
        backend = chosen.backend;
        if (chosen.standIn) await this.#announceStandIn(thread, name, backend.name, chosen.standIn);
      }
      const agent = await Conversation.open(this.session, {
        backend,
        tools,
        instructions: thread.shape.instructions,
        cwd: thread.shape.workingDirectory ?? this.session.root,
        ...(thread.conversation.factsFor ? { facts: thread.conversation.factsFor(backend) } : {}),
      });
      log(
        "debug",
        `thread ${thread.id}: model ${backend.name}, chosen by ${
          thread.shape.model
            ? "the thread (respond's model, else wisp mcp --model)"
            : "config.json's model"
        }`,
      );
      thread.conversation.agent = agent;
      return agent;
    } catch (error) {
      throw new TurnFailure(messageOf(error));
    }
  }

  /**
   * A thread opened on another model than the one named (ADR 0560): the
   * client of the call that opened it is told (an MCP log message, and
   * progress when the call carried a token), and the audit records
   * model.fallback on the thread, so the caller learns it from the call
   * itself, not only from stderr it may never read.
   */
  async #announceStandIn(
    thread: Thread<Conversation>,
    from: string,
    to: string,
    sentence: string,
  ): Promise<void> {
    this.session.audit.record("model.fallback", { from, to, reason: sentence, thread: thread.id });
    await callAnnouncer.getStore()?.(`thread ${thread.id}: ${sentence}`);
  }

  /** Run one turn on the thread (the caller has queued it); returns the receipt. */
  async turn(thread: Thread<Conversation>, call: TurnCall): Promise<Receipt> {
    const turnNo = thread.turns;
    const agent = await this.#open(thread);
    const { TurnFailed, buildReceipt } = await turnCode();
    // What reached the thread since its last turn goes to the model before the prompt, and to the caller.
    const notices = this.#notices.get(thread.id) ?? [];
    this.#notices.delete(thread.id);
    const asked = call.task ? `Task: ${call.task}\n\n${call.prompt}` : call.prompt;
    const prompt = notices.length > 0 ? `${notices.join("\n")}\n\n${asked}` : asked;
    let report;
    try {
      report = await agent.turn({
        prompt,
        ...(call.schema ? { schema: call.schema } : {}),
        ...(call.signal ? { signal: call.signal } : {}),
        ...(thread.shape.commandTimeoutSeconds !== undefined
          ? { commandTimeoutSeconds: thread.shape.commandTimeoutSeconds }
          : {}),
        tags: { thread: thread.id, threadTurn: turnNo },
      });
    } catch (error) {
      if (error instanceof TurnFailed) {
        throw new TurnFailure(
          `the model ${agent.backend.name} failed: ${messageOf(error.failure)}`,
        );
      }
      throw error;
    }
    for (const event of report.events) {
      if (event.kind === "tool.result" && typeof event.outputId === "string") {
        if (!thread.outputs.includes(event.outputId)) thread.outputs.push(event.outputId);
      }
    }
    return buildReceipt({
      thread: thread.id,
      turn: turnNo,
      model: agent.backend.name,
      reply: report.outcome.text,
      events: report.events,
      calls: report.calls,
      ran: report.ran,
      claims: report.claims,
      tools: agent.toolNames,
      stopped: report.outcome.stopped,
      seconds: report.outcome.seconds,
      auditEnabled: this.session.config.audit.enabled,
      notices,
    });
  }
}

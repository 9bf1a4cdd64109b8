/**
 * respond on a thread: one turn of the same agent `wisp respond` runs, on a
 * conversation the thread keeps. One Session serves the whole server, so an
 * approval given "for this session" lasts the server's life and the audit
 * has one session id; every event recorded during a thread's turn carries
 * `thread` (and `threadTurn`), which the thread's resources and receipts
 * read.
 */
import type { AuditEvent } from "../../audit/catalogue.ts";
import type { Backend, ChatMessage } from "../../models/backend.ts";
import type { AnyTool } from "../../tools/tool.ts";
import type { Session } from "../../session/session.ts";
import { messageOf } from "../../util/errors.ts";
import { load } from "../../util/lazy.ts";
import { log } from "../../util/log.ts";
import { turnScope } from "./approval_host.ts";
import { type Thread, type ThreadShape, TurnFailure } from "./threads.ts";
import type { Receipt } from "./receipt.ts";

/**
 * The turn loop and the model clients, loaded at the first turn: a server
 * that only serves the condensing tools never loads them, and initialize is
 * answered without them.
 */
async function turnCode() {
  const [registry, budget, instructions, turn, calls, whole, receipt] = await Promise.all([
    load<typeof import("../../models/registry.ts")>(
      import.meta.resolve("../../models/registry.ts"),
    ),
    load<typeof import("../../tools/budget.ts")>(import.meta.resolve("../../tools/budget.ts")),
    load<typeof import("../../agent/instructions.ts")>(
      import.meta.resolve("../../agent/instructions.ts"),
    ),
    load<typeof import("../../agent/turn.ts")>(import.meta.resolve("../../agent/turn.ts")),
    load<typeof import("../../agent/calls.ts")>(import.meta.resolve("../../agent/calls.ts")),
    load<typeof import("../../agent/whole_outputs.ts")>(
      import.meta.resolve("../../agent/whole_outputs.ts"),
    ),
    load<typeof import("./receipt.ts")>(import.meta.resolve("./receipt.ts")),
  ]);
  return {
    ...registry,
    ...budget,
    ...instructions,
    ...turn,
    ...calls,
    ...whole,
    buildReceipt: receipt.buildReceipt,
  };
}

export interface Conversation {
  messages: ChatMessage[];
  backend?: Backend;
  tools?: AnyTool[];
  budget?: number;
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
}

export class SessionEngine {
  constructor(readonly session: Session, readonly options: EngineOptions = {}) {}

  newConversation(): Conversation {
    return { messages: [] };
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

  async #prepare(thread: Thread<Conversation>): Promise<void> {
    const c = thread.conversation;
    if (c.backend) return;
    const { resolveModel, checkAvailable, budgetBytes, composeInstructions } = await turnCode();
    const config = this.session.config;
    let tools: AnyTool[];
    try {
      tools = this.toolsFor(thread.shape);
    } catch (error) {
      throw new TurnFailure(messageOf(error));
    }
    let backend: Backend;
    try {
      const name = thread.shape.model ?? config.model;
      backend = this.options.backendFor
        ? this.options.backendFor(name)
        : resolveModel(name, config);
      await checkAvailable(backend, { tools: tools.length > 0 });
      log(
        "debug",
        `thread ${thread.id}: model ${backend.name}, chosen by ${
          thread.shape.model
            ? "the thread (respond's model, else wisp mcp --model)"
            : "config.json's model"
        }`,
      );
      c.budget = budgetBytes(await backend.contextWindow());
    } catch (error) {
      throw new TurnFailure(messageOf(error));
    }
    c.tools = tools;
    c.messages = [{
      role: "system",
      content: composeInstructions({
        tools: tools.map((t) => t.name),
        extension: config.systemPromptExtension,
        instructions: thread.shape.instructions,
        cwd: thread.shape.workingDirectory ?? this.session.root,
      }),
    }];
    c.backend = backend;
  }

  /** Run one turn on the thread (the caller has queued it); returns the receipt. */
  async turn(thread: Thread<Conversation>, call: TurnCall): Promise<Receipt> {
    const turnNo = thread.turns;
    return await turnScope.run({ thread: thread.id, turn: turnNo }, async () => {
      await this.#prepare(thread);
      const { runTurn, withWholeOutputs, storeReader, callsFromEvents, buildReceipt } =
        await turnCode();
      const c = thread.conversation;
      const events: AuditEvent[] = [];
      let turnId: string | undefined;
      const unsubscribe = this.session.audit.onEvent((event) => {
        if (event.thread === thread.id && event.threadTurn === turnNo) events.push(event);
      });
      try {
        const turn = this.session.beginTurn({
          cwd: thread.shape.workingDirectory ?? this.session.root,
          budgetBytes: c.budget!,
          ...(call.signal ? { signal: call.signal } : {}),
          ...(thread.shape.commandTimeoutSeconds !== undefined
            ? { commandTimeoutSeconds: thread.shape.commandTimeoutSeconds }
            : {}),
        });
        turnId = turn.id;
        const prompt = call.task ? `Task: ${call.task}\n\n${call.prompt}` : call.prompt;
        let outcome;
        try {
          outcome = await runTurn({
            backend: c.backend!,
            messages: c.messages,
            prompt,
            tools: c.tools!,
            registry: this.session.registry,
            context: turn.context,
            ...(call.schema ? { schema: call.schema } : {}),
            ...(call.signal ? { signal: call.signal } : {}),
          });
        } catch (error) {
          throw new TurnFailure(`the model ${c.backend!.name} failed: ${messageOf(error)}`);
        }
        for (const event of events) {
          if (event.kind === "tool.result" && typeof event.outputId === "string") {
            if (!thread.outputs.includes(event.outputId)) thread.outputs.push(event.outputId);
          }
        }
        const verify = this.session.config.verification.mode !== "off" && !outcome.stopped;
        const verifyWith = verify
          ? await withWholeOutputs(callsFromEvents(events), storeReader(this.session.outputStore))
          : undefined;
        return buildReceipt({
          thread: thread.id,
          turn: turnNo,
          model: c.backend!.name,
          reply: outcome.text,
          ...(verifyWith ? { verifyWith } : {}),
          events,
          tools: c.tools!.map((t) => t.name),
          stopped: outcome.stopped,
          seconds: outcome.seconds,
          auditEnabled: this.session.config.audit.enabled,
        });
      } finally {
        unsubscribe();
        // "once" covers the rest of the turn, and no more.
        if (turnId) this.session.gate.endTurn(turnId);
      }
    });
  }
}

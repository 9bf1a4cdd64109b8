/**
 * The turn loop: one message from the person and everything the model does
 * to answer it. Each round sends a request composed from the conversation's
 * context (src/context/: condensed first when it would not fit the window),
 * streams the model's text, and collects its tool calls; the calls' approvals are prepared before
 * any runs (prepare.ts), then they run (schedule.ts) and their results go
 * back, until the model replies without calls. A response cut off at the
 * length limit never runs its calls: the model is told to issue them again,
 * complete. A request the server refuses as too long is condensed and sent
 * once more; a second refusal fails the turn. Aborting the signal ends the
 * request and whatever the turn runs. The number of rounds is bounded.
 *
 * Every prompt, call, result and response is audited verbatim: `prompt` once,
 * `response` per round, `tool.call`/`tool.result` by the registry,
 * `turn.stopped` when the signal ends the turn.
 */
import type { Backend, FinishReason, ToolCall, Usage } from "../models/backend.ts";
import { isAbortError, isTooLong, ModelStopped } from "../models/errors.ts";
import type { ConversationContext } from "../context/context.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { AnyTool, ToolContext, ToolResult } from "../tools/tool.ts";
import { prepareCall, PreparedGate } from "./prepare.ts";
import { PARALLEL_GROUP, runScheduled, scheduleCalls } from "./schedule.ts";

const MAX_ROUNDS = 16;

export interface TurnHooks {
  /** A piece of the model's text, as it streams. */
  onText?(text: string): void;
  onThinking?(text: string): void;
  /** A call about to run (after its approval was prepared). */
  onToolCall?(call: ToolCall): void;
  onToolResult?(call: ToolCall, result: ToolResult): void;
}

export interface TurnInput {
  backend: Backend;
  /** The conversation's context: the turn begins in it, adds its messages, and composes each request from it. */
  transcript: ConversationContext;
  prompt: string;
  /** The tools offered this turn (from ToolRegistry.list). */
  tools: readonly AnyTool[];
  registry: ToolRegistry;
  /** The context calls run with; the turn adds the prepared gate and the signal. */
  context: ToolContext;
  /** Structured output: the reply must match this JSON Schema. */
  schema?: Record<string, unknown>;
  signal?: AbortSignal;
  maxRounds?: number;
  parallelGroup?: number;
  hooks?: TurnHooks;
}

export interface TurnOutcome {
  /** Everything the model wrote this turn, rounds joined. */
  text: string;
  /** The last round's text: the reply proper. */
  reply: string;
  rounds: number;
  finishReason: FinishReason | null;
  usage: Required<Usage>;
  /** The signal ended the turn. */
  stopped: boolean;
  /** The model kept calling tools until the round limit. */
  roundLimit: boolean;
  /** The last response was cut off at the length limit. */
  cutOff: boolean;
  seconds: number;
}

/** What a cut-off call gets back instead of running. */
function cutOffResult(call: ToolCall): string {
  return `error: your response was cut off at the length limit before this ${call.name} call was complete, so it did not run; ` +
    "issue the call again with complete arguments, and keep the response short";
}

/** What a call of a tool this turn does not offer gets back. */
function notOfferedResult(name: string, offered: readonly string[]): string {
  return offered.length === 0
    ? `error: there is no tool named ${name} here: this conversation has no tools; reply in words`
    : `error: there is no tool named ${name} in this conversation; the tools you have are ${
      offered.join(", ")
    }`;
}

function stoppedError(error: unknown, signal?: AbortSignal): boolean {
  return error instanceof ModelStopped || (signal?.aborted === true && isAbortError(error)) ||
    (signal?.aborted === true);
}

export async function runTurn(input: TurnInput): Promise<TurnOutcome> {
  const started = performance.now();
  const { backend, transcript, registry, signal, hooks = {} } = input;
  const audit = input.context.audit;
  const offered = input.tools.map((t) => t.name);
  const offeredSet = new Set(offered);
  const specs = registry.specs([...input.tools]);
  const maxRounds = input.maxRounds ?? MAX_ROUNDS;
  const usage = { inputTokens: 0, outputTokens: 0 };
  let text = "";
  let reply = "";
  let finishReason: FinishReason | null = null;
  let rounds = 0;
  let cutOff = false;

  audit.record("prompt", { text: input.prompt, model: backend.name, tools: offered });
  transcript.begin(input.prompt, audit);

  const finish = (extra: Partial<TurnOutcome>): TurnOutcome => ({
    text,
    reply,
    rounds,
    finishReason,
    usage,
    stopped: false,
    roundLimit: false,
    cutOff,
    seconds: (performance.now() - started) / 1000,
    ...extra,
  });
  const stop = (): TurnOutcome => {
    audit.record("turn.stopped", {
      model: backend.name,
      rounds,
      reason: "the turn's signal was aborted",
    });
    return finish({ stopped: true });
  };

  while (rounds < maxRounds) {
    if (signal?.aborted) return stop();
    rounds++;
    const roundStarted = performance.now();
    let roundText = "";
    const calls: ToolCall[] = [];
    finishReason = null;
    let roundUsage: Usage | undefined;
    let retried = false;
    try {
      for (;;) {
        try {
          const messages = await transcript.request(specs, signal);
          for await (
            const event of backend.chat({
              messages,
              ...(specs.length > 0 ? { tools: specs } : {}),
              ...(input.schema ? { schema: input.schema } : {}),
              signal,
            })
          ) {
            if (event.type === "text") {
              if (roundText === "" && text !== "" && !/\s$/.test(text)) {
                // A new round's words start on a line of their own.
                text += "\n";
                hooks.onText?.("\n");
              }
              roundText += event.text;
              text += event.text;
              hooks.onText?.(event.text);
            } else if (event.type === "thinking") {
              hooks.onThinking?.(event.text);
            } else if (event.type === "tool_call") {
              calls.push(event.call);
            } else if (event.type === "done") {
              finishReason = event.finishReason;
              roundUsage = event.usage;
            }
          }
          break;
        } catch (error) {
          // Refused as too long before anything streamed: condense and send it once more.
          if (
            isTooLong(error) && !retried && roundText === "" && calls.length === 0 &&
            await transcript.overflowed(specs, signal)
          ) {
            retried = true;
            continue;
          }
          throw error;
        }
      }
    } catch (error) {
      if (stoppedError(error, signal)) return stop();
      throw error;
    }
    transcript.reported(roundUsage?.inputTokens);
    usage.inputTokens += roundUsage?.inputTokens ?? 0;
    usage.outputTokens += roundUsage?.outputTokens ?? 0;
    reply = roundText;
    cutOff = finishReason === "length";
    audit.record("response", {
      text: roundText,
      model: backend.name,
      round: rounds,
      finishReason: finishReason ?? "stop",
      toolCalls: calls.map((c) => ({
        id: c.id,
        name: c.name,
        arguments: c.rawArguments ?? c.arguments,
      })),
      ...(roundUsage ? { usage: roundUsage } : {}),
      seconds: Number(((performance.now() - roundStarted) / 1000).toFixed(3)),
    });
    transcript.add({
      role: "assistant",
      content: roundText,
      ...(calls.length > 0 ? { toolCalls: calls } : {}),
    });
    if (calls.length === 0) return finish({});

    if (finishReason === "length") {
      // Its arguments may be cut short: never run it; ask for it again.
      for (const call of calls) {
        transcript.add({
          role: "tool",
          content: cutOffResult(call),
          toolCallId: call.id,
          toolName: call.name,
        });
      }
      continue;
    }

    const results = await runCalls(calls, input, offered, offeredSet);
    for (const [index, call] of calls.entries()) {
      transcript.add({
        role: "tool",
        content: results[index].text,
        toolCallId: call.id,
        toolName: call.name,
      });
    }
    if (signal?.aborted) return stop();
  }
  return finish({ roundLimit: true });
}

/** Prepare every call's approval, then run them as schedule.ts says; results in the calls' order. */
async function runCalls(
  calls: ToolCall[],
  input: TurnInput,
  offered: string[],
  offeredSet: Set<string>,
): Promise<ToolResult[]> {
  const { registry, hooks = {}, signal } = input;
  const gate = input.context.gate ? new PreparedGate(input.context.gate) : undefined;
  const base: ToolContext = {
    ...input.context,
    conversation: input.transcript,
    memory: offeredSet.has("memory"),
    ...(signal ? { signal } : {}),
    ...(gate ? { gate } : {}),
  };
  const argsOf = (call: ToolCall) => call.rawArguments ?? call.arguments;

  if (gate) {
    for (const call of calls) {
      if (signal?.aborted) break;
      if (!offeredSet.has(call.name)) continue;
      await prepareCall(registry.get(call.name), argsOf(call), base, gate);
    }
  }

  const toolOf = (call: ToolCall) =>
    offeredSet.has(call.name) ? registry.get(call.name) : undefined;
  const groups = scheduleCalls(
    calls,
    (call) => toolOf(call)?.parallelSafe === true,
    input.parallelGroup ?? PARALLEL_GROUP,
  );
  return await runScheduled(groups, async (call) => {
    hooks.onToolCall?.(call);
    let result: ToolResult;
    if (!offeredSet.has(call.name)) {
      // Audited like any call, but nothing runs.
      const event = base.audit.record("tool.call", { tool: call.name, arguments: argsOf(call) });
      result = { text: notOfferedResult(call.name, offered), ok: false };
      base.audit.record("tool.result", {
        tool: call.name,
        ok: false,
        callId: event.id,
        text: result.text,
      });
    } else {
      result = await registry.call(call.name, argsOf(call), base);
    }
    hooks.onToolResult?.(call, result);
    return result;
  });
}

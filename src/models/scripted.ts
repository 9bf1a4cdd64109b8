/**
 * A test double: replays a script of stream events, one step per request, and
 * records every request it was sent. It is never reachable from user input or
 * config.json (resolveModel knows no name for it); tests construct it.
 *
 *   const model = new ScriptedBackend([
 *     [toolCallEvent("run_command", { command: "ls" })],
 *     textReply("Two files."),
 *   ]);
 */
import type { Backend, Capabilities, ChatRequest, StreamEvent, ToolCall } from "./backend.ts";
import { ModelStopped } from "./errors.ts";

/** One request's answer: events to replay, a function of the request, or an error to throw. */
export type ScriptStep =
  | StreamEvent[]
  | ((request: ChatRequest) => StreamEvent[] | AsyncIterable<StreamEvent>)
  | { error: Error };

export interface ScriptedOptions {
  name?: string;
  capabilities?: Partial<Capabilities>;
  window?: number;
}

export function textReply(
  text: string,
  usage = { inputTokens: 10, outputTokens: 5 },
): StreamEvent[] {
  return [{ type: "text", text }, { type: "done", finishReason: "stop", usage }];
}

let callCounter = 0;
export function toolCallEvent(
  name: string,
  args: Record<string, unknown>,
  id?: string,
): StreamEvent {
  const call: ToolCall = { id: id ?? `scripted_${++callCounter}`, name, arguments: args };
  return { type: "tool_call", call };
}

export class ScriptedBackend implements Backend {
  readonly runtime = "scripted" as const;
  readonly name: string;
  readonly model: string;
  /** Every request received, in order (the objects as sent). */
  readonly requests: ChatRequest[] = [];
  readonly #script: ScriptStep[];
  readonly #capabilities: Capabilities;
  readonly #window: number;

  constructor(script: ScriptStep[] = [], options: ScriptedOptions = {}) {
    this.#script = [...script];
    this.model = options.name ?? "test";
    this.name = `scripted:${this.model}`;
    this.#capabilities = {
      tools: true,
      structured: true,
      thinking: false,
      ...options.capabilities,
    };
    this.#window = options.window ?? 32768;
  }

  /** Queue more steps. */
  push(...steps: ScriptStep[]): void {
    this.#script.push(...steps);
  }

  /** Steps not yet replayed. */
  remaining(): number {
    return this.#script.length;
  }

  capabilities(): Promise<Capabilities> {
    return Promise.resolve({ ...this.#capabilities });
  }

  contextWindow(): Promise<number> {
    return Promise.resolve(this.#window);
  }

  async *chat(request: ChatRequest): AsyncGenerator<StreamEvent> {
    this.requests.push(request);
    const step = this.#script.shift();
    if (step === undefined) {
      throw new Error(
        `${this.name}: the script has no step left for request ${this.requests.length}`,
      );
    }
    if (!Array.isArray(step) && typeof step !== "function") throw step.error;
    const events = typeof step === "function" ? step(request) : step;
    let calls = 0;
    let done = false;
    for await (const event of events) {
      if (request.signal?.aborted) throw new ModelStopped(this.name);
      if (event.type === "tool_call") calls++;
      if (event.type === "done") done = true;
      yield event;
      // Let an abort between events take effect, as a real stream would.
      await Promise.resolve();
    }
    if (request.signal?.aborted) throw new ModelStopped(this.name);
    if (!done) yield { type: "done", finishReason: calls > 0 ? "tool_calls" : "stop" };
  }
}

/**
 * The `system` backend: Apple's on-device model through wisp's native
 * library (src/ffi/model.ts). The framework keeps a conversation in its
 * session, so this backend keeps one native session open while requests
 * continue the conversation it holds: a tool's result answers the call the
 * model waits on, a new user message is the next prompt. Anything else (a
 * conversation condensed, another system prompt, other tools) opens a fresh
 * session whose instructions carry the earlier conversation as text.
 *
 * A tool call ends the request with `tool_calls` while the model waits
 * inside the library for the result; the agent runs the tool and the next
 * request brings its result. Aborting the request cancels the reply (the
 * model stops at its next words) and throws ModelStopped.
 */
import type {
  Backend,
  Capabilities,
  ChatMessage,
  ChatRequest,
  StreamEvent,
  ToolSpec,
  WindowDecision,
} from "./backend.ts";
import { ModelError, ModelStopped } from "./errors.ts";
import { type Libwisp, libwisp, LibwispError } from "../ffi/libwisp.ts";
import { modelAvailability, modelWindow, type NativeEvent, NativeSession } from "../ffi/model.ts";
import { abiErrorName } from "../ffi/symbols.ts";
import { hostOs } from "../util/host_os.ts";

const NAME = "system";

/** The sentence for an error code the library ended a reply with. */
export function replyErrorSentence(code: number, message: string): ModelError {
  const said = message ? ` (${message})` : "";
  switch (abiErrorName(code)) {
    case "context-window":
      return new ModelError(
        "refused",
        `system cannot answer: the conversation no longer fits the on-device model's window${said}; start a new conversation, or use a local model with a larger window`,
        "the conversation exceeds the model's window",
      );
    case "guardrail":
      return new ModelError(
        "refused",
        `system declined to answer: Apple's safety guardrails stopped the reply${said}; rephrase the request`,
        "the guardrails stopped the reply",
      );
    case "service":
      return new ModelError(
        "unreachable",
        `system is unavailable: Apple's model service failed the request${said}; restart it with sudo killall modelmanagerd (launchd starts it again)`,
        "Apple's model service failed the request",
      );
    case "rate-limited":
      return new ModelError(
        "refused",
        `system is busy: the framework asked wisp to slow down${said}; try again in a moment`,
        "rate limited",
      );
    case "language":
      return new ModelError(
        "refused",
        `system cannot answer in this language or locale${said}; ask in a language the on-device model supports`,
        "unsupported language",
      );
    case "unavailable":
      return new ModelError(
        "unsupported",
        `system is unavailable${said}; wisp doctor says why`,
        message || "the on-device model is unavailable",
      );
    default:
      return new ModelError(
        "broken",
        `system failed the request${said}; wisp doctor checks the native library`,
        message || "the native library failed",
      );
  }
}

/** The conversation so far as text, for a fresh session's instructions. */
function transcript(messages: ChatMessage[]): string {
  return messages.map((m) => {
    if (m.role === "tool") return `tool ${m.toolName ?? ""} returned: ${m.content}`;
    const calls = m.toolCalls?.map((c) => ` [called ${c.name} ${JSON.stringify(c.arguments)}]`)
      .join("") ?? "";
    return `${m.role}: ${m.content}${calls}`;
  }).join("\n");
}

/** What the live session holds: the messages it has seen, and the calls it waits on. */
interface Live {
  session: NativeSession;
  key: string;
  seen: string;
  count: number;
  waiting: Set<string>;
}

/** Apple's on-device model behind the Backend interface. */
export class SystemBackend implements Backend {
  readonly name = NAME;
  readonly runtime = "system" as const;
  readonly model = "default";
  #live: Live | undefined;

  constructor(private readonly lib: Libwisp) {}

  /** What the on-device model can do: tools and guided generation, no thinking. */
  capabilitiesNow(): Capabilities {
    return { tools: true, structured: true, thinking: false };
  }

  capabilities(): Promise<Capabilities> {
    return Promise.resolve(this.capabilitiesNow());
  }

  /** The window in tokens, as the framework reports it. */
  windowTokens(): number {
    return modelWindow(this.lib);
  }

  contextWindow(): Promise<number> {
    return Promise.resolve(this.windowTokens());
  }

  /** The window as doctor and `wisp models` tell it: the framework reports it. */
  windowDecision(): Promise<WindowDecision> {
    return Promise.resolve({
      tokens: modelWindow(this.lib),
      from: "framework",
      note: "reported by the framework",
    });
  }

  /** Stop the session the backend holds (a new conversation starts one again). */
  close(): void {
    this.#live?.session.close();
    this.#live = undefined;
  }

  async *chat(request: ChatRequest): AsyncIterable<StreamEvent> {
    if (request.signal?.aborted) throw new ModelStopped(NAME);
    const live = this.#continue(request) ?? this.#open(request);
    const onAbort = () => live.session.cancel();
    request.signal?.addEventListener("abort", onAbort);
    try {
      yield* this.#events(live, request);
    } catch (error) {
      this.close(); // a reply that failed leaves the session in no known state
      if (request.signal?.aborted) throw new ModelStopped(NAME);
      if (error instanceof LibwispError) throw replyErrorSentence(0, error.message);
      throw error;
    } finally {
      request.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Continue the live session when the request only adds to what it saw. */
  #continue(request: ChatRequest): Live | undefined {
    const live = this.#live;
    const messages = request.messages;
    if (!live || live.key !== sessionKey(messages, request.tools)) return undefined;
    if (JSON.stringify(messages.slice(0, live.count)) !== live.seen) return undefined;
    let tail = messages.slice(live.count);
    if (tail[0]?.role === "assistant") tail = tail.slice(1); // the reply we streamed
    if (live.waiting.size > 0) {
      const answers = tail.filter((m) => m.role === "tool");
      const answered = answers.every((m) => m.toolCallId && live.waiting.has(m.toolCallId));
      if (answers.length !== tail.length || answers.length === 0 || !answered) return undefined;
      for (const answer of answers) {
        live.session.toolResult(answer.toolCallId!, answer.content);
        live.waiting.delete(answer.toolCallId!);
      }
    } else {
      if (tail.length !== 1 || tail[0].role !== "user") return undefined;
      live.session.send(tail[0].content, request.schema);
    }
    live.count = messages.length;
    live.seen = JSON.stringify(messages);
    return live;
  }

  /** Open a fresh session for the request and send its last user message. */
  #open(request: ChatRequest): Live {
    this.close();
    const messages = request.messages;
    const lastUser = messages.findLastIndex((m) => m.role === "user");
    const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
    const earlier = messages.slice(0, Math.max(lastUser, 0)).filter((m) => m.role !== "system");
    const after = lastUser >= 0 ? messages.slice(lastUser + 1) : [];
    const instructions = earlier.length > 0
      ? `${system}\n\nThe conversation so far:\n${transcript(earlier)}`
      : system;
    const prompt = lastUser >= 0 ? messages[lastUser].content : "";
    // Tool results after the last user message were for another session: tell them as text.
    const fullPrompt = after.length > 0 ? `${prompt}\n\n${transcript(after)}` : prompt;
    let session: NativeSession;
    try {
      session = NativeSession.open(
        this.lib,
        instructions,
        (request.tools ?? []).map((t) => ({
          name: t.name,
          description: t.description,
          parameters: t.parameters,
        })),
      );
    } catch (error) {
      if (error instanceof LibwispError) {
        throw replyErrorSentence(
          error.code === "unavailable" ? 1 : 11,
          error.code === "unavailable" ? "the on-device model is not ready" : error.message,
        );
      }
      throw error;
    }
    const live: Live = {
      session,
      key: sessionKey(messages, request.tools),
      seen: JSON.stringify(messages),
      count: messages.length,
      waiting: new Set(),
    };
    this.#live = live;
    session.send(fullPrompt, request.schema);
    return live;
  }

  async *#events(live: Live, request: ChatRequest): AsyncIterable<StreamEvent> {
    for (;;) {
      const event: NativeEvent = await live.session.next();
      switch (event.type) {
        case "text":
          yield { type: "text", text: event.text };
          break;
        case "tool_call":
          live.waiting.add(event.id);
          yield {
            type: "tool_call",
            call: { id: event.id, name: event.name, arguments: event.arguments ?? {} },
          };
          // The model waits in the library; the agent brings the result in the next request.
          yield { type: "done", finishReason: "tool_calls" };
          return;
        case "done":
          yield {
            type: "done",
            finishReason: "stop",
            usage: { inputTokens: event.inputTokens, outputTokens: event.outputTokens },
          };
          return;
        case "error":
          this.close();
          if (request.signal?.aborted || abiErrorName(event.code) === "cancelled") {
            throw new ModelStopped(NAME);
          }
          throw replyErrorSentence(event.code, event.message);
      }
    }
  }
}

/** What fixes a session: its system prompt and its tools. */
function sessionKey(messages: ChatMessage[], tools: ToolSpec[] | undefined): string {
  return JSON.stringify([
    messages.filter((m) => m.role === "system").map((m) => m.content),
    (tools ?? []).map((t) => [t.name, t.description, t.parameters]),
  ]);
}

/**
 * The system backend when the native library is there and says the model is
 * available; otherwise the reason it gave (undefined when there is no
 * library, or `os` is not this machine's). Only macOS has the model: on
 * Linux the library always says no, and the registry's own sentence says why.
 */
export function systemBackendHere(
  os: string,
  load: () => Libwisp | undefined = libwisp,
): { backend: SystemBackend } | { reason?: string } {
  if (os !== "darwin") return {};
  // Another machine's os (a test asking about macOS) loads nothing of this one's.
  if (load === libwisp && os !== hostOs()) return {};
  const lib = load();
  if (!lib) return {};
  const availability = modelAvailability(lib);
  return availability.available
    ? { backend: new SystemBackend(lib) }
    : { reason: availability.reason };
}

/**
 * The one interface every model runtime sits behind. A face or the turn loop
 * holds a `Backend` and never knows which server (or none) answers it:
 * `chat` streams text, thinking and tool calls, and ends with one `done`
 * event carrying why the model stopped and the tokens it used.
 *
 * A backend is cheap to make and makes no request until asked; what it learns
 * from its server (capabilities, window) is fetched once and kept.
 */

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** The arguments as the model wrote them, when they were not a JSON object (arguments is then {}). */
  rawArguments?: string;
}

export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  /** On an assistant message: the calls it made. */
  toolCalls?: ToolCall[];
  /** On a tool message: the call it answers. */
  toolCallId?: string;
  /** On a tool message: the tool that produced it. */
  toolName?: string;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** The arguments as a JSON Schema object. */
  parameters: Record<string, unknown>;
}

export type FinishReason = "stop" | "length" | "tool_calls";

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
}

export type StreamEvent =
  | { type: "text"; text: string }
  | { type: "thinking"; text: string }
  | { type: "tool_call"; call: ToolCall }
  | { type: "done"; finishReason: FinishReason; usage?: Usage };

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  /** A JSON Schema the reply must match (structured output). */
  schema?: Record<string, unknown>;
  /** Aborting it ends the request; `chat` then throws `ModelStopped`. */
  signal?: AbortSignal;
  /** Think before replying; undefined leaves it to the model's configuration. */
  think?: boolean;
}

export interface Capabilities {
  /** The model declares tool calling. */
  tools: boolean;
  /** The model can be held to a JSON schema. */
  structured: boolean;
  /** The model reports its thinking. */
  thinking: boolean;
  /** The model takes images (listed, never used by wisp yet). */
  vision?: boolean;
}

export type Runtime = "system" | "ollama" | "llamacpp" | "lmstudio" | "scripted";

export interface Backend {
  /** The full name, runtime prefix included: `ollama:granite4.1:8b`. */
  readonly name: string;
  readonly runtime: Runtime;
  /** The name the runtime itself knows the model by. */
  readonly model: string;
  capabilities(): Promise<Capabilities>;
  /** The window in tokens the model is run with. */
  contextWindow(): Promise<number>;
  chat(request: ChatRequest): AsyncIterable<StreamEvent>;
}

/** How the window was decided, for `wisp models` (CONTEXT, FROM and a note). */
export interface WindowDecision {
  tokens: number;
  from: "config" | "memory" | "model" | "server" | "default" | "framework";
  note: string;
}

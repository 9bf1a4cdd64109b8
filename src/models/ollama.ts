/**
 * `ollama:<name>`: an Ollama server through ollama-js (NDJSON on /api/chat;
 * /api/tags, /api/show and /api/ps for what the server holds). The window is
 * the configured contextLength or sized from the model's shape and free
 * memory (window.ts), and is sent as num_ctx with every request so Ollama
 * runs the model at the size wisp plans for.
 */
import { Ollama } from "ollama";
import type { Config } from "../config/schema.ts";
import type {
  Backend,
  Capabilities,
  ChatMessage,
  ChatRequest,
  StreamEvent,
  ToolCall,
  WindowDecision,
} from "./backend.ts";
import {
  connectionCause,
  isAbortError,
  ModelError,
  ModelStopped,
  tooLong,
  tooLongText,
  unavailable,
} from "./errors.ts";
import { guardedFetch } from "./http.ts";
import { requireLoopback } from "./host.ts";
import { canonicalOllama } from "./names.ts";
import { configuredWindow, perModelSettings, shapeFromModelInfo, sizeWindow } from "./window.ts";
import { messageOf } from "../util/errors.ts";

/** Metadata requests (tags, show, ps) must answer within this; a chat has no limit but the caller's signal. */
export const METADATA_TIMEOUT_MS = 10_000;

export interface OllamaShow {
  capabilities: string[];
  modelInfo: Record<string, unknown>;
  template: string;
  details: {
    parameter_size?: string;
    format?: string;
    family?: string;
    quantization_level?: string;
  };
}

export interface OllamaTag {
  name: string;
  size: number;
  details?: {
    parameter_size?: string;
    format?: string;
    family?: string;
    quantization_level?: string;
  };
}

export interface OllamaDeps {
  host: string;
  config: Config;
  /** Memory free now, in bytes (Deno.systemMemoryInfo().available in production). */
  freeMemory: () => number;
}

export function freeMemoryNow(): number {
  try {
    return Deno.systemMemoryInfo().available;
  } catch {
    return 0;
  }
}

/** Capabilities as Ollama reports them; an older server without the field is judged by its template. */
export function ollamaCapabilities(show: OllamaShow): Capabilities & { completion: boolean } {
  const reported = show.capabilities.length > 0;
  const has = (c: string) => show.capabilities.includes(c);
  return {
    completion: reported ? has("completion") : true,
    tools: reported ? has("tools") : show.template.includes(".Tools"),
    structured: reported ? has("completion") : true,
    thinking: has("thinking"),
    vision: has("vision"),
  };
}

/** The client for one exchange. */
function client(
  host: string,
  options: { signal?: AbortSignal; timeoutMs?: number; ndjson?: boolean } = {},
): Ollama {
  return new Ollama({ host, fetch: guardedFetch({ ...options, jsonErrors: true }) });
}

/** Turn whatever ollama-js or fetch threw into a ModelError that says why. */
function ollamaError(error: unknown, host: string, name: string, model: string): Error {
  if (error instanceof ModelError || error instanceof ModelStopped) return error;
  const message = messageOf(error);
  const status = (error as { status_code?: number }).status_code;
  if (status !== undefined) {
    if (status === 404 || /not found/i.test(message)) {
      return unavailable(
        "not_found",
        name,
        `the Ollama server at ${host} has no model ${model}`,
        `pull it with ollama pull ${model}`,
      );
    }
    if (tooLongText(message)) return tooLong(name, `the Ollama server at ${host}`, status, message);
    if (/does not support tools/i.test(message)) {
      return unavailable(
        "no_tools",
        name,
        "it does not support tool calling",
        "choose another model from wisp models",
      );
    }
    return new ModelError(
      "refused",
      `the Ollama server at ${host} refused the request to ${name} (${status}: ${message})`,
    );
  }
  if (
    /Did not receive done/i.test(message) ||
    /LineTooLong|MalformedLine/.test((error as Error)?.name ?? "")
  ) {
    return new ModelError(
      "broken",
      `the Ollama server at ${host} ended the reply of ${name} before it was done (${
        message.replace(/\.$/, "")
      })`,
    );
  }
  if (
    error instanceof TypeError || (error instanceof DOMException && error.name === "TimeoutError")
  ) {
    // fetch failed: nothing listening, a reset, a timeout.
    return unavailable(
      "unreachable",
      name,
      `no Ollama server at ${host}: ${connectionCause(error)}`,
      "start it with ollama serve",
    );
  }
  return new ModelError(
    "broken",
    `the Ollama server at ${host} failed the request to ${name} (${message})`,
  );
}

function toOllamaMessage(message: ChatMessage) {
  const out: {
    role: string;
    content: string;
    tool_calls?: { function: { name: string; arguments: Record<string, unknown> } }[];
    tool_name?: string;
  } = { role: message.role, content: message.content };
  if (message.toolCalls?.length) {
    out.tool_calls = message.toolCalls.map((call) => ({
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  if (message.role === "tool" && message.toolName) out.tool_name = message.toolName;
  return out;
}

/** Arguments as an object; a string is parsed, anything else kept raw beside {}. */
export function argumentsObject(
  value: unknown,
): { arguments: Record<string, unknown>; rawArguments?: string } {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    return { arguments: value as Record<string, unknown> };
  }
  const text = typeof value === "string" ? value : JSON.stringify(value ?? null);
  if (typeof value === "string") {
    if (value.trim() === "") return { arguments: {} };
    try {
      const parsed = JSON.parse(value);
      if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
        return { arguments: parsed };
      }
    } catch { /* kept raw below */ }
  }
  return { arguments: {}, rawArguments: text };
}

export class OllamaBackend implements Backend {
  readonly runtime = "ollama" as const;
  readonly name: string;
  #show?: Promise<OllamaShow>;
  #window?: Promise<WindowDecision>;

  constructor(readonly model: string, private readonly deps: OllamaDeps) {
    this.name = `ollama:${model}`;
  }

  get host(): string {
    return this.deps.host;
  }

  #fail(error: unknown): Error {
    return ollamaError(error, this.deps.host, this.name, this.model);
  }

  /** /api/show for this model, asked once. */
  show(): Promise<OllamaShow> {
    this.#show ??= (async () => {
      requireLoopback(this.deps.host, "ollama.host");
      try {
        const shown = await client(this.deps.host, { timeoutMs: METADATA_TIMEOUT_MS }).show({
          model: this.model,
        });
        return {
          capabilities: Array.isArray(shown.capabilities) ? shown.capabilities : [],
          modelInfo: (shown.model_info ?? {}) as unknown as Record<string, unknown>,
          template: shown.template ?? "",
          details: shown.details ?? {},
        };
      } catch (error) {
        throw this.#fail(error);
      }
    })();
    this.#show.catch(() => this.#show = undefined);
    return this.#show;
  }

  async capabilities(): Promise<Capabilities> {
    const { completion: _, ...caps } = ollamaCapabilities(await this.show());
    return caps;
  }

  /** How the window is decided: config, else the shape and free memory. */
  windowDecision(): Promise<WindowDecision> {
    this.#window ??= (async () => {
      const configured = configuredWindow(this.deps.config, "ollama", this.model);
      if (configured) return configured;
      const show = await this.show();
      const [tags, loaded] = await Promise.all([
        listOllama(this.deps.host),
        loadedOllama(this.deps.host),
      ]);
      const wanted = canonicalOllama(this.model);
      const tag = tags.find((t) => canonicalOllama(t.name) === wanted);
      return sizeWindow({
        shape: shapeFromModelInfo(show.modelInfo),
        freeBytes: this.deps.freeMemory(),
        weightsBytes: tag?.size ?? 0,
        loaded: loaded.some((name) => canonicalOllama(name) === wanted),
      });
    })();
    this.#window.catch(() => this.#window = undefined);
    return this.#window;
  }

  async contextWindow(): Promise<number> {
    return (await this.windowDecision()).tokens;
  }

  /** Whether thinking is asked for: the request's choice, else ollama.models.<name>.think; only for a model that thinks. */
  async #think(request: ChatRequest): Promise<boolean | undefined> {
    const caps = await this.capabilities();
    if (!caps.thinking) return undefined;
    return request.think ??
      perModelSettings(this.deps.config.ollama.models, "ollama", this.model)?.think;
  }

  async *chat(request: ChatRequest): AsyncGenerator<StreamEvent> {
    const { signal } = request;
    if (signal?.aborted) throw new ModelStopped(this.name);
    let think: boolean | undefined;
    let numCtx: number;
    try {
      think = await this.#think(request);
      numCtx = await this.contextWindow();
    } catch (error) {
      if (signal?.aborted) throw new ModelStopped(this.name);
      throw this.#fail(error);
    }
    let calls = 0;
    let finished = false;
    let answered = false;
    try {
      const stream = await client(this.deps.host, { signal, ndjson: true }).chat({
        model: this.model,
        messages: request.messages.map(toOllamaMessage),
        stream: true,
        ...(request.tools?.length
          ? {
            tools: request.tools.map((tool) => ({
              type: "function",
              function: {
                name: tool.name,
                description: tool.description,
                parameters: tool.parameters,
              },
            })),
          }
          : {}),
        ...(request.schema ? { format: request.schema } : {}),
        ...(think !== undefined ? { think } : {}),
        options: { num_ctx: numCtx },
      });
      answered = true;
      for await (const chunk of stream) {
        const message = chunk.message ?? { content: "" };
        if (message.thinking) yield { type: "thinking", text: message.thinking };
        if (message.content) yield { type: "text", text: message.content };
        for (const raw of message.tool_calls ?? []) {
          const fn =
            (raw as { function?: { name?: string; arguments?: unknown }; id?: string }).function ??
              {};
          const id = (raw as { id?: string }).id ?? `call_${calls + 1}`;
          calls++;
          const call: ToolCall = { id, name: fn.name ?? "", ...argumentsObject(fn.arguments) };
          yield { type: "tool_call", call };
        }
        if (chunk.done) {
          finished = true;
          const finishReason = chunk.done_reason === "length"
            ? "length"
            : calls > 0
            ? "tool_calls"
            : "stop";
          yield {
            type: "done",
            finishReason,
            usage: { inputTokens: chunk.prompt_eval_count, outputTokens: chunk.eval_count },
          };
        }
      }
    } catch (error) {
      if (signal?.aborted || isAbortError(error)) throw new ModelStopped(this.name);
      if (answered && !(error instanceof ModelError)) {
        // The server answered and then the stream failed: a reply cut off, not a missing server.
        throw new ModelError(
          "broken",
          `the Ollama server at ${this.deps.host} ended the reply of ${this.name} before it was done (${
            connectionCause(error)
          })`,
        );
      }
      throw this.#fail(error);
    }
    if (!finished) {
      throw new ModelError(
        "broken",
        `the Ollama server at ${this.deps.host} ended the reply of ${this.name} before it was done`,
      );
    }
  }
}

/** The models the server holds (/api/tags). Throws ModelError when the server does not answer. */
export async function listOllama(host: string, signal?: AbortSignal): Promise<OllamaTag[]> {
  requireLoopback(host, "ollama.host");
  try {
    const { models } = await client(host, { signal, timeoutMs: METADATA_TIMEOUT_MS }).list();
    return (models ?? []).map((m) => ({
      name: m.name ?? m.model,
      size: m.size ?? 0,
      details: m.details ?? undefined,
    }));
  } catch (error) {
    const status = (error as { status_code?: number }).status_code;
    if (status !== undefined || error instanceof SyntaxError) {
      // Something answers there, but not as Ollama does (another server on the port).
      const how = status !== undefined ? `/api/tags answered ${status}` : "/api/tags was not JSON";
      throw unavailable(
        "unreachable",
        "ollama",
        `no Ollama server at ${host}: something else answers there (${how})`,
      );
    }
    throw ollamaError(error, host, "ollama", "");
  }
}

/** The models loaded now (/api/ps); empty when the server cannot say. */
export async function loadedOllama(host: string): Promise<string[]> {
  try {
    const { models } = await client(host, { timeoutMs: METADATA_TIMEOUT_MS }).ps();
    return (models ?? []).map((m) => m.name ?? m.model);
  } catch {
    return [];
  }
}

/** One line of Ollama's pull progress (/api/pull NDJSON). */
export interface OllamaPullProgress {
  status: string;
  digest?: string;
  total?: number;
  completed?: number;
}

/**
 * Pull a model through the server's /api/pull, yielding each progress line.
 * An {"error": …} line, a refused request or a dead server throws a
 * ModelError that says why; the signal stops the pull (Ollama keeps the
 * layers it has and resumes from them next time).
 */
export async function* pullOllama(
  host: string,
  model: string,
  signal?: AbortSignal,
): AsyncGenerator<OllamaPullProgress> {
  requireLoopback(host, "ollama.host");
  const name = `ollama:${model}`;
  let stream: AsyncIterable<OllamaPullProgress>;
  try {
    stream = await client(host, { signal, ndjson: true }).pull({ model, stream: true });
    for await (const line of stream) yield line;
  } catch (error) {
    if (signal?.aborted || isAbortError(error)) throw new ModelStopped(name);
    const message = messageOf(error);
    if (/file does not exist|manifest|not found/i.test(message)) {
      throw new ModelError(
        "not_found",
        `Ollama cannot pull ${model} (${message}); check the name at https://ollama.com/library`,
      );
    }
    throw ollamaError(error, host, name, model);
  }
}

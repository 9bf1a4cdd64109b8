/**
 * `llamacpp:<name>` and `lmstudio:<name>`: servers that speak OpenAI's chat
 * completions (SSE on /v1/chat/completions, /v1/models). What the model can
 * do and its window come from the server where it says (LM Studio's
 * /api/v1/models, llama.cpp's /props) and from config.json where it does not
 * (llama.cpp does not say which models call tools: llamacpp.models.<name>.capabilities).
 */
import type { Config } from "../config/schema.ts";
import type {
  Backend,
  Capabilities,
  ChatMessage,
  ChatRequest,
  FinishReason,
  StreamEvent,
  ToolCall,
  Usage,
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
import { requireLoopback, serverRoot } from "./host.ts";
import { canonicalLlamacpp } from "./names.ts";
import { argumentsObject } from "./ollama.ts";
import OpenAI from "openai";
import { configuredWindow, FALLBACK_WINDOW, perModelSettings } from "./window.ts";
import { messageOf } from "../util/errors.ts";

export type OpenAIRuntime = "llamacpp" | "lmstudio";

export const METADATA_TIMEOUT_MS = 10_000;

const SERVER_NAME: Record<OpenAIRuntime, string> = { llamacpp: "llama.cpp", lmstudio: "LM Studio" };
const KEY_ENV: Record<OpenAIRuntime, string> = {
  llamacpp: "WISP_LLAMACPP_API_KEY",
  lmstudio: "WISP_LMSTUDIO_API_KEY",
};

export interface OpenAIDeps {
  runtime: OpenAIRuntime;
  baseURL: string;
  apiKey?: string;
  config: Config;
  /** What the server already said about this model (a listing passes it, sparing a request per model). */
  served?: ServedModel;
}

/** What a server says about one model it serves. */
export interface ServedModel {
  id: string;
  /** Capabilities the server reports; undefined when it does not say. */
  capabilities?: Capabilities & { completion: boolean };
  /** The window the server holds the model at now, if it says. */
  loadedContext?: number;
  maxContext?: number;
  sizeBytes?: number;
  parameters?: string;
  format?: string;
}

/** Capabilities as config.json declares them (toolCalling, guidedGeneration, reasoning, vision; or tools, structured, thinking). */
function declaredCapabilities(
  names: readonly string[] | undefined,
): Capabilities | undefined {
  if (!names) return undefined;
  const has = (...aliases: string[]) => aliases.some((a) => names.includes(a));
  return {
    tools: has("toolCalling", "tools"),
    structured: has("guidedGeneration", "structured"),
    thinking: has("reasoning", "thinking"),
    vision: has("vision"),
  };
}

/** Whether an id the server lists is the model asked for (a llama.cpp file and its path are one). */
function servesModel(runtime: OpenAIRuntime, listedId: string, model: string): boolean {
  if (listedId === model) return true;
  return runtime === "llamacpp" && canonicalLlamacpp(listedId) === canonicalLlamacpp(model);
}

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const positive = (v: unknown) =>
  typeof v === "number" && Number.isFinite(v) && v > 0 ? v : undefined;

/** LM Studio's /api/v1/models (0.4) or /api/v0/models (0.3) entries, as ServedModel. */
function parseLmStudioModels(body: unknown): ServedModel[] | undefined {
  if (!isObject(body)) return undefined;
  if (Array.isArray(body.models)) {
    return body.models.filter(isObject).map((m) => {
      const caps = isObject(m.capabilities) ? m.capabilities : {};
      const llm = m.type === "llm" || m.type === "vlm";
      const loaded = Array.isArray(m.loaded_instances) ? m.loaded_instances.filter(isObject) : [];
      const loadedConfig = loaded.length > 0 && isObject(loaded[0].config) ? loaded[0].config : {};
      return {
        id: String(m.key ?? m.id ?? ""),
        capabilities: {
          completion: llm,
          tools: llm && caps.trained_for_tool_use === true,
          structured: llm,
          thinking: false,
          vision: caps.vision === true,
        },
        loadedContext: positive(loadedConfig.context_length),
        maxContext: positive(m.max_context_length),
        sizeBytes: positive(m.size_bytes),
        parameters: typeof m.params_string === "string" ? m.params_string : undefined,
        format: typeof m.format === "string" ? m.format : undefined,
      };
    });
  }
  if (Array.isArray(body.data)) {
    return body.data.filter(isObject).map((m) => {
      const llm = m.type === "llm" || m.type === "vlm";
      const caps = Array.isArray(m.capabilities) ? m.capabilities : [];
      return {
        id: String(m.id ?? ""),
        capabilities: {
          completion: llm,
          tools: llm && caps.includes("tool_use"),
          structured: llm,
          thinking: false,
          vision: m.type === "vlm",
        },
        loadedContext: m.state === "loaded" ? positive(m.loaded_context_length) : undefined,
        maxContext: positive(m.max_context_length),
        format: typeof m.compatibility_type === "string" ? m.compatibility_type : undefined,
      };
    });
  }
  return undefined;
}

/** The OpenAI-shaped /v1/models list (ids, with llama.cpp's meta when present). */
function parseOpenAIModels(body: unknown): ServedModel[] {
  if (!isObject(body) || !Array.isArray(body.data)) return [];
  return body.data.filter(isObject).map((m) => {
    const meta = isObject(m.meta) ? m.meta : {};
    return {
      id: String(m.id ?? ""),
      maxContext: positive(meta.n_ctx_train),
      sizeBytes: positive(meta.size),
      parameters: positive(meta.n_params)
        ? `${((meta.n_params as number) / 1e9).toFixed(1)}B`
        : undefined,
    };
  });
}

/** The window llama.cpp's /props reports. */
function parseLlamacppProps(body: unknown): number | undefined {
  if (!isObject(body)) return undefined;
  const settings = isObject(body.default_generation_settings)
    ? body.default_generation_settings
    : {};
  return positive(settings.n_ctx) ?? positive(body.n_ctx);
}

function toOpenAIMessage(message: ChatMessage): Fields {
  if (message.role === "tool") {
    return { role: "tool", tool_call_id: message.toolCallId ?? "", content: message.content };
  }
  const out: Fields = { role: message.role, content: message.content };
  if (message.role === "assistant" && message.toolCalls?.length) {
    out.tool_calls = message.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.rawArguments ?? JSON.stringify(call.arguments) },
    }));
  }
  return out;
}

/** The body of a chat completions request. */
function chatBody(
  model: string,
  request: ChatRequest,
  think: boolean | undefined,
  runtime: OpenAIRuntime,
): Fields {
  const body: Fields = {
    model,
    messages: request.messages.map(toOpenAIMessage),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (request.schema) {
    body.response_format = {
      type: "json_schema",
      json_schema: { name: "reply", strict: true, schema: request.schema },
    };
  }
  // llama.cpp passes these to the chat template, where thinking models read enable_thinking.
  if (think !== undefined && runtime === "llamacpp") {
    body.chat_template_kwargs = { enable_thinking: think };
  }
  return body;
}

interface PartialCall {
  id?: string;
  name: string;
  arguments: string;
}

/**
 * Folds the stream's chunks into events: text and thinking as they come, tool
 * calls once complete (their arguments arrive in pieces), and one done.
 */
export class CompletionAssembler {
  #calls = new Map<number, PartialCall>();
  #finish: string | undefined;
  #usage: Usage | undefined;
  #done = false;

  get finished(): boolean {
    return this.#done || this.#finish !== undefined;
  }

  /** One parsed chunk; returns the events it completes. Throws the server's error object as text. */
  chunk(value: unknown): StreamEvent[] {
    if (!isObject(value)) throw new Error("a chunk that is not a JSON object");
    if (value.error !== undefined) {
      const error = value.error;
      throw new Error(
        isObject(error) ? String(error.message ?? JSON.stringify(error)) : String(error),
      );
    }
    const events: StreamEvent[] = [];
    if (isObject(value.usage)) {
      this.#usage = {
        inputTokens: positive(value.usage.prompt_tokens) ??
          (value.usage.prompt_tokens === 0 ? 0 : undefined),
        outputTokens: positive(value.usage.completion_tokens) ??
          (value.usage.completion_tokens === 0 ? 0 : undefined),
      };
    }
    const choices = Array.isArray(value.choices) ? value.choices.filter(isObject) : [];
    for (const choice of choices) {
      const delta = isObject(choice.delta)
        ? choice.delta
        : isObject(choice.message)
        ? choice.message
        : {};
      const thinking = delta.reasoning_content ?? delta.reasoning;
      if (typeof thinking === "string" && thinking !== "") {
        events.push({ type: "thinking", text: thinking });
      }
      if (typeof delta.content === "string" && delta.content !== "") {
        events.push({ type: "text", text: delta.content });
      }
      const calls = Array.isArray(delta.tool_calls) ? delta.tool_calls.filter(isObject) : [];
      for (const [position, call] of calls.entries()) {
        const index = typeof call.index === "number" ? call.index : position;
        const fn = isObject(call.function) ? call.function : {};
        const partial = this.#calls.get(index) ?? { name: "", arguments: "" };
        if (typeof call.id === "string" && call.id !== "") partial.id = call.id;
        if (typeof fn.name === "string") partial.name += fn.name;
        if (typeof fn.arguments === "string") partial.arguments += fn.arguments;
        else if (isObject(fn.arguments)) partial.arguments += JSON.stringify(fn.arguments);
        this.#calls.set(index, partial);
      }
      if (typeof choice.finish_reason === "string") this.#finish = choice.finish_reason;
    }
    return events;
  }

  /** The stream's end ([DONE] or the body's end after a finish reason): the calls, then done. */
  end(): StreamEvent[] {
    this.#done = true;
    const events: StreamEvent[] = [];
    const indexes = [...this.#calls.keys()].sort((a, b) => a - b);
    for (const [n, index] of indexes.entries()) {
      const partial = this.#calls.get(index)!;
      const call: ToolCall = {
        id: partial.id ?? `call_${n + 1}`,
        name: partial.name,
        ...argumentsObject(partial.arguments),
      };
      events.push({ type: "tool_call", call });
    }
    const finishReason: FinishReason = this.#finish === "length"
      ? "length"
      : indexes.length > 0 || this.#finish === "tool_calls" || this.#finish === "function_call"
      ? "tool_calls"
      : "stop";
    events.push({ type: "done", finishReason, ...(this.#usage ? { usage: this.#usage } : {}) });
    return events;
  }
}

export class OpenAICompatibleBackend implements Backend {
  readonly runtime: OpenAIRuntime;
  readonly name: string;
  readonly server: string;
  #served?: Promise<ServedModel | undefined>;
  #window?: Promise<WindowDecision>;

  constructor(readonly model: string, private readonly deps: OpenAIDeps) {
    this.runtime = deps.runtime;
    this.name = `${deps.runtime}:${model}`;
    this.server = SERVER_NAME[deps.runtime];
    if (deps.served) this.#served = Promise.resolve(deps.served);
  }

  get baseURL(): string {
    return this.deps.baseURL;
  }

  #headers(json = false): Record<string, string> {
    return {
      ...(json ? { "content-type": "application/json" } : {}),
      ...(this.deps.apiKey ? { authorization: `Bearer ${this.deps.apiKey}` } : {}),
    };
  }

  /** GET a JSON document from the server; undefined for a 404 when `optional`. */
  async #getJSON(url: string, optional: boolean): Promise<unknown> {
    requireLoopback(url, `${this.runtime}.baseURL`);
    let response: Response;
    try {
      response = await guardedFetch({ timeoutMs: METADATA_TIMEOUT_MS })(url, {
        headers: this.#headers(),
      });
    } catch (error) {
      if (error instanceof ModelError) throw error;
      throw unavailable(
        "unreachable",
        this.name,
        `no ${this.server} server at ${this.deps.baseURL}: ${connectionCause(error)}`,
        `start it, or set ${this.runtime}.baseURL`,
      );
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw this.#keyRefused(response.status);
    }
    if (!response.ok) {
      await response.body?.cancel();
      if (optional) return undefined;
      throw new ModelError(
        "refused",
        `the ${this.server} server at ${this.deps.baseURL} answered ${url} with ${response.status}`,
      );
    }
    try {
      return await response.json();
    } catch (error) {
      if (optional) return undefined;
      throw new ModelError(
        "broken",
        `the ${this.server} server at ${this.deps.baseURL} sent ${url} something that is not JSON (${
          messageOf(error)
        })`,
      );
    }
  }

  #keyRefused(status: number): ModelError {
    const reason = `the ${this.server} server at ${this.deps.baseURL} refused the key (${status})`;
    return unavailable(
      "refused",
      this.name,
      reason,
      `set ${KEY_ENV[this.runtime]} or ${this.runtime}.apiKey to the server's key`,
    );
  }

  /** Every model the server serves, with what it says about each. Throws when it does not answer. */
  async listServed(): Promise<ServedModel[]> {
    const root = serverRoot(this.deps.baseURL);
    const listed = parseOpenAIModels(await this.#getJSON(`${this.deps.baseURL}/models`, false));
    if (this.runtime !== "lmstudio") return listed;
    const native = parseLmStudioModels(await this.#getJSON(`${root}/api/v1/models`, true)) ??
      parseLmStudioModels(await this.#getJSON(`${root}/api/v0/models`, true));
    if (!native) return listed;
    const byId = new Map(native.map((m) => [m.id, m]));
    // /v1/models lists what can be chatted with; the native list adds what it knows.
    const merged = listed.map((m) => ({ ...m, ...byId.get(m.id) }));
    for (const m of native) if (!listed.some((l) => l.id === m.id)) merged.push(m);
    return merged;
  }

  /** What the server says about this model; undefined when it does not serve it. Asked once. */
  served(): Promise<ServedModel | undefined> {
    this.#served ??= this.listServed().then((all) =>
      all.find((m) => servesModel(this.runtime, m.id, this.model))
    );
    this.#served.catch(() => this.#served = undefined);
    return this.#served;
  }

  /** Capabilities: config.json's declaration first, then what the server reports. */
  async capabilities(): Promise<Capabilities> {
    const declared = declaredCapabilities(
      perModelSettings(this.deps.config[this.runtime].models, this.runtime, this.model)
        ?.capabilities,
    );
    if (declared) return declared;
    if (this.runtime === "lmstudio") {
      const served = await this.served();
      if (served?.capabilities) {
        const { completion: _, ...caps } = served.capabilities;
        return caps;
      }
    }
    // llama.cpp holds any model to a schema by grammar, but does not say which call tools.
    return { tools: false, structured: this.runtime === "llamacpp", thinking: false };
  }

  /** Where capabilities come from, for the listing. */
  capabilitiesFrom(): "config" | "runtime" | undefined {
    const declared = perModelSettings(
      this.deps.config[this.runtime].models,
      this.runtime,
      this.model,
    )?.capabilities;
    return declared ? "config" : this.runtime === "lmstudio" ? "runtime" : undefined;
  }

  /** The window the server holds the model at, else config's, else 8,192. */
  windowDecision(): Promise<WindowDecision> {
    this.#window ??= (async () => {
      let held: number | undefined;
      if (this.runtime === "llamacpp") {
        const root = serverRoot(this.deps.baseURL);
        held = parseLlamacppProps(
          await this.#getJSON(`${root}/props?model=${encodeURIComponent(this.model)}`, true).catch(
            (error) => {
              if (error instanceof ModelError && error.kind === "refused") throw error;
              return undefined;
            },
          ),
        );
      } else {
        held = (await this.served())?.loadedContext;
      }
      if (held) {
        return {
          tokens: held,
          from: "server" as const,
          note: `the window the ${this.server} server holds it at`,
        };
      }
      const configured = configuredWindow(this.deps.config, this.runtime, this.model);
      if (configured) return configured;
      return {
        tokens: FALLBACK_WINDOW,
        from: "default" as const,
        note: this.runtime === "lmstudio"
          ? "LM Studio has not loaded it, so wisp assumes 8,192"
          : "the server does not say, so wisp assumes 8,192",
      };
    })();
    this.#window.catch(() => this.#window = undefined);
    return this.#window;
  }

  async contextWindow(): Promise<number> {
    return (await this.windowDecision()).tokens;
  }

  #failure(status: number, text: string): ModelError {
    let message = text.trim();
    try {
      const parsed = JSON.parse(text);
      if (isObject(parsed) && parsed.error !== undefined) {
        message = isObject(parsed.error)
          ? String(parsed.error.message ?? JSON.stringify(parsed.error))
          : String(parsed.error);
      }
    } catch { /* plain text */ }
    message = message.slice(0, 500) || String(status);
    if (status === 401 || status === 403) return this.#keyRefused(status);
    if (tooLongText(message)) {
      return tooLong(
        this.name,
        `the ${this.server} server at ${this.deps.baseURL}`,
        status,
        message,
      );
    }
    if (status === 404 || /model.*not (found|loaded)|no such model|unknown model/i.test(message)) {
      return unavailable(
        "not_found",
        this.name,
        `the ${this.server} server at ${this.deps.baseURL} does not serve ${this.model}: ${message}`,
        `load it in ${this.server}, or check the name with wisp models`,
      );
    }
    return new ModelError(
      "refused",
      `the ${this.server} server at ${this.deps.baseURL} refused the request to ${this.name} (${status}: ${message})`,
    );
  }

  async *chat(request: ChatRequest): AsyncGenerator<StreamEvent> {
    const { signal } = request;
    if (signal?.aborted) throw new ModelStopped(this.name);
    const url = `${this.deps.baseURL}/chat/completions`;
    requireLoopback(url, `${this.runtime}.baseURL`);
    const think = request.think ??
      perModelSettings(this.deps.config[this.runtime].models, this.runtime, this.model)?.think;
    const assembler = new CompletionAssembler();
    const broken = (why: string) =>
      new ModelError(
        "broken",
        `the ${this.server} server at ${this.deps.baseURL} ended the reply of ${this.name} before it was done (${why})`,
      );
    // The official client speaks the wire (SSE, [DONE], error events); guardedFetch keeps the
    // fence's refusal a sentence. Retries are ours to decide, so the client makes none.
    const client = new OpenAI({
      baseURL: this.deps.baseURL,
      apiKey: this.deps.apiKey ?? "none",
      maxRetries: 0,
      fetch: guardedFetch({}),
      dangerouslyAllowBrowser: true,
    });
    try {
      const { data, response } = await client.chat.completions.create(
        chatBody(this.model, request, think, this.runtime) as never,
        { signal },
      ).withResponse();
      if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
        // A server that ignored stream: true answers with the whole completion at once.
        yield* assembler.chunk(await response.json());
        yield* assembler.end();
        return;
      }
      const stream = data as unknown as AsyncIterable<unknown>;
      for await (const chunk of stream) {
        try {
          yield* assembler.chunk(chunk);
        } catch (error) {
          throw new ModelError(
            "refused",
            `the ${this.server} server at ${this.deps.baseURL} failed the request to ${this.name} (${
              messageOf(error)
            })`,
          );
        }
      }
      // The client ends a stream quietly when its signal aborts it.
      if (signal?.aborted) throw new ModelStopped(this.name);
    } catch (error) {
      if (signal?.aborted || isAbortError(error)) throw new ModelStopped(this.name);
      if (error instanceof ModelError || error instanceof ModelStopped) throw error;
      if (error instanceof OpenAI.APIConnectionError) {
        const cause = (error as { cause?: unknown }).cause;
        if (cause instanceof ModelError) throw cause;
        throw unavailable(
          "unreachable",
          this.name,
          `no ${this.server} server at ${this.deps.baseURL}: ${connectionCause(cause ?? error)}`,
          `start it, or set ${this.runtime}.baseURL`,
        );
      }
      if (error instanceof OpenAI.APIError) {
        if (typeof error.status === "number") {
          throw this.#failure(
            error.status,
            JSON.stringify({ error: error.error ?? error.message }),
          );
        }
        // An `event: error` in the stream.
        throw new ModelError(
          "refused",
          `the ${this.server} server at ${this.deps.baseURL} failed the request to ${this.name} (${
            String(messageOf(error)).slice(0, 500)
          })`,
        );
      }
      if (error instanceof SyntaxError) throw broken(`it sent a chunk that is not JSON`);
      throw broken(connectionCause(error));
    }
    // The body ended without [DONE]: complete only if a finish reason arrived.
    if (!assembler.finished) throw broken("the stream stopped without a finish reason");
    yield* assembler.end();
  }
}

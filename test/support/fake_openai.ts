/**
 * A fake OpenAI-compatible server, as llama.cpp's llama-server or LM Studio
 * speaks it: SSE on /v1/chat/completions, /v1/models, and the flavour's own
 * metadata (llama.cpp's /props, LM Studio's /api/v1/models).
 *
 *   const server = startFakeOpenAI({ flavour: "lmstudio", models: [{ id: "qwen3-8b" }] });
 *   server.reply({ toolCalls: [{ name: "read_file", arguments: { path: "README.md" } }] });
 *   server.reply({ text: ["It says ", "hello."] });
 *   // run wisp with config lmstudio.baseURL = server.baseURL and --model lmstudio:qwen3-8b
 *   server.chats()   // the request bodies received
 *
 * llama.cpp does not say which models call tools, so a test that offers tools
 * to llamacpp:<name> declares them in config.json:
 *   { "llamacpp": { "models": { "<name>": { "capabilities": ["toolCalling", "guidedGeneration"] } } } }
 *
 * Tool-call arguments are streamed in pieces, as OpenAI-style servers do. A
 * chat with no reply queued gets a 500 that says so.
 */
import {
  hangingBody,
  json,
  type Piecewise,
  piecewiseBody,
  type RecordedRequest,
  recordRequest,
  serveLoopback,
} from "./fake_http.ts";

export type { RecordedRequest };

export interface FakeOpenAIModel {
  id: string;
  /** LM Studio: trained_for_tool_use (default true). */
  toolUse?: boolean;
  type?: "llm" | "vlm" | "embedding";
  /** LM Studio: the loaded instance's window; absent = not loaded. */
  loadedContext?: number;
  maxContext?: number;
  sizeBytes?: number;
  params?: string;
}

export interface FakeOpenAIToolCall {
  name: string;
  arguments: unknown;
  id?: string;
}

export type FakeOpenAIReply =
  & Piecewise
  & { lineEnding?: "\n" | "\r\n" | "\r" }
  & (
    | {
      text?: string | string[];
      thinking?: string | string[];
      toolCalls?: FakeOpenAIToolCall[];
      finishReason?: "stop" | "length" | "tool_calls";
      usage?: { input: number; output: number };
      /** Neither a finish reason nor [DONE]: the body just ends. */
      noDone?: boolean;
      /** Answer with one JSON completion instead of a stream. */
      whole?: boolean;
    }
    | { error: string; status?: number }
    | { streamError: string; after?: string[] }
    | { hang: true }
    /** Send exactly these bytes as the event-stream body. */
    | { raw: string }
  );

/** A reply, or a function of the chat request's body that returns one (for replies that depend on what was sent). */
export type ScriptedFakeOpenAIReply =
  | FakeOpenAIReply
  | ((body: Record<string, unknown>) => FakeOpenAIReply);

export interface FakeOpenAI {
  /** The server root. */
  url: string;
  /** The OpenAI base URL (root + /v1), as llamacpp.baseURL / lmstudio.baseURL take it. */
  baseURL: string;
  requests: RecordedRequest[];
  chats(): Record<string, unknown>[];
  /** Queue replies for the next chats; a function is called with the request's body when its turn comes. */
  reply(...replies: ScriptedFakeOpenAIReply[]): void;
  pending(): number;
  models: FakeOpenAIModel[];
  close(): Promise<void>;
}

export interface FakeOpenAIOptions extends Piecewise {
  flavour?: "llamacpp" | "lmstudio";
  models?: FakeOpenAIModel[];
  replies?: ScriptedFakeOpenAIReply[];
  /** Require this bearer key on every request. */
  apiKey?: string;
  /** llama.cpp: the n_ctx /props reports (default 32768; 0 for none). */
  nCtx?: number;
  /** LM Studio: answer /api/v1/models with 404, as LM Studio 0.3 does (then /api/v0/models is used). */
  v0Only?: boolean;
}

const encoder = new TextEncoder();

function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** Cut a string into pieces of about n characters. */
function pieces(text: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += n) out.push(text.slice(i, i + n));
  return out.length ? out : [""];
}

export function startFakeOpenAI(options: FakeOpenAIOptions = {}): FakeOpenAI {
  const flavour = options.flavour ?? "llamacpp";
  const models = options.models ??
    [{ id: flavour === "llamacpp" ? "granite-4.1-8b-Q4_K_M.gguf" : "qwen3-8b" }];
  const queue: ScriptedFakeOpenAIReply[] = [...(options.replies ?? [])];
  const requests: RecordedRequest[] = [];
  const closing = new AbortController();
  let completionId = 0;

  function chat(body: Record<string, unknown>): Response {
    if (flavour === "lmstudio" && !models.some((m) => m.id === body.model)) {
      return json({
        error: {
          message: `Model "${body.model}" not found. Please load it first.`,
          type: "invalid_request_error",
        },
      }, 404);
    }
    const next = queue.shift();
    const reply = typeof next === "function" ? next(body) : next;
    if (!reply) {
      return json({
        error: {
          message: "fake server: no scripted reply left for this chat",
          type: "server_error",
        },
      }, 500);
    }
    if ("error" in reply) {
      return json({
        error: { code: reply.status ?? 500, message: reply.error, type: "server_error" },
      }, reply.status ?? 500);
    }
    const id = `chatcmpl-${++completionId}`;
    const created = Math.floor(Date.now() / 1000);
    const eol = reply.lineEnding ?? "\n";
    const piecewise: Piecewise = {
      chunkBytes: reply.chunkBytes ?? options.chunkBytes,
      chunkDelayMs: reply.chunkDelayMs ?? options.chunkDelayMs,
      dieAfterBytes: reply.dieAfterBytes,
    };
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${
        JSON.stringify({
          id,
          object: "chat.completion.chunk",
          created,
          model: body.model,
          choices: [{ index: 0, delta, finish_reason: finish }],
        })
      }${eol}${eol}`;
    const sse = { "content-type": "text/event-stream", "cache-control": "no-cache" };
    if ("raw" in reply) {
      return new Response(piecewiseBody(encoder.encode(reply.raw), piecewise), { headers: sse });
    }
    if ("hang" in reply) {
      return new Response(
        hangingBody(encoder.encode(chunk({ role: "assistant", content: "" })), closing.signal),
        { headers: sse },
      );
    }
    if ("streamError" in reply) {
      let text = chunk({ role: "assistant", content: "" });
      for (const t of reply.after ?? []) text += chunk({ content: t });
      text += `data: ${
        JSON.stringify({ error: { code: 500, message: reply.streamError, type: "server_error" } })
      }${eol}${eol}`;
      return new Response(piecewiseBody(encoder.encode(text), piecewise), { headers: sse });
    }
    const calls = reply.toolCalls ?? [];
    const finish = reply.finishReason ?? (calls.length > 0 ? "tool_calls" : "stop");
    const usage = {
      prompt_tokens: reply.usage?.input ?? 12,
      completion_tokens: reply.usage?.output ?? 7,
      total_tokens: (reply.usage?.input ?? 12) + (reply.usage?.output ?? 7),
    };
    if (reply.whole) {
      return json({
        id,
        object: "chat.completion",
        created,
        model: body.model,
        choices: [{
          index: 0,
          finish_reason: finish,
          message: {
            role: "assistant",
            content: asList(reply.text).join(""),
            ...(calls.length
              ? {
                tool_calls: calls.map((c, i) => ({
                  id: c.id ?? `call_w${i}`,
                  type: "function",
                  function: { name: c.name, arguments: JSON.stringify(c.arguments) },
                })),
              }
              : {}),
          },
        }],
        usage,
      });
    }
    let text = chunk({ role: "assistant", content: null });
    for (const t of asList(reply.thinking)) text += chunk({ reasoning_content: t });
    for (const t of asList(reply.text)) text += chunk({ content: t });
    calls.forEach((call, index) => {
      text += chunk({
        tool_calls: [{
          index,
          id: call.id ?? `call_${index}_${completionId}`,
          type: "function",
          function: { name: call.name, arguments: "" },
        }],
      });
      for (const part of pieces(JSON.stringify(call.arguments), 5)) {
        text += chunk({ tool_calls: [{ index, function: { arguments: part } }] });
      }
    });
    if (!reply.noDone) {
      text += chunk({}, finish);
      text += `data: ${
        JSON.stringify({
          id,
          object: "chat.completion.chunk",
          created,
          model: body.model,
          choices: [],
          usage,
        })
      }${eol}${eol}`;
      text += `data: [DONE]${eol}${eol}`;
    }
    return new Response(piecewiseBody(encoder.encode(text), piecewise), { headers: sse });
  }

  const served = serveLoopback(async (request) => {
    const recorded = await recordRequest(request);
    requests.push(recorded);
    if (options.apiKey && recorded.headers["authorization"] !== `Bearer ${options.apiKey}`) {
      return json({
        error: { code: 401, message: "Invalid API Key", type: "authentication_error" },
      }, 401);
    }
    const body = (recorded.body ?? {}) as Record<string, unknown>;
    const route = `${request.method} ${recorded.path}`;
    if (route === "GET /v1/models") {
      return json({
        object: "list",
        data: models.filter((m) => flavour === "llamacpp" || m.type !== "embedding").map((m) => ({
          id: m.id,
          object: "model",
          created: 1_760_000_000,
          owned_by: flavour === "llamacpp" ? "llamacpp" : "organization_owner",
          ...(flavour === "llamacpp"
            ? {
              meta: {
                n_ctx_train: m.maxContext ?? 131072,
                n_params: 8_800_000_000,
                size: m.sizeBytes ?? 5_350_000_000,
              },
            }
            : {}),
        })),
      });
    }
    if (route === "POST /v1/chat/completions") return chat(body);
    if (flavour === "llamacpp" && route === "GET /props") {
      const nCtx = options.nCtx ?? 32768;
      return json({
        ...(nCtx ? { default_generation_settings: { n_ctx: nCtx, params: {} } } : {}),
        total_slots: 1,
        model_path: `/models/${models[0]?.id ?? "model.gguf"}`,
        chat_template: "{{ messages }}",
      });
    }
    if (flavour === "llamacpp" && route === "GET /health") return json({ status: "ok" });
    if (flavour === "lmstudio" && route === "GET /api/v1/models" && !options.v0Only) {
      return json({
        models: models.map((m) => ({
          type: m.type === "embedding" ? "embedding" : "llm",
          publisher: "lmstudio-community",
          key: m.id,
          display_name: m.id,
          size_bytes: m.sizeBytes ?? 4_680_000_000,
          params_string: m.params ?? "8B",
          loaded_instances: m.loadedContext
            ? [{ id: m.id, config: { context_length: m.loadedContext } }]
            : [],
          max_context_length: m.maxContext ?? 32768,
          format: "gguf",
          ...(m.type === "embedding" ? {} : {
            capabilities: { vision: m.type === "vlm", trained_for_tool_use: m.toolUse ?? true },
          }),
        })),
      });
    }
    if (flavour === "lmstudio" && route === "GET /api/v0/models") {
      return json({
        object: "list",
        data: models.map((m) => ({
          id: m.id,
          object: "model",
          type: m.type === "embedding" ? "embeddings" : m.type ?? "llm",
          publisher: "lmstudio-community",
          arch: "qwen3",
          compatibility_type: "gguf",
          quantization: "Q4_K_M",
          state: m.loadedContext ? "loaded" : "not-loaded",
          max_context_length: m.maxContext ?? 32768,
          ...(m.loadedContext ? { loaded_context_length: m.loadedContext } : {}),
          ...(m.toolUse ?? true ? { capabilities: ["tool_use"] } : {}),
        })),
      });
    }
    return json({ error: { code: 404, message: "File Not Found", type: "not_found_error" } }, 404);
  }, closing);

  return {
    url: served.url,
    baseURL: `${served.url}/v1`,
    requests,
    chats: () =>
      requests.filter((r) => r.path === "/v1/chat/completions").map((r) =>
        r.body as Record<string, unknown>
      ),
    reply: (...replies) => queue.push(...replies),
    pending: () => queue.length,
    models,
    close: () => served.close(),
  };
}

/**
 * A fake Ollama server that speaks the real wire format (NDJSON on
 * /api/chat; /api/tags, /api/show, /api/ps, /api/version), for tests of the
 * backend and for end-to-end tests that drive wisp through it.
 *
 * Script it with a queue of replies, one per /api/chat request, each text
 * chunks, thinking, tool calls, an error, or a reply that dies part-way:
 *
 *   const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
 *   ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "ls" } }] });
 *   ollama.reply({ text: ["Two ", "files."] });
 *   // run wisp with OLLAMA_HOST=ollama.url and --model ollama:granite4.1:8b
 *   ollama.chats()   // the /api/chat bodies received, in order
 *   await ollama.close();
 *
 * Like Ollama, it refuses a model it does not have (404), tools for a model
 * without the tools capability and `think` for one without thinking (400).
 * A chat with no reply left in the queue gets a 500 that names the problem.
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

export interface FakeOllamaModel {
  /** As Ollama lists it; a name without a tag is listed with :latest. */
  name: string;
  /** Default: completion and tools. */
  capabilities?: string[];
  parameterSize?: string;
  /** Bytes of the weights. Default 5.35 GB. */
  size?: number;
  family?: string;
  contextLength?: number;
  blockCount?: number;
  headCount?: number;
  headCountKv?: number;
  embeddingLength?: number;
  /** Listed by /api/ps. */
  loaded?: boolean;
}

export interface FakeToolCall {
  name: string;
  arguments: unknown;
}

export type FakeOllamaReply =
  & Piecewise
  & (
    | {
      text?: string | string[];
      thinking?: string | string[];
      toolCalls?: FakeToolCall[];
      doneReason?: "stop" | "length";
      usage?: { input: number; output: number };
      /** Send no final done line: the stream just ends. */
      noDone?: boolean;
    }
    /** An HTTP error before any stream, as Ollama sends one. */
    | { error: string; status?: number }
    /** An {"error": …} line after these text chunks, as Ollama reports a failure mid-stream. */
    | { streamError: string; after?: string[] }
    /** Send the first line and then nothing, until the client gives up (`onClientLeft` hears it leave). */
    | { hang: true; onClientLeft?: () => void }
    /** Send exactly these bytes as the NDJSON body. */
    | { raw: string }
  );

/** A reply, or a function of the chat request's body that returns one (for replies that depend on what was sent). */
export type ScriptedFakeOllamaReply =
  | FakeOllamaReply
  | ((body: Record<string, unknown>) => FakeOllamaReply);

export interface FakeOllama {
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** The bodies of /api/chat requests, in order. */
  chats(): Record<string, unknown>[];
  /** Queue replies for the next chats; a function is called with the request's body when its turn comes. */
  reply(...replies: ScriptedFakeOllamaReply[]): void;
  /** Replies still queued. */
  pending(): number;
  models: FakeOllamaModel[];
  close(): Promise<void>;
}

/** What /api/pull serves for one model name, as Ollama's NDJSON progress. */
export interface FakeOllamaPull {
  /** The layers, each reported as it downloads in `steps` progress lines. */
  layers: { digest: string; total: number }[];
  /** Progress lines per layer (default 4). */
  steps?: number;
  /** An {"error": …} line after the first layer's progress, as Ollama reports a failed pull. */
  error?: string;
  /** Stop sending after the first layer's first progress line, until the client gives up. */
  hang?: boolean;
  /** Added to the models /api/tags lists once the pull succeeds. */
  model?: FakeOllamaModel;
}

export interface FakeOllamaOptions extends Piecewise {
  models?: FakeOllamaModel[];
  /** /api/pull by model name; a name not here gets Ollama's "file does not exist" error line. */
  pulls?: Record<string, FakeOllamaPull>;
  replies?: ScriptedFakeOllamaReply[];
}

const encoder = new TextEncoder();

function withTag(name: string): string {
  const slash = name.lastIndexOf("/");
  return name.slice(slash + 1).includes(":") ? name : `${name}:latest`;
}

function details(model: FakeOllamaModel) {
  const family = model.family ?? "granite";
  return {
    parent_model: "",
    format: "gguf",
    family,
    families: [family],
    parameter_size: model.parameterSize ?? "8.8B",
    quantization_level: "Q4_K_M",
  };
}

function modelInfo(model: FakeOllamaModel): Record<string, unknown> {
  const arch = model.family ?? "granite";
  return {
    "general.architecture": arch,
    "general.parameter_count": 8_800_000_000,
    [`${arch}.context_length`]: model.contextLength ?? 131072,
    [`${arch}.block_count`]: model.blockCount ?? 40,
    [`${arch}.attention.head_count`]: model.headCount ?? 32,
    [`${arch}.attention.head_count_kv`]: model.headCountKv ?? 8,
    [`${arch}.embedding_length`]: model.embeddingLength ?? 4096,
  };
}

function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

export function startFakeOllama(options: FakeOllamaOptions = {}): FakeOllama {
  const models = options.models ?? [{ name: "granite4.1:8b" }];
  const queue: ScriptedFakeOllamaReply[] = [...(options.replies ?? [])];
  const requests: RecordedRequest[] = [];
  const closing = new AbortController();

  const find = (name: unknown) =>
    typeof name === "string" ? models.find((m) => withTag(m.name) === withTag(name)) : undefined;
  const caps = (m: FakeOllamaModel) => m.capabilities ?? ["completion", "tools"];
  const created = () => new Date().toISOString();

  function chat(body: Record<string, unknown>): Response {
    const model = find(body.model);
    if (!model) {
      return json({ error: `model "${body.model}" not found, try pulling it first` }, 404);
    }
    if (Array.isArray(body.tools) && body.tools.length > 0 && !caps(model).includes("tools")) {
      return json({
        error: `registry.ollama.ai/library/${withTag(model.name)} does not support tools`,
      }, 400);
    }
    if (body.think === true && !caps(model).includes("thinking")) {
      return json({ error: `"${model.name}" does not support thinking` }, 400);
    }
    const next = queue.shift();
    const reply = typeof next === "function" ? next(body) : next;
    if (!reply) return json({ error: "fake ollama: no scripted reply left for this chat" }, 500);
    const piecewise: Piecewise = {
      chunkBytes: reply.chunkBytes ?? options.chunkBytes,
      chunkDelayMs: reply.chunkDelayMs ?? options.chunkDelayMs,
      dieAfterBytes: reply.dieAfterBytes,
    };
    if ("error" in reply) return json({ error: reply.error }, reply.status ?? 500);
    const line = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        model: body.model,
        created_at: created(),
        message: { role: "assistant", content: "", ...message },
        done: false,
        ...extra,
      }) + "\n";
    const headers = { "content-type": "application/x-ndjson" };
    if ("raw" in reply) {
      return new Response(piecewiseBody(encoder.encode(reply.raw), piecewise), { headers });
    }
    if ("hang" in reply) {
      return new Response(
        hangingBody(encoder.encode(line({ content: "" })), closing.signal, reply.onClientLeft),
        { headers },
      );
    }
    let text = "";
    if ("streamError" in reply) {
      for (const chunk of reply.after ?? []) text += line({ content: chunk });
      text += JSON.stringify({ error: reply.streamError }) + "\n";
    } else {
      for (const chunk of asList(reply.thinking)) text += line({ thinking: chunk });
      for (const chunk of asList(reply.text)) text += line({ content: chunk });
      if (reply.toolCalls?.length) {
        text += line({
          tool_calls: reply.toolCalls.map((call) => ({
            function: { name: call.name, arguments: call.arguments },
          })),
        });
      }
      if (!reply.noDone) {
        text += JSON.stringify({
          model: body.model,
          created_at: created(),
          message: { role: "assistant", content: "" },
          done: true,
          done_reason: reply.doneReason ?? "stop",
          total_duration: 1_000_000,
          load_duration: 1000,
          prompt_eval_count: reply.usage?.input ?? 12,
          prompt_eval_duration: 1000,
          eval_count: reply.usage?.output ?? 7,
          eval_duration: 1000,
        }) + "\n";
      }
    }
    return new Response(piecewiseBody(encoder.encode(text), piecewise), { headers });
  }

  /** Ollama's pull progress: manifest, each layer's bytes, verifying, writing, success. */
  function pull(name: string): Response {
    const script = options.pulls?.[name];
    const lines: (Record<string, unknown> | "hang")[] = [{ status: "pulling manifest" }];
    if (!script) {
      lines.push({ error: "pull model manifest: file does not exist" });
    } else {
      for (const [index, layer] of script.layers.entries()) {
        const steps = script.steps ?? 4;
        for (let step = 0; step <= steps; step++) {
          lines.push({
            status: `pulling ${layer.digest.slice(7, 19)}`,
            digest: layer.digest,
            total: layer.total,
            completed: Math.round(layer.total * step / steps),
          });
          if (script.hang && index === 0 && step === 0) lines.push("hang");
        }
        if (script.error && index === 0) lines.push({ error: script.error });
      }
      lines.push({ status: "verifying sha256 digest" }, { status: "writing manifest" }, {
        status: "success",
      });
    }
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const line of lines) {
          if (line === "hang") {
            await new Promise<void>((resolve) => {
              if (closing.signal.aborted) resolve();
              closing.signal.addEventListener("abort", () => resolve(), { once: true });
            });
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode(JSON.stringify(line) + "\n"));
          if ("error" in line) break;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        if (script?.model && !script.error && !models.some((m) => m.name === script.model!.name)) {
          models.push(script.model);
        }
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
  }

  const served = serveLoopback(async (request) => {
    const recorded = await recordRequest(request);
    requests.push(recorded);
    const body = (recorded.body ?? {}) as Record<string, unknown>;
    switch (`${request.method} ${recorded.path}`) {
      case "GET /":
        return new Response("Ollama is running");
      case "GET /api/version":
        return json({ version: "0.13.0" });
      case "GET /api/tags":
        return json({
          models: models.map((m) => ({
            name: withTag(m.name),
            model: withTag(m.name),
            modified_at: "2026-10-04T10:00:00Z",
            size: m.size ?? 5_350_000_000,
            digest: "0".repeat(64),
            details: details(m),
          })),
        });
      case "GET /api/ps":
        return json({
          models: models.filter((m) => m.loaded).map((m) => ({
            name: withTag(m.name),
            model: withTag(m.name),
            size: m.size ?? 5_350_000_000,
            digest: "0".repeat(64),
            details: details(m),
            expires_at: "2026-10-04T10:05:00Z",
            size_vram: m.size ?? 5_350_000_000,
          })),
        });
      case "POST /api/show": {
        const model = find(body.model ?? body.name);
        if (!model) return json({ error: `model '${body.model ?? body.name}' not found` }, 404);
        return json({
          license: "",
          modelfile: "",
          parameters: "",
          template: caps(model).includes("tools")
            ? "{{ if .Tools }}tools{{ end }}{{ .Prompt }}"
            : "{{ .Prompt }}",
          details: details(model),
          model_info: modelInfo(model),
          capabilities: caps(model),
          modified_at: "2026-10-04T10:00:00Z",
        });
      }
      case "POST /api/chat":
        return chat(body);
      case "POST /api/pull":
        return pull(String(body.model ?? body.name ?? ""));
      default:
        return new Response("404 page not found", {
          status: 404,
          headers: { "content-type": "text/plain" },
        });
    }
  }, closing);

  return {
    url: served.url,
    requests,
    chats: () =>
      requests.filter((r) => r.path === "/api/chat").map((r) => r.body as Record<string, unknown>),
    reply: (...replies) => queue.push(...replies),
    pending: () => queue.length,
    models,
    close: () => served.close(),
  };
}

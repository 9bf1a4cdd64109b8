/**
 * Choosing a model by name, checking it can answer, and listing every model
 * the local runtimes serve. This is the only way from a name (--model,
 * config.json's model, an MCP caller's model) to a Backend: the scripted test
 * double has no name here.
 */
import type { Config } from "../config/schema.ts";
import { hostOs } from "../platform/os.ts";
import type { Backend, Capabilities } from "./backend.ts";
import { ModelError, unavailable } from "./errors.ts";
import { type Env, ollamaHost, openAIEndpoint, requireLoopback } from "./host.ts";
import { canonicalName, disabledMessage, isDisabled, parseModelName, sameModel } from "./names.ts";
import {
  freeMemoryNow,
  listOllama,
  loadedOllama,
  OllamaBackend,
  ollamaCapabilities,
} from "./ollama.ts";
import { OpenAICompatibleBackend, type OpenAIRuntime } from "./openai.ts";
import { macRuntimeError, systemModelError, systemModelReason } from "./system.ts";
import { systemBackendHere } from "./system_backend.ts";
import { canonicalOllama } from "./names.ts";
import { configuredWindow, shapeFromModelInfo, sizeWindow } from "./window.ts";
import { formatDecimalBytes } from "../util/bytes.ts";
import { messageOf } from "../util/errors.ts";

export interface ResolveOptions {
  os?: string;
  /** Memory free now, in bytes; the system's by default. */
  freeMemory?: () => number;
}

/**
 * The backend a name chooses. Throws a ModelError with the sentence to show:
 * a name wisp does not know (exit 64), a disabled model (exit 64), a runtime
 * this system does not have, a server that is not on this machine.
 * Makes no request: `checkAvailable` asks the server.
 */
export function resolveModel(
  name: string,
  config: Config,
  env: Env = Deno.env.get,
  options: ResolveOptions = {},
): Backend {
  const parsed = parseModelName(name);
  if (isDisabled(parsed.written, config.models.disabled)) {
    throw new ModelError("disabled", disabledMessage(parsed.written));
  }
  switch (parsed.runtime) {
    case "system": {
      const here = systemBackendHere(options.os ?? hostOs());
      if ("backend" in here) return here.backend;
      throw systemModelError(options.os, here.reason);
    }
    case "ollama": {
      const host = ollamaHost(config, env);
      requireLoopback(host, "ollama.host");
      return new OllamaBackend(parsed.model, {
        host,
        config,
        freeMemory: options.freeMemory ?? freeMemoryNow,
      });
    }
    case "llamacpp":
    case "lmstudio": {
      const endpoint = openAIEndpoint(parsed.runtime, config, env);
      requireLoopback(endpoint.baseURL, `${parsed.runtime}.baseURL`);
      return new OpenAICompatibleBackend(parsed.model, {
        runtime: parsed.runtime,
        ...endpoint,
        config,
      });
    }
    default:
      throw macRuntimeError(parsed.written, parsed.runtime);
  }
}

export interface CheckOptions {
  /** The conversation offers tools, so the model must declare tool calling (default true). */
  tools?: boolean;
}

/**
 * Throws a ModelError with the reason the model cannot answer now: no server,
 * the model not there (not pulled, not loaded), not able to converse, no tool
 * calling when tools are offered. Returns what the model can do.
 */
export async function checkAvailable(
  backend: Backend,
  options: CheckOptions = {},
): Promise<Capabilities> {
  const needTools = options.tools ?? true;
  if (backend instanceof OllamaBackend) {
    const tags = await listOllama(backend.host).catch((error) => {
      throw error instanceof ModelError
        ? unavailable(error.kind, backend.name, error.reason, "start it with ollama serve")
        : error;
    });
    const wanted = canonicalOllama(backend.model);
    if (!tags.some((t) => canonicalOllama(t.name) === wanted)) {
      throw unavailable(
        "not_found",
        backend.name,
        `the Ollama server at ${backend.host} has no model ${backend.model}`,
        `pull it with ollama pull ${backend.model}`,
      );
    }
    const caps = ollamaCapabilities(await backend.show());
    if (!caps.completion) {
      throw unavailable(
        "unsupported",
        backend.name,
        "it cannot hold a conversation",
        "choose another model from wisp models",
      );
    }
    if (needTools && !caps.tools) {
      throw unavailable(
        "no_tools",
        backend.name,
        "it does not declare tool calling, and a conversation has tools",
        "choose another model from wisp models, or pass --no-tools",
      );
    }
    const { completion: _, ...rest } = caps;
    return rest;
  }
  if (backend instanceof OpenAICompatibleBackend) {
    const served = await backend.served();
    if (!served) {
      throw unavailable(
        "not_found",
        backend.name,
        `the ${backend.server} server at ${backend.baseURL} does not serve ${backend.model}`,
        backend.runtime === "lmstudio"
          ? "download it in LM Studio, or check the name with wisp models"
          : "start llama-server with that model, or check the name with wisp models",
      );
    }
    if (served.capabilities && !served.capabilities.completion) {
      throw unavailable(
        "unsupported",
        backend.name,
        "it cannot hold a conversation",
        "choose another model from wisp models",
      );
    }
    const caps = await backend.capabilities();
    if (needTools && !caps.tools) {
      const advice = backend.runtime === "llamacpp"
        ? `llama.cpp does not say which models call tools: declare it in config.json under llamacpp.models.${backend.model}.capabilities (["toolCalling"]), or pass --no-tools`
        : "LM Studio says it was not trained for tool use; choose another model, or pass --no-tools";
      throw unavailable(
        "no_tools",
        backend.name,
        "it does not declare tool calling, and a conversation has tools",
        advice,
      );
    }
    return caps;
  }
  return await backend.capabilities();
}

// ---------------------------------------------------------------------------------------------
// Listing

export interface ModelEntry {
  model: string;
  runtime: string;
  parameters: string | null;
  size: string | null;
  bytes: number | null;
  format: string | null;
  context: number | null;
  contextFrom: string | null;
  contextNote: string | null;
  /** modelsFolder, hubCache or hubCacheNotLinked for MLX models; null elsewhere. */
  location: string | null;
  enabled: boolean;
  capabilities: string[];
  capabilitiesFrom: string | null;
  default: boolean;
  usable: boolean;
  problem: string | null;
}

export interface Unreachable {
  runtime: string;
  reason: string;
}

export interface ModelListing {
  models: ModelEntry[];
  unreachable: Unreachable[];
  /** The configured default, as written. */
  defaultModel: string;
}

export interface ListOptions extends ResolveOptions {
  /** Also every model that cannot be used, with the reason. */
  all?: boolean;
  env?: Env;
}

/** Capabilities as the listing names them. */
function capabilityLabels(caps: Capabilities): string[] {
  return [
    ...(caps.tools ? ["tools"] : []),
    ...(caps.structured ? ["structured replies"] : []),
    ...(caps.thinking ? ["thinking"] : []),
    ...(caps.vision ? ["vision"] : []),
  ];
}

function entry(
  model: string,
  runtime: string,
  config: Config,
  fields: Partial<ModelEntry>,
): ModelEntry {
  return {
    model,
    runtime,
    parameters: null,
    size: null,
    bytes: null,
    format: null,
    context: null,
    contextFrom: null,
    contextNote: null,
    location: null,
    enabled: !isDisabled(model, config.models.disabled),
    capabilities: [],
    capabilitiesFrom: null,
    default: sameModel(model, config.model),
    usable: true,
    problem: null,
    ...fields,
    ...(fields.bytes != null && fields.size == null
      ? { size: formatDecimalBytes(fields.bytes) }
      : {}),
  };
}

/** Run `fn` over items, at most `limit` at a time, keeping order. */
async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  });
  await Promise.all(workers);
  return results;
}

function systemEntries(config: Config, os: string): ModelEntry[] {
  // Usable when the native library loads here and the framework says the model is available.
  const here = systemBackendHere(os);
  const system = "backend" in here
    ? entry("system", "system", config, {
      context: here.backend.windowTokens(),
      contextFrom: "framework",
      capabilities: capabilityLabels(here.backend.capabilitiesNow()),
      capabilitiesFrom: "framework",
    })
    : entry("system", "system", config, {
      usable: false,
      problem: here.reason ?? systemModelReason(os),
      capabilitiesFrom: "framework",
    });
  return [
    system,
    ...(os === "darwin"
      ? [entry("private-cloud", "system", config, {
        usable: false,
        problem: "Private Cloud Compute is refused from every unsigned build",
      })]
      : []),
  ];
}

async function ollamaEntries(
  config: Config,
  env: Env,
  freeMemory: () => number,
): Promise<ModelEntry[]> {
  const host = ollamaHost(config, env);
  requireLoopback(host, "ollama.host");
  const [tags, loaded] = await Promise.all([listOllama(host), loadedOllama(host)]);
  const free = freeMemory();
  return await mapLimit(tags, 4, async (tag) => {
    const name = `ollama:${tag.name}`;
    const backend = new OllamaBackend(tag.name, { host, config, freeMemory: () => free });
    const base = {
      parameters: tag.details?.parameter_size || null,
      bytes: tag.size || null,
      format: tag.details?.format || null,
      capabilitiesFrom: "runtime",
    };
    try {
      const show = await backend.show();
      const caps = ollamaCapabilities(show);
      const window = configuredWindow(config, "ollama", tag.name) ?? sizeWindow({
        shape: shapeFromModelInfo(show.modelInfo),
        freeBytes: free,
        weightsBytes: tag.size,
        loaded: loaded.some((l) => canonicalOllama(l) === canonicalOllama(tag.name)),
      });
      const problem = !caps.completion
        ? "it cannot hold a conversation"
        : !caps.tools
        ? "it does not declare tool calling, and a conversation has tools"
        : null;
      return entry(name, "ollama", config, {
        ...base,
        context: window.tokens,
        contextFrom: window.from,
        contextNote: window.note,
        capabilities: caps.completion ? capabilityLabels(caps) : [],
        usable: problem === null,
        problem,
      });
    } catch (error) {
      return entry(name, "ollama", config, {
        ...base,
        usable: false,
        problem: error instanceof ModelError ? error.reason : messageOf(error),
      });
    }
  });
}

async function openAIEntries(
  runtime: OpenAIRuntime,
  config: Config,
  env: Env,
): Promise<ModelEntry[]> {
  const endpoint = openAIEndpoint(runtime, config, env);
  requireLoopback(endpoint.baseURL, `${runtime}.baseURL`);
  const lister = new OpenAICompatibleBackend("", { runtime, ...endpoint, config });
  const served = await lister.listServed();
  return await mapLimit(served, 4, async (model) => {
    const backend = new OpenAICompatibleBackend(model.id, {
      runtime,
      ...endpoint,
      config,
      served: model,
    });
    const name = `${runtime}:${model.id}`;
    const base = {
      parameters: model.parameters ?? null,
      bytes: model.sizeBytes ?? null,
      format: model.format ?? null,
      capabilitiesFrom: backend.capabilitiesFrom() ?? null,
    };
    if (model.capabilities && !model.capabilities.completion) {
      return entry(name, runtime, config, {
        ...base,
        usable: false,
        problem: "it cannot hold a conversation",
      });
    }
    try {
      const caps = await backend.capabilities();
      const window = await backend.windowDecision();
      const problem = caps.tools
        ? null
        : runtime === "llamacpp"
        ? `llama.cpp does not say whether it calls tools; declare llamacpp.models.${model.id}.capabilities in config.json`
        : "it does not declare tool calling, and a conversation has tools";
      return entry(name, runtime, config, {
        ...base,
        context: window.tokens,
        contextFrom: window.from,
        contextNote: window.note,
        capabilities: capabilityLabels(caps),
        usable: problem === null,
        problem,
      });
    } catch (error) {
      return entry(name, runtime, config, {
        ...base,
        usable: false,
        problem: error instanceof ModelError ? error.reason : messageOf(error),
      });
    }
  });
}

const RUNTIME_LABEL: Record<string, string> = {
  ollama: "Ollama",
  llamacpp: "llama.cpp",
  lmstudio: "LM Studio",
};

/**
 * Every model the runtimes serve, asked all at once: Apple's model where it
 * exists, then Ollama, llama.cpp and LM Studio. A runtime that does not answer
 * is one `unreachable` entry. Without `all`, only models that can serve a
 * conversation with tools, and every disabled model, are listed.
 */
export async function listModels(config: Config, options: ListOptions = {}): Promise<ModelListing> {
  const env = options.env ?? Deno.env.get;
  const os = options.os ?? hostOs();
  const freeMemory = options.freeMemory ?? freeMemoryNow;
  const unreachable: Unreachable[] = [];
  const runtimes: [string, () => Promise<ModelEntry[]>][] = [
    ["ollama", () => ollamaEntries(config, env, freeMemory)],
    ["llamacpp", () => openAIEntries("llamacpp", config, env)],
    ["lmstudio", () => openAIEntries("lmstudio", config, env)],
  ];
  const results = await Promise.all(runtimes.map(async ([runtime, list]) => {
    try {
      return await list();
    } catch (error) {
      const reason = error instanceof ModelError ? error.reason : messageOf(error);
      unreachable.push({ runtime: RUNTIME_LABEL[runtime] ?? runtime, reason });
      return [];
    }
  }));
  // Apple's model is listed where it exists (macOS); elsewhere only with --all, with its reason.
  const all = [
    ...(os === "darwin" || options.all ? systemEntries(config, os) : []),
    ...results.flat(),
  ];
  const shown = options.all ? all : all.filter((m) => m.usable || !m.enabled);
  unreachable.sort((a, b) =>
    Object.values(RUNTIME_LABEL).indexOf(a.runtime) -
    Object.values(RUNTIME_LABEL).indexOf(b.runtime)
  );
  return { models: shown, unreachable, defaultModel: config.model };
}

/** The default model's entry spelling, to say when the default is not in a listing. */
export function defaultListed(listing: ModelListing): boolean {
  const wanted = canonicalName(listing.defaultModel);
  return listing.models.some((m) => canonicalName(m.model) === wanted);
}

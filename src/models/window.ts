/**
 * How large a window a model gets. A configured contextLength wins; else an
 * Ollama model is sized from its shape (the bytes its key/value cache takes
 * per token) and the memory free at the moment it is chosen, capped at the
 * model's maximum; an OpenAI-compatible server's model keeps the window the
 * server holds it at. Pure functions: the caller supplies the numbers.
 * The rule and its constants are explained in docs/adr/0141-sizing-model-windows.md.
 */
import type { Config } from "../config/schema.ts";
import type { WindowDecision } from "./backend.ts";
import { canonicalLlamacpp, canonicalOllama } from "./names.ts";
import { formatCount, formatDecimalBytes } from "../util/bytes.ts";

/** What the key/value cache size depends on, from Ollama's /api/show model_info. */
export interface ModelShape {
  maxContext?: number;
  layers?: number;
  /** Key/value heads; a list when layers differ. */
  kvHeads?: number | number[];
  keyLength?: number;
  valueLength?: number;
}

/** The window when nothing better is known, and the least wisp sizes to. */
export const FALLBACK_WINDOW = 8192;
const MIN_WINDOW = 4096;
/** The share of free memory (after the weights) the cache may take; the rest stays for everything else. */
const MEMORY_SHARE = 0.5;
/** Bytes per cached value: Ollama keeps the cache in f16 unless told otherwise. */
const CACHE_VALUE_BYTES = 2;

function positive(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Read the shape from model_info (keys prefixed by the architecture: `llama.block_count`, …). */
export function shapeFromModelInfo(info: Record<string, unknown> | undefined): ModelShape {
  if (!info) return {};
  const arch = typeof info["general.architecture"] === "string"
    ? info["general.architecture"] as string
    : undefined;
  const get = (suffix: string): unknown => {
    if (arch && info[`${arch}.${suffix}`] !== undefined) return info[`${arch}.${suffix}`];
    // Some architectures are reported under another prefix; take the first key that ends so.
    const key = Object.keys(info).find((k) => k.endsWith(`.${suffix}`));
    return key ? info[key] : undefined;
  };
  const heads = positive(get("attention.head_count"));
  const embedding = positive(get("embedding_length"));
  const kvRaw = get("attention.head_count_kv");
  const kvHeads = Array.isArray(kvRaw)
    ? (kvRaw.every((n) => typeof n === "number" && n >= 0) ? kvRaw as number[] : undefined)
    : positive(kvRaw) ?? heads;
  const derivedHeadDim = heads && embedding ? embedding / heads : undefined;
  return {
    maxContext: positive(get("context_length")),
    layers: positive(get("block_count")),
    kvHeads,
    keyLength: positive(get("attention.key_length")) ?? derivedHeadDim,
    valueLength: positive(get("attention.value_length")) ?? positive(get("attention.key_length")) ??
      derivedHeadDim,
  };
}

/** Bytes the key/value cache takes for one token, or undefined when the shape does not say. */
export function cacheBytesPerToken(shape: ModelShape): number | undefined {
  const { layers, kvHeads, keyLength, valueLength } = shape;
  if (!keyLength || !valueLength || kvHeads === undefined) return undefined;
  const headsOverLayers = Array.isArray(kvHeads)
    ? kvHeads.reduce((sum, n) => sum + n, 0)
    : layers
    ? kvHeads * layers
    : undefined;
  if (!headsOverLayers) return undefined;
  return headsOverLayers * (keyLength + valueLength) * CACHE_VALUE_BYTES;
}

function largestPowerOfTwoAtMost(n: number): number {
  return n < 1 ? 0 : 2 ** Math.floor(Math.log2(n));
}

export interface SizingInput {
  shape: ModelShape;
  /** Memory free now, in bytes. */
  freeBytes: number;
  /** The weights' size in bytes, taken from free memory unless the model is already loaded. */
  weightsBytes: number;
  loaded: boolean;
}

/** The window memory allows, capped at the model's maximum (a power of two below it, at least MIN_WINDOW). */
export function sizeWindow(input: SizingInput): WindowDecision {
  const { shape } = input;
  const perToken = cacheBytesPerToken(shape);
  const max = shape.maxContext;
  if (!perToken) {
    const tokens = Math.min(max ?? FALLBACK_WINDOW, FALLBACK_WINDOW);
    return {
      tokens,
      from: "default",
      note: "the model does not report its shape, so wisp keeps to a safe size",
    };
  }
  const spare = Math.max(0, input.freeBytes - (input.loaded ? 0 : input.weightsBytes));
  const budget = spare * MEMORY_SHARE;
  const fits = Math.floor(budget / perToken);
  if (max !== undefined && fits >= max) {
    return {
      tokens: max,
      from: "model",
      note: `the model's maximum; ${formatDecimalBytes(input.freeBytes)} free holds it`,
    };
  }
  const sized = Math.max(MIN_WINDOW, largestPowerOfTwoAtMost(fits));
  const tokens = max !== undefined ? Math.min(sized, max) : sized;
  const tight = fits < MIN_WINDOW ? ", memory is tight" : "";
  return {
    tokens,
    from: "memory",
    note: `sized to ${formatDecimalBytes(input.freeBytes)} free${tight}${
      max !== undefined ? `; the model allows ${formatCount(max)}` : ""
    }`,
  };
}

/** The configured window of a model: its own contextLength, else the runtime's, else undefined. */
export function configuredWindow(
  config: Config,
  runtime: "ollama" | "llamacpp" | "lmstudio",
  model: string,
): WindowDecision | undefined {
  const section = config[runtime] as {
    contextLength?: number;
    models: Record<string, { contextLength?: number }>;
  };
  const own = perModelSettings(section.models, runtime, model)?.contextLength;
  if (own !== undefined) return configDecision(own, `${runtime}.models.${model}.contextLength`);
  if (section.contextLength !== undefined) {
    return configDecision(section.contextLength, `${runtime}.contextLength`);
  }
  return undefined;
}

/** The per-model settings entry for a model, however either is spelled (x and x:latest, a file and its path). */
export function perModelSettings<T>(
  models: Record<string, T>,
  runtime: string,
  model: string,
): T | undefined {
  if (Object.hasOwn(models, model)) return models[model];
  const canonical = runtime === "ollama"
    ? canonicalOllama
    : runtime === "llamacpp"
    ? canonicalLlamacpp
    : (m: string) => m;
  const wanted = canonical(model);
  const key = Object.keys(models).find((k) => canonical(k) === wanted);
  return key === undefined ? undefined : models[key];
}

/** A configured window, as a decision. */
function configDecision(tokens: number, key: string): WindowDecision {
  return { tokens, from: "config", note: `set in config.json (${key})` };
}

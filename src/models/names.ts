/**
 * Model names as `--model` and config.json spell them, and the one spelling
 * each is compared by: `ollama:x` and `ollama:x:latest` are one model, as are
 * a llama.cpp model's file name and its `.gguf` path. Pure functions.
 */
import { ModelError } from "./errors.ts";

export type RuntimePrefix =
  | "system"
  | "ollama"
  | "llamacpp"
  | "lmstudio"
  | "mlx"
  | "coreai"
  | "private-cloud";

export interface ModelName {
  runtime: RuntimePrefix;
  /** The part after the prefix, as written (empty for system and private-cloud). */
  model: string;
  /** The name as written. */
  written: string;
}

const PREFIXED = ["ollama", "llamacpp", "lmstudio", "mlx", "coreai"] as const;

/** Parse a model name, or throw a ModelError (exit 64) that lists the spellings wisp takes. */
export function parseModelName(name: string): ModelName {
  const written = name.trim();
  if (written === "system" || written === "private-cloud") {
    return { runtime: written, model: "", written };
  }
  const colon = written.indexOf(":");
  const prefix = colon > 0 ? written.slice(0, colon) : "";
  const model = colon > 0 ? written.slice(colon + 1) : "";
  if ((PREFIXED as readonly string[]).includes(prefix) && model.trim() !== "") {
    return { runtime: prefix as RuntimePrefix, model, written };
  }
  throw new ModelError(
    "invalid",
    `'${name}' is not a model name wisp knows; use system, ollama:<name>, llamacpp:<name> or lmstudio:<name> (wisp models lists them)`,
  );
}

/** The name an Ollama model is compared by: without a `:latest` tag. */
export function canonicalOllama(model: string): string {
  return model.endsWith(":latest") ? model.slice(0, -":latest".length) : model;
}

/** The name a llama.cpp model is compared by: its file name without folders or `.gguf`. */
export function canonicalLlamacpp(model: string): string {
  const base = model.replace(/[\\/]+$/, "").split(/[\\/]/).pop() ?? model;
  return base.replace(/\.gguf$/i, "");
}

/** The one spelling of a model name, used to compare (disabled lists, the default, listings). */
export function canonicalName(name: string): string {
  let parsed: ModelName;
  try {
    parsed = parseModelName(name);
  } catch {
    return name.trim();
  }
  switch (parsed.runtime) {
    case "ollama":
      return `ollama:${canonicalOllama(parsed.model)}`;
    case "llamacpp":
      return `llamacpp:${canonicalLlamacpp(parsed.model)}`;
    case "system":
    case "private-cloud":
      return parsed.runtime;
    default:
      return `${parsed.runtime}:${parsed.model}`;
  }
}

/** Whether two spellings name one model. */
export function sameModel(a: string, b: string): boolean {
  return canonicalName(a) === canonicalName(b);
}

/** Whether config.json's models.disabled turns this model off, however either is spelled. */
export function isDisabled(name: string, disabled: readonly string[]): boolean {
  const canonical = canonicalName(name);
  return disabled.some((entry) => canonicalName(entry) === canonical);
}

/** The sentence a disabled model is refused with, wherever it is chosen. */
export function disabledMessage(name: string): string {
  return `model '${name}' is disabled; enable it with wisp models enable ${name}, or /models enable ${name} in chat`;
}

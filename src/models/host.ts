/**
 * Where each runtime's server is, and the rule that it must be on this
 * machine: wisp's permission set lets it reach only 127.0.0.1, localhost and
 * [::1], so a server elsewhere is refused here with a sentence rather than by
 * the fence with a stack trace.
 */
import type { Config } from "../config/schema.ts";
import { ModelError } from "./errors.ts";

export type Env = (name: string) => string | undefined;

const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";

/** The Ollama base URL: config's ollama.host, else OLLAMA_HOST, else the default; normalised as ollama does. */
export function ollamaHost(config: Config, env: Env): string {
  const raw = config.ollama.host?.trim() || env("OLLAMA_HOST")?.trim() || DEFAULT_OLLAMA_HOST;
  return normaliseOllamaHost(raw);
}

/** `:11434`, `localhost`, `0.0.0.0:11434` and full URLs, as the ollama CLI reads OLLAMA_HOST. */
export function normaliseOllamaHost(raw: string): string {
  let text = raw.trim();
  if (text.startsWith(":")) text = `127.0.0.1${text}`;
  const explicit = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  if (!explicit) text = `http://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ModelError(
      "refused",
      `the Ollama host '${raw}' is not a URL; set ollama.host to one like ${DEFAULT_OLLAMA_HOST}`,
    );
  }
  // OLLAMA_HOST=0.0.0.0 means "listen everywhere" to the server; a client reaches it on loopback.
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  if (url.hostname === "[::]") url.hostname = "[::1]";
  if (!url.port && !explicit) url.port = "11434";
  return url.toString().replace(/\/+$/, "");
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/** Throw the sentence that refuses a server that is not on this machine. */
export function requireLoopback(url: string, setting: string): void {
  if (isLoopbackUrl(url)) return;
  throw new ModelError(
    "fence",
    `${url} is not on this machine, and wisp talks only to model servers on 127.0.0.1, localhost or [::1]; set ${setting} to a local address`,
  );
}

/** Base URL and key of an OpenAI-compatible runtime; the environment's key wins over config's. */
export function openAIEndpoint(
  runtime: "llamacpp" | "lmstudio",
  config: Config,
  env: Env,
): { baseURL: string; apiKey?: string } {
  const section = config[runtime];
  const envKey = env(runtime === "llamacpp" ? "WISP_LLAMACPP_API_KEY" : "WISP_LMSTUDIO_API_KEY");
  const apiKey = envKey && envKey !== "" ? envKey : section.apiKey;
  return { baseURL: section.baseURL.replace(/\/+$/, ""), apiKey: apiKey || undefined };
}

/** The server's root (the base URL without a trailing /v1), where /props and /api/v1 live. */
export function serverRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, "").replace(/\/v1$/, "");
}

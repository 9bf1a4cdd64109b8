/**
 * wisp doctor's findings about the configured model: that its server answers,
 * accepts the key if it wants one, and lists the model (with tool calling),
 * and the window it will get. `modelFinding` and `windowFinding` are pure;
 * `configuredModelFindings` asks the server and feeds them.
 */
import type { Config } from "../config/schema.ts";
import type { Finding } from "../doctor/finding.ts";
import type { Capabilities, WindowDecision } from "./backend.ts";
import { ModelError } from "./errors.ts";
import type { Env } from "./host.ts";
import { capabilityLabels, checkAvailable, resolveModel, type ResolveOptions } from "./registry.ts";
import { OllamaBackend } from "./ollama.ts";
import { OpenAICompatibleBackend } from "./openai.ts";
import { formatCount } from "./format.ts";
import { messageOf } from "../util/errors.ts";

export type ModelCheckOutcome =
  | { ok: true; server?: string; capabilities: Capabilities }
  | { ok: false; error: unknown };

/** The model finding from what the check found. */
export function modelFinding(model: string, outcome: ModelCheckOutcome): Finding {
  if (!outcome.ok) {
    const message = outcome.error instanceof ModelError || outcome.error instanceof Error
      ? outcome.error.message
      : messageOf(outcome.error);
    return { ok: false, name: "model", detail: message };
  }
  const can = capabilityLabels(outcome.capabilities).join(", ") || "no declared capabilities";
  const where = outcome.server ? `${outcome.server} answers and lists it` : "available";
  return { ok: true, name: "model", detail: `${model}: ${where} (${can})` };
}

/** The window finding, as the on-device model's is printed ("8,192 tokens, reported by the framework"). */
export function windowFinding(decision: WindowDecision): Finding {
  const how: Record<WindowDecision["from"], string> = {
    config: "set in config.json",
    memory: "sized from free memory",
    model: "the model's maximum",
    server: "held by the server",
    default: "assumed",
    framework: "reported by the framework",
  };
  return {
    ok: true,
    name: "context window",
    detail: `${formatCount(decision.tokens)} tokens, ${how[decision.from]} (${decision.note})`,
  };
}

/** Ask the configured model's server; one finding for the model, and one for the window when it answers. */
export async function configuredModelFindings(
  config: Config,
  env: Env = Deno.env.get,
  options: ResolveOptions = {},
): Promise<Finding[]> {
  const name = config.model;
  let backend;
  try {
    backend = resolveModel(name, config, env, options);
  } catch (error) {
    return [modelFinding(name, { ok: false, error })];
  }
  try {
    const capabilities = await checkAvailable(backend);
    const server = backend instanceof OllamaBackend
      ? `the Ollama server at ${backend.host}`
      : backend instanceof OpenAICompatibleBackend
      ? `the ${backend.server} server at ${backend.baseURL}`
      : undefined;
    const findings = [modelFinding(name, { ok: true, server, capabilities })];
    const window = backend instanceof OllamaBackend || backend instanceof OpenAICompatibleBackend
      ? await backend.windowDecision()
      : undefined;
    if (window) findings.push(windowFinding(window));
    return findings;
  } catch (error) {
    return [modelFinding(name, { ok: false, error })];
  }
}

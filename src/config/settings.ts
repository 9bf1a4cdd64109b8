/**
 * What `wisp config list|get|set|unset` may change, and what each does: the
 * settable part of the schema (src/config/schema.ts), kept in a module of its
 * own that imports no zod, so the commands that only read settings load none
 * of it (docs/adr/0640-config-read-without-npm.md).
 */
import type { Config } from "./schema.ts";
import { hostOs } from "../util/host_os.ts";

/**
 * The classifier beside the rules when config.json names none: on macOS the
 * trained classifier (`coreml`, as the spec makes it the default there); on
 * Linux the rules alone, so that a classifier is something a person chooses
 * (docs/adr/0320-classifiers-beside-the-rules.md).
 */
export function defaultClassifier(os = hostOs()): "coreml" | "rules" {
  return os === "darwin" ? "coreml" : "rules";
}

/** What `wisp config list|get|set|unset` may change, and what each does. */
export interface SettingInfo {
  key: string;
  description: string;
  /** Patterned keys (ollama.models.<name>.think) match by this. */
  pattern?: RegExp;
  /** A change to this value weakens the gate or the audit when `weakens(value)` says so. */
  weakens?: (value: unknown) => string | undefined;
  /** Something to know about the new value, given the config it makes (not a weakening). */
  note?: (value: unknown, config: Config) => string | undefined;
}

export const SETTINGS: SettingInfo[] = [
  {
    key: "model",
    description:
      "the model respond, chat and mcp use (system, ollama:<name>, llamacpp:<name>, lmstudio:<name>)",
  },
  {
    key: "systemPromptExtension",
    description: "instructions added to wisp's own for every session",
  },
  {
    key: "commandTimeoutSeconds",
    description:
      "seconds a model's command may run unless the call or thread says otherwise (0: no limit)",
  },
  {
    key: "commandTimeoutCapSeconds",
    description: "the operator's cap on any model command's time limit (0: no cap)",
  },
  {
    key: "shownOutputLines",
    description: "lines of a tool's output shown under each call in chat",
  },
  {
    key: "maxThreads",
    description: "threads an MCP server holds before dropping the least recently used",
  },
  {
    key: "approval.threshold",
    description: "the level at which you are asked (safe, moderate, dangerous, never)",
    weakens: (v) =>
      v === "never"
        ? "with the threshold at never, wisp runs every command the policy allows without asking you"
        : v === "dangerous"
        ? "with the threshold at dangerous, moderate commands run without asking you"
        : undefined,
  },
  {
    key: "approval.classifier",
    description:
      "the classifier beside the rules (coreml: trained weights; model: a local model; system-model; rules)",
    weakens: (v) =>
      v === "rules"
        ? "with the classifier at rules, no model can raise a command's rating"
        : undefined,
    note: (v, config) =>
      v === "coreml" && config.approval.coremlModel === undefined
        ? "approval.coremlModel is not set, so coreml uses the trained classifier this release ships"
        : undefined,
  },
  {
    key: "approval.coremlModel",
    description: "the trained classifier version coreml uses (default: the one this release ships)",
  },
  {
    key: "approval.timeoutSeconds",
    description: "seconds a question waits for your answer before it is refused",
  },
  {
    key: "mcp.elicitation.<client>",
    description:
      "on or off: whether wisp mcp asks approvals in that client's dialog (its clientInfo name); off: only wisp approvals approve",
    pattern: /^mcp\.elicitation\.(.+)$/,
  },
  {
    key: "approval.bannerDelaySeconds",
    description: "seconds an MCP dialog waits before a notification names the request",
  },
  {
    key: "approval.outOfBand",
    description: "also file MCP approvals for wisp approvals approve|deny",
  },
  {
    key: "commandPolicy.sandbox.enabled",
    description: "run every command in the OS sandbox",
    weakens: (v) =>
      v === false
        ? "with the sandbox off, commands can write anywhere you can, wisp's home included"
        : undefined,
  },
  {
    key: "commandPolicy.sandbox.allowNetwork",
    description: "let sandboxed commands use the network",
  },
  {
    key: "commandPolicy.sandbox.unprotectedPaths",
    description:
      "protected paths (start-up files, git hooks, …) sandboxed commands may write again",
    weakens: (v) =>
      Array.isArray(v) && v.length > 0
        ? "a sandboxed command can then plant code there that runs later outside the sandbox"
        : undefined,
  },
  {
    key: "commandPolicy.sandbox.environment.inherit",
    description: "the variables commands inherit before include and exclude (core, all, none)",
    weakens: (v) =>
      v === "all"
        ? "with inherit at all, commands get every variable of wisp's environment whose name does not look like a credential"
        : undefined,
  },
  {
    key: "commandPolicy.sandbox.allowOutsideSandbox",
    description: "let the model ask to run one command outside the sandbox (you approve each run)",
  },
  { key: "context.target", description: "the share of the window a conversation is condensed to" },
  { key: "context.memory", description: "give the model its memory tool" },
  { key: "tools.disabled", description: "built-in tools removed everywhere (a list)" },
  { key: "tools.ask", description: "give the model the ask tool" },
  { key: "tools.models", description: "give the model the models tool" },
  { key: "notifications.enabled", description: "let wisp post notifications" },
  { key: "notifications.perMinute", description: "notifications allowed per minute" },
  {
    key: "notifications.viaTerminalApp",
    description: "post notifications as the terminal app (macOS)",
  },
  {
    key: "audit.enabled",
    description: "write the audit log",
    weakens: (v) => v === false ? "with the audit off, nothing wisp does is recorded" : undefined,
  },
  { key: "audit.maxBytes", description: "bytes the audit log reaches before it rotates" },
  { key: "audit.keep", description: "rotated audit files kept" },
  {
    key: "ollama.host",
    description: "the Ollama server (default OLLAMA_HOST or http://127.0.0.1:11434)",
  },
  { key: "ollama.contextLength", description: "the window for every Ollama model" },
  {
    key: "ollama.models.<name>.contextLength",
    description: "one Ollama model's window",
    pattern: /^ollama\.models\.(.+)\.contextLength$/,
  },
  {
    key: "ollama.models.<name>.think",
    description: "whether one Ollama model thinks before replying",
    pattern: /^ollama\.models\.(.+)\.think$/,
  },
  { key: "llamacpp.baseURL", description: "the llama.cpp server's OpenAI-compatible base URL" },
  {
    key: "llamacpp.apiKey",
    description: "the llama.cpp server's key (WISP_LLAMACPP_API_KEY wins)",
  },
  {
    key: "llamacpp.models.<name>.capabilities",
    description:
      "what one llama.cpp model can do (toolCalling, guidedGeneration, reasoning, vision)",
    pattern: /^llamacpp\.models\.(.+)\.capabilities$/,
  },
  {
    key: "llamacpp.models.<name>.verified",
    description: "what wisp models check last found for one llama.cpp model",
    pattern: /^llamacpp\.models\.(.+)\.verified$/,
  },
  { key: "lmstudio.baseURL", description: "the LM Studio server's OpenAI-compatible base URL" },
  {
    key: "lmstudio.apiKey",
    description: "the LM Studio server's key (WISP_LMSTUDIO_API_KEY wins)",
  },
  { key: "mlx.baseURL", description: "the MLX server's OpenAI-compatible base URL" },
  { key: "mlx.contextLength", description: "the window for every MLX model" },
  { key: "mlx.modelsDirectory", description: "where MLX models are linked" },
  {
    key: "mlx.trustedPublishers",
    description: "Hugging Face publishers pulled from without asking (a list)",
  },
  {
    key: "models.disabled",
    description: "models hidden and refused wherever a model is chosen (a list)",
  },
  { key: "routing.ladder", description: "models tried in order for routed tasks (a list)" },
  {
    key: "routing.tasks.<task>",
    description: "the model one routed task runs on",
    pattern: /^routing\.tasks\.([A-Za-z0-9_-]+)$/,
  },
  { key: "facts.enabled", description: "keep facts from conversations" },
  {
    key: "verification.mode",
    description: "how replies are checked against what ran (readers, model, off)",
  },
  {
    key: "inquiry.timeoutSeconds",
    description: "seconds a model's question waits for your answer",
  },
  {
    key: "inquiry.parkAfterSeconds",
    description: "seconds a wisp mcp turn waits for your answer before it is parked (20)",
  },
];

/** The setting a key names, or undefined when it is not settable from the command line. */
export function findSetting(key: string): SettingInfo | undefined {
  return SETTINGS.find((s) => s.pattern ? s.pattern.test(key) : s.key === key);
}

/**
 * The JSON path of a key. Patterned keys keep their variable part whole, so a
 * model name with dots (granite4.2:8b) stays one segment.
 */
export function keyPath(key: string): string[] {
  const setting = findSetting(key);
  if (setting?.pattern) {
    const match = setting.pattern.exec(key)!;
    const name = match[1];
    const prefix = setting.key.slice(0, setting.key.indexOf("<")).replace(/\.$/, "").split(".");
    const suffix = setting.key.slice(setting.key.indexOf(">") + 1).replace(/^\./, "");
    return [...prefix, name, ...(suffix ? suffix.split(".") : [])];
  }
  return key.split(".");
}

/**
 * Every setting wisp reads, with its default, in one zod schema. A missing
 * config.json means all defaults; a partial object keeps the defaults of what
 * it leaves out; unknown fields are ignored (zod strips them).
 *
 * `SETTINGS` below describes the settings `wisp config list|get|set|unset`
 * work on; the rest (commandPolicy patterns, custom tools, fact kinds) are
 * edited by hand.
 */
import { z } from "zod";
import { hostOs } from "../util/host_os.ts";
import { isDisabled, parseModelName } from "../models/names.ts";
import { isLoopbackUrl, normaliseOllamaHost } from "../models/host.ts";
import { BUILTIN_TOOL_NAMES, customToolsProblem } from "../tools/custom_validate.ts";

const positiveInt = z.number().int().positive();
const nonNegativeInt = z.number().int().nonnegative();

/** A regular expression given as a string; an invalid one makes the config malformed. */
const regexPattern = z.string().superRefine((pattern, ctx) => {
  try {
    new RegExp(pattern);
  } catch (error) {
    ctx.addIssue({
      code: "custom",
      message: `is not a valid regular expression (${(error as Error).message})`,
    });
  }
});

/*
 * Values that name something are checked against what they name, not only
 * their type, so a value that would break every later command never loads
 * (docs/adr/0220-settings-checked-by-what-they-name.md). Each message says
 * what is accepted; it reads after the setting's name.
 */

const MODEL_SPELLINGS = "system, ollama:<name>, llamacpp:<name> or lmstudio:<name>";

function isModelName(name: string): boolean {
  try {
    parseModelName(name);
    return true;
  } catch {
    return false;
  }
}

/** A model name as --model takes it (ollama:granite4.1:8b), not a provider's model id. */
const modelName = z.string().refine(isModelName, {
  message: `must be a model name: ${MODEL_SPELLINGS} (wisp models lists them)`,
});

/** A list of model names; the message quotes the first that is not one. */
const modelNames = z.array(z.string()).superRefine((names, ctx) => {
  const bad = names.find((name) => !isModelName(name));
  if (bad !== undefined) {
    ctx.addIssue({
      code: "custom",
      message: `names ${JSON.stringify(bad)}, which is not a model name; use ${MODEL_SPELLINGS}`,
    });
  }
});

/** The loopback rule's sentence, with an example of what is accepted. */
function loopbackRule(example: string): string {
  return `must be a server on this machine (127.0.0.1, localhost or [::1]), such as ${example}; wisp talks to no other (docs/adr/0142)`;
}

/** An OpenAI-compatible base URL on loopback. */
const localBaseURL = z.string().refine(
  (url) => /^https?:\/\//i.test(url.trim()) && isLoopbackUrl(url.trim()),
  { message: loopbackRule("http://127.0.0.1:8080/v1") },
);

/** ollama.host, spelt any way OLLAMA_HOST may be (:11434, localhost, a URL), on loopback. */
const localOllamaHost = z.string().refine((host) => {
  try {
    return isLoopbackUrl(normaliseOllamaHost(host));
  } catch {
    return false;
  }
}, { message: loopbackRule("http://127.0.0.1:11434") });

/** tools.disabled: built-in tools only (a custom tool is removed from tools.custom instead). */
const builtinToolNames = z.array(z.string()).superRefine((names, ctx) => {
  const bad = names.find((name) => !BUILTIN_TOOL_NAMES.includes(name));
  if (bad !== undefined) {
    ctx.addIssue({
      code: "custom",
      message: `names ${
        JSON.stringify(bad)
      }, which is not a built-in tool; the built-in tools are ${BUILTIN_TOOL_NAMES.join(", ")}`,
    });
  }
});
/** A variable name, or a pattern of names with `*` and `?` (commandPolicy.sandbox.environment). */
const variablePattern = z.string().regex(/^[^=\0]+$/, "is not a variable name or pattern");
const variableName = z.string().regex(/^[^=\0*?]+$/, "is not a variable name");

export const LEVELS = ["safe", "moderate", "dangerous"] as const;
export type Level = (typeof LEVELS)[number];

const perModel = z.looseObject({
  contextLength: positiveInt.optional(),
  think: z.boolean().optional(),
  capabilities: z.array(z.string()).optional(),
  /** What `wisp models check` last found: the date and the capabilities that passed and failed. */
  verified: z.looseObject({
    date: z.string(),
    passed: z.array(z.string()),
    failed: z.array(z.string()),
  }).optional(),
});

const customArgument = z.looseObject({
  type: z.string(),
  description: z.string().optional(),
  enum: z.array(z.unknown()).optional(),
  default: z.unknown().optional(),
  required: z.boolean().optional(),
});

const customTool = z.looseObject({
  name: z.string(),
  description: z.string(),
  command: z.string(),
  arguments: z.record(z.string(), customArgument).optional(),
  timeoutSeconds: positiveInt.optional(),
});

const factKind = z.looseObject({
  name: z.string().min(1, "needs a name"),
  class: z.enum(["permanent", "dynamic", "ephemeral"]).optional(),
  normaliser: z.enum(["casefold", "trim", "single", "command", "path"]).optional(),
  description: z.string().optional(),
  distil: z.boolean().optional(),
  share: z.number().min(0).max(0.5).optional(),
});

/**
 * The classifier beside the rules when config.json names none: on macOS the
 * trained classifier (`coreml`, as the spec makes it the default there); on
 * Linux the rules alone, so that a classifier is something a person chooses
 * (docs/adr/0320-classifiers-beside-the-rules.md).
 */
export function defaultClassifier(os = hostOs()): "coreml" | "rules" {
  return os === "darwin" ? "coreml" : "rules";
}

/** A trained classifier's version name: risk@X.Y.Z-default or risk@X.Y.Z-local.<n>. */
const classifierVersion = z.string().regex(
  /^risk@\d+\.\d+\.\d+-(default|local\.[1-9]\d{0,5})$/,
  "must be a classifier version such as risk@0.1.0-default (wisp classifier list shows them)",
);

export const configSchema = z.object({
  model: modelName.default("system"),
  systemPromptExtension: z.string().default(""),
  commandTimeoutSeconds: nonNegativeInt.default(120),
  commandTimeoutCapSeconds: nonNegativeInt.default(3600),
  shownOutputLines: nonNegativeInt.default(20),
  maxThreads: positiveInt.max(1024).default(32),
  approval: z.object({
    threshold: z.enum(["safe", "moderate", "dangerous", "never"]).default("moderate"),
    classifier: z.enum(["coreml", "model", "system-model", "rules"]).default(defaultClassifier()),
    coremlModel: classifierVersion.optional(),
    timeoutSeconds: positiveInt.default(600),
    bannerDelaySeconds: nonNegativeInt.default(10),
    outOfBand: z.boolean().default(true),
  }).prefault({}),
  commandPolicy: z.object({
    deny: z.array(regexPattern).default([]),
    allow: z.array(regexPattern).default([]),
    sandbox: z.object({
      enabled: z.boolean().default(true),
      allowNetwork: z.boolean().default(true),
      allowOutsideSandbox: z.boolean().default(true),
      writablePaths: z.array(z.string()).default([]),
      unprotectedPaths: z.array(z.string()).default([]),
      // The environment commands start with (src/exec/environment.ts).
      environment: z.object({
        inherit: z.enum(["core", "all", "none"]).default("core"),
        include: z.array(variablePattern).default([]),
        exclude: z.array(variablePattern).default([]),
        set: z.record(variableName, z.string()).default({}),
      }).prefault({}),
    }).prefault({}),
  }).prefault({}),
  // Per MCP client (its clientInfo.name from initialize): "off" sends that client's approval
  // requests only out of band, for a client whose dialog nobody sees (ADR 0343).
  mcp: z.object({
    elicitation: z.record(z.string().min(1), z.enum(["on", "off"])).default({}),
  }).prefault({}),
  context: z.object({
    target: z.number().gt(0).lt(1).default(0.6),
    memory: z.boolean().default(false),
  }).prefault({}),
  tools: z.object({
    disabled: builtinToolNames.default([]),
    custom: z.array(customTool).default([]),
    ask: z.boolean().default(false),
    models: z.boolean().default(false),
  }).prefault({}),
  notifications: z.object({
    enabled: z.boolean().default(true),
    perMinute: positiveInt.default(6),
    viaTerminalApp: z.boolean().default(true),
  }).prefault({}),
  audit: z.object({
    enabled: z.boolean().default(true),
    maxBytes: positiveInt.default(10 * 1024 * 1024),
    keep: positiveInt.max(100).default(5),
  }).prefault({}),
  ollama: z.object({
    host: localOllamaHost.optional(),
    contextLength: positiveInt.optional(),
    models: z.record(z.string(), perModel).default({}),
  }).prefault({}),
  llamacpp: z.object({
    baseURL: localBaseURL.default("http://127.0.0.1:8080/v1"),
    apiKey: z.string().optional(),
    models: z.record(z.string(), perModel).default({}),
  }).prefault({}),
  lmstudio: z.object({
    baseURL: localBaseURL.default("http://127.0.0.1:1234/v1"),
    apiKey: z.string().optional(),
    models: z.record(z.string(), perModel).default({}),
  }).prefault({}),
  mlx: z.object({
    baseURL: localBaseURL.default("http://127.0.0.1:8081/v1"),
    contextLength: positiveInt.optional(),
    modelsDirectory: z.string().optional(),
    trustedPublishers: z.array(z.string()).default(["mlx-community"]),
    models: z.record(z.string(), perModel).default({}),
  }).prefault({}),
  models: z.object({
    disabled: modelNames.default([]),
  }).prefault({}),
  routing: z.object({
    ladder: modelNames.default([]),
    tasks: z.record(z.string(), modelName).default({}),
  }).prefault({}),
  facts: z.object({
    enabled: z.boolean().default(true),
    kinds: z.array(factKind).default([]),
  }).prefault({}),
  verification: z.object({
    mode: z.enum(["readers", "model", "off"]).default("readers"),
  }).prefault({}),
  inquiry: z.object({
    timeoutSeconds: positiveInt.optional(),
    // Under wisp mcp, how long a respond call waits for an answer before its turn is parked:
    // well under the ~60 s after which MCP clients give up on a tool call.
    parkAfterSeconds: positiveInt.max(3600).default(20),
  }).prefault({}),
}).superRefine((config, ctx) => {
  // wisp must never start on a model it refuses: a file that disables its own default does not load.
  if (isDisabled(config.model, config.models.disabled)) {
    ctx.addIssue({
      code: "custom",
      path: ["models", "disabled"],
      message:
        `names the default model (${config.model}); make another model the default first, or take it off the list`,
    });
  }
  // Custom tools (src/tools/custom_validate.ts). The issue's path is the tool's
  // label so the loader's sentence reads "custom tool 'x': the problem".
  const custom = customToolsProblem(config.tools.custom);
  // `params.at` is where the loader looks for the line to name.
  if (custom) {
    ctx.addIssue({
      code: "custom",
      path: [`${custom.label}:`],
      message: custom.problem,
      params: { at: ["tools", "custom"] },
    });
  }
});

export type Config = z.infer<typeof configSchema>;

export function defaultConfig(): Config {
  return configSchema.parse({});
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

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
import { defaultClassifier } from "./settings.ts";
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

// The settings `wisp config` lists live beside the schema without zod, so reading them loads
// none of it (docs/adr/0640-config-read-without-npm.md).
export { defaultClassifier, findSetting, keyPath, type SettingInfo, SETTINGS } from "./settings.ts";

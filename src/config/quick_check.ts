/**
 * A check of config.json's object that imports no zod, for the commands that
 * only read settings (`wisp config`, `wisp sandbox`). It mirrors the zod
 * schema (src/config/schema.ts), which stays the authority: this check
 * answers the config with its defaults applied when it is sure the object is
 * valid, and `undefined` at the first thing it doubts, so the caller asks zod,
 * which gives the same config or the same error sentence as always
 * (docs/adr/0640-config-read-without-npm.md). It never needs to say *what* is
 * wrong, only that something may be; test/config/quick_check_test.ts fails
 * when it and the zod schema disagree on a value or a default.
 */
import type { Config } from "./schema.ts";
import { defaultClassifier } from "./settings.ts";
import { isDisabled, parseModelName } from "../models/names.ts";
import { isLoopbackUrl, normaliseOllamaHost } from "../models/host.ts";
import { BUILTIN_TOOL_NAMES, customToolsProblem } from "../tools/custom_validate.ts";

/** What a rule answers for a value it doubts. */
const DOUBT: unique symbol = Symbol("doubt");

/** A rule takes a value as read (undefined: absent) and gives it as the config holds it, or DOUBT. */
type Rule = (value: unknown) => unknown;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** A string, passing `test` when given. */
const text = (test?: (value: string) => boolean): Rule => (value) =>
  typeof value === "string" && (!test || test(value)) ? value : DOUBT;

/** A finite number within the bounds (zod's int is a safe integer). */
function number(bounds: {
  int?: boolean;
  min?: number;
  max?: number;
  above?: number;
  below?: number;
} = {}): Rule {
  return (value) => {
    if (typeof value !== "number" || !Number.isFinite(value)) return DOUBT;
    if (bounds.int && !Number.isSafeInteger(value)) return DOUBT;
    if (bounds.min !== undefined && !(value >= bounds.min)) return DOUBT;
    if (bounds.max !== undefined && !(value <= bounds.max)) return DOUBT;
    if (bounds.above !== undefined && !(value > bounds.above)) return DOUBT;
    if (bounds.below !== undefined && !(value < bounds.below)) return DOUBT;
    return value;
  };
}

const boolean: Rule = (value) => typeof value === "boolean" ? value : DOUBT;
const anything: Rule = (value) => value;
const oneOf = (values: readonly string[]): Rule => (value) =>
  typeof value === "string" && values.includes(value) ? value : DOUBT;

/** A list whose every item passes `item`. */
const list = (item: Rule): Rule => (value) => {
  if (!Array.isArray(value)) return DOUBT;
  const out: unknown[] = [];
  for (const entry of value) {
    const checked = item(entry);
    if (checked === DOUBT) return DOUBT;
    out.push(checked);
  }
  return out;
};

/** An object used as a map: every key passes `key`, every value `item`. */
const record = (key: (name: string) => boolean, item: Rule): Rule => (value) => {
  if (!isPlainObject(value)) return DOUBT;
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(value)) {
    if (!key(name)) return DOUBT;
    const checked = item(value[name]);
    if (checked === DOUBT) return DOUBT;
    out[name] = checked;
  }
  return out;
};

/**
 * An object with these fields, in this order; other fields are dropped, or
 * kept after them when `loose` (zod's object and looseObject).
 */
const object = (shape: Record<string, Rule>, loose = false): Rule => (value) => {
  if (!isPlainObject(value)) return DOUBT;
  const out: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(shape)) {
    const checked = rule(value[name]);
    if (checked === DOUBT) return DOUBT;
    if (checked !== undefined || Object.hasOwn(value, name)) out[name] = checked;
  }
  if (loose) {
    for (const name of Object.keys(value)) if (!Object.hasOwn(shape, name)) out[name] = value[name];
  }
  return out;
};

/** Absent is allowed (and stays absent). */
const optional = (rule: Rule): Rule => (value) => value === undefined ? undefined : rule(value);
/** Absent is `fallback` (a fresh copy of it). */
const orDefault = (rule: Rule, fallback: unknown): Rule => (value) =>
  value === undefined ? structuredClone(fallback) : rule(value);
/** Absent is checked as `{}`, so the object's own defaults fill it (zod's prefault). */
const orEmpty = (rule: Rule): Rule => (value) => rule(value === undefined ? {} : value);

function isModelName(name: string): boolean {
  try {
    parseModelName(name);
    return true;
  } catch {
    return false;
  }
}

function isValidRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

function isLocalOllamaHost(host: string): boolean {
  try {
    return isLoopbackUrl(normaliseOllamaHost(host));
  } catch {
    return false;
  }
}

const isLocalBaseURL = (url: string) =>
  /^https?:\/\//i.test(url.trim()) && isLoopbackUrl(url.trim());

const positiveInt = number({ int: true, above: 0 });
const nonNegativeInt = number({ int: true, min: 0 });
const modelName = text(isModelName);
const modelNames = list(modelName);
const regexPattern = text(isValidRegExp);
const variablePattern = text((name) => /^[^=\0]+$/.test(name));
const isVariableName = (name: string) => /^[^=\0*?]+$/.test(name);
const builtinToolNames = list(text((name) => BUILTIN_TOOL_NAMES.includes(name)));
const strings = list(text());
const classifierVersion = text((name) =>
  /^risk@\d+\.\d+\.\d+-(default|local\.[1-9]\d{0,5})$/.test(name)
);

const perModel = object({
  contextLength: optional(positiveInt),
  think: optional(boolean),
  capabilities: optional(strings),
  verified: optional(object({ date: text(), passed: strings, failed: strings }, true)),
}, true);

const customArgument = object({
  type: text(),
  description: optional(text()),
  enum: optional(list(anything)),
  default: optional(anything),
  required: optional(boolean),
}, true);

const customTool = object({
  name: text(),
  description: text(),
  command: text(),
  arguments: optional(record(() => true, customArgument)),
  timeoutSeconds: optional(positiveInt),
}, true);

const factKind = object({
  name: text((name) => name.length >= 1),
  class: optional(oneOf(["permanent", "dynamic", "ephemeral"])),
  normaliser: optional(oneOf(["casefold", "trim", "single", "command", "path"])),
  description: optional(text()),
  distil: optional(boolean),
  share: optional(number({ min: 0, max: 0.5 })),
}, true);

const models = (extra: Record<string, Rule>) =>
  orEmpty(object({ ...extra, models: orDefault(record(() => true, perModel), {}) }));

/** The schema's fields, in its order, with its defaults. */
const configShape = object({
  model: orDefault(modelName, "system"),
  systemPromptExtension: orDefault(text(), ""),
  commandTimeoutSeconds: orDefault(nonNegativeInt, 120),
  commandTimeoutCapSeconds: orDefault(nonNegativeInt, 3600),
  shownOutputLines: orDefault(nonNegativeInt, 20),
  maxThreads: orDefault(number({ int: true, above: 0, max: 1024 }), 32),
  approval: orEmpty(object({
    threshold: orDefault(oneOf(["safe", "moderate", "dangerous", "never"]), "moderate"),
    classifier: orDefault(oneOf(["coreml", "model", "system-model", "rules"]), defaultClassifier()),
    coremlModel: optional(classifierVersion),
    timeoutSeconds: orDefault(positiveInt, 600),
    bannerDelaySeconds: orDefault(nonNegativeInt, 10),
    outOfBand: orDefault(boolean, true),
  })),
  commandPolicy: orEmpty(object({
    deny: orDefault(list(regexPattern), []),
    allow: orDefault(list(regexPattern), []),
    sandbox: orEmpty(object({
      enabled: orDefault(boolean, true),
      allowNetwork: orDefault(boolean, true),
      allowOutsideSandbox: orDefault(boolean, true),
      writablePaths: orDefault(strings, []),
      unprotectedPaths: orDefault(strings, []),
      environment: orEmpty(object({
        inherit: orDefault(oneOf(["core", "all", "none"]), "core"),
        include: orDefault(list(variablePattern), []),
        exclude: orDefault(list(variablePattern), []),
        set: orDefault(record(isVariableName, text()), {}),
      })),
    })),
  })),
  mcp: orEmpty(object({
    elicitation: orDefault(record((name) => name.length >= 1, oneOf(["on", "off"])), {}),
  })),
  context: orEmpty(object({
    target: orDefault(number({ above: 0, below: 1 }), 0.6),
    memory: orDefault(boolean, false),
  })),
  tools: orEmpty(object({
    disabled: orDefault(builtinToolNames, []),
    custom: orDefault(list(customTool), []),
    ask: orDefault(boolean, false),
    models: orDefault(boolean, false),
  })),
  notifications: orEmpty(object({
    enabled: orDefault(boolean, true),
    perMinute: orDefault(positiveInt, 6),
    viaTerminalApp: orDefault(boolean, true),
  })),
  audit: orEmpty(object({
    enabled: orDefault(boolean, true),
    maxBytes: orDefault(positiveInt, 10 * 1024 * 1024),
    keep: orDefault(number({ int: true, above: 0, max: 100 }), 5),
  })),
  ollama: models({
    host: optional(text(isLocalOllamaHost)),
    contextLength: optional(positiveInt),
  }),
  llamacpp: models({
    baseURL: orDefault(text(isLocalBaseURL), "http://127.0.0.1:8080/v1"),
    apiKey: optional(text()),
  }),
  lmstudio: models({
    baseURL: orDefault(text(isLocalBaseURL), "http://127.0.0.1:1234/v1"),
    apiKey: optional(text()),
  }),
  mlx: models({
    baseURL: orDefault(text(isLocalBaseURL), "http://127.0.0.1:8081/v1"),
    contextLength: optional(positiveInt),
    modelsDirectory: optional(text()),
    trustedPublishers: orDefault(strings, ["mlx-community"]),
  }),
  models: orEmpty(object({ disabled: orDefault(modelNames, []) })),
  routing: orEmpty(object({
    ladder: orDefault(modelNames, []),
    tasks: orDefault(record(() => true, modelName), {}),
  })),
  facts: orEmpty(object({
    enabled: orDefault(boolean, true),
    kinds: orDefault(list(factKind), []),
  })),
  verification: orEmpty(object({
    mode: orDefault(oneOf(["readers", "model", "off"]), "readers"),
  })),
  inquiry: orEmpty(object({
    timeoutSeconds: optional(positiveInt),
    parkAfterSeconds: orDefault(number({ int: true, above: 0, max: 3600 }), 20),
  })),
});

/**
 * The config `raw` makes, defaults applied, when this check is sure it is
 * valid; `undefined` when it doubts anything (ask the zod schema then).
 */
export function quickCheckConfig(raw: Record<string, unknown>): Config | undefined {
  const checked = configShape(raw);
  if (checked === DOUBT) return undefined;
  const config = checked as Config;
  // The schema's checks across fields: the default model is not disabled; the custom tools hold.
  if (isDisabled(config.model, config.models.disabled)) return undefined;
  if (customToolsProblem(config.tools.custom)) return undefined;
  return config;
}

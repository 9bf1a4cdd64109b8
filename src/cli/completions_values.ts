/**
 * The values `wisp completions values KIND` prints for the completion
 * scripts, one `value<TAB>description` line each, read from wisp's own files
 * only (config.json, the pending requests and the remembered approvals in
 * wisp's home), never from a
 * model server or the network, and never written: a Tab changes nothing.
 * Anything that cannot be read gives fewer values, not an error, so a Tab
 * never prints a complaint into the person's command line.
 */
import { z } from "zod";
import { homePaths } from "../config/home.ts";
import { loadConfig, type LoadedConfig } from "../config/load.ts";
import {
  type Config,
  configSchema,
  defaultConfig,
  findSetting,
  SETTINGS,
} from "../config/schema.ts";
import {
  isPendingId,
  parseRequest,
  type PendingFactRequest,
  type PendingRequest,
  requestText,
} from "../gate/pending.ts";
import { load } from "../util/lazy.ts";
import { join } from "node:path";
import { isExpired, readApprovals } from "../gate/approvals.ts";
import type { ValueKind } from "./completions_tree.ts";

/** One completion value and what it is. */
export interface CompletionValue {
  value: string;
  description: string;
}

/** Settings whose values are model names, and those whose values are tool names. */
const MODEL_SETTINGS = new Set([
  "model",
  "routing.ladder",
  "models.disabled",
  "routing.tasks.<task>",
]);
const TOOL_SETTINGS = new Set(["tools.disabled"]);
const CLASSIFIER_SETTINGS = new Set(["approval.coremlModel"]);

/** The config as the file gives it, or the defaults when it is absent or cannot be read. */
function readConfig(): LoadedConfig | undefined {
  try {
    return loadConfig(homePaths().config);
  } catch {
    return undefined;
  }
}

function modelValues(loaded: LoadedConfig | undefined): CompletionValue[] {
  const config: Config = loaded?.config ?? defaultConfig();
  const found = new Map<string, string>();
  const add = (name: string, description: string) => {
    if (name && !found.has(name)) found.set(name, description);
  };
  add(config.model, "the default model");
  add("system", "the on-device model (macOS)");
  for (const runtime of ["ollama", "llamacpp", "lmstudio", "mlx"] as const) {
    for (const name of Object.keys(config[runtime].models)) {
      add(`${runtime}:${name}`, `set up in config.json (${runtime}.models)`);
    }
  }
  for (const name of config.routing.ladder) add(name, "on the routing ladder");
  for (const name of Object.values(config.routing.tasks)) add(name, "routed to for a task");
  for (const name of config.models.disabled) add(name, "disabled (models.disabled)");
  return [...found].map(([value, description]) => ({ value, description }));
}

function settingValues(loaded: LoadedConfig | undefined): CompletionValue[] {
  const out: CompletionValue[] = [];
  for (const setting of SETTINGS) {
    if (!setting.pattern) {
      out.push({ value: setting.key, description: setting.description });
      continue;
    }
    // A patterned setting (ollama.models.<name>.think): the names config.json already has.
    const start = setting.key.indexOf("<");
    const prefix = setting.key.slice(0, start).replace(/\.$/, "").split(".");
    const suffix = setting.key.slice(setting.key.indexOf(">") + 1);
    let entries: unknown = loaded?.raw;
    for (const part of prefix) {
      entries = entries && typeof entries === "object"
        ? (entries as Record<string, unknown>)[part]
        : undefined;
    }
    if (!entries || typeof entries !== "object") continue;
    for (const name of Object.keys(entries as Record<string, unknown>)) {
      const key = `${prefix.join(".")}.${name}${suffix}`;
      if (findSetting(key) === setting) out.push({ value: key, description: setting.description });
    }
  }
  return out;
}

/** The JSON Schema of one setting's value, walked from the whole config's. */
function settingSchema(key: string): Record<string, unknown> | undefined {
  const setting = findSetting(key);
  if (!setting) return undefined;
  let schema = z.toJSONSchema(configSchema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  const parts = setting.pattern ? setting.key.split(".") : key.split(".");
  for (const part of parts) {
    const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
    const next = part.startsWith("<")
      ? schema.additionalProperties as Record<string, unknown> | undefined
      : properties?.[part];
    if (!next || typeof next !== "object") return undefined;
    schema = next;
  }
  return schema;
}

/** The values a setting takes that can be listed: its choices, true and false, models, tools. */
function valuesOfSetting(
  key: string,
  loaded: LoadedConfig | undefined,
): CompletionValue[] | Promise<CompletionValue[]> {
  const setting = findSetting(key);
  if (!setting) return [];
  if (MODEL_SETTINGS.has(setting.key)) return modelValues(loaded);
  if (TOOL_SETTINGS.has(setting.key)) return toolValues(loaded);
  if (CLASSIFIER_SETTINGS.has(setting.key)) return classifierValues();
  const schema = settingSchema(key);
  if (!schema) return [];
  const item = schema.type === "array" ? schema.items as Record<string, unknown> : schema;
  const fallback = schema.default;
  const describe = (value: unknown) => value === fallback ? "the default" : "";
  if (Array.isArray(item?.enum)) {
    return item.enum.map((value) => ({ value: String(value), description: describe(value) }));
  }
  if (item?.type === "boolean") {
    return [true, false].map((value) => ({ value: String(value), description: describe(value) }));
  }
  return [];
}

function pendingValues(): CompletionValue[] {
  const dir = homePaths().pending;
  const out: CompletionValue[] = [];
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].filter((e) => e.isFile).map((e) => e.name);
  } catch {
    return [];
  }
  const now = Date.now();
  for (const name of names.sort()) {
    const id = name.replace(/\.json$/, "");
    if (!name.endsWith(".json") || !isPendingId(id)) continue;
    try {
      const parsed = parseRequest(Deno.readTextFileSync(join(dir, name)));
      if (!parsed || parsed.kind !== "approval") continue;
      const request = parsed as PendingRequest;
      // An expired one cannot be answered; `approvals pending` clears it away.
      if (Date.parse(request.expiresAt) <= now) continue;
      out.push({ value: id, description: request.command });
    } catch { /* gone meanwhile */ }
  }
  return out;
}

/** The facts waiting to be kept, for `facts keep|drop` (they never expire). */
function pendingFactValues(): CompletionValue[] {
  const dir = homePaths().pending;
  const out: CompletionValue[] = [];
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].filter((e) => e.isFile).map((e) => e.name);
  } catch {
    return [];
  }
  for (const name of names.sort()) {
    const id = name.replace(/\.json$/, "");
    if (!name.endsWith(".json") || !isPendingId(id)) continue;
    try {
      const parsed = parseRequest(Deno.readTextFileSync(join(dir, name)));
      if (!parsed || parsed.kind !== "fact") continue;
      out.push({ value: id, description: requestText(parsed as PendingFactRequest) });
    } catch { /* gone meanwhile */ }
  }
  return out;
}

function approvalValues(): CompletionValue[] {
  try {
    return readApprovals(homePaths().approvals)
      .filter((approval) => !isExpired(approval))
      .map((approval) => ({
        value: approval.id,
        description: `${approval.scope}: ${approval.pattern}`,
      }));
  } catch {
    return [];
  }
}

/** The trained classifier's versions: this release's default and those in wisp's home. */
async function classifierValues(): Promise<CompletionValue[]> {
  // The store carries the bundled weights: loaded only for this kind.
  const { defaultVersion, listVersions } = await load<typeof import("../gate/trained/store.ts")>(
    import.meta.resolve("../gate/trained/store.ts"),
  );
  const found = new Map<string, string>([[defaultVersion(), "this release's default"]]);
  try {
    for (const entry of listVersions(homePaths())) {
      if (!found.has(entry.version)) found.set(entry.version, "trained here");
    }
  } catch { /* none readable */ }
  return [...found].map(([value, description]) => ({ value, description }));
}

async function toolValues(loaded: LoadedConfig | undefined): Promise<CompletionValue[]> {
  const config = loaded?.config ?? defaultConfig();
  // The session's registry (built-ins and custom tools) is loaded only for this kind: it is most
  // of what a Tab would otherwise wait for.
  const { sessionRegistry } = await load<typeof import("../session/session.ts")>(
    import.meta.resolve("../session/session.ts"),
  );
  const registry = sessionRegistry(config);
  // What --tool may name: every registered tool that tools.disabled does not take away.
  const names = registry.all().map((t) => t.name);
  return registry.list({ only: names, config }).map((t) => ({
    value: t.name,
    description: t.description,
  }));
}

/** The values of one kind; `setting` is the key for `setting-values`. */
export function completionValues(
  kind: ValueKind,
  setting?: string,
): CompletionValue[] | Promise<CompletionValue[]> {
  const loaded = readConfig();
  switch (kind) {
    case "models":
      return modelValues(loaded);
    case "settings":
      return settingValues(loaded);
    case "setting-values":
      return setting ? valuesOfSetting(setting, loaded) : [];
    case "pending":
      return pendingValues();
    case "pending-facts":
      return pendingFactValues();
    case "approvals":
      return approvalValues();
    case "classifier-versions":
      return classifierValues();
    case "tools":
      return toolValues(loaded);
  }
}

/** The lines the scripts read: value, a tab, the description's first line (shortened). */
export function valueLines(values: CompletionValue[]): string {
  return values.map(({ value, description }) => {
    const flat = description.replace(/[\t\r\n]+/g, " ").trim();
    const short = flat.length > 70 ? `${flat.slice(0, 69)}…` : flat;
    return `${value.replace(/[\t\r\n]/g, " ")}\t${short}\n`;
  }).join("");
}

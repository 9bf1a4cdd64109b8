/**
 * Which model a use runs on, asking the servers: the one place that turns a
 * name into a backend known to answer, with the two ways wisp may stand one
 * model in for another.
 *
 * - The default that cannot exist here. `system` (config.json's model when it
 *   names none) is Apple's on-device model; on Linux, or a build without the
 *   native library, it is replaced by the first enabled model a running local
 *   server offers (routing.ladder's order first), and wisp says so once.
 * - Routed tasks (classifier, triage, draft; the spec's distiller, summary
 *   and condense join when they are built):
 *   routing.tasks.<task>, else the configured model; when that is
 *   unavailable, routing.ladder's models are tried in order.
 *
 * A name given for this one use (--model, an MCP caller's model) is used or
 * refused, never replaced: the caller says `explicit`.
 */
import type { Config } from "../config/schema.ts";
import { hostOs } from "../platform/os.ts";
import type { Backend, Capabilities } from "./backend.ts";
import { ModelError } from "./errors.ts";
import type { Env } from "./host.ts";
import { canonicalName, isDisabled, parseModelName } from "./names.ts";
import { checkAvailable, listModels, resolveModel, type ResolveOptions } from "./registry.ts";
import { systemModelReason } from "./system.ts";

/** The tasks this build sends to a model of their own (config/unbuilt.ts refuses the others). */
export type RoutedTask = "classifier" | "triage" | "draft";

export interface ChooseOptions extends ResolveOptions {
  /** Given for this use (--model, an MCP caller's model): never replaced by another model. */
  explicit?: boolean;
  /** The conversation offers tools, so the model must declare tool calling (default true). */
  tools?: boolean;
  /** A routed task: routing.ladder is tried when its model is unavailable. */
  task?: RoutedTask;
  env?: Env;
  /** Told the sentence when another model stands in, the first time in this process. */
  note?: (line: string) => void;
}

export interface ChosenModel {
  backend: Backend;
  capabilities: Capabilities;
  /** Why this model runs instead of the one named, or null when it is the one named. */
  standIn: string | null;
}

/** Sentences already said in this process ("say so once"). */
const said = new Set<string>();

function tell(options: ChooseOptions, line: string): void {
  if (!options.note || said.has(line)) return;
  said.add(line);
  options.note(line);
}

/** The commands that give a Linux machine a model wisp can use, for doctor and the errors here. */
const INSTALL_OLLAMA =
  "install Ollama (curl -fsSL https://ollama.com/install.sh | sh), start it (ollama serve), and pull a model that calls tools (ollama pull granite4.1:8b)";

async function tryModel(
  name: string,
  config: Config,
  options: ChooseOptions,
): Promise<{ backend: Backend; capabilities: Capabilities }> {
  const backend = resolveModel(name, config, options.env, options);
  const capabilities = await checkAvailable(backend, { tools: options.tools ?? true });
  return { backend, capabilities };
}

/** Whether a name is Apple's on-device model, the default that may not exist here. */
function isSystem(name: string): boolean {
  try {
    return parseModelName(name).runtime === "system";
  } catch {
    return false;
  }
}

/**
 * The model to run for `name`, checked to answer. Throws the ModelError of
 * the model named when nothing may stand in for it (an explicit name, a
 * configured model that is not system, a task with no ladder left).
 */
export async function chooseModel(
  name: string,
  config: Config,
  options: ChooseOptions = {},
): Promise<ChosenModel> {
  let firstError: unknown;
  try {
    return { ...await tryModel(name, config, options), standIn: null };
  } catch (error) {
    if (options.explicit || !(error instanceof ModelError)) throw error;
    if (error.kind === "disabled" || error.kind === "invalid" || error.kind === "fence") {
      throw error;
    }
    firstError = error;
  }
  const tried = new Set([canonicalName(name)]);
  const candidates = config.routing.ladder.filter((m) => !isDisabled(m, config.models.disabled));
  if (options.task) {
    for (const candidate of candidates) {
      if (tried.has(canonicalName(candidate))) continue;
      tried.add(canonicalName(candidate));
      try {
        const found = await tryModel(candidate, config, options);
        const standIn = `${name} is unavailable for ${options.task} (${
          reasonOf(firstError)
        }); it runs on ${found.backend.name}, next in routing.ladder`;
        tell(options, standIn);
        return { ...found, standIn };
      } catch { /* the next rung */ }
    }
  }
  if (!isSystem(name)) throw firstError;
  // The default names a model this machine cannot have: the first local model that answers.
  const os = options.os ?? hostOs();
  const listing = await listModels(config, { ...options, env: options.env });
  const offered = [
    ...candidates,
    ...listing.models.filter((m) => m.usable && m.enabled && m.runtime !== "system").map((m) =>
      m.model
    ),
  ];
  for (const candidate of offered) {
    if (tried.has(canonicalName(candidate))) continue;
    tried.add(canonicalName(candidate));
    try {
      const found = await tryModel(candidate, config, options);
      const standIn = `system cannot run here (${
        systemModelReason(os)
      }); using ${found.backend.name}, the first model a running local server offers (choose one with wisp config set model <name>)`;
      tell(options, standIn);
      return { ...found, standIn };
    } catch { /* the next one */ }
  }
  const down = listing.unreachable.length > 0
    ? `; ${listing.unreachable.map((u) => u.reason).join("; ")}`
    : "";
  throw new ModelError(
    "unsupported",
    `system cannot run here (${
      systemModelReason(os)
    }), and no running local server offers a model that can hold a conversation${
      (options.tools ?? true) ? " with tools" : ""
    }${down}; ${INSTALL_OLLAMA}, or choose a model with wisp config set model <name>`,
    `system cannot run here, and no local server offers a model`,
  );
}

function reasonOf(error: unknown): string {
  return error instanceof ModelError ? error.reason : String(error);
}

/** The model name a routed task asks for: routing.tasks.<task>, else the configured model. */
function taskModelName(task: RoutedTask, config: Config): string {
  return config.routing.tasks[task] ?? config.model;
}

/**
 * The model a routed task runs on: `explicit` (a --model for this run) or
 * routing.tasks.<task>, else the configured model; the ladder when that is
 * unavailable. Tasks do not need tool calling.
 */
export async function chooseForTask(
  task: RoutedTask,
  config: Config,
  options: Omit<ChooseOptions, "task"> & { model?: string } = {},
): Promise<ChosenModel> {
  const name = options.model ?? taskModelName(task, config);
  return await chooseModel(name, config, {
    tools: false,
    ...options,
    task,
    explicit: options.model !== undefined,
  });
}

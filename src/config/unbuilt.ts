/**
 * Settings the schema knows (the spec names them) whose feature this build
 * does not have yet. Setting one would be accepted and silently ignored, so
 * `wisp config set` refuses it (exit 1, nothing written) with the sentence
 * below; `config list` marks one set by hand. This is the one list: a feature
 * that lands removes its entry here (docs/adr/0221-settings-not-built-yet.md).
 *
 * Pure, like the schema: no import beyond model names and why the on-device model is missing.
 */
import { parseModelName } from "../models/names.ts";
import { systemModelReason } from "../models/system.ts";

/** One segment of a setting's path: a name, or a test for a variable part (a task's name). */
type Segment = string | ((segment: string) => boolean);

export interface UnbuiltSetting {
  /** The JSON path; a setting under it (mlx.baseURL under mlx) is covered too. */
  path: Segment[];
  /** Only these values are not built (approval.classifier coreml); absent: every value. */
  values?: (value: unknown) => boolean;
  /** What is missing, as the end of "…: <missing>". */
  missing: string;
}

/** The tasks that run on a model of their own (routing.tasks.<task>) in this build. */
const ROUTED_TASKS: readonly string[] = ["triage", "draft", "classifier"];

/** Whether a model name picks a runtime this build does not have (MLX, Core AI, Private Cloud). */
function unbuiltRuntime(name: unknown): boolean {
  if (typeof name !== "string") return false;
  try {
    const runtime = parseModelName(name).runtime;
    return runtime === "mlx" || runtime === "coreai" || runtime === "private-cloud";
  } catch {
    return false; // not a model name at all: the schema says so
  }
}

export const UNBUILT_SETTINGS: UnbuiltSetting[] = [
  {
    path: ["model"],
    values: unbuiltRuntime,
    missing: "MLX, Core AI and Private Cloud models are not built into wisp yet",
  },
  {
    path: ["approval", "classifier"],
    values: (v) => v === "system-model",
    missing:
      `${systemModelReason()}; use model (a local model, routing.tasks.classifier) or coreml (trained weights)`,
  },
  // Pulls fill the Hugging Face cache and link models (trustedPublishers, modelsDirectory); running them is not built.
  {
    path: ["mlx", (field) => field !== "trustedPublishers" && field !== "modelsDirectory"],
    missing: "MLX models are not built into wisp yet",
  },
  {
    path: ["routing", "tasks", (task) => !ROUTED_TASKS.includes(task)],
    missing: `only ${ROUTED_TASKS.join(", ")} are routed to a model of their own so far`,
  },
  {
    path: ["routing", "tasks", (task) => ROUTED_TASKS.includes(task)],
    values: unbuiltRuntime,
    missing: "MLX, Core AI and Private Cloud models are not built into wisp yet",
  },
  {
    path: ["verification", "mode"],
    values: (v) => v === "model",
    missing: "the model step of verification is not built yet (readers and off work)",
  },
];

function matches(segment: Segment, name: string): boolean {
  return typeof segment === "string" ? segment === name : segment(name);
}

/** The entry that covers setting `path` to `value`, if the feature is not built. */
export function unbuiltEntry(path: string[], value: unknown): UnbuiltSetting | undefined {
  return UNBUILT_SETTINGS.find((entry) =>
    entry.path.length <= path.length &&
    entry.path.every((segment, i) => matches(segment, path[i])) &&
    (entry.values === undefined || entry.values(value))
  );
}

/** The sentence `config set` refuses with, or undefined when the setting works. */
export function unbuiltProblem(key: string, path: string[], value: unknown): string | undefined {
  const entry = unbuiltEntry(path, value);
  if (!entry) return undefined;
  const what = entry.values ? `${key} ${JSON.stringify(value)}` : key;
  return `${what} would be ignored: ${entry.missing}; nothing was changed`;
}

/**
 * Settings config.json sets by hand whose feature is not built, each as its
 * dotted key and the reason, for `config list` to mark.
 */
export function unbuiltInFile(raw: Record<string, unknown>): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (value: unknown, path: string[]) => {
    const entry = unbuiltEntry(path, value);
    if (path.length > 0 && entry) {
      found.set(path.join("."), entry.missing);
      return;
    }
    // Only as deep as an entry could reach (the longest path has three segments).
    if (path.length >= 3 || value === null || typeof value !== "object" || Array.isArray(value)) {
      return;
    }
    for (const [name, inner] of Object.entries(value)) walk(inner, [...path, name]);
  };
  walk(raw, []);
  return found;
}

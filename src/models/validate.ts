/**
 * Whether a name config.json's `model` is about to take names a model wisp
 * can resolve: asked of the runtime's server before `wisp config set model`
 * writes it, so a typo is refused with the names it was near instead of
 * failing at the next prompt.
 */
import type { Config } from "../config/schema.ts";
import { hostOs } from "../platform/os.ts";
import { ModelError } from "./errors.ts";
import type { Env } from "./host.ts";
import { canonicalName, parseModelName } from "./names.ts";
import { listModels } from "./registry.ts";
import { systemModelReason } from "./system.ts";

interface ModelChoiceVerdict {
  /** Why the name is refused (the change is not made). */
  problem?: string;
  /** Something to know about an accepted name. */
  note?: string;
}

/** Edit distance between two strings (insert, delete, replace). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length];
}

/** Up to three known names near `name`, nearest first. */
export function nearNames(name: string, known: readonly string[]): string[] {
  const wanted = canonicalName(name).toLowerCase();
  return known
    .map((k) => {
      const other = canonicalName(k).toLowerCase();
      const distance = editDistance(wanted, other);
      const within = distance <= Math.max(2, Math.floor(wanted.length / 4)) ||
        other.includes(wanted.slice(wanted.indexOf(":") + 1)) ||
        wanted.includes(other.slice(other.indexOf(":") + 1));
      return { k, distance, within };
    })
    .filter((c) => c.within)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map((c) => c.k);
}

const SERVER: Record<string, string> = {
  ollama: "Ollama",
  llamacpp: "llama.cpp",
  lmstudio: "LM Studio",
};

/**
 * Asks the servers whether `name` is a model wisp can resolve. A server that
 * lists other models but not this one refuses it, naming the near ones; a
 * server that does not answer cannot tell, which is a note, not a refusal
 * (the server may simply not be running yet).
 */
async function judgeModelChoice(
  name: string,
  config: Config,
  options: { env?: Env; os?: string } = {},
): Promise<ModelChoiceVerdict> {
  const parsed = parseModelName(name); // a spelling wisp does not take was refused by the schema
  if (parsed.runtime === "system") {
    const os = options.os ?? hostOs();
    return os === "darwin" ? {} : {
      note: `system cannot run here (${
        systemModelReason(os)
      }); wisp will use the first model a running local server offers`,
    };
  }
  const server = SERVER[parsed.runtime];
  if (!server) return {}; // mlx:, coreai:: the runtime's own refusal comes when it is chosen
  const listing = await listModels(config, { all: true, env: options.env, os: options.os });
  const down = listing.unreachable.find((u) => u.runtime === server);
  if (down) {
    return { note: `it could not be checked (${down.reason}); it is used once its server runs` };
  }
  const wanted = canonicalName(name);
  const found = listing.models.find((m) => canonicalName(m.model) === wanted);
  if (found) {
    return found.usable ? {} : { note: `${found.model} cannot be used now: ${found.problem}` };
  }
  const served = listing.models.filter((m) => m.runtime === parsed.runtime).map((m) => m.model);
  const near = nearNames(name, served);
  return {
    problem: `the ${server} server has no model ${parsed.model}${
      near.length > 0
        ? `; did you mean ${near.join(", ")}?`
        : served.length > 0
        ? `; it has ${served.slice(0, 5).join(", ")}${served.length > 5 ? ", …" : ""}`
        : "; it has none yet"
    } (wisp models lists what can be used)`,
  };
}

/** judgeModelChoice as an error: throws a ModelError (exit 64) with the problem. */
export async function requireResolvableModel(
  name: string,
  config: Config,
  options: { env?: Env; os?: string } = {},
): Promise<string | undefined> {
  const verdict = await judgeModelChoice(name, config, options);
  if (verdict.problem) {
    throw new ModelError("invalid", `model cannot be ${name}: ${verdict.problem}`);
  }
  return verdict.note;
}

/**
 * `wisp models` (= `models list`): every model the local runtimes serve that
 * can hold a conversation with tools, every disabled one, the default marked
 * `*`; a table fitted to the terminal, tab-separated lines when piped, or
 * --json. `models enable|disable <name>…` edit config.json's models.disabled.
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";

interface ListFlags {
  all?: boolean;
  json?: boolean;
}

async function list(flags: ListFlags): Promise<void> {
  const { loadContext } = await load<typeof import("./context.ts")>(
    import.meta.resolve("./context.ts"),
  );
  const { listModels, defaultListed } = await load<typeof import("../models/registry.ts")>(
    import.meta.resolve("../models/registry.ts"),
  );
  const { renderJson, renderTable, renderTsv } = await load<typeof import("../models/render.ts")>(
    import.meta.resolve("../models/render.ts"),
  );
  const { canonicalName } = await load<typeof import("../models/names.ts")>(
    import.meta.resolve("../models/names.ts"),
  );
  const { systemModelReason } = await load<typeof import("../models/system.ts")>(
    import.meta.resolve("../models/system.ts"),
  );
  const { outLine, errLine, stdoutIsTerminal } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { config } = loadContext();
  const listing = await listModels(config, { all: flags.all });
  if (flags.json) {
    outLine(renderJson(listing));
    return;
  }
  if (stdoutIsTerminal()) {
    const { fittingWidth } = await load<typeof import("../util/table.ts")>(
      import.meta.resolve("../util/table.ts"),
    );
    for (const line of renderTable(listing, fittingWidth())) outLine(line);
  } else {
    for (const line of renderTsv(listing)) outLine(line);
    // Piped lines stay one model each; what did not answer goes to stderr.
    for (const down of listing.unreachable) errLine(`(${down.reason})`);
  }
  if (listing.models.length === 0 && listing.unreachable.length === 3) {
    errLine("no model server answered; start one (ollama serve), then run wisp models again");
  }
  if (!defaultListed(listing)) {
    const name = listing.defaultModel;
    if (canonicalName(name) === "system") {
      // What a prompt would run on instead (models/choose.ts): the ladder's first usable model, else the first listed.
      const usable = listing.models.filter((m) => m.usable && m.enabled && m.runtime !== "system");
      const standIn = config.routing.ladder
        .map((rung) => usable.find((m) => canonicalName(m.model) === canonicalName(rung)))
        .find((m) => m !== undefined) ?? usable[0];
      errLine(
        standIn
          ? `the default model, system, cannot run here (${systemModelReason()}); wisp uses ${standIn.model} in its place, the first model a running local server offers (choose one with wisp config set model <name>)`
          : `the default model, system, cannot run here (${systemModelReason()}); choose another with wisp config set model <name>`,
      );
    } else {
      errLine(
        `the default model, ${name}, is not listed; wisp models --all shows every model with the reason one cannot be used`,
      );
    }
  }
}

/** The CLI's context for a model action: its home and config, lines of a check on stdout. */
async function cliActions(): Promise<import("../models/actions.ts").ActionContext> {
  const { loadContext } = await load<typeof import("./context.ts")>(
    import.meta.resolve("./context.ts"),
  );
  const { outLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const { paths, config } = loadContext();
  const limits = limitsFromEnv();
  return { paths, config, source: "cli", say: outLine, ...(limits ? { limits } : {}) };
}

async function setDisabled(names: string[], disable: boolean): Promise<void> {
  const actions = await load<typeof import("../models/actions.ts")>(
    import.meta.resolve("../models/actions.ts"),
  );
  const { errLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const messages = await actions.setDisabled(names, disable, await cliActions());
  for (const message of messages) errLine(message);
}

/** Test hook: shorter time limits for the questions, "first,each" in milliseconds. */
function limitsFromEnv(): import("../models/check.ts").CheckLimits | undefined {
  const raw = Deno.env.get("WISP_MODEL_CHECK_LIMITS_MS");
  const [first, each] = (raw ?? "").split(",").map(Number);
  return first > 0 && each > 0 ? { firstMs: first, eachMs: each } : undefined;
}

async function checkAll(names: string[]): Promise<void> {
  const { cliState } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const actions = await load<typeof import("../models/actions.ts")>(
    import.meta.resolve("../models/actions.ts"),
  );
  for (const name of names) {
    const results = await actions.checkAndRecord(name, await cliActions());
    if (results && !results[0].passed) cliState.exitCode = 1;
  }
}

export function register(program: Command): void {
  const models = program
    .command("models")
    .description("list the models wisp can use, and turn models on and off")
    .option("--all", "also every model that cannot be used, with the reason")
    .option("--json", "print the listing as JSON")
    .action((flags: ListFlags) => list(flags));
  models.command("list")
    .description("list the models --model and config.json can use (the default, marked *)")
    .option("--all", "also every model that cannot be used, with the reason")
    .option("--json", "print the listing as JSON")
    // Commander hands flags written after `list` to whichever command declares them first.
    .action((_flags: ListFlags, command: Command) => list(command.optsWithGlobals<ListFlags>()));
  models.command("enable")
    .description("turn models back on (config.json's models.disabled)")
    .argument("<name...>", "models as --model names them, e.g. ollama:llama3.2:3b")
    .action((names: string[]) => setDisabled(names, false));
  models.command("check")
    .description("ask llama.cpp models three short questions and record what they can do")
    .argument("<name...>", "models as --model names them, e.g. llamacpp:qwen3-8b")
    .action((names: string[]) => checkAll(names));
  models.command("pull")
    .description(
      "fetch a model: ollama:<name> through Ollama, or a Hugging Face <organisation>/<name> into its cache",
    )
    .argument("<name>", "ollama:<name>, or a Hugging Face repository <organisation>/<name>")
    .option("--trust-publisher", "pull from a publisher not in mlx.trustedPublishers, this once")
    .action(async (name: string, flags: { trustPublisher?: boolean }) => {
      const { pull } = await load<typeof import("./models_pull.ts")>(
        import.meta.resolve("./models_pull.ts"),
      );
      await pull(name, flags);
    });
  models.command("disable")
    .description("hide models and refuse them wherever a model is chosen")
    .argument("<name...>", "models as --model names them, e.g. ollama:llama3.2:3b")
    .action((names: string[]) => setDisabled(names, true));
}

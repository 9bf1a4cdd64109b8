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
    errLine(
      canonicalName(name) === "system"
        ? `the default model, system, cannot run here (${systemModelReason()}); choose another with wisp config set model <name>`
        : `the default model, ${name}, is not listed; wisp models --all shows every model with the reason one cannot be used`,
    );
  }
}

async function setDisabled(names: string[], disable: boolean): Promise<void> {
  const { loadContext, commitConfigChange } = await load<typeof import("./context.ts")>(
    import.meta.resolve("./context.ts"),
  );
  const { planSet } = await load<typeof import("../config/edit.ts")>(
    import.meta.resolve("../config/edit.ts"),
  );
  const { parseModelName, sameModel } = await load<typeof import("../models/names.ts")>(
    import.meta.resolve("../models/names.ts"),
  );
  const { errLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const { UsageError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const { paths, config } = loadContext();
  const before = [...config.models.disabled];
  let disabled = [...before];
  const messages: string[] = [];
  for (const name of names) {
    parseModelName(name); // a name wisp does not know is a usage error
    const listed = disabled.some((entry) => sameModel(entry, name));
    if (disable) {
      if (sameModel(name, config.model)) {
        throw new UsageError(
          `${name} is the default model, so it cannot be disabled; make another model the default first (config.json's model: wisp config set model <name>, or /config set model in chat)`,
        );
      }
      if (listed) messages.push(`${name} is already disabled`);
      else {
        disabled.push(name);
        messages.push(`disabled ${name}: hidden from /model and refused until enabled`);
      }
    } else {
      if (!listed) messages.push(`${name} is already enabled`);
      else {
        disabled = disabled.filter((entry) => !sameModel(entry, name));
        messages.push(`enabled ${name}`);
        if (
          parseModelName(name).runtime === "llamacpp" &&
          !config.llamacpp.models[parseModelName(name).model]?.capabilities
        ) {
          messages.push(
            `note: llama.cpp does not say which models call tools; declare llamacpp.models.${
              parseModelName(name).model
            }.capabilities in config.json`,
          );
        }
      }
    }
  }
  if (JSON.stringify(disabled) !== JSON.stringify(before)) {
    const plan = planSet(paths.config, "models.disabled", [JSON.stringify(disabled)]);
    commitConfigChange(paths, plan, "cli"); // audited before it applies
  }
  for (const message of messages) errLine(message);
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
  models.command("disable")
    .description("hide models and refuse them wherever a model is chosen")
    .argument("<name...>", "models as --model names them, e.g. ollama:llama3.2:3b")
    .action((names: string[]) => setDisabled(names, true));
}

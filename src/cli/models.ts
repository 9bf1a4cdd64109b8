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
  const { UsageError, messageOf } = await load<typeof import("../util/errors.ts")>(
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
      }
    }
  }
  if (!disable) {
    // llama.cpp does not say what a model can do: one with nothing declared is checked first.
    for (const name of names) {
      const parsed = parseModelName(name);
      if (parsed.runtime !== "llamacpp" || config.llamacpp.models[parsed.model]?.capabilities) {
        continue;
      }
      let results: import("../models/check.ts").QuestionResult[] | undefined;
      try {
        results = await checkOne(name, limitsFromEnv());
      } catch (error) {
        // No server to ask now: enabling is still the person's to make.
        messages.push(
          `${name} was not checked (${
            messageOf(error)
          }); run wisp models check ${name} once its server runs`,
        );
        continue;
      }
      if (results && !results[0].passed) {
        // The check decides: a model that cannot give a plain reply stays as it was.
        const index = messages.indexOf(`enabled ${name}`);
        if (index >= 0) {
          messages[index] = `${name} stays disabled: it gave no reply to the check`;
          disabled.push(name);
        } else messages.push(`${name} gave no reply to the check`);
      }
    }
  }
  if (JSON.stringify(disabled) !== JSON.stringify(before)) {
    const plan = planSet(paths.config, "models.disabled", [JSON.stringify(disabled)]);
    commitConfigChange(paths, plan, "cli"); // audited before it applies
  }
  for (const message of messages) errLine(message);
}

/** Today's date as the check records it (UTC, YYYY-MM-DD). */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * Check one model: ask the three questions and record what passes under
 * llamacpp.models.<name> (config.change, and model.verified). Returns the
 * results, or undefined when the runtime reports its own capabilities.
 */
async function checkOne(
  name: string,
  limits?: import("../models/check.ts").CheckLimits,
): Promise<import("../models/check.ts").QuestionResult[] | undefined> {
  const { loadContext, commitConfigChange } = await load<
    typeof import("./context.ts")
  >(import.meta.resolve("./context.ts"));
  const { AuditLog } = await load<typeof import("../audit/writer.ts")>(
    import.meta.resolve("../audit/writer.ts"),
  );
  const { planSet } = await load<typeof import("../config/edit.ts")>(
    import.meta.resolve("../config/edit.ts"),
  );
  const { parseModelName } = await load<typeof import("../models/names.ts")>(
    import.meta.resolve("../models/names.ts"),
  );
  const { resolveModel, checkAvailable } = await load<typeof import("../models/registry.ts")>(
    import.meta.resolve("../models/registry.ts"),
  );
  const check = await load<typeof import("../models/check.ts")>(
    import.meta.resolve("../models/check.ts"),
  );
  const { outLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const { paths, config } = loadContext();
  const parsed = parseModelName(name);
  if (parsed.runtime !== "llamacpp") {
    // mlx: and coreai: fail here with the reason this build cannot run them.
    const backend = resolveModel(name, config);
    outLine(
      `${backend.name} is not checked: its runtime reports what it can do (wisp models shows it)`,
    );
    return undefined;
  }
  // A disabled model may be checked (enable checks before it turns the model on).
  const backend = resolveModel(name, { ...config, models: { ...config.models, disabled: [] } });
  await checkAvailable(backend, { tools: false });
  const chosen = limits ?? check.CHECK_LIMITS;
  outLine(
    `checking ${backend.name}: asks three short questions (a reply, a tool call, a structured reply), allowing ${
      check.limitWords(chosen.firstMs)
    } for the first, which loads the model, and ${
      check.limitWords(chosen.eachMs)
    } for each of the others`,
  );
  const results = await check.checkModel(
    backend,
    chosen,
    (result) => outLine(`  ${check.resultWords(result)}`),
  );
  const current = config.llamacpp.models[parsed.model];
  const recorded = check.recordedCapabilities(results, current, today());
  const key = (field: string) => `llamacpp.models.${parsed.model}.${field}`;
  const audit = AuditLog.open(paths, config.audit);
  try {
    audit.record("model.verified", {
      model: backend.name,
      passed: recorded.verified.passed,
      failed: recorded.verified.failed,
    });
  } finally {
    audit.close();
  }
  commitConfigChange(
    paths,
    planSet(paths.config, key("capabilities"), [JSON.stringify(recorded.capabilities)]),
    "cli",
  );
  commitConfigChange(
    paths,
    planSet(paths.config, key("verified"), [JSON.stringify(recorded.verified)]),
    "cli",
  );
  outLine(
    `recorded in config.json: ${backend.name} ${
      recorded.capabilities.length > 0
        ? `can do ${check.capabilityWords(recorded.capabilities)}`
        : "passed no capability"
    } (verified ${recorded.verified.date})`,
  );
  for (const kept of recorded.keptByHand) {
    outLine(
      `${
        check.capabilityWords([kept])
      } failed its check but is kept: you declared it in config.json`,
    );
  }
  outLine(
    "reasoning and vision are not checked: one short question cannot tell them reliably; declare them in config.json if the model has them",
  );
  return results;
}

/** Test hook: shorter time limits for the questions, "first,each" in milliseconds. */
function limitsFromEnv(): import("../models/check.ts").CheckLimits | undefined {
  const raw = Deno.env.get("WISP_MODEL_CHECK_LIMITS_MS");
  const [first, each] = (raw ?? "").split(",").map(Number);
  return first > 0 && each > 0 ? { firstMs: first, eachMs: each } : undefined;
}

async function checkAll(names: string[]): Promise<void> {
  const { cliState } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  for (const name of names) {
    const results = await checkOne(name, limitsFromEnv());
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

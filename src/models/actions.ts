/**
 * The changes a person (or, with their approval, the model) makes to the
 * models wisp can run: enable, disable, and check. The one place their rules
 * live, so `wisp models enable|disable|check` and the `models` tool behave
 * alike: a disabled model is found under any spelling, the default cannot be
 * disabled, a llama.cpp model with nothing declared is checked before it is
 * enabled, and what a check passes is recorded under the runtime's
 * `models.<name>` (config.change, model.verified).
 */
import type { AuditSink } from "../audit/writer.ts";
import {
  commitConfigChange,
  type CommitOptions,
  type ConfigChangeSource,
} from "../audit/config_change.ts";
import { planSet } from "../config/edit.ts";
import type { HomePaths } from "../config/home.ts";
import type { Config } from "../config/schema.ts";
import { AuditLog } from "../audit/writer.ts";
import { UsageError } from "../util/errors.ts";
import { messageOf } from "../util/errors.ts";
import {
  capabilityWords,
  CHECK_LIMITS,
  type CheckLimits,
  checkModel,
  limitWords,
  type QuestionResult,
  recordedCapabilities,
  resultWords,
} from "./check.ts";
import { parseModelName, sameModel } from "./names.ts";
import { checkAvailable, resolveModel } from "./registry.ts";

/** Where an action runs and records: the home, the config as loaded, who asked. */
export interface ActionContext {
  paths: HomePaths;
  config: Config;
  /** Who made the change, as config.change records it (cli, tool). */
  source: ConfigChangeSource;
  /** The conversation's audit (a tool's action); absent: a log of its own per event. */
  audit?: AuditSink;
  /** The approval request the person approved the action in. */
  approval?: string;
  /** Told each line of a check as it happens. */
  say: (line: string) => void;
  /** Time limits of a check's questions (default CHECK_LIMITS). */
  limits?: CheckLimits;
}

/** Today's date as the check records it (UTC, YYYY-MM-DD). */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function commitOptions(ctx: ActionContext): CommitOptions {
  return {
    ...(ctx.audit ? { audit: ctx.audit } : {}),
    ...(ctx.approval ? { approval: ctx.approval } : {}),
  };
}

/** Record one event in the conversation's audit, or in a log opened for it. */
function record(ctx: ActionContext, fields: { model: string; passed: string[]; failed: string[] }) {
  const withSource = {
    ...fields,
    ...(ctx.source === "tool" ? { source: "tool" } : {}),
    ...(ctx.approval ? { approval: ctx.approval } : {}),
  };
  if (ctx.audit) {
    ctx.audit.record("model.verified", withSource);
    return;
  }
  const audit = AuditLog.open(ctx.paths, ctx.config.audit);
  try {
    audit.record("model.verified", withSource);
  } finally {
    audit.close();
  }
}

/** What enabling or disabling would change, without doing it. */
export interface DisabledPlan {
  /** models.disabled after the change. */
  disabled: string[];
  /** Whether models.disabled changes at all. */
  changes: boolean;
  /** One line per name: what happens to it. */
  messages: string[];
}

/**
 * Plan `models enable|disable`: any spelling of a model matches its entry;
 * the default cannot be disabled (a UsageError naming what to do). Pure.
 */
export function planDisabled(names: string[], disable: boolean, config: Config): DisabledPlan {
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
  return { disabled, changes: JSON.stringify(disabled) !== JSON.stringify(before), messages };
}

/**
 * Enable or disable models, checking first each llama.cpp model being
 * enabled that declares nothing (one that cannot give a plain reply stays
 * disabled). Returns one line per outcome.
 */
export async function setDisabled(
  names: string[],
  disable: boolean,
  ctx: ActionContext,
): Promise<string[]> {
  const plan = planDisabled(names, disable, ctx.config);
  const { messages } = plan;
  const disabled = [...plan.disabled];
  if (!disable) {
    // llama.cpp does not say what a model can do: one with nothing declared is checked first.
    for (const name of names) {
      const parsed = parseModelName(name);
      if (parsed.runtime !== "llamacpp" || ctx.config.llamacpp.models[parsed.model]?.capabilities) {
        continue;
      }
      let results: QuestionResult[] | undefined;
      try {
        results = await checkAndRecord(name, ctx);
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
  if (JSON.stringify(disabled) !== JSON.stringify(ctx.config.models.disabled)) {
    // The config as it is now: a check may have recorded capabilities since it was loaded.
    const change = planSet(ctx.paths.config, "models.disabled", [JSON.stringify(disabled)]);
    commitConfigChange(ctx.paths, change, ctx.source, commitOptions(ctx)); // audited before it applies
  }
  return messages;
}

/**
 * Check one model: ask the three questions and record what passes under
 * llamacpp.models.<name> (config.change, and model.verified). Returns the
 * results, or undefined when the runtime reports its own capabilities.
 */
export async function checkAndRecord(
  name: string,
  ctx: ActionContext,
): Promise<QuestionResult[] | undefined> {
  const { paths, config } = ctx;
  const parsed = parseModelName(name);
  if (parsed.runtime !== "llamacpp") {
    // mlx: and coreai: fail here with the reason this build cannot run them.
    const backend = resolveModel(name, config);
    ctx.say(
      `${backend.name} is not checked: its runtime reports what it can do (wisp models shows it)`,
    );
    return undefined;
  }
  // A disabled model may be checked (enable checks before it turns the model on).
  const backend = resolveModel(name, { ...config, models: { ...config.models, disabled: [] } });
  await checkAvailable(backend, { tools: false });
  const chosen = ctx.limits ?? CHECK_LIMITS;
  ctx.say(
    `checking ${backend.name}: asks three short questions (a reply, a tool call, a structured reply), allowing ${
      limitWords(chosen.firstMs)
    } for the first, which loads the model, and ${
      limitWords(chosen.eachMs)
    } for each of the others`,
  );
  const results = await checkModel(
    backend,
    chosen,
    (result) => ctx.say(`  ${resultWords(result)}`),
  );
  const current = config.llamacpp.models[parsed.model];
  const recorded = recordedCapabilities(results, current, today());
  const key = (field: string) => `llamacpp.models.${parsed.model}.${field}`;
  record(ctx, {
    model: backend.name,
    passed: recorded.verified.passed,
    failed: recorded.verified.failed,
  });
  commitConfigChange(
    paths,
    planSet(paths.config, key("capabilities"), [JSON.stringify(recorded.capabilities)]),
    ctx.source,
    commitOptions(ctx),
  );
  commitConfigChange(
    paths,
    planSet(paths.config, key("verified"), [JSON.stringify(recorded.verified)]),
    ctx.source,
    commitOptions(ctx),
  );
  ctx.say(
    `recorded in config.json: ${backend.name} ${
      recorded.capabilities.length > 0
        ? `can do ${capabilityWords(recorded.capabilities)}`
        : "passed no capability"
    } (verified ${recorded.verified.date})`,
  );
  for (const kept of recorded.keptByHand) {
    ctx.say(
      `${capabilityWords([kept])} failed its check but is kept: you declared it in config.json`,
    );
  }
  ctx.say(
    "reasoning and vision are not checked: one short question cannot tell them reliably; declare them in config.json if the model has them",
  );
  return results;
}

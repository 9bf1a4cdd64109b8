/**
 * models: the models wisp can run, for the model. It reads the listing and
 * one model's facts, and asks the person to pull, enable, disable or check a
 * model; it cannot trust a publisher or switch the conversation to another
 * model. Every rule is the person's own, from src/models/actions.ts and
 * src/models/hub_pull.ts (what `wisp models` runs). A change is a model
 * action the gate judges as its line (`models pull <repo>`) and then asks a
 * person every time (src/gate/gate.ts). An approved pull runs beside the
 * conversation (the session's ModelPulls), at most one per model, and the
 * call returns at once.
 *
 * Off by default: a conversation has it when tools.models is on, or when its
 * tool list names it (tools/registry.ts).
 */
import { z } from "zod";
import { errorResult, type Tool, type ToolContext, type ToolResult } from "./tool.ts";
import { byteLength, formatDecimalBytes } from "../util/bytes.ts";
import { messageOf } from "../util/errors.ts";
import { log } from "../util/log.ts";
import { loadConfig } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import type { ModelAction } from "../gate/gate.ts";
import type { ModelEntry } from "../models/registry.ts";

/** Every reply is at most this many bytes. */
const REPLY_BYTES = 4096;
/** Models on a page of the listing. */
const PAGE = 20;

const ACTIONS = ["list", "show", "pull", "enable", "disable", "check"] as const;
/** The actions that change something, asked of the person through the gate. */
const CHANGES = new Set(["pull", "enable", "disable", "check"]);

const modelsSchema = z.object({
  action: z.enum(ACTIONS).describe(
    "list the models; show one model's facts; or ask the person to pull, enable, disable or check one",
  ),
  name: z.string().optional().describe(
    "the model as --model names it (ollama:granite4.1:8b, llamacpp:qwen3-8b.gguf), or for pull a Hugging Face repository ORG/NAME or ollama:<name>",
  ),
  page: z.number().int().min(1).optional().describe("the listing's page (20 models a page)"),
  all: z.boolean().optional().describe("list also the models that cannot be used, with why"),
}).strict();

type Args = z.infer<typeof modelsSchema>;

const NAME_RULE =
  "a model is named as --model names it: ollama:<name>, llamacpp:<name>, lmstudio:<name>, mlx:<name> or system";
const PULL_RULE = "a pull takes a Hugging Face repository <organisation>/<name> or ollama:<name>";

/** A reply cut to REPLY_BYTES at a line, saying so. */
function bounded(text: string): string {
  if (byteLength(text) <= REPLY_BYTES) return text;
  const lines = text.split("\n");
  const kept: string[] = [];
  const tail = "… (cut at 4 KiB; ask for one model with show, or a later page)";
  let size = byteLength(tail) + 1;
  for (const line of lines) {
    const next = byteLength(line) + 1;
    if (size + next > REPLY_BYTES) break;
    kept.push(line);
    size += next;
  }
  return [...kept, tail].join("\n");
}

function reply(text: string, ok = true): ToolResult {
  return { text: bounded(text), ok };
}

function refuse(message: string): ToolResult {
  return { ...errorResult(message), text: bounded(`error: ${message}`) };
}

/** The config as it is on disk now: an earlier call of this conversation may have changed it. */
function currentConfig(ctx: ToolContext): Config {
  try {
    return loadConfig(ctx.home.config).config;
  } catch {
    return ctx.config;
  }
}

/** One model as a line of the listing. */
function modelLine(e: ModelEntry): string {
  const facts = [
    e.parameters,
    e.size,
    e.context !== null
      ? `context ${e.context.toLocaleString("en")}${e.contextFrom ? ` (${e.contextFrom})` : ""}`
      : null,
    e.enabled ? "enabled" : "disabled",
    e.usable
      ? (e.capabilities.length > 0 ? `can: ${e.capabilities.join(", ")}` : null)
      : `not usable: ${e.problem ?? "unknown"}`,
  ].filter((f): f is string => f !== null && f !== "");
  return `${e.default ? "* " : "  "}${e.model}: ${facts.join("; ")}`;
}

async function listAction(args: Args, config: Config): Promise<ToolResult> {
  const { listModels } = await import("../models/registry.ts");
  const listing = await listModels(config, { all: args.all === true });
  const pages = Math.max(1, Math.ceil(listing.models.length / PAGE));
  const page = args.page ?? 1;
  if (page > pages) {
    return refuse(`there ${pages === 1 ? "is 1 page" : `are ${pages} pages`}, not ${page}`);
  }
  const shown = listing.models.slice((page - 1) * PAGE, page * PAGE);
  const lines = [
    listing.models.length === 0
      ? "no model server listed a model"
      : `models ${(page - 1) * PAGE + 1}–${
        (page - 1) * PAGE + shown.length
      } of ${listing.models.length} (page ${page} of ${pages}); * marks the default, ${listing.defaultModel}`,
    ...shown.map(modelLine),
    // A backend that does not answer is one line in parentheses.
    ...listing.unreachable.map((u) => `(${u.reason})`),
  ];
  if (page < pages) lines.push(`more: page ${page + 1}`);
  return reply(lines.join("\n"));
}

async function showAction(name: string, config: Config): Promise<ToolResult> {
  const { listModels } = await import("../models/registry.ts");
  const { sameModel } = await import("../models/names.ts");
  const listing = await listModels(config, { all: true });
  const entry = listing.models.find((m) => sameModel(m.model, name));
  if (!entry) {
    const down = listing.unreachable.map((u) => `; ${u.reason}`).join("");
    return refuse(`no running server lists ${name}${down}; list shows the models there are`);
  }
  const lines = [
    `${entry.model}${entry.default ? " (the default)" : ""}`,
    `runtime: ${entry.runtime}`,
    ...(entry.parameters ? [`parameters: ${entry.parameters}`] : []),
    ...(entry.size ? [`size: ${entry.size}`] : []),
    ...(entry.format ? [`format: ${entry.format}`] : []),
    ...(entry.context !== null
      ? [
        `context window: ${entry.context.toLocaleString("en")} tokens${
          entry.contextFrom ? `, from ${entry.contextFrom}` : ""
        }${entry.contextNote ? ` (${entry.contextNote})` : ""}`,
      ]
      : []),
    `enabled: ${entry.enabled ? "yes" : "no"}`,
    `capabilities: ${entry.capabilities.length > 0 ? entry.capabilities.join(", ") : "none"}${
      entry.capabilitiesFrom ? ` (${entry.capabilitiesFrom})` : ""
    }`,
    entry.usable ? "usable: yes" : `usable: no, ${entry.problem ?? "for a reason not given"}`,
  ];
  return reply(lines.join("\n"));
}

/**
 * Ask the gate about a model action, judged as its line (`models pull <name>`);
 * the refusal, or the approval's id.
 */
async function ask(
  action: ModelAction,
  ctx: ToolContext,
): Promise<{ refusal: ToolResult } | { approval: string | undefined }> {
  const line = `models ${action.verb} ${action.model}`;
  if (!ctx.gate) return { refusal: refuse("not approved: no one can be asked in this session") };
  const verdict = await ctx.gate.check(line, {
    origin: "model",
    cwd: ctx.cwd,
    tool: "models",
    modelAction: action,
    signal: ctx.signal,
  });
  if (!verdict.allowed) {
    const why = (verdict.refusal ?? "").replace(/^error: /, "")
      .replace(/^(command not approved|not approved): /, "")
      .replace(/^command denied by policy: /, "denied by policy: ");
    return { refusal: refuse(`not approved: ${why || "the gate refused it"}`) };
  }
  return { approval: verdict.requestId };
}

async function enableOrDisable(
  name: string,
  disable: boolean,
  config: Config,
  ctx: ToolContext,
): Promise<ToolResult> {
  const actions = await import("../models/actions.ts");
  const { parseModelName } = await import("../models/names.ts");
  let plan;
  try {
    plan = actions.planDisabled([name], disable, config);
  } catch (error) {
    return refuse(messageOf(error));
  }
  const parsed = parseModelName(name);
  const checks = !disable && parsed.runtime === "llamacpp" &&
    !config.llamacpp.models[parsed.model]?.capabilities;
  if (!plan.changes && !checks) return reply(plan.messages.join("\n"));
  const verb = disable ? "disable" as const : "enable" as const;
  const details = [
    plan.changes
      ? `config.json: models.disabled becomes ${JSON.stringify(plan.disabled)}`
      : "config.json: models.disabled stays as it is",
    ...(checks
      ? [
        `first checks ${name} (three short questions) and records what passes under llamacpp.models.${parsed.model}.capabilities and .verified; a model that gives no reply stays disabled`,
      ]
      : []),
  ];
  const asked = await ask({
    verb,
    model: name,
    reason: "changes the models wisp can run",
    details,
  }, ctx);
  if ("refusal" in asked) return asked.refusal;
  const said: string[] = [];
  try {
    const messages = await actions.setDisabled([name], disable, {
      paths: ctx.home,
      config,
      source: "tool",
      audit: ctx.audit,
      ...(asked.approval ? { approval: asked.approval } : {}),
      say: (line) => said.push(line),
    });
    return reply([...said, ...messages].join("\n"));
  } catch (error) {
    return refuse(`${messageOf(error)}; nothing else changed`);
  }
}

async function checkAction(name: string, config: Config, ctx: ToolContext): Promise<ToolResult> {
  const actions = await import("../models/actions.ts");
  const { parseModelName } = await import("../models/names.ts");
  const parsed = parseModelName(name);
  if (parsed.runtime !== "llamacpp") {
    // Nothing to record, so nothing to ask: the runtime says what it can do.
    const said: string[] = [];
    try {
      await actions.checkAndRecord(name, {
        paths: ctx.home,
        config,
        source: "tool",
        say: (l) => said.push(l),
      });
    } catch (error) {
      return refuse(messageOf(error));
    }
    return reply(said.join("\n"));
  }
  const asked = await ask({
    verb: "check",
    model: name,
    reason: "changes the models wisp can run",
    details: [
      `asks ${name} three short questions and records what passes in config.json under llamacpp.models.${parsed.model}.capabilities and .verified`,
    ],
  }, ctx);
  if ("refusal" in asked) return asked.refusal;
  const said: string[] = [];
  try {
    await actions.checkAndRecord(name, {
      paths: ctx.home,
      config,
      source: "tool",
      audit: ctx.audit,
      ...(asked.approval ? { approval: asked.approval } : {}),
      say: (line) => said.push(line),
    });
  } catch (error) {
    return refuse(messageOf(error));
  }
  return reply(said.join("\n"));
}

/** How a pull that ends reports: the audit's model.pull, the log, and a notification. */
function reporter(ctx: ToolContext, model: string, approval: string | undefined) {
  return async (
    outcome: "pulled" | "linked" | "failed" | "interrupted",
    bytes: number,
    note: string,
  ) => {
    ctx.audit.record("model.pull", {
      model,
      outcome,
      bytes,
      source: "tool",
      ...(approval ? { approval } : {}),
      note,
    });
    log("info", note);
    await ctx.notifier?.notify({ title: "wisp", message: note }).catch(() => undefined);
  };
}

/** An environment variable, or undefined when there is none or it may not be read. */
function readEnv(key: string): string | undefined {
  try {
    return Deno.env.get(key);
  } catch {
    return undefined;
  }
}

/** " (approval 7f3a2c1d)" when the pull has an approval's id. */
function asked(approval: string | undefined): string {
  return approval ? ` (approval ${approval})` : "";
}

async function pullAction(name: string, config: Config, ctx: ToolContext): Promise<ToolResult> {
  const pulls = ctx.modelPulls;
  if (!pulls) return refuse("not approved: this session cannot run a pull beside the conversation");
  const running = pulls.running(name);
  if (running !== undefined) {
    return reply(
      `a pull of ${name}${
        asked(running || undefined)
      } is running already; it posts a note when it ends. Do not call again to check on it.`,
    );
  }
  // A one-shot respond ends its session, and so cancels the pull, as soon as this turn ends.
  if (ctx.face === "respond") {
    return refuse(
      `not approved: a pull runs beside the conversation, and this one-shot session ends with its turn, which would cancel it; the person can run wisp models pull ${name}`,
    );
  }
  if (name.startsWith("ollama:") && name.length > "ollama:".length) {
    return await pullOllama(name, config, ctx);
  }
  const { HUB_REPO } = await import("../models/hub_pull.ts");
  if (!HUB_REPO.test(name)) return refuse(`${PULL_RULE}, not '${name}'`);
  return await pullHub(name, config, ctx);
}

async function pullHub(repoName: string, config: Config, ctx: ToolContext): Promise<ToolResult> {
  const hubPull = await import("../models/hub_pull.ts");
  let plan;
  try {
    plan = await hubPull.inspectHubPull(repoName, {
      config,
      paths: ctx.home,
      env: readEnv,
      signal: ctx.signal,
    });
  } catch (error) {
    return refuse(messageOf(error));
  }
  const need = hubPull.toFetch(plan);
  const as = plan.links.map((l) => l.model).join(", ");
  const details = [
    need.files.length > 0
      ? `downloads ${
        formatDecimalBytes(need.bytes)
      } in ${need.files.length} of ${plan.repo.files.length} files from Hugging Face, as ${as}`
      : `nothing needs fetching: every file is in the Hugging Face cache; links it as ${as}`,
    plan.trusted
      ? `publisher ${plan.publisher}: trusted`
      : `publisher ${plan.publisher}: not trusted: approving pulls it this once, and only the person can trust it, with /models trust`,
    `licence: ${plan.repo.license}`,
  ];
  const answer = await ask({
    verb: "pull",
    model: repoName,
    reason: "downloads a model from Hugging Face",
    details,
  }, ctx);
  if ("refusal" in answer) return answer.refusal;
  const approval = answer.approval;
  const report = reporter(ctx, repoName, approval);
  const asking = `the pull of ${repoName} you asked for${asked(approval)}`;
  let reported = false;
  const started = ctx.modelPulls!.start(repoName, approval, async (signal) => {
    try {
      await hubPull.recheckCached(plan, () => {});
      const done = await hubPull.fetchAndLink(plan, {}, signal);
      if (reported) return;
      reported = true;
      const first = done.linked[0]?.model ?? plan.links[0]?.model;
      const kept = done.notes.length > 0 ? `; ${done.notes.join("; ")}` : "";
      await report(
        done.fetched > 0 ? "pulled" : "linked",
        done.fetched,
        `[wisp: ${asking} finished: fetched ${
          formatDecimalBytes(done.fetched)
        }; it is ${first}${kept}. Its capabilities are undeclared until it is checked: models enable ${first} asks to turn it on and check it]`,
      );
    } catch (error) {
      if (reported) return;
      reported = true;
      if (signal.aborted) {
        await report(
          "interrupted",
          0,
          `[wisp: ${asking} was cancelled (${
            messageOf(signal.reason)
          }); what arrived is kept for the next pull to resume]`,
        );
      } else {
        await report(
          "failed",
          0,
          `[wisp: ${asking} failed: ${
            messageOf(error)
          }; what arrived is kept for the next pull to resume]`,
        );
      }
    }
  }, (reason) => {
    if (reported) return;
    reported = true;
    void report(
      "interrupted",
      0,
      `[wisp: ${asking} was cancelled (${reason}); what arrived is kept for the next pull to resume]`,
    );
  });
  if (!started) {
    return reply(
      `a pull of ${repoName} is running already; it posts a note when it ends. Do not call again to check on it.`,
    );
  }
  return reply(
    `approved${asked(approval)}: the pull of ${repoName} runs beside the conversation (${
      details[0]
    }). A note is posted here when it ends. Do not call again to check on it: wisp never re-runs a call to see how it went.`,
  );
}

async function pullOllama(name: string, config: Config, ctx: ToolContext): Promise<ToolResult> {
  const { ollamaHost } = await import("../models/host.ts");
  const ollama = await import("../models/ollama.ts");
  const model = name.slice("ollama:".length);
  let host: string;
  try {
    host = ollamaHost(config, readEnv);
  } catch (error) {
    return refuse(messageOf(error));
  }
  const details = [
    `downloads it through the Ollama server at ${host}; Ollama says its size only as the download starts`,
  ];
  const answer = await ask({
    verb: "pull",
    model: name,
    reason: "downloads a model through Ollama",
    details,
  }, ctx);
  if ("refusal" in answer) return answer.refusal;
  const approval = answer.approval;
  const report = reporter(ctx, name, approval);
  const asking = `the pull of ${name} you asked for${asked(approval)}`;
  let reported = false;
  ctx.modelPulls!.start(name, approval, async (signal) => {
    const layers = new Map<string, number>();
    try {
      for await (const line of ollama.pullOllama(host, model, signal)) {
        if (line.digest && line.total) layers.set(line.digest, line.total);
      }
      if (reported) return;
      reported = true;
      const bytes = [...layers.values()].reduce((a, b) => a + b, 0);
      await report(
        "pulled",
        bytes,
        `[wisp: ${asking} finished: ${
          formatDecimalBytes(bytes)
        } in Ollama; it is ${name}. models enable ${name} asks to turn it on if it is disabled]`,
      );
    } catch (error) {
      if (reported) return;
      reported = true;
      await report(
        signal.aborted ? "interrupted" : "failed",
        0,
        signal.aborted
          ? `[wisp: ${asking} was cancelled (${
            messageOf(signal.reason)
          }); Ollama keeps what it fetched for the next pull]`
          : `[wisp: ${asking} failed: ${messageOf(error)}]`,
      );
    }
  }, (reason) => {
    if (reported) return;
    reported = true;
    void report(
      "interrupted",
      0,
      `[wisp: ${asking} was cancelled (${reason}); Ollama keeps what it fetched for the next pull]`,
    );
  });
  return reply(
    `approved${
      asked(approval)
    }: the pull of ${name} runs beside the conversation. A note is posted here when it ends. Do not call again to check on it: wisp never re-runs a call to see how it went.`,
  );
}

export const modelsTool: Tool<Args> = {
  name: "models",
  description:
    "The models wisp can run. list shows them (20 a page; * is the default), show gives one model's facts, " +
    "and pull, enable, disable and check ask the person to make that change: each is approved or refused by them, " +
    "and a refusal is final for this request. A pull runs in the background and a note arrives when it ends; " +
    "do not call again to check on it. You cannot trust a publisher or switch to another model.",
  schema: modelsSchema,
  parallelSafe: false,
  gatesBeforeEffect: (args) => CHANGES.has(args.action),
  limits: () => [
    `List pages of ${PAGE} models; every reply at most 4 KiB.`,
    "pull, enable, disable and check are asked of the person every time; a pull runs beside the conversation, at most one per model.",
    "Not offered: trusting a publisher, or switching the conversation to another model.",
  ],
  examplePrompt: "Use models with action list to show which models wisp can run.",
  async run(args, ctx) {
    const config = currentConfig(ctx);
    if (args.action === "list") return await listAction(args, config);
    const name = args.name?.trim();
    if (!name) {
      return refuse(
        `${args.action} needs name: ${args.action === "pull" ? PULL_RULE : NAME_RULE}`,
      );
    }
    if (args.action !== "pull") {
      const { parseModelName } = await import("../models/names.ts");
      try {
        parseModelName(name);
      } catch {
        return refuse(`'${name}' is not a model: ${NAME_RULE}`);
      }
    }
    try {
      switch (args.action) {
        case "show":
          return await showAction(name, config);
        case "enable":
        case "disable":
          return await enableOrDisable(name, args.action === "disable", config, ctx);
        case "check":
          return await checkAction(name, config, ctx);
        case "pull":
          return await pullAction(name, config, ctx);
      }
    } catch (error) {
      if (error instanceof Error && error.name === "Prepared") throw error;
      return refuse(messageOf(error));
    }
  },
};

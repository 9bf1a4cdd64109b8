/**
 * The gate every command line passes before it runs: parse → policy →
 * classify (the rules set the floor, a model classifier may only raise it) →
 * a remembered approval → ask the person through the face's host effect.
 * No host, no answer, or the timeout is a refusal. Every step is audited.
 */
import { dirname, fromFileUrl, join } from "../util/path.ts";
import type { Config, Level } from "../config/schema.ts";
import type { HomePaths } from "../config/home.ts";
import type { AuditSink } from "../audit/writer.ts";
import { initShellParser, parseLine, withShellParser } from "./parse.ts";
import { analyse, type Analysis } from "./analyse.ts";
import { evaluatePolicy, type PolicyDecision } from "./policy.ts";
import { classify, type GitConfigReader, LEVEL_RANK, maxLevel, type PartVerdict } from "./rules.ts";
import { ApprovalStore } from "./approvals.ts";
import { applyModelClassifier, type ClassifiedPart, type ModelClassifier } from "./classifier.ts";
import { load } from "../util/lazy.ts";
import { PathLookup } from "./paths.ts";
import { findGitDir, readGitConfigFile, readRepositoryConfig } from "./git_config.ts";
import { partFeatures } from "./features.ts";
import { nestedSandboxProbe } from "../platform/index.ts";
import type { Origin } from "../exec/mode.ts";
import { randomHex } from "../util/random_id.ts";
import { enabled, log, masked, timed } from "../util/log.ts";

export type { Level };
export type { ModelClassifier };
export type ApprovalAnswer = "once" | "session" | "project" | "always" | "no";

export interface ApprovalRequest {
  line: string;
  /** The part asked about. */
  command: string;
  level: Level;
  reasons: string[];
  cwd: string;
  /** What the answer would be remembered as. */
  pattern: string;
  outsideSandbox: boolean;
  /** The scopes offered. */
  rememberable: ApprovalAnswer[];
  /** An id for this request (audit, pending files). */
  id: string;
  /** What is asked: a command line (the default), or a change to the models wisp can run. */
  kind?: "command" | "modelAction";
  /** For kind "modelAction": the change, as the person is to be shown it. */
  modelAction?: ModelAction;
}

/**
 * A "no" that no person gave (a client's dialog declined at once by a
 * headless agent): who said it, and the sentence the refusal carries.
 */
export interface HostRefusal {
  answer: "no";
  by: string;
  why: string;
}

export interface ApprovalHost {
  approve(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer | HostRefusal>;
  /**
   * Where the answer to a request came from, asked once right after it was
   * given, when the host can answer in more than one way (the MCP face:
   * `elicitation` or `terminal`); it is kept with the approval made.
   */
  sourceOf?(requestId: string): string | undefined;
}

export interface GateContext {
  cwd: string;
  /** The launch directory (the project). */
  root: string;
  origin: Origin;
  outsideSandbox?: boolean;
  /** Absent: no one can be asked. */
  host?: ApprovalHost;
  /** --yes: approve what would be asked, never outsideSandbox. */
  yes?: boolean;
  turnId?: string;
  signal?: AbortSignal;
  /**
   * The line stands for a change the model asks for to the models wisp can
   * run (`models pull <repo>`, `models enable <name>`): judged like any line,
   * then asked of a person every time, whatever approval.threshold, a
   * remembered answer or --yes would say, once or not at all.
   */
  modelAction?: ModelAction;
}

/** What a model action's approval request tells the person, beside its line. */
export interface ModelAction {
  /** What is done to the model. */
  verb: "pull" | "enable" | "disable" | "check";
  /** The model as the tool names it (ollama:qwen3:8b, a Hugging Face repository for a pull). */
  model: string;
  /** Why it is asked: "downloads a model from Hugging Face", "changes the models wisp can run". */
  reason: string;
  /** What it would do: the download, the publisher and licence; what changes in config.json. */
  details: string[];
}

export interface GatePart {
  command: string;
  argv: string[];
  level: Level;
  reasons: string[];
  pattern: string;
}

export interface GateDecision {
  allowed: boolean;
  /** "error: command denied by policy: <reason>" | "error: command not approved: <reason>" */
  refusal?: string;
  level: Level;
  parts: GatePart[];
  approvedBy?: "rules" | "remembered" | "person" | "yes" | "person-typed";
  scope?: ApprovalAnswer;
  /** The policy rule that refused the line, when one did. */
  policyRule?: string;
  /** The approval request the person answered, when one was asked (its id names the approval). */
  requestId?: string;
}

export interface GateOptions {
  config: Config;
  home: HomePaths;
  audit: AuditSink;
  /** The classifier beside the rules; absent: the one approval.classifier names (choose.ts). */
  classifier?: ModelClassifier;
  /** Environment variables the command inherits, for resolving $HOME, $WISP_HOME, $TMPDIR… */
  env?: Record<string, string>;
  /** The user's home folder (default: $HOME). */
  userHome?: string;
  /** Approvals store (default: the home's approvals.json). */
  approvals?: ApprovalStore;
}

const OUTSIDE_REASON =
  "runs OUTSIDE the sandbox: it may write anywhere you can, ~/.wisp included; this one run only";

const ENV_NAMES = [
  "HOME",
  "WISP_HOME",
  "TMPDIR",
  "TMP",
  "TEMP",
  "USER",
  "LOGNAME",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_CACHE_HOME",
  "XDG_STATE_HOME",
  "SHELL",
];

function readEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ENV_NAMES) {
    try {
      const v = Deno.env.get(name);
      if (v !== undefined) out[name] = v;
    } catch { /* not allowed: unknown */ }
  }
  return out;
}

/** The entry points that start wisp from source, for spotting `deno run …/main.ts`. */
function wispScripts(): string[] {
  try {
    const main = join(dirname(dirname(dirname(fromFileUrl(import.meta.url)))), "main.ts");
    return [main];
  } catch {
    return [];
  }
}

function toParts(verdicts: PartVerdict[]): GatePart[] {
  return verdicts.map((v) => ({
    command: v.command,
    argv: v.argv,
    level: v.level,
    reasons: v.reasons,
    pattern: v.pattern,
  }));
}

/**
 * approval.classifier's classifier, its code loaded on the first part it
 * judges: the trained weights, zod and the model clients stay unloaded in a
 * process whose checks the rules decide alone (issue 27's start-up; every
 * command the person runs makes a gate).
 */
function classifierOnFirstUse(
  config: Config,
  home: HomePaths,
  userHome: string,
): ModelClassifier {
  const which = config.approval.classifier;
  let chosen: Promise<ModelClassifier | undefined> | undefined;
  return {
    name: which,
    by: which === "coreml" ? "trained" : "model",
    async classify(input, signal) {
      chosen ??= load<typeof import("./choose.ts")>(import.meta.resolve("./choose.ts"))
        .then((m) => m.chooseClassifier(config, home, userHome));
      const classifier = await chosen;
      if (!classifier) throw new Error(`no classifier is named ${which}`);
      return await classifier.classify(input, signal);
    },
  };
}

/** The path a decision took, in one line: each part's level and why, then the outcome. */
function verdictPath(d: GateDecision): string {
  const parts = d.parts.map((p) =>
    `${p.command}: ${p.level} (${p.reasons.join("; ") || "no reason"})`
  );
  const outcome = d.allowed
    ? `allowed by ${d.approvedBy ?? "rules"}${d.scope ? ` (${d.scope})` : ""}`
    : `refused: ${d.refusal}`;
  return [d.policyRule ? `policy rule ${d.policyRule}` : "policy allows", ...parts, outcome]
    .join(" → ");
}

export class Gate {
  readonly approvals: ApprovalStore;
  readonly #env: Record<string, string>;
  readonly #userHome: string;
  readonly #scripts = wispScripts();
  /** The classifier beside the rules, chosen once: its cache lasts the session. */
  readonly #classifier: ModelClassifier | undefined;
  /** git's config files as the rules read them (git_config.ts). */
  readonly #gitConfig: GitConfigReader = {
    repositoryFrom: (dir) => {
      const gitDir = findGitDir(dir);
      return gitDir === undefined ? undefined : readRepositoryConfig(gitDir, this.#userHome);
    },
    gitDir: (dir) => readRepositoryConfig(dir, this.#userHome),
    file: (path) => readGitConfigFile(path, this.#userHome),
  };

  constructor(readonly opts: GateOptions) {
    this.approvals = opts.approvals ?? ApprovalStore.forHome(opts.home);
    this.#env = opts.env ?? readEnv();
    this.#userHome = opts.userHome ?? this.#env.HOME ?? "/";
    this.#classifier = opts.config.approval.classifier === "rules"
      ? undefined
      : opts.classifier ?? classifierOnFirstUse(opts.config, opts.home, this.#userHome);
  }

  /** A remembered approval; an unreadable approvals.json covers nothing (fail closed: ask). */
  #findRemembered(query: Parameters<ApprovalStore["find"]>[0]) {
    try {
      return this.approvals.find(query);
    } catch {
      return undefined;
    }
  }

  /** Remember an answer; when the file cannot be written it holds for this session only. */
  #remember(input: Parameters<ApprovalStore["remember"]>[0]) {
    try {
      return this.approvals.remember(input);
    } catch {
      return this.approvals.remember({
        ...input,
        scope: input.scope === "once" ? "once" : "session",
      });
    }
  }

  /** A turn ended: its once approvals stop covering anything. */
  endTurn(turnId: string): void {
    this.approvals.endTurn(turnId);
  }

  /** Parse, policy and rules only: what the line is, without asking or auditing. */
  async assess(
    line: string,
    ctx: Pick<GateContext, "cwd" | "origin" | "outsideSandbox">,
  ): Promise<{ analysis: Analysis; policy: PolicyDecision; parts: PartVerdict[]; level: Level }> {
    // Plain lines are read without tree-sitter; when any parse in the analysis (the line, a
    // payload, a hook) needs it, it is loaded and the whole analysis runs again (parse.ts).
    return await withShellParser(() => {
      // The policy follows links along the longest existing prefix (a write may create the file);
      // the rules only need where an existing file leads (a missing one cannot be read).
      const lookup = new PathLookup();
      const realPath = (p: string) => lookup.realPrefix(p);
      const existing = (p: string) => lookup.realExisting(p);
      const analysis = analyse(parseLine(line), {
        cwd: ctx.cwd,
        userHome: this.#userHome,
        env: this.#env,
      });
      const policy = evaluatePolicy(analysis, this.opts.config.commandPolicy, this.opts.home, {
        origin: ctx.origin,
        outsideSandbox: ctx.outsideSandbox,
        realPath,
        wispScripts: this.#scripts,
      });
      const c = classify(analysis, { realPath: existing, gitConfig: this.#gitConfig });
      return { analysis, policy, parts: c.parts, level: c.level };
    });
  }

  /**
   * Load the full shell parser in the background, for a long-lived process
   * that has finished its own start: a later line the quick reader declines
   * then finds it ready. A failure is reported by the check that needs it.
   */
  warmShellParser(): void {
    initShellParser().catch(() => {});
  }

  /** Decide whether `line` may run: the policy, the classifiers, then approval (see #decide). */
  async check(line: string, ctx: GateContext): Promise<GateDecision> {
    if (!enabled("debug")) return await this.#decide(line, ctx);
    const shown = await masked(JSON.stringify(line));
    const decision = await timed(`gate ${shown}`, () => this.#decide(line, ctx));
    log("debug", `gate ${shown}: ${await masked(verdictPath(decision))}`);
    return decision;
  }

  /**
   * The steps of a check, in order: assess and audit the policy; a refusal by
   * policy ends it; a line the person typed is approved by typing it; the
   * classifiers' verdicts, audited; outside the sandbox a person is asked;
   * otherwise each part at or above the threshold needs an approval.
   */
  async #decide(line: string, ctx: GateContext): Promise<GateDecision> {
    const { policy, parts: ruleParts, level: rulesLevel } = await this.assess(line, ctx);
    await this.#recordPolicy(line, ctx, policy);
    if (!policy.allowed) {
      return {
        allowed: false,
        refusal: `error: command denied by policy: ${policy.reason}`,
        level: rulesLevel,
        parts: toParts(ruleParts),
        policyRule: policy.rule,
      };
    }
    // Typing it (a `!` command, `wisp sandbox -- …`) is the approval: not classified, never asked.
    if (ctx.origin === "person" || ctx.origin === "sandbox") return typedByPerson(ruleParts);

    const parts = await this.#classifyParts(line, ctx, ruleParts);
    const level = parts.reduce<Level>((highest, p) => maxLevel(highest, p.level), "safe");
    const gateParts = toParts(parts);
    if (ctx.outsideSandbox === true) {
      return await this.#askOutside(line, ctx, parts, level, gateParts);
    }
    if (ctx.modelAction) {
      return await this.#askModelAction(line, ctx, ctx.modelAction, level, gateParts);
    }
    const needs = partsNeedingApproval(parts, this.opts.config.approval.threshold);
    if (needs.length === 0) return { allowed: true, level, parts: gateParts, approvedBy: "rules" };
    return await this.#approveParts(line, ctx, needs, level, gateParts);
  }

  /** The policy's verdict on the line, audited once. */
  async #recordPolicy(line: string, ctx: GateContext, policy: PolicyDecision): Promise<void> {
    // Decided once per process, never from a command's output (platform/index.ts).
    const nested = (await nestedSandboxProbe()).state === "nested";
    this.opts.audit.record("policy.decision", {
      command: line,
      decision: policy.allowed ? "allow" : "deny",
      ...(policy.reason ? { reason: policy.reason } : {}),
      ...(policy.rule ? { rule: policy.rule } : {}),
      origin: ctx.origin,
      outsideSandbox: ctx.outsideSandbox === true,
      cwd: ctx.cwd,
      ...(nested ? { nested: true } : {}),
    });
  }

  /**
   * Each part's verdict with the model classifier beside the rules (it may
   * only raise the rules' level; read-only parts skip it), each audited.
   */
  async #classifyParts(
    line: string,
    ctx: GateContext,
    ruleParts: PartVerdict[],
  ): Promise<ClassifiedPart[]> {
    const parts: ClassifiedPart[] = this.#classifier
      ? await applyModelClassifier(this.#classifier, ruleParts, {
        line,
        cwd: ctx.cwd,
        root: ctx.root,
        signal: ctx.signal,
      })
      : ruleParts.map((p) => ({ ...p, classifier: "rules", seconds: 0, by: "rules" as const }));
    for (const p of parts) {
      this.opts.audit.record("classifier.verdict", {
        command: p.command,
        level: p.level,
        classifier: p.classifier,
        reasons: p.reasons,
        line,
        pattern: p.pattern,
        readOnly: p.readOnly,
        seconds: p.seconds,
        by: p.by,
        ...(p.failed ? { failed: true } : {}),
        ...(p.cached ? { cached: true } : {}),
        ...(p.source ? { source: p.source } : {}),
      });
    }
    return parts;
  }

  /**
   * An approval for each part that needs one, in order: the first refusal
   * refuses the line. Parts the person would see alike are asked about once.
   */
  async #approveParts(
    line: string,
    ctx: GateContext,
    needs: ClassifiedPart[],
    level: Level,
    gateParts: GatePart[],
  ): Promise<GateDecision> {
    let approvedBy: GateDecision["approvedBy"] = "remembered";
    let scope: ApprovalAnswer | undefined;
    const seen = new Set<string>();
    for (const part of needs) {
      const features = this.#featuresOf(part, ctx);
      const key = `${part.pattern}\u0000${part.level}\u0000${features.join(" ")}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const outcome = await this.#approvePart(line, ctx, part, features);
      if ("refusal" in outcome) {
        return { allowed: false, refusal: outcome.refusal, level, parts: gateParts };
      }
      if (outcome.by === "yes") approvedBy = "yes";
      if (outcome.by === "person") {
        approvedBy = approvedBy === "yes" ? "yes" : "person";
        scope = outcome.scope;
      }
    }
    return { allowed: true, level, parts: gateParts, approvedBy, ...(scope ? { scope } : {}) };
  }

  /** What the person would see in this part beyond its pattern: an answer covers no more. */
  #featuresOf(part: ClassifiedPart, ctx: GateContext): string[] {
    return [
      ...new Set([
        ...partFeatures(part.part, { root: ctx.root, userHome: this.#userHome }),
        ...(part.ruleFeatures ?? []),
      ]),
    ].sort();
  }

  /**
   * One part's approval: a remembered one, --yes, or the person's answer
   * (remembered in the scope given); with no one to ask, a refusal. Audited.
   */
  async #approvePart(
    line: string,
    ctx: GateContext,
    part: ClassifiedPart,
    features: string[],
  ): Promise<PartApproval> {
    const audit = this.opts.audit;
    const remembered = this.#findRemembered({
      pattern: part.pattern,
      level: part.level,
      root: ctx.root,
      cwd: ctx.cwd,
      turnId: ctx.turnId,
      features,
    });
    if (remembered) {
      audit.record("approval.decided", {
        command: part.command,
        decision: "approved",
        scope: remembered.scope,
        pattern: part.pattern,
        level: part.level,
        by: "remembered",
        approvalId: remembered.id,
        line,
      });
      return { by: "remembered" };
    }
    if (ctx.yes) {
      audit.record("approval.decided", {
        command: part.command,
        decision: "approved",
        scope: "once",
        pattern: part.pattern,
        level: part.level,
        by: "yes",
        line,
      });
      return { by: "yes" };
    }
    if (!ctx.host) {
      const reason = `${part.command} is ${part.level} (${
        part.reasons[0] ?? "needs approval"
      }), and no one can be asked here`;
      audit.record("approval.decided", {
        command: part.command,
        decision: "refused",
        pattern: part.pattern,
        level: part.level,
        by: "no-host",
        reason,
        line,
      });
      return { refusal: `error: command not approved: ${reason}` };
    }
    const rememberable = rememberableFor(part.level);
    const request: ApprovalRequest = {
      id: newRequestId(),
      line,
      command: part.command,
      level: part.level,
      reasons: part.reasons,
      cwd: ctx.cwd,
      pattern: part.pattern,
      outsideSandbox: false,
      rememberable,
    };
    const answer = await this.#ask(request, ctx);
    if (answer.answer === "no") return { refusal: `error: command not approved: ${answer.why}` };
    const given = rememberable.includes(answer.answer) ? answer.answer : "session";
    const source = ctx.host.sourceOf?.(request.id);
    const approval = this.#remember({
      scope: given,
      pattern: part.pattern,
      level: part.level,
      root: ctx.root,
      turnId: ctx.turnId,
      features,
      ...(source ? { source } : {}),
    });
    audit.record("approval.decided", {
      command: part.command,
      decision: "approved",
      scope: approval.scope,
      pattern: part.pattern,
      level: part.level,
      by: "person",
      requestId: request.id,
      approvalId: approval.id,
      line,
    });
    return { by: "person", scope: approval.scope };
  }

  /**
   * A command outside the sandbox: asked of a person every time, once or
   * no, at least moderate, never covered by a remembered answer, the
   * threshold or --yes.
   */
  #askOutside(
    line: string,
    ctx: GateContext,
    parts: PartVerdict[],
    level: Level,
    gateParts: GatePart[],
  ): Promise<GateDecision> {
    return this.#askEveryTime(line, ctx, level, gateParts, {
      reasons: [
        OUTSIDE_REASON,
        ...new Set(parts.filter((p) => p.level !== "safe").flatMap((p) => p.reasons)),
      ],
      noHost:
        "running outside the sandbox is asked of a person every time, and no one can be asked here; run it in the sandbox, or ask the person to type it after !!",
      refused: "error: command not approved",
      outsideSandbox: true,
    });
  }

  /**
   * A model action: asked of a person every time (once or no), at least
   * moderate, never covered by a remembered answer, the threshold or --yes.
   */
  #askModelAction(
    line: string,
    ctx: GateContext,
    action: ModelAction,
    level: Level,
    gateParts: GatePart[],
  ): Promise<GateDecision> {
    return this.#askEveryTime(line, ctx, level, gateParts, {
      reasons: [action.reason, ...action.details],
      noHost:
        `${line} ${action.reason}, which only a person may approve, and no one can be asked here`,
      refused: "error: not approved",
      outsideSandbox: false,
      kind: "modelAction",
      modelAction: action,
    });
  }

  /**
   * The one way to ask what a person approves each time (a command outside
   * the sandbox, a model action): at least moderate, answered once or no,
   * refused when no one can be asked, nothing remembered. A model action's
   * decision names its request, whose id is the approval of what it changes.
   */
  async #askEveryTime(
    line: string,
    ctx: GateContext,
    level: Level,
    gateParts: GatePart[],
    ask: {
      reasons: string[];
      /** The refusal's reason when no one can be asked. */
      noHost: string;
      /** How a refusal begins. */
      refused: string;
      outsideSandbox: boolean;
      kind?: "modelAction";
      modelAction?: ModelAction;
    },
  ): Promise<GateDecision> {
    const askedLevel = maxLevel(level, "moderate");
    const outside = ask.outsideSandbox ? { outsideSandbox: true } : {};
    if (!ctx.host) {
      this.opts.audit.record("approval.decided", {
        command: line,
        decision: "refused",
        level: askedLevel,
        by: "no-host",
        reason: ask.noHost,
        ...outside,
        line,
      });
      return {
        allowed: false,
        refusal: `${ask.refused}: ${ask.noHost}`,
        level: askedLevel,
        parts: gateParts,
      };
    }
    const request: ApprovalRequest = {
      id: newRequestId(),
      line,
      command: line,
      level: askedLevel,
      reasons: ask.reasons,
      cwd: ctx.cwd,
      pattern: line,
      outsideSandbox: ask.outsideSandbox,
      rememberable: ["once", "no"],
      ...(ask.kind ? { kind: ask.kind } : {}),
      ...(ask.modelAction ? { modelAction: ask.modelAction } : {}),
    };
    const named = ask.kind ? { requestId: request.id } : {};
    const answer = await this.#ask(request, ctx);
    if (answer.answer === "no") {
      return {
        allowed: false,
        refusal: `${ask.refused}: ${answer.why}`,
        level: askedLevel,
        parts: gateParts,
        ...named,
      };
    }
    // Approved once or not at all: nothing is remembered.
    this.opts.audit.record("approval.decided", {
      command: line,
      decision: "approved",
      scope: "once",
      pattern: line,
      level: askedLevel,
      by: "person",
      requestId: request.id,
      ...(ask.kind ? { approvalId: request.id } : {}),
      ...outside,
      line,
      ...(ask.outsideSandbox && answer.answer !== "once"
        ? { note: `${answer.answer} is taken as once outside the sandbox` }
        : {}),
    });
    return {
      allowed: true,
      level: askedLevel,
      parts: gateParts,
      approvedBy: "person",
      scope: "once",
      ...named,
    };
  }

  /** Ask through the host, bounded by approval.timeoutSeconds; silence is no. */
  async #ask(
    request: ApprovalRequest,
    ctx: GateContext,
  ): Promise<{ answer: ApprovalAnswer; why: string }> {
    const audit = this.opts.audit;
    audit.record("approval.requested", {
      command: request.command,
      level: request.level,
      line: request.line,
      cwd: request.cwd,
      pattern: request.pattern,
      reasons: request.reasons,
      outsideSandbox: request.outsideSandbox,
      requestId: request.id,
      rememberable: request.rememberable,
    });
    const seconds = this.opts.config.approval.timeoutSeconds;
    const controller = new AbortController();
    const onOuterAbort = () => controller.abort(ctx.signal?.reason);
    ctx.signal?.addEventListener("abort", onOuterAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), seconds * 1000);
    });
    const aborted = new Promise<"aborted">((resolve) => {
      if (ctx.signal?.aborted) resolve("aborted");
      ctx.signal?.addEventListener("abort", () => resolve("aborted"), { once: true });
    });
    let result: ApprovalAnswer | HostRefusal | "timeout" | "aborted" | "error";
    try {
      result = await Promise.race([
        ctx.host!.approve(request, controller.signal).catch(() => "error" as const),
        timeout,
        aborted,
      ]);
    } finally {
      clearTimeout(timer);
      ctx.signal?.removeEventListener("abort", onOuterAbort);
      controller.abort();
    }
    const valid: ApprovalAnswer[] = ["once", "session", "project", "always", "no"];
    let answer: ApprovalAnswer;
    let why: string;
    let by: string;
    if (result === "timeout") {
      answer = "no";
      why = `no answer within ${seconds} s (approval.timeoutSeconds) for ${request.command}`;
      by = "timeout";
    } else if (result === "aborted") {
      answer = "no";
      why = `the turn was stopped while ${request.command} waited for an answer`;
      by = "aborted";
    } else if (typeof result === "object" && result.answer === "no") {
      answer = "no";
      why = `${result.why} for ${request.command}`;
      by = result.by;
    } else if (result === "error" || typeof result === "object" || !valid.includes(result)) {
      answer = "no";
      why = `the question about ${request.command} could not be answered`;
      by = "error";
    } else {
      answer = result;
      why = answer === "no" ? `the person refused ${request.command}` : "";
      by = "person";
    }
    if (answer === "no") {
      audit.record("approval.decided", {
        command: request.command,
        decision: "refused",
        pattern: request.pattern,
        level: request.level,
        by,
        requestId: request.id,
        outsideSandbox: request.outsideSandbox,
        line: request.line,
        reason: why,
      });
    }
    return { answer, why };
  }
}

/** How one part that needed an approval came out (Gate's #approvePart). */
type PartApproval =
  | { by: "remembered" | "yes" }
  | { by: "person"; scope: ApprovalAnswer }
  | { refusal: string };

/** A line the person typed: every part safe, approved by the typing. Pure. */
function typedByPerson(ruleParts: PartVerdict[]): GateDecision {
  return {
    allowed: true,
    level: "safe",
    parts: ruleParts.map((p) => ({
      command: p.command,
      argv: p.argv,
      level: "safe",
      reasons: ["typed by the person"],
      pattern: p.pattern,
    })),
    approvedBy: "person-typed",
  };
}

/** The parts at or above the approval threshold (none when it is never). Pure. */
function partsNeedingApproval(
  parts: ClassifiedPart[],
  threshold: Level | "never",
): ClassifiedPart[] {
  if (threshold === "never") return [];
  return parts.filter((p) => LEVEL_RANK[p.level] >= LEVEL_RANK[threshold]);
}

/** The scopes an answer about a part of this level may be remembered in. Pure. */
function rememberableFor(level: Level): ApprovalAnswer[] {
  return level === "dangerous"
    ? ["once", "session", "no"]
    : ["once", "session", "project", "always", "no"];
}

function newRequestId(): string {
  return randomHex(4);
}

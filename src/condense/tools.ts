/**
 * The condensing tools' contracts for the MCP face (and any other caller):
 * each a zod schema for its arguments and a function returning the text a
 * caller reads and the structured result. Inputs are bounded; a path is read
 * as read_file reads it (relative to the working directory); a command runs
 * through the gate and the runner (run_command.ts). Errors a caller can fix
 * are ToolInputError with one sentence.
 */
import type { z } from "zod";
import {
  condenseLogInput,
  dependencyAuditInput,
  draftChangeInput,
  flakyTestsInput,
  hotPathsInput,
  jsonShapeInput,
  summariseDiffInput,
} from "./schemas.ts";
import type {
  condenseLogOutput,
  dependencyAuditOutput,
  draftChangeOutput,
  flakyTestsOutput,
  hotPathsOutput,
  jsonShapeOutput,
  logGroupOutput,
  summariseDiffOutput,
} from "./schemas.ts";
import { isAbsolute, resolve } from "node:path";
import type { Backend } from "../models/backend.ts";
import type { AuditSink } from "../audit/writer.ts";
import { summariseDiff } from "./diff.ts";
import { jsonShape } from "./json_shape.ts";
import { auditLockfile, LOCKFILE_NAMES, LockfileError, renderAudits } from "./lockfiles.ts";
import { condenseLog, gapNote, systemLogCommand, type Template } from "./log.ts";
import { CHURN_LOG_ARGS, hotPaths } from "./churn.ts";
import { parseProfile, type ProfiledFunction, ProfileError, renderProfile } from "./profile.ts";
import { compareRuns } from "./flaky.ts";
import { draftMessages, exactDraft, finishDraft, inGitRepository } from "./draft.ts";
import { type HeldBack, readFileBounded, readLogWindow } from "./input.ts";
import { messageOf, WispError } from "../util/errors.ts";
import { readWholeInput, ToolInputError } from "../util/tool_input.ts";
import { runCaptured, runRepeatedly, type TriageRunOptions } from "./run_command.ts";

export { ToolInputError };

export interface ToolOutput {
  text: string;
  structured: Record<string, unknown>;
}

/** What a tool that runs a command needs (the session's gate, approval host, audit). */
export type RunContext = Omit<TriageRunOptions, "cwd">;

export interface CondenseContext {
  cwd?: string;
  run?: RunContext;
  /** A model, for draft_change; absent: its exact fallback. */
  model?: Backend;
  /** Where draft_change records its model turn (prompt, response); default: run's audit. */
  audit?: AuditSink;
}

/** Lockfiles, JSON documents and diffs may be larger than a log's window; they cannot be cut. */
const WHOLE_LIMIT = 16 * 1024 * 1024;

function where(path: string, cwd?: string): string {
  return isAbsolute(path) ? path : resolve(cwd ?? Deno.cwd(), path);
}

async function readInput(
  args: { text?: string; path?: string },
  cwd: string | undefined,
  whole = false,
): Promise<string> {
  const hasText = typeof args.text === "string";
  const hasPath = typeof args.path === "string" && args.path !== "";
  if (hasText === hasPath) {
    throw new ToolInputError("give either text or path, not both and not neither");
  }
  if (hasText) return args.text!;
  const path = where(args.path!, cwd);
  if (whole) return new TextDecoder().decode(readWholeInput(path, WHOLE_LIMIT, args.path!));
  return (await readFileBounded(path, undefined, args.path!)).text;
}

/** A log file read to its bounded window (start and end, the middle counted and named). */
async function readLogFile(given: string, cwd: string | undefined) {
  if (given === "") throw new ToolInputError("give either text or path, not both and not neither");
  return await readLogWindow(where(given, cwd), undefined, undefined, given);
}

function needRun(ctx: CondenseContext): RunContext {
  if (!ctx.run) throw new ToolInputError("this needs to run a command, and no gate is set up here");
  return ctx.run;
}

// ---------- summarise_diff

export async function summariseDiffTool(
  args: z.input<typeof summariseDiffInput>,
  ctx: CondenseContext = {},
): Promise<ToolOutput> {
  const a = summariseDiffInput.parse(args);
  const summary = summariseDiff(await readInput(a, ctx.cwd, true), { maxLines: a.max_files });
  if (summary.files.length === 0) {
    throw new ToolInputError("that is not a diff: no file headers or hunks in it");
  }
  const shown = a.max_files ?? 40;
  return {
    text: summary.text,
    structured: {
      files: summary.files.slice(0, shown),
      totals: summary.totals,
      heldBack: Math.max(0, summary.files.length - shown),
    } satisfies z.output<typeof summariseDiffOutput>,
  };
}

// ---------- json_shape

export async function jsonShapeTool(
  args: z.input<typeof jsonShapeInput>,
  ctx: CondenseContext = {},
): Promise<ToolOutput> {
  const a = jsonShapeInput.parse(args);
  const text = await readInput(a, ctx.cwd, true);
  try {
    const r = jsonShape(text, { maxDepth: a.max_depth, maxKeys: a.max_keys });
    return {
      text: r.text,
      structured: {
        kind: r.kind,
        ...(r.records !== undefined ? { records: r.records } : {}),
        outline: r.text,
      } satisfies z.output<typeof jsonShapeOutput>,
    };
  } catch (error) {
    throw new ToolInputError((error as Error).message);
  }
}

// ---------- dependency_audit

export async function dependencyAuditTool(
  args: z.input<typeof dependencyAuditInput>,
  ctx: CondenseContext = {},
): Promise<ToolOutput> {
  const a = dependencyAuditInput.parse(args);
  const cwd = ctx.cwd ?? Deno.cwd();
  let paths = a.paths;
  if (!paths || paths.length === 0) {
    paths = LOCKFILE_NAMES.filter((name) => {
      try {
        return Deno.statSync(resolve(cwd, name)).isFile;
      } catch {
        return false;
      }
    });
    if (paths.length === 0) {
      throw new ToolInputError(`no lockfile in ${cwd} (looked for ${LOCKFILE_NAMES.join(", ")})`);
    }
  }
  const audits = [];
  for (const p of paths) {
    const text = await readInput({ path: p }, cwd, true);
    try {
      audits.push(auditLockfile(p, text));
    } catch (error) {
      if (error instanceof LockfileError) throw new ToolInputError(error.message);
      throw error;
    }
  }
  return {
    text: renderAudits(audits, { maxItems: a.max_items }),
    structured: {
      lockfiles: audits.map((x) => ({
        path: x.path,
        format: x.format,
        ecosystem: x.ecosystem,
        packages: x.packages.length,
        duplicates: x.duplicates,
        marked: x.packages.filter((p) => p.marks.length > 0).slice(0, 200),
      })),
    } satisfies z.output<typeof dependencyAuditOutput>,
  };
}

// ---------- condense_log

/** A template as condense_log's structured result lists it. */
function logGroup(t: Template): z.output<typeof logGroupOutput> {
  return {
    line: t.firstLine,
    ...(t.severity ? { severity: t.severity } : {}),
    count: t.count,
    template: t.template,
    example: t.example,
  };
}

export async function condenseLogTool(
  args: z.input<typeof condenseLogInput>,
  ctx: CondenseContext = {},
): Promise<ToolOutput> {
  const a = condenseLogInput.parse(args);
  let text: string;
  let heldBack: HeldBack | undefined;
  if (a.last !== undefined) {
    if (a.text !== undefined || a.path !== undefined) {
      throw new ToolInputError("give one of text, path or last");
    }
    let line: string;
    try {
      line = systemLogCommand(a.last);
    } catch (error) {
      throw new ToolInputError((error as Error).message);
    }
    const ran = await runCaptured(line, "triage", { ...needRun(ctx), cwd: ctx.cwd });
    if (ran.exitStatus !== 0) {
      throw new ToolInputError(
        `reading the system log failed (exit ${ran.exitStatus}): ${
          ran.text.trim().split("\n")[0] ?? ""
        }`,
      );
    }
    text = ran.text;
    if (ran.droppedBytes > 0) {
      // The runner keeps the journal's start and end; the lines between are estimated from those read.
      const read = Math.max(1, ran.bytes - ran.droppedBytes);
      const breaks = text.split("\n").length - 1;
      heldBack = {
        bytes: ran.droppedBytes,
        lines: Math.round(breaks * (ran.droppedBytes / read)),
        exact: false,
      };
    }
  } else if (a.text !== undefined) text = await readInput(a, ctx.cwd);
  else {
    const window = await readLogFile(a.path ?? "", ctx.cwd);
    text = window.text;
    heldBack = window.heldBack;
  }
  const r = condenseLog(text, { top: a.top, heldBack });
  return {
    text: r.text,
    structured: {
      lines: r.lines,
      severities: r.severities,
      distinct: r.templates.length,
      ...(r.span ? { span: r.span } : {}),
      severe: r.severe.map(logGroup),
      rare: r.rare.map(logGroup),
      ...(r.ends ? { first: r.ends.first, last: r.ends.last } : {}),
      ...(heldBack ? { heldBack, note: gapNote(heldBack) } : {}),
    } satisfies z.output<typeof condenseLogOutput>,
  };
}

// ---------- hot_paths

/** hot_paths from a profile file: the hottest functions by self and by total time, with file:line. */
async function hotPathsFromProfile(
  a: z.output<typeof hotPathsInput>,
  ctx: CondenseContext,
): Promise<ToolOutput> {
  if (a.since !== undefined) {
    throw new ToolInputError("since is for git churn; a profile is read whole, give path alone");
  }
  const text = await readInput({ path: a.path }, ctx.cwd, true);
  let profile;
  try {
    profile = parseProfile(text);
  } catch (error) {
    if (error instanceof ProfileError) throw new ToolInputError(`${a.path}: ${error.message}`);
    throw error;
  }
  const top = a.top ?? 15;
  const r = renderProfile(profile, top);
  const round = (f: ProfiledFunction) => ({
    ...f,
    selfMs: Math.round(f.selfMs * 1000) / 1000,
    totalMs: Math.round(f.totalMs * 1000) / 1000,
  });
  return {
    text: r.text,
    structured: {
      source: "profile",
      format: profile.format,
      totalMs: Math.round(profile.totalMs * 1000) / 1000,
      ...(profile.samples !== undefined ? { samples: profile.samples } : {}),
      functions: profile.functions.length,
      bySelf: r.hottest.bySelf.map(round),
      byTotal: r.hottest.byTotal.map(round),
    } satisfies z.output<typeof hotPathsOutput>,
  };
}

export async function hotPathsTool(
  args: z.input<typeof hotPathsInput>,
  ctx: CondenseContext = {},
): Promise<ToolOutput> {
  const a = hotPathsInput.parse(args);
  if (a.path !== undefined && a.path !== "") return await hotPathsFromProfile(a, ctx);
  const words = ["git", ...CHURN_LOG_ARGS, ...(a.since ? [`--since=${a.since}`] : [])];
  const line = words.map((w) => /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)
    .join(" ");
  const ran = await runCaptured(line, "triage", { ...needRun(ctx), cwd: ctx.cwd });
  if (ran.exitStatus !== 0) {
    throw new ToolInputError(
      `git log failed (exit ${ran.exitStatus}): ${ran.text.trim().split("\n")[0] ?? ""}`,
    );
  }
  const r = hotPaths(ran.text, { top: a.top });
  // A history longer than the capture keeps its newest and oldest commits; say what was not read.
  const note = ran.droppedBytes > 0
    ? `git log printed ${ran.bytes} bytes; ${ran.droppedBytes} in the middle were not read: narrow it with since`
    : undefined;
  return {
    text: r.text + (note ? `\n(${note})` : ""),
    structured: {
      source: "git",
      commits: r.commits,
      paths: r.paths.slice(0, a.top ?? 15),
      ...(note ? { droppedBytes: ran.droppedBytes, note } : {}),
    } satisfies z.output<typeof hotPathsOutput>,
  };
}

// ---------- flaky_tests

export async function flakyTestsTool(
  args: z.input<typeof flakyTestsInput>,
  ctx: CondenseContext = {},
): Promise<ToolOutput> {
  const a = flakyTestsInput.parse(args);
  const runs = await runRepeatedly(a.command, a.times ?? 5, { ...needRun(ctx), cwd: ctx.cwd });
  const r = compareRuns(runs);
  return {
    text: r.text,
    structured: {
      runs: r.runs,
      exitStatuses: r.exitStatuses,
      flaky: r.flaky,
      failing: r.failing,
      unexplainedRuns: r.unexplainedRuns,
    } satisfies z.output<typeof flakyTestsOutput>,
  };
}

// ---------- draft_change

/** Why a draft could not be made, so a face can say it in its own words (the CLI says "pipe"). */
export type DraftProblem = "empty" | "not-diff" | "too-big" | "silent-model" | "not-repo";

export class DraftInputError extends ToolInputError {
  constructor(readonly problem: DraftProblem, message: string) {
    super(message);
  }
}

/**
 * The one implementation of draft_change, for the MCP tool and `wisp draft`:
 * the diff given (text or path), else the staged change through the gate;
 * the model's one tool-less turn (audited as prompt and response), finished
 * to the contract; without a model, the plain draft from the summary.
 */
export async function draftChangeTool(
  args: z.input<typeof draftChangeInput>,
  ctx: CondenseContext = {},
): Promise<ToolOutput> {
  const a = draftChangeInput.parse(args);
  const diff = a.text === undefined && (a.path === undefined || a.path === "")
    ? await stagedDiff(ctx)
    : await readInput(a, ctx.cwd, true);
  if (diff.trim() === "") {
    throw new DraftInputError(
      "empty",
      "the diff is empty; stage a change with git add, or give a diff",
    );
  }
  const summary = summariseDiff(diff);
  if (summary.files.length === 0) {
    throw new DraftInputError("not-diff", "that is not a diff, or it is empty");
  }
  const kind = a.kind ?? "commit";
  if (!ctx.model) {
    const draft = exactDraft(kind, summary);
    return {
      text: draft,
      structured: {
        draft,
        kind,
        model: null,
        note: "no model configured: a plain draft from the diff's summary",
      } satisfies z.output<typeof draftChangeOutput>,
    };
  }
  const messages = draftMessages(kind, diff, summary);
  const audit = ctx.audit ?? ctx.run?.audit;
  audit?.record("prompt", {
    text: messages[messages.length - 1].content,
    model: ctx.model.name,
    tool: "draft_change",
  });
  let written = "";
  try {
    for await (const event of ctx.model.chat({ messages, think: false, signal: ctx.run?.signal })) {
      if (event.type === "text") written += event.text;
    }
  } catch (error) {
    throw new WispError(`${ctx.model.name} could not write the draft: ${messageOf(error)}`);
  }
  audit?.record("response", { text: written, model: ctx.model.name, tool: "draft_change" });
  if (written.trim() === "") {
    throw new DraftInputError("silent-model", `${ctx.model.name} wrote nothing`);
  }
  const draft = finishDraft(kind, written);
  return {
    text: draft,
    structured: { draft, kind, model: ctx.model.name } satisfies z.output<typeof draftChangeOutput>,
  };
}

/** The staged change, by `git diff --cached` through the gate and the runner (origin draft). */
async function stagedDiff(ctx: CondenseContext): Promise<string> {
  const ran = await runCaptured("git diff --cached", "draft", { ...needRun(ctx), cwd: ctx.cwd });
  if (ran.exitStatus !== 0 && !inGitRepository(ctx.cwd ?? Deno.cwd())) {
    throw new DraftInputError(
      "not-repo",
      `${
        ctx.cwd ?? Deno.cwd()
      } is not in a git repository, so there is no staged change; give the diff as text or a path`,
    );
  }
  if (ran.exitStatus !== 0) {
    throw new ToolInputError(
      `git diff --cached failed (exit ${ran.exitStatus}): ${ran.text.trim().split("\n")[0] ?? ""}`,
    );
  }
  if (ran.droppedBytes > 0) {
    throw new DraftInputError(
      "too-big",
      `the staged change is ${ran.bytes} bytes, more than is read from a command; write it to a file (git diff --cached > change.diff) and give its path`,
    );
  }
  return ran.text;
}

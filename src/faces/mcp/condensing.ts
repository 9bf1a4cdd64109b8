/**
 * The ten condensing tools as MCP tools: registration glue only. Each tool's
 * work is the one implementation in src/condense/tools.ts (summarise_diff,
 * json_shape, dependency_audit, condense_log, hot_paths, flaky_tests,
 * draft_change), src/condense/service.ts (triage) and src/secrets/tools.ts
 * (scan_secrets, redact). What this file adds is what only the server knows:
 * its name and description for tools/list, a `working_directory` beside each
 * tool's own arguments, the server's gate, runner options and approval host
 * for the commands the tools run, the configured model for draft_change, and
 * triage's audit session of its own.
 */
import { isAbsolute, resolve } from "node:path";
import { z } from "zod";
import { AuditLog, newSessionId } from "../../audit/writer.ts";
import type { Gate } from "../../gate/gate.ts";
import { WispError } from "../../util/errors.ts";
import type { CondenseContext, RunContext, ToolOutput } from "../../condense/tools.ts";
import {
  condenseLogInput,
  condenseLogOutput,
  dependencyAuditInput,
  dependencyAuditOutput,
  draftChangeInput,
  draftChangeOutput,
  flakyTestsInput,
  flakyTestsOutput,
  hotPathsInput,
  hotPathsOutput,
  jsonShapeInput,
  jsonShapeOutput,
  summariseDiffInput,
  summariseDiffOutput,
} from "../../condense/schemas.ts";
import {
  redactInput,
  redactOutput,
  scanSecretsInput,
  scanSecretsOutput,
} from "../../secrets/schemas.ts";
import { ToolInputError } from "../../util/tool_input.ts";
import { load } from "../../util/lazy.ts";
import { type OffloadedTool, ToolThread } from "../../condense/offload.ts";
import type { Backend } from "../../models/backend.ts";
import type { Scanned } from "../../condense/scan.ts";
import type { Session } from "../../session/session.ts";

/** What a served tool runs with: the server's session, where to start, the call's signal. */
export interface CallEnv {
  session: Session;
  /** The working directory: the call's working_directory, else where the server started. */
  cwd: string;
  signal?: AbortSignal;
}

export interface CondensingTool {
  name: string;
  description: string;
  /** The tool's own arguments with working_directory: what tools/list shows and calls are checked against. */
  schema: z.ZodObject;
  /** What its structuredContent holds (tools/list's outputSchema): everything its text says. */
  output: z.ZodType;
  /** What a client may assume about it (ADR 0341). */
  annotations: ToolAnnotations;
  run(args: Record<string, unknown>, env: CallEnv): Promise<ToolOutput>;
}

/**
 * MCP tool annotations, every hint given (none left to the spec's defaults).
 * Clients act on them: Codex runs a read-only tool without asking.
 */
export interface ToolAnnotations {
  title: string;
  /** It changes nothing outside wisp's own audit and output store. */
  readOnlyHint: boolean;
  /** Not read-only: it may change or delete what is there. */
  destructiveHint: boolean;
  /** The same call again has no further effect. */
  idempotentHint: boolean;
  /** It may reach beyond this machine's files (a command that may use the network). */
  openWorldHint: boolean;
}

/** A tool that only reads (files, or git log and the journal through the gate) and computes. */
function reads(title: string): ToolAnnotations {
  return {
    title,
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  };
}

/**
 * A tool that runs a command the caller names: under the gate, the person's
 * approval and the sandbox, but the command may write, and may reach the
 * network where the config or an approval allows it.
 */
function runsCommands(title: string): ToolAnnotations {
  return {
    title,
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  };
}

const workingDirectory = {
  working_directory: z.string().optional().describe(
    "where relative paths and commands start (default: where the server was started)",
  ),
};

function served(schema: z.ZodObject): z.ZodObject {
  return schema.extend(workingDirectory).strict();
}

/** The options a command run by a condensing tool needs: the server's gate, approval host, audit. */
function runContext(session: Session, signal?: AbortSignal): RunContext {
  return {
    config: session.config,
    paths: session.paths,
    audit: session.audit,
    gate: session.gate,
    root: session.root,
    ...(session.host ? { host: session.host } : {}),
    ...(session.yes ? { yes: true } : {}),
    ...(signal ? { signal } : {}),
  };
}

function condenseContext(env: CallEnv, extra: Partial<CondenseContext> = {}): CondenseContext {
  return { cwd: env.cwd, run: runContext(env.session, env.signal), ...extra };
}

/** The thread the tools that only read and compute run on, so the server keeps answering meanwhile. */
let toolThread: ToolThread | undefined;

/** Run a tool that runs no command on the tool thread (src/condense/offload.ts). */
function offloaded(tool: OffloadedTool, args: Record<string, unknown>, env: CallEnv) {
  toolThread ??= new ToolThread();
  return toolThread.run(tool, args, env.cwd, env.signal);
}

/** The files a call names (`path`, `paths`). */
function namedFiles(args: Record<string, unknown>): string[] {
  const named = typeof args.path === "string" && args.path !== "" ? [args.path] : [];
  return Array.isArray(args.paths) ? [...named, ...args.paths.map(String)] : named;
}

/**
 * Reading a file clears the gate as read_file does (the specification's ADR 0023): each named
 * file is judged as `cat '<path>'`, so a credential path asks the person (or
 * is refused where nobody can answer) before any tool reads it. A file that
 * does not exist is left to the tool, which says so.
 */
export async function gateReads(
  args: Record<string, unknown>,
  env: CallEnv,
  gate: Gate = env.session.gate,
): Promise<void> {
  const { session } = env;
  for (const given of namedFiles(args)) {
    const absolute = isAbsolute(given) ? given : resolve(env.cwd, given);
    let realPath: string | null;
    try {
      realPath = Deno.realPathSync(absolute);
    } catch {
      continue;
    }
    const { readApprovalLine } = await load<typeof import("../../tools/read_file.ts")>(
      import.meta.resolve("../../tools/read_file.ts"),
    );
    const verdict = await gate.check(readApprovalLine(given, realPath, absolute), {
      cwd: env.cwd,
      root: session.root,
      origin: "triage",
      ...(session.host ? { host: session.host } : {}),
      ...(session.yes ? { yes: true } : {}),
      ...(env.signal ? { signal: env.signal } : {}),
    });
    if (!verdict.allowed) {
      const why = (verdict.refusal ?? "not approved").replace(/^error: /, "");
      throw new WispError(`reading ${given} was refused: ${why}`);
    }
  }
}

/**
 * The condensing tools' code, loaded at the first call that needs it, so
 * that the server answers initialize and tools/list without it (the schemas
 * above are all tools/list needs).
 */
const condenseTools = () =>
  load<typeof import("../../condense/tools.ts")>(import.meta.resolve("../../condense/tools.ts"));
const secretsTools = () =>
  load<typeof import("../../secrets/tools.ts")>(import.meta.resolve("../../secrets/tools.ts"));

/** The model draft_change writes with: routing.tasks.draft, else the configured model; none when it cannot be had. */
async function draftModel(session: Session): Promise<Backend | undefined> {
  const { chooseForTask } = await load<typeof import("../../models/choose.ts")>(
    import.meta.resolve("../../models/choose.ts"),
  );
  try {
    // routing.tasks.draft, else the model; routing.ladder when that is unavailable.
    return (await chooseForTask("draft", session.config)).backend;
  } catch {
    return undefined;
  }
}

// ---------- triage: a command or a file, audited as a session of its own

const triageInput = z.object({
  command: z.string().min(1).optional().describe(
    "a build or test command to run (through the same gate, approval and sandbox as run_command) and read",
  ),
  path: z.string().min(1).optional().describe(
    "an output file already on this machine to read instead",
  ),
  cap: z.number().int().min(1).max(200).optional().describe(
    "list at most this many findings (default 25)",
  ),
  exit_status: z.number().int().min(0).max(255).optional().describe(
    "with path: the exit status of the command that wrote the file (a failed one is never reported clean)",
  ),
}).strict();

/**
 * The audit log of one triage call: the server's log file under a session
 * of its own (`triage-<id>`), as `wisp triage` audits itself.
 */
function triageAudit(session: Session, cwd: string): AuditLog {
  const audit = new AuditLog({
    ...session.audit.options,
    session: `triage-${newSessionId()}`,
  });
  audit.record("session.start", {
    face: "triage",
    pid: Deno.pid,
    cwd,
    via: "mcp",
    server: session.id,
  });
  return audit;
}

/** triage's structured result: the headline, every finding with its detail, the counts, the audit. */
const triageOutput = z.object({
  headline: z.string(),
  outcome: z.enum(["clean", "failures", "unexplained"]).describe(
    "clean; failures found; or unexplained: the command failed and no reader found why",
  ),
  exitCode: z.number().int().describe("the exit code wisp triage gives this outcome: 0, 1 or 2"),
  evidence: z.array(z.object({ line: z.number().int(), text: z.string() })).optional().describe(
    "for unexplained: the output's last lines, numbered in the whole output",
  ),
  findings: z.array(z.object({
    kind: z.enum(["error", "warning", "test_failure"]),
    location: z.string().optional().describe("file:line[:col]"),
    test: z.string().optional(),
    message: z.string(),
    detail: z.array(z.string()).optional().describe(
      "the lines that belong to it: expected and actual values, a code frame",
    ),
  })),
  counts: z.object({
    errors: z.number().int(),
    test_failures: z.number().int(),
    warnings: z.number().int(),
  }),
  exitStatus: z.number().int().nullable().optional().describe("the command's exit status"),
  heldBack: z.number().int().describe("findings not listed (over cap)"),
  session: z.string().describe("the audit session of this call"),
  audit: z.string().describe("the resource with its audit events"),
});

async function triageTool(args: z.infer<typeof triageInput>, env: CallEnv): Promise<ToolOutput> {
  if ((args.command === undefined) === (args.path === undefined)) {
    throw new ToolInputError("give either command or path, not both and not neither");
  }
  if (args.command !== undefined && args.exit_status !== undefined) {
    throw new ToolInputError("exit_status is for a path; a command's own status is used");
  }
  const { session } = env;
  const service = await load<typeof import("../../condense/service.ts")>(
    import.meta.resolve("../../condense/service.ts"),
  );
  const audit = triageAudit(session, env.cwd);
  try {
    let input: Scanned;
    let exitStatus: number | null | undefined;
    // The server's gate (its config, classifier and approvals in memory), recording into the triage session.
    const { Gate } = await load<typeof import("../../gate/gate.ts")>(
      import.meta.resolve("../../gate/gate.ts"),
    );
    const gate = new Gate({ ...session.gate.opts, audit, approvals: session.gate.approvals });
    if (args.command !== undefined) {
      const { runForTriage } = await load<typeof import("../../condense/run_command.ts")>(
        import.meta.resolve("../../condense/run_command.ts"),
      );
      const ran = await runForTriage(args.command, {
        ...runContext(session, env.signal),
        audit,
        gate,
        cwd: env.cwd,
      });
      input = ran.scanned!;
      exitStatus = ran.exitStatus;
    } else {
      await gateReads(args, env, gate);
      const { scanFile } = await load<typeof import("../../condense/input.ts")>(
        import.meta.resolve("../../condense/input.ts"),
      );
      const path = isAbsolute(args.path!) ? args.path! : resolve(env.cwd, args.path!);
      input = await scanFile(path, args.path!);
      exitStatus = args.exit_status;
    }
    const choice = await service.chooseJudge(session.config, { audit });
    const result = await service.runTriage({
      text: input,
      source: args.command !== undefined ? "command" : "path",
      ...(args.command !== undefined ? { command: args.command } : { path: args.path }),
      exitStatus,
      bytes: input.bytes,
      ...(args.cap ? { cap: args.cap } : {}),
      choice,
      audit,
      ...(env.signal ? { signal: env.signal } : {}),
    });
    return {
      // The command's failure is a result, not an error: isError stays for wisp's own.
      text: service.renderTriage(result),
      structured: {
        ...service.triageJson(result),
        counts: { ...result.counts },
        ...(exitStatus !== undefined ? { exitStatus } : {}),
        heldBack: result.heldBack,
        session: audit.session,
        audit: `wisp://audit/${audit.session}`,
      } as z.output<typeof triageOutput>,
    };
  } finally {
    audit.close();
  }
}

// ---------- the table

export const CONDENSING_TOOLS: CondensingTool[] = [
  {
    name: "triage",
    description:
      "The failures in a build or test output, without a model turn for what known formats explain (Swift, clang, rustc, " +
      "cargo, pytest, go test, tsc, jest, …): give command (run under wisp's gate, approval and sandbox) or path. Returns a " +
      "headline and the findings; the raw output stays on this machine. Audited as a session of its own (structuredContent.audit).",
    schema: served(triageInput),
    output: triageOutput,
    annotations: runsCommands("Triage build or test output"),
    run: (args, env) => triageTool(args as z.infer<typeof triageInput>, env),
  },
  {
    name: "summarise_diff",
    description:
      "A short summary of a unified diff on this machine (text or a file): files changed with their status, lines " +
      "added and removed, and the functions the hunks name, largest changes first. No model.",
    schema: served(summariseDiffInput),
    output: summariseDiffOutput,
    annotations: reads("Summarise a diff"),
    run: (args, env) => offloaded("summarise_diff", args, env),
  },
  {
    name: "draft_change",
    description:
      "Draft a commit message, a pull request description or a changelog line from a diff on this machine (text, a " +
      "file, or with neither the staged change, read by git diff --cached under wisp's gate). The configured model writes " +
      "from an exact summary; without one, a plain draft. A commit message ends in a Why: line for you to fill.",
    schema: served(draftChangeInput),
    output: draftChangeOutput,
    annotations: reads("Draft a commit message or PR description"),
    run: async (args, env) => {
      const model = await draftModel(env.session);
      const { draftChangeTool } = await condenseTools();
      return await draftChangeTool(args, condenseContext(env, model ? { model } : {}));
    },
  },
  {
    name: "condense_log",
    description:
      "A service or system log on this machine (text, a file, or with last the system log's last stretch) condensed: " +
      "counts by severity, its time span, the severe messages grouped by template with how often they repeat, the " +
      "rare ones, the first and last lines. No model.",
    schema: served(condenseLogInput),
    output: condenseLogOutput,
    annotations: reads("Condense a log"),
    // The system log's stretch (last) runs a command through the gate: on this thread.
    run: async (args, env) =>
      args.last === undefined
        ? await offloaded("condense_log", args, env)
        : await (await condenseTools()).condenseLogTool(args, condenseContext(env)),
  },
  {
    name: "json_shape",
    description:
      "The structure of a JSON document or JSON Lines on this machine without its data: keys and their types, " +
      "optional keys, array lengths, unions and small enums, as an indented outline. No model.",
    schema: served(jsonShapeInput),
    output: jsonShapeOutput,
    annotations: reads("Outline a JSON document's shape"),
    run: (args, env) => offloaded("json_shape", args, env),
  },
  {
    name: "dependency_audit",
    description:
      "What lockfiles pin (package-lock.json, deno.lock, Cargo.lock, go.sum, poetry.lock, uv.lock, Package.resolved), " +
      "from the lockfiles alone: package counts, names at several versions, and what they mark (sources outside the " +
      "registry, plain http, missing integrity, install scripts). No network, no model.",
    schema: served(dependencyAuditInput),
    output: dependencyAuditOutput,
    annotations: reads("Audit lockfiles"),
    run: (args, env) => offloaded("dependency_audit", args, env),
  },
  {
    name: "flaky_tests",
    description:
      "Run a test command several times (under wisp's gate, approval and sandbox; approving the first run covers the " +
      "repeats) and compare the runs: the tests that failed in some runs and not others, those that failed every time, " +
      "and failed runs no reader could explain. The output stays on this machine.",
    schema: served(flakyTestsInput),
    output: flakyTestsOutput,
    annotations: runsCommands("Find flaky tests"),
    run: async (args, env) =>
      await (await condenseTools()).flakyTestsTool(
        args as z.input<typeof flakyTestsInput>,
        condenseContext(env),
      ),
  },
  {
    name: "hot_paths",
    description:
      "The files changed most often in the git history of the working directory (git log under wisp's gate and " +
      "sandbox), with lines added and removed and the number of authors; or, given path, the hottest functions of a " +
      "profile (a V8 .cpuprofile from node or deno --cpu-prof, or python3 -m cProfile's text) by self and total time, " +
      "with file:line. No model.",
    schema: served(hotPathsInput),
    output: hotPathsOutput,
    annotations: reads("Find the hot paths"),
    // Without a profile, git log runs through the gate: on this thread.
    run: async (args, env) =>
      typeof args.path === "string"
        ? await offloaded("hot_paths", args, env)
        : await (await condenseTools()).hotPathsTool(args, condenseContext(env)),
  },
  {
    name: "scan_secrets",
    description:
      "Look for credentials (and with personal: true, personal data) in a text or a file on this machine; returns each " +
      "finding's place, kind and a masked preview, never the value.",
    schema: served(scanSecretsInput),
    output: scanSecretsOutput,
    annotations: reads("Scan for secrets"),
    run: async (args, env) => {
      const { scanSecretsTool } = await secretsTools();
      const r = await scanSecretsTool(args, { audit: env.session.audit, cwd: env.cwd });
      return {
        text: r.text,
        structured: {
          summary: r.summary,
          findings: r.findings,
          counts: r.counts,
          total: r.total,
          heldBack: r.heldBack,
          binary: r.binary,
        } satisfies z.output<typeof scanSecretsOutput>,
      };
    },
  },
  {
    name: "redact",
    description:
      "Return a text or a file on this machine with every credential (and personal data unless personal: false) replaced by " +
      "[REDACTED:kind#n].",
    schema: served(redactInput),
    output: redactOutput,
    annotations: reads("Redact secrets"),
    run: async (args, env) => {
      const { redactTool } = await secretsTools();
      const r = await redactTool(args, { audit: env.session.audit, cwd: env.cwd });
      return {
        text: r.text === "" ? r.summary : r.text,
        structured: {
          text: r.text,
          summary: r.summary,
          counts: r.counts,
          heldBack: r.heldBack,
        } satisfies z.output<typeof redactOutput>,
      };
    },
  },
];

/**
 * A working directory a call names (absolute, or relative to where the server
 * started), or why it cannot be one. `label` is the argument's name.
 */
export function folderFrom(
  given: string,
  root: string,
  label: string,
): { path: string; problem?: string } {
  const path = isAbsolute(given) ? given : resolve(root, given);
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch {
    return { path, problem: `${label} ${path} does not exist` };
  }
  return info.isDirectory ? { path } : { path, problem: `${label} ${path} is not a folder` };
}

/** A condensing call's working directory: its working_directory, else where the server started. */
export function callDirectory(given: string | undefined, root: string): string {
  if (given === undefined) return root;
  const { path, problem } = folderFrom(given, root, "working_directory");
  if (problem) throw new ToolInputError(problem);
  return path;
}

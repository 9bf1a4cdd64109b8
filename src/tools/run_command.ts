/**
 * run_command: one shell command line, judged by the gate, run by the one
 * runner (sandboxed, its own process group, bounded output, the time limit),
 * its result as the runner renders it. This file is the thin model-facing
 * wrapper: arguments, the description and limits the model reads, and the
 * refusals in the words the model is taught to recognise:
 *
 *   error: command denied by policy: …   (the policy; the command did not run)
 *   error: command not approved: …       (the person, silence, or no one to ask)
 */
import { z } from "zod";
import { resolve } from "node:path";
import type { Config } from "../config/schema.ts";
import { expandTilde } from "../config/home.ts";
import { runCommand as runOnRunner, type RunRequest, type RunResult } from "../exec/runner.ts";
import { resolveTimeout } from "../exec/timeouts.ts";
import { checkThenRun } from "../gate/check_then_run.ts";
import { commandResultRenderer } from "./command_result.ts";
import { OutputStore } from "../audit/output_store.ts";
import { errorResult, type Tool, type ToolContext, type ToolResult } from "./tool.ts";

export const runCommandSchema = z.object({
  command: z.string().min(1).describe(
    "The shell command line to run, exactly as you would type it (pipes, && and quotes are fine).",
  ),
  workingDirectory: z.string().min(1).optional().describe(
    "The directory to run it in: absolute, or relative to the working directory. Default: the working directory.",
  ),
  timeoutSeconds: z.number().int().positive().optional().describe(
    "Seconds the command may run before it is stopped. Leave it out for the default; ask for more for a long build or test run.",
  ),
  outsideSandbox: z.boolean().optional().describe(
    "Run without the sandbox. Only when the sandbox refused the command (a sandbox: line said so); the person is asked every time.",
  ),
}).strict();

export type RunCommandArgs = z.infer<typeof runCommandSchema>;

/** What run_command reads beside the ordinary context (the session supplies it). */
interface CommandContext extends ToolContext {
  commandTimeoutSeconds?: number;
}

/** The runner run_command calls: the one runner, replaceable only by tests of this wrapper. */
export type Runner = (request: RunRequest) => Promise<RunResult>;

/** The gate's refusal as the model reads it, whatever prefix the gate gave it. */
export function refusalText(refusal: string | undefined): string {
  const text = (refusal ?? "").trim();
  if (/^error: command (denied by policy|not approved): /.test(text)) return text;
  if (/^command (denied by policy|not approved): /.test(text)) return `error: ${text}`;
  return `error: command not approved: ${text || "the gate refused it"}`;
}

function limits(config: Config): string[] {
  const cap = config.commandTimeoutCapSeconds;
  const def = config.commandTimeoutSeconds;
  const sandbox = config.commandPolicy.sandbox;
  return [
    `A command runs for at most ${
      def > 0 ? `${def} s` : "no fixed time"
    } unless timeoutSeconds asks otherwise` +
    `${
      cap > 0 ? `, and never longer than ${cap} s (the operator's cap)` : ""
    }; at the limit its whole process tree gets SIGTERM, then SIGKILL two seconds later.`,
    "The result is bounded to the tool-output budget (an eighth of the model's window, 4 to 64 KiB): each stream shows its first " +
    "and last lines and the rest is held back, kept whole in the output store (up to 16 MiB) and named in a held back: note.",
    sandbox.enabled
      ? `Commands run in the sandbox: they read anywhere but write only under the launch directory, the temporary directories, the user cache directory${
        sandbox.writablePaths.length ? " and commandPolicy.sandbox.writablePaths" : ""
      }; never wisp's home. Network ${sandbox.allowNetwork ? "allowed" : "off"}.`
      : "The sandbox is off (commandPolicy.sandbox.enabled is false): commands can write anywhere the person can.",
    config.approval.threshold === "never"
      ? "Every line passes the policy's deny list and the risk classifier; approval.threshold is never, so no one is asked."
      : `Every line passes the policy's deny list, the risk classifier, and the person's approval at ${config.approval.threshold} ` +
        "and above; where no one can be asked (wisp respond without --yes) a command that needs approval is refused.",
    sandbox.allowOutsideSandbox
      ? "outsideSandbox: true asks the person every time, for that exact line, and is refused where no one can be asked."
      : "Running outside the sandbox is turned off (commandPolicy.sandbox.allowOutsideSandbox is false).",
  ];
}

function sandboxOff(ctx: ToolContext): boolean {
  return ctx.unsafe === true || ctx.config.commandPolicy.sandbox.enabled === false;
}

/**
 * Where a command given `workingDirectory` starts (relative to the turn's
 * directory, `~` expanded), or the error result when it is not a folder.
 */
export function workingDirectory(given: string | undefined, ctx: ToolContext): string | ToolResult {
  const cwd = given ? resolve(ctx.cwd, expandTilde(given)) : ctx.cwd;
  try {
    if (!Deno.statSync(cwd).isDirectory) {
      return errorResult(`the working directory ${given} is not a directory`);
    }
  } catch {
    return errorResult(`the working directory ${given ?? cwd} does not exist`);
  }
  return cwd;
}

export async function runCommand(
  args: RunCommandArgs,
  ctx: CommandContext,
  runner: Runner = runOnRunner,
): Promise<ToolResult> {
  const cwd = workingDirectory(args.workingDirectory, ctx);
  if (typeof cwd !== "string") return cwd;
  if (!ctx.gate) {
    return errorResult("command not approved: no approval gate is set up for this session");
  }
  // With the sandbox off the argument changes nothing, so it asks nothing more.
  const outside = args.outsideSandbox === true && !sandboxOff(ctx);
  const timeout = resolveTimeout({
    call: args.timeoutSeconds,
    thread: ctx.commandTimeoutSeconds,
    configDefault: ctx.config.commandTimeoutSeconds,
    cap: ctx.config.commandTimeoutCapSeconds,
  });
  const gated = await checkThenRun(ctx.gate, args.command, {
    origin: "model",
    cwd,
    tool: "run_command",
    ...(outside ? { outsideSandbox: true } : {}),
    signal: ctx.signal,
  }, () =>
    runner({
      command: args.command,
      cwd,
      root: ctx.root,
      origin: "model",
      timeoutSeconds: timeout.seconds,
      timeoutSource: timeout.source,
      timeoutClamped: timeout.clamped,
      budgetBytes: ctx.budgetBytes,
      outsideSandbox: outside,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      config: ctx.config,
      home: ctx.home,
      audit: ctx.audit,
      unsafe: ctx.unsafe === true,
      ...(ctx.callId ? { outputId: ctx.callId } : {}),
      outputStore: ctx.outputStore instanceof OutputStore ? ctx.outputStore : undefined,
      memory: ctx.memory === true,
      render: commandResultRenderer,
    }), ctx.signal);
  if (!gated.ran) {
    if ("stopped" in gated) {
      return errorResult("run_command was stopped before the command started");
    }
    return { text: refusalText(gated.refusal), ok: false, meta: { refused: true } };
  }
  const result = gated.result;
  let text = result.rendered;
  if (
    args.outsideSandbox === true && sandboxOff(ctx) &&
    !text.includes("outsideSandbox changed nothing")
  ) {
    text += "\nsandbox: outsideSandbox changed nothing: the sandbox is off here";
  }
  const ok = result.error === undefined && result.exitStatus === 0 && !result.timedOut &&
    !result.stopped;
  return {
    text,
    ok,
    ...(result.outputId ? { outputId: result.outputId } : {}),
    meta: {
      exitStatus: result.exitStatus,
      timedOut: result.timedOut,
      stopped: result.stopped,
      sandbox: result.sandbox.mode,
      durationMs: result.durationMs,
    },
  };
}

export const runCommandTool: Tool<RunCommandArgs> = {
  name: "run_command",
  description:
    "Runs a shell command line on this machine and returns its exit status and output (stdout, then stderr). " +
    "Use it to build, test, list files, search with grep, and inspect the system. Output that does not fit shows its first and " +
    "last lines, with a held back: note; do not run a command again to see more. A result starting with error: command denied " +
    "by policy or error: command not approved means the command did not run.",
  schema: runCommandSchema,
  parallelSafe: false,
  gatesBeforeEffect: true,
  limits,
  examplePrompt:
    "Use run_command to run exactly: ls -la . Report the exit status and the output verbatim.",
  run: (args, ctx) => runCommand(args, ctx as CommandContext),
};

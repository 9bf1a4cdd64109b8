/**
 * process: commands that keep running after the call — a dev server, a
 * watcher, a long build — started, polled and stopped by id. One tool with
 * verbs (docs/adr/0180-background-processes-one-tool-with-verbs.md):
 *
 *   start  the line passes the same gate as run_command's (policy,
 *          classifier, approval) and starts under the same runner (sandbox,
 *          supervisor, bounded capture), its lifetime as the time limit; the
 *          call returns the id at once.
 *   poll   state, the output since the last poll (the newest of it, bounded,
 *          with the bytes dropped counted), the exit status once it has ended.
 *   stop   TERM to everything it runs, KILL two seconds later.
 *   list   every process of the session.
 *
 * The table (src/exec/background.ts) belongs to the session, which kills
 * what is still running when it closes.
 */
import { z } from "zod";
import type { Config } from "../config/schema.ts";
import {
  type ManagedProcess,
  MAX_RUNNING,
  type ProcessTable,
  resolveLifetime,
  type Taken,
} from "../exec/background.ts";
import { OutputStore } from "../audit/output_store.ts";
import { refusalText, workingDirectory } from "./run_command.ts";
import { checkThenRun } from "../gate/check_then_run.ts";
import { formatBytes, formatCount } from "../util/bytes.ts";
import { errorResult, type Tool, type ToolContext, type ToolResult } from "./tool.ts";

const MAX_WAIT_SECONDS = 30;

const processSchema = z.object({
  action: z.enum(["start", "poll", "stop", "list"]).describe(
    "start a command in the background, poll one for its new output and state, stop one, or list them all",
  ),
  command: z.string().min(1).optional().describe(
    "start: the shell command line to run in the background (a server, a watcher, a long build)",
  ),
  workingDirectory: z.string().min(1).optional().describe(
    "start: where to run it, absolute or relative to the working directory (default: the working directory)",
  ),
  lifetimeSeconds: z.number().int().positive().optional().describe(
    "start: seconds it may run before it is stopped (default 1800)",
  ),
  id: z.string().min(1).optional().describe("poll, stop: the id start returned (p1, p2, …)"),
  waitSeconds: z.number().min(0).max(MAX_WAIT_SECONDS).optional().describe(
    `poll: wait up to this many seconds for new output or the end (0 to ${MAX_WAIT_SECONDS}; default 0)`,
  ),
}).strict();

export type ProcessArgs = z.infer<typeof processSchema>;

/** What the process tool reads beside the ordinary context: the session's table. */
export interface ProcessContext extends ToolContext {
  processes?: ProcessTable;
}

function seconds(ms: number): string {
  return `${Math.max(0, Math.round(ms / 1000))} s`;
}

/** One stream's part of a poll: a line saying what arrived, then the text. */
export function renderTaken(label: string, taken: Taken): string {
  if (taken.arrived === 0) return `${label}: nothing new`;
  const text = new TextDecoder().decode(taken.bytes);
  const head = taken.dropped > 0
    ? `${label}: ${formatBytes(taken.arrived)} new, the first ${
      formatCount(taken.dropped)
    } bytes dropped (only the newest are kept between polls)`
    : `${label}: ${formatBytes(taken.arrived)} new`;
  return `${head}\n${text}${text.endsWith("\n") || text === "" ? "" : "\n"}`.trimEnd();
}

/** The first line of a poll or stop: the state, how long it ran, and the exit status once it ended. */
function stateLine(entry: ManagedProcess, now: number): string {
  const ran = seconds((entry.endedAt ?? now) - entry.startedAt);
  if (entry.state === "running") {
    return `process ${entry.id}: running for ${ran} (lifetime ${entry.lifetimeSeconds} s)`;
  }
  const result = entry.result!;
  const how = entry.state === "timed out"
    ? `stopped at its lifetime of ${entry.lifetimeSeconds} s`
    : entry.state === "stopped"
    ? "stopped"
    : entry.state === "failed"
    ? `failed to start: ${result.error}`
    : "exited";
  const status = result.exitStatus === null
    ? ""
    : `\nexit status: ${result.exitStatus}${result.signal ? ` (${result.signal})` : ""}`;
  return `process ${entry.id}: ${how} after ${ran}${status}`;
}

/** A poll: the state, then each stream's new output, bounded to the budget. */
function renderPoll(entry: ManagedProcess, budget: number, now: number): string {
  const room = Math.max(512, Math.floor((budget - 600) / 2));
  const ended = entry.state !== "running";
  const parts = [
    stateLine(entry, now),
    `command: ${entry.command}`,
    renderTaken("stdout", entry.stdout.take(room)),
    renderTaken("stderr", entry.stderr.take(room)),
  ];
  if (ended && entry.result?.outputId) {
    parts.push(`its whole output is kept as output ${entry.result.outputId}`);
  }
  if (ended) entry.reported = true;
  return parts.join("\n");
}

function renderList(entries: ManagedProcess[], now: number): string {
  if (entries.length === 0) return "no background processes in this session";
  return entries.map((p) => {
    const status = p.result && p.result.exitStatus !== null ? ` ${p.result.exitStatus}` : "";
    return `${p.id}\t${p.state}${status}\t${
      seconds((p.endedAt ?? now) - p.startedAt)
    }\t${p.command}`;
  }).join("\n");
}

async function start(
  args: ProcessArgs,
  ctx: ProcessContext,
  table: ProcessTable,
): Promise<ToolResult> {
  if (!args.command) {
    return errorResult('start needs a command: process with action start and command "…"');
  }
  const cwd = workingDirectory(args.workingDirectory, ctx);
  if (typeof cwd !== "string") return cwd;
  if (table.running().length >= MAX_RUNNING) {
    return errorResult(`${MAX_RUNNING} background processes are running already; stop one first`);
  }
  if (!ctx.gate) {
    return errorResult("command not approved: no approval gate is set up for this session");
  }
  const lifetime = resolveLifetime(args.lifetimeSeconds, ctx.config.commandTimeoutCapSeconds);
  let gated;
  try {
    gated = await checkThenRun(ctx.gate, args.command, {
      origin: "model",
      cwd,
      tool: "process",
      signal: ctx.signal,
    }, () =>
      Promise.resolve(table.launch({
        command: args.command!,
        cwd,
        root: ctx.root,
        origin: "model",
        timeoutSeconds: lifetime.seconds,
        timeoutSource: args.lifetimeSeconds ? "call" : "default",
        timeoutClamped: lifetime.clamped,
        budgetBytes: ctx.budgetBytes,
        config: ctx.config,
        home: ctx.home,
        audit: ctx.audit,
        unsafe: ctx.unsafe === true,
        ...(ctx.callId ? { outputId: ctx.callId } : {}),
        outputStore: ctx.outputStore instanceof OutputStore ? ctx.outputStore : undefined,
        memory: ctx.memory === true,
        // Deliberately no signal: the process outlives this call and this turn;
        // it ends at its lifetime, by stop, or with the session.
      })), ctx.signal);
  } catch (error) {
    return errorResult((error as Error).message);
  }
  if (!gated.ran) {
    if ("stopped" in gated) return errorResult("process was stopped before the command started");
    return { text: refusalText(gated.refusal), ok: false, meta: { refused: true } };
  }
  const entry: ManagedProcess = gated.result;
  return {
    text: `started process ${entry.id} in the background: ${args.command}\n` +
      `it runs for at most ${lifetime.seconds} s${
        lifetime.clamped ? " (the most allowed)" : ""
      }; ` +
      `poll it with process action poll id ${entry.id} (waitSeconds to wait for output), stop it with action stop`,
    ok: true,
    meta: { id: entry.id, lifetimeSeconds: lifetime.seconds },
  };
}

function unknownId(id: string | undefined, table: ProcessTable): ToolResult {
  if (!id) return errorResult("poll and stop need the id start returned (p1, p2, …)");
  const known = table.list().map((p) => p.id);
  return errorResult(
    `there is no background process ${id}${
      known.length ? ` (known: ${known.join(", ")})` : ""
    }; process action list shows them`,
  );
}

async function runProcess(args: ProcessArgs, ctx: ProcessContext): Promise<ToolResult> {
  const table = ctx.processes;
  if (!table) return errorResult("background processes are not available here; use run_command");
  const now = () => table.now();
  switch (args.action) {
    case "start":
      return await start(args, ctx, table);
    case "list":
      return { text: renderList(table.list(), now()), ok: true };
    case "poll": {
      const entry = args.id ? table.get(args.id) : undefined;
      if (!entry) return unknownId(args.id, table);
      await table.waitForNews(entry.id, Math.min(MAX_WAIT_SECONDS, args.waitSeconds ?? 0) * 1000);
      return { text: renderPoll(entry, ctx.budgetBytes, now()), ok: entry.state !== "failed" };
    }
    case "stop": {
      const entry = args.id ? table.get(args.id) : undefined;
      if (!entry) return unknownId(args.id, table);
      const wasRunning = entry.state === "running";
      await table.stop(entry.id);
      const text = renderPoll(entry, ctx.budgetBytes, now());
      return { text: wasRunning ? text : `${text}\n(it had already ended)`, ok: true };
    }
  }
}

function limits(config: Config): string[] {
  const cap = config.commandTimeoutCapSeconds;
  const lifetime = resolveLifetime(undefined, cap).seconds;
  return [
    `At most ${MAX_RUNNING} run at once per session. A process runs for ${lifetime} s unless lifetimeSeconds asks otherwise, ` +
    `never longer than ${
      cap > 0 ? `${cap} s (the operator's cap)` : "4 hours"
    }; at its lifetime, on stop, and when the session ends ` +
    "its whole process tree is stopped.",
    "start passes the same policy, classifier and approval as run_command, and runs in the same sandbox.",
    "A poll shows the output that arrived since the last poll, the newest of it within the tool-output budget, and counts the bytes " +
    `it dropped; between polls only the newest ${
      formatBytes(64 * 1024)
    } of each stream are kept. The exit status appears once it has ended.`,
  ];
}

export const processTool: Tool<ProcessArgs> = {
  name: "process",
  description:
    "Runs a command in the background and keeps it running (a dev server, a watcher, a long build): start returns an id at once; " +
    "poll shows its state and new output; stop ends it; list shows them all. They end when this session ends. " +
    "For a command that finishes on its own, use run_command.",
  schema: processSchema,
  parallelSafe: false,
  // start asks the gate before it launches anything; poll, stop and list ask nothing.
  gatesBeforeEffect: (args) => args.action === "start",
  limits,
  examplePrompt:
    "Use process to start `python3 -m http.server 8000` in the background, poll it once with waitSeconds 2, then stop it and report what it printed.",
  run: (args, ctx) => runProcess(args, ctx as ProcessContext),
};

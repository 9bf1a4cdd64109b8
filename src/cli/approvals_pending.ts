/**
 * `wisp approvals pending|approve|deny`: the commands waiting for approval in
 * wisp mcp servers (<home>/pending), and answering one. Attached to the
 * `approvals` command the gate registers (src/cli/approvals.ts), so this
 * module is registered after it.
 *
 * approve and deny run only with a terminal on standard input, and send the
 * answer over the request's socket, where the server checks the process the
 * kernel names (src/gate/answerer.ts): wisp itself, at a terminal of
 * its own, not started by the MCP client. The default policy also refuses
 * them to wisp's own model.
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";

/** "12 s", "3 min", "2 h". */
export function waitedText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h`;
}

/** A directory with the home folder written as ~. */
export function tildePath(path: string, home: string | undefined): string {
  if (!home) return path;
  if (path === home) return "~";
  return path.startsWith(home + "/") ? "~" + path.slice(home.length) : path;
}

export interface PendingRowInput {
  id: string;
  level: string;
  waited: number;
  client: string;
  thread: string;
  cwd: string;
  command: string;
  outsideSandbox: boolean;
}

/** Rows of `pending`: on a terminal for reading, piped for scripts (seconds as a number, paths whole). */
export function pendingRows(list: PendingRowInput[], terminal: boolean, home?: string): string[][] {
  return list.map((r) => {
    const from = `${r.client}/${r.thread}`;
    if (!terminal) return [r.id, r.level, String(r.waited), from, r.cwd, r.command];
    return [
      r.id,
      r.level,
      waitedText(r.waited),
      from,
      tildePath(r.cwd, home),
      r.outsideSandbox ? `OUTSIDE THE SANDBOX: ${r.command}` : r.command,
    ];
  });
}

async function pending(flags: { json?: boolean }): Promise<void> {
  const { out, outLine, errLine, stdoutIsTerminal } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { homePaths } = await load<typeof import("../config/home.ts")>(
    import.meta.resolve("../config/home.ts"),
  );
  const { listPending } = await load<typeof import("../gate/pending.ts")>(
    import.meta.resolve("../gate/pending.ts"),
  );
  const { renderTable } = await load<typeof import("../util/table.ts")>(
    import.meta.resolve("../util/table.ts"),
  );
  const paths = homePaths();
  const listed = await listPending(paths.pending);
  const terminal = stdoutIsTerminal();
  if (flags.json) {
    const pending = listed.map(({ request, waited }) => ({
      id: request.id,
      level: request.level,
      waited,
      client: request.client,
      thread: request.thread,
      cwd: request.cwd,
      command: request.command,
      outsideSandbox: request.outsideSandbox,
    }));
    outLine(JSON.stringify({ pending }, null, 2));
    return;
  }
  if (listed.length === 0) {
    if (terminal) errLine("no command waits for approval");
    return;
  }
  let home: string | undefined;
  try {
    home = Deno.env.get("HOME");
  } catch { /* unknown */ }
  const rows = pendingRows(
    listed.map(({ request, waited }) => ({
      id: request.id,
      level: request.level,
      waited,
      client: request.client,
      thread: request.thread,
      cwd: request.cwd,
      command: request.command,
      outsideSandbox: request.outsideSandbox,
    })),
    terminal,
    home,
  );
  const text = renderTable({
    headers: ["ID", "LEVEL", "WAITING", "FROM", "IN", "COMMAND"],
    rows,
    terminal,
  });
  if (terminal) {
    for (const line of text.replace(/\n$/, "").split("\n")) outLine(line);
  } else {
    out(text);
  }
}

async function answer(
  id: string,
  decision: "approve" | "deny",
  scope: string | undefined,
): Promise<void> {
  const { UsageError, WispError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const { SCOPES } = await load<typeof import("../gate/pending.ts")>(
    import.meta.resolve("../gate/pending.ts"),
  );
  if (
    decision === "approve" && scope !== undefined && !(SCOPES as readonly string[]).includes(scope)
  ) {
    throw new UsageError(`--scope must be one of ${SCOPES.join(", ")} (it is "${scope}")`);
  }
  if (!Deno.stdin.isTerminal()) {
    throw new WispError(
      `wisp approvals ${decision} answers only from a terminal, so that no agent can answer for you; run it yourself in a terminal`,
    );
  }
  const { homePaths } = await load<typeof import("../config/home.ts")>(
    import.meta.resolve("../config/home.ts"),
  );
  const { answerPending } = await load<typeof import("../faces/mcp/answer.ts")>(
    import.meta.resolve("../faces/mcp/answer.ts"),
  );
  const { outLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const result = await answerPending(homePaths().pending, id, {
    decision,
    ...(scope ? { scope: scope as "once" } : {}),
  });
  if (result.exitCode === 0) {
    outLine(result.message);
    return;
  }
  if (result.exitCode === 64) throw new UsageError(result.message);
  throw new WispError(result.message);
}

export function register(program: Command): void {
  let approvals = program.commands.find((c) => c.name() === "approvals");
  if (!approvals) {
    approvals = program.command("approvals").description(
      "approvals: what waits for you in wisp mcp servers",
    );
  }
  approvals
    .command("pending")
    .description("list the commands waiting for approval in wisp mcp servers, oldest first")
    .option("--json", 'print {"pending": [{"id", "level", "waited", "command", …}]}')
    .action((_flags: { json?: boolean }, command: Command) =>
      pending(command.optsWithGlobals<{ json?: boolean }>())
    );
  approvals
    .command("approve")
    .description("approve a command waiting in a wisp mcp server (only from a terminal)")
    .argument("<id>", "the request's id (wisp approvals pending lists them)")
    .option("--scope <scope>", "once (the default), session, project or always")
    .action((id: string, flags: { scope?: string }) => answer(id, "approve", flags.scope));
  approvals
    .command("deny")
    .description("refuse a command waiting in a wisp mcp server (only from a terminal)")
    .argument("<id>", "the request's id (wisp approvals pending lists them)")
    .action((id: string) => answer(id, "deny", undefined));
}

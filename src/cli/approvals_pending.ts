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
function waitedText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h`;
}

/** A directory with the home folder written as ~. */
function tildePath(path: string, home: string | undefined): string {
  if (!home) return path;
  if (path === home) return "~";
  return path.startsWith(home + "/") ? "~" + path.slice(home.length) : path;
}

/** What `pending` knows of a request it lists: the fields of its row and JSON item. */
export interface PendingRowInput {
  id: string;
  level: string;
  waited: number;
  client: string;
  thread: string;
  cwd: string;
  /** The line the gate judged (for a model action, `models pull <name>`). */
  command: string;
  outsideSandbox: boolean;
  /** What it asks: a command line, a model action, or (its file cannot be read) nobody knows. */
  asks: "command" | "model" | "unreadable";
  /** What it asks in words, as every face shows it: the command, `pull model …`, or why it cannot be read. */
  words: string;
  /** For a model action: the change as its request records it. */
  modelAction?: import("../gate/pending.ts").PendingModelAction;
}

/**
 * The row of a request file that cannot be read: its id and why, never
 * shown as a command (ADR 0625). Pure.
 */
export function unreadableRow(id: string, why: string): PendingRowInput {
  return {
    id,
    level: "unreadable",
    waited: 0,
    client: "",
    thread: "",
    cwd: "",
    command: "",
    outsideSandbox: false,
    asks: "unreadable",
    words: why,
  };
}

/**
 * Rows of `pending`: on a terminal for reading, piped for scripts (seconds
 * as a number, paths whole). The last column is what the request asks in
 * words: a model action reads `pull model …`, not its gate line, and a
 * request file that cannot be read says so in capitals on a terminal.
 */
export function pendingRows(list: PendingRowInput[], terminal: boolean, home?: string): string[][] {
  return list.map((r) => {
    if (r.asks === "unreadable") {
      return terminal
        ? [
          r.id,
          "?",
          "?",
          "?",
          "?",
          `UNREADABLE: ${r.words}; wisp cannot tell what it asks and will not answer it`,
        ]
        : [r.id, "unreadable", "", "", "", r.words];
    }
    const from = `${r.client}/${r.thread}`;
    if (!terminal) return [r.id, r.level, String(r.waited), from, r.cwd, r.words];
    return [
      r.id,
      r.level,
      waitedText(r.waited),
      from,
      tildePath(r.cwd, home),
      r.outsideSandbox ? `OUTSIDE THE SANDBOX: ${r.words}` : r.words,
    ];
  });
}

/** How often `pending --watch` looks at the pending folder (as wisp-tui does). */
const WATCH_EVERY_MS = 500;

/** What `pending --watch` knows of a request: enough to print it and to say it has gone. */
export interface WatchedRequest extends PendingRowInput {
  /** How it ended, when its server left an outcome (`approved (once) from a terminal`). */
  outcome?: string;
}

/**
 * The lines `pending --watch` prints when the folder changes: one for each
 * request that started waiting since the last look, and on a terminal one
 * for each that no longer waits, with how it ended when that is known.
 * Piped, a new request is the row `pending` prints for it, and a gone one
 * prints nothing.
 */
export function watchLines(
  before: Map<string, WatchedRequest>,
  now: WatchedRequest[],
  terminal: boolean,
  home?: string,
  ended: (id: string) => string | undefined = () => undefined,
): string[] {
  const lines: string[] = [];
  const ids = new Set(now.map((r) => r.id));
  for (const r of now) {
    if (before.has(r.id)) continue;
    const [row] = pendingRows([r], terminal, home);
    if (!terminal) {
      lines.push(row.join("\t"));
      continue;
    }
    if (r.asks === "unreadable") {
      lines.push(
        `· ${r.id} waiting, but its request cannot be read: ${r.words}; wisp cannot tell what it asks and will not answer it`,
      );
      continue;
    }
    const [, level, , from, where, command] = row;
    lines.push(
      `· ${r.id} waiting (${level}, ${from}, in ${where}): ${command} — wisp approvals approve ${r.id}`,
    );
  }
  if (terminal) {
    for (const id of before.keys()) {
      if (ids.has(id)) continue;
      lines.push(`· ${id} no longer waiting: ${ended(id) ?? "answered elsewhere or withdrawn"}`);
    }
  }
  return lines;
}

async function pending(flags: { json?: boolean; watch?: boolean }): Promise<void> {
  const { out, outLine, errLine, stdoutIsTerminal } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { homePaths } = await load<typeof import("../config/home.ts")>(
    import.meta.resolve("../config/home.ts"),
  );
  const { renderTable } = await load<typeof import("../util/table.ts")>(
    import.meta.resolve("../util/table.ts"),
  );
  const paths = homePaths();
  const rows = await currentRows(paths.pending);
  const terminal = stdoutIsTerminal();
  if (flags.json) {
    outLine(JSON.stringify(
      {
        pending: rows.filter((r) => r.asks !== "unreadable"),
        unreadable: rows.filter((r) => r.asks === "unreadable").map((r) => ({
          id: r.id,
          why: r.words,
        })),
      },
      null,
      2,
    ));
    return;
  }
  if (rows.length === 0) {
    if (terminal) errLine("nothing waits for approval");
    if (flags.watch) await watchPending(paths.pending, terminal, rows);
    return;
  }
  let home: string | undefined;
  try {
    home = Deno.env.get("HOME");
  } catch { /* unknown */ }
  const text = renderTable({
    headers: ["ID", "LEVEL", "WAITING", "FROM", "IN", "REQUEST"],
    rows: pendingRows(rows, terminal, home),
    terminal,
  });
  if (terminal) {
    for (const line of text.replace(/\n$/, "").split("\n")) outLine(line);
  } else {
    out(text);
  }
  if (flags.watch) await watchPending(paths.pending, terminal, rows);
}

/**
 * Every request waiting for approval, oldest first, then each request file
 * that cannot be read (so that it is never left out, nor shown as harmless).
 */
async function currentRows(dir: string): Promise<PendingRowInput[]> {
  const { approvalWords, listPending, listUnreadable } = await load<
    typeof import("../gate/pending.ts")
  >(import.meta.resolve("../gate/pending.ts"));
  const listed = await listPending(dir);
  return [
    ...listed.map((l) => rowInput(l, approvalWords)),
    ...listUnreadable(dir).map((u) => unreadableRow(u.id, u.why)),
  ];
}

/**
 * A waiting approval's row input; `words` is pending.ts's approvalWords
 * (passed in, since this module loads pending.ts only when it runs). Pure.
 */
export function rowInput(
  { request, waited }: {
    request: import("../gate/pending.ts").PendingRequest;
    waited: number;
  },
  words: (request: import("../gate/pending.ts").PendingRequest) => string,
): PendingRowInput {
  const model = request.asks === "model" ? request.modelAction : undefined;
  return {
    id: request.id,
    level: request.level,
    waited,
    client: request.client,
    thread: request.thread,
    cwd: request.cwd,
    command: request.command,
    outsideSandbox: request.outsideSandbox,
    asks: model ? "model" : "command",
    words: words(request),
    ...(model ? { modelAction: model } : {}),
  };
}

/**
 * `pending --watch`: after the list, look at the folder every half second
 * and print a line for each request that starts waiting (and, on a
 * terminal, each that stops), until interrupted.
 */
async function watchPending(
  dir: string,
  terminal: boolean,
  first: PendingRowInput[],
): Promise<never> {
  const { errLine, outLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const { outcomePath, outcomeWords, parseOutcome } = await load<
    typeof import("../gate/pending.ts")
  >(import.meta.resolve("../gate/pending.ts"));
  let home: string | undefined;
  try {
    home = Deno.env.get("HOME");
  } catch { /* unknown */ }
  const ended = (id: string) => {
    try {
      const outcome = parseOutcome(Deno.readTextFileSync(outcomePath(dir, id)));
      return outcome ? outcomeWords(outcome) : undefined;
    } catch {
      return undefined;
    }
  };
  if (terminal) errLine("watching for requests that start waiting; Ctrl-C ends");
  let seen = new Map(first.map((r) => [r.id, r]));
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, WATCH_EVERY_MS));
    const now = await currentRows(dir);
    for (const line of watchLines(seen, now, terminal, home, ended)) outLine(line);
    seen = new Map(now.map((r) => [r.id, r]));
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
    .option(
      "--json",
      'print {"pending": [{"id", "level", "waited", "asks", "words", "command", …}], "unreadable": [{"id", "why"}]}',
    )
    .option("--watch", "stay open and print a line for each request that starts waiting")
    .action(async (_flags: { json?: boolean; watch?: boolean }, command: Command) => {
      const flags = command.optsWithGlobals<{ json?: boolean; watch?: boolean }>();
      if (flags.json && flags.watch) {
        const { UsageError } = await load<typeof import("../util/errors.ts")>(
          import.meta.resolve("../util/errors.ts"),
        );
        throw new UsageError("choose one of --json and --watch");
      }
      await pending(flags);
    });
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

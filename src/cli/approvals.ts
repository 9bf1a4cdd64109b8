/**
 * `wisp approvals` (= `approvals list`), `approvals revoke ID`,
 * `approvals clear [--gone] [-y]`: the approvals remembered for project and
 * always in <home>/approvals.json, and beside them the session approvals
 * running `wisp mcp` servers hold in memory, with where each answer came from
 * (<home>/servers, faces/mcp/live_approvals.ts); revoke reaches those too.
 * Once approvals, and the session approvals of other faces, live only in the
 * process that made them. (pending, approve and deny come with the MCP
 * server; they answer requests filed in <home>/pending and end in the same
 * store.)
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";
import type { Approval } from "../gate/approvals.ts";
import type { LiveServer } from "../faces/mcp/live_approvals.ts";

/** A session approval a running server holds, with the server. */
export interface LiveApproval {
  approval: Approval;
  server: LiveServer;
}

/** How long `revoke` waits for a running server to drop the approval. */
const REVOKE_WAIT_MS = 10_000;

/** "wisp mcp 4242 (claude-code)". */
function serverLabel(server: LiveServer): string {
  return `wisp mcp ${server.pid} (${server.client})`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "31 Oct 2026", in local time. */
function shortDate(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()}`;
}

/**
 * Rows for the table: ID, SCOPE, EXPIRES, WHERE, SOURCE, PATTERN on a
 * terminal; piped, id, scope, expiry, directory, pattern (+ gone) for a
 * stored approval, and for a running server's: id, session, two empty
 * fields, pattern, an empty sixth, then source, the server's pid and its
 * client.
 */
export function approvalRows(
  list: Approval[],
  gone: (a: Approval) => boolean,
  terminal: boolean,
  live: LiveApproval[] = [],
): string[][] {
  const stored = list.map((a) => {
    const isGone = gone(a);
    const where = a.directory ?? (terminal ? "any directory" : "");
    if (terminal) {
      return [
        a.id,
        a.scope,
        shortDate(a.expires),
        isGone ? `${where} (gone)` : where,
        "stored",
        a.pattern,
      ];
    }
    return [a.id, a.scope, a.expires ?? "", where, a.pattern, ...(isGone ? ["gone"] : [])];
  });
  const held = live.map(({ approval: a, server }) =>
    terminal
      ? [a.id, a.scope, "with the server", serverLabel(server), a.source ?? "", a.pattern]
      : [a.id, a.scope, "", "", a.pattern, "", a.source ?? "", String(server.pid), server.client]
  );
  return [...stored, ...held];
}

/** Wrap the last column of aligned rows to the width, continuing under itself. */
function wrapLastColumn(lines: string[], indent: number, width: number): string[] {
  const out: string[] = [];
  const room = Math.max(20, width - indent);
  for (const line of lines) {
    if (line.length <= width || indent >= width - 10) {
      out.push(line);
      continue;
    }
    const head = line.slice(0, indent);
    let rest = line.slice(indent);
    let first = true;
    while (rest.length > 0) {
      out.push((first ? head : " ".repeat(indent)) + rest.slice(0, room));
      rest = rest.slice(room);
      first = false;
    }
  }
  return out;
}

/**
 * What `approvals --json` prints for one approval: `source` is `stored` for
 * approvals.json, else where a running server's answer came from
 * (`elicitation`, `terminal`), with that `server`.
 */
export function approvalJson(
  a: Approval,
  gone: boolean,
  server?: LiveServer,
): Record<string, unknown> {
  return {
    id: a.id,
    scope: a.scope,
    level: a.level,
    pattern: a.pattern,
    directory: a.directory,
    created: a.created,
    expires: a.expires,
    gone,
    source: server ? a.source ?? null : "stored",
    server: server ? { pid: server.pid, session: server.session, client: server.client } : null,
  };
}

/** The session approvals of the servers that still run (stale files are removed). */
async function liveApprovals(serversDir: string): Promise<LiveApproval[]> {
  const { listLive } = await load<typeof import("../faces/mcp/live_approvals.ts")>(
    import.meta.resolve("../faces/mcp/live_approvals.ts"),
  );
  const files = await listLive(serversDir);
  return files.flatMap((f) => f.approvals.map((approval) => ({ approval, server: f.server })));
}

async function list(flags: { json?: boolean }): Promise<void> {
  const { out, outLine, errLine, stdoutIsTerminal } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { homePaths } = await load<typeof import("../config/home.ts")>(
    import.meta.resolve("../config/home.ts"),
  );
  const { ApprovalStore, isExpired, isGone, directoryExists } = await import(
    "../gate/approvals.ts"
  );
  const { renderTable } = await load<typeof import("../util/table.ts")>(
    import.meta.resolve("../util/table.ts"),
  );
  const paths = homePaths();
  const store = ApprovalStore.forHome(paths);
  const approvals = store.stored().filter((a) => !isExpired(a));
  const live = await liveApprovals(paths.servers);
  const terminal = stdoutIsTerminal();
  const gone = (a: Approval) => isGone(a, directoryExists);
  if (flags.json) {
    const items = [
      ...approvals.map((a) => approvalJson(a, gone(a))),
      ...live.map((l) => approvalJson(l.approval, false, l.server)),
    ];
    outLine(JSON.stringify({ approvals: items }, null, 2));
    return;
  }
  if (approvals.length === 0 && live.length === 0) {
    if (terminal) errLine("no remembered approvals");
    return;
  }
  const rows = approvalRows(approvals, gone, terminal, live);
  const text = renderTable({
    headers: ["ID", "SCOPE", "EXPIRES", "WHERE", "SOURCE", "PATTERN"],
    rows,
    terminal,
  });
  if (!terminal) {
    out(text);
    return;
  }
  const lines = text.replace(/\n$/, "").split("\n");
  const indent = lines[0].indexOf("PATTERN");
  const { fittingWidth } = await load<typeof import("../util/table.ts")>(
    import.meta.resolve("../util/table.ts"),
  );
  for (const line of wrapLastColumn(lines, indent, fittingWidth())) outLine(line);
  const goneCount = approvals.filter(gone).length;
  if (goneCount > 0) {
    outLine();
    outLine(
      `${goneCount} approval${
        goneCount === 1 ? " is" : "s are"
      } for a folder that is gone and can never match again; 'wisp approvals clear --gone' removes ${
        goneCount === 1 ? "it" : "them"
      }.`,
    );
  }
}

async function revoke(id: string): Promise<void> {
  const { outLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const { homePaths } = await load<typeof import("../config/home.ts")>(
    import.meta.resolve("../config/home.ts"),
  );
  const { ApprovalStore } = await load<typeof import("../gate/approvals.ts")>(
    import.meta.resolve("../gate/approvals.ts"),
  );
  const { WispError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const paths = homePaths();
  const store = ApprovalStore.forHome(paths);
  const found = store.stored().find((a) => a.id === id);
  if (found && store.revoke(id)) {
    outLine(`revoked ${found.id}: ${found.pattern}`);
    return;
  }
  const held = (await liveApprovals(paths.servers)).find((l) => l.approval.id === id);
  if (!held) {
    throw new WispError(`no remembered approval has the id ${id}; 'wisp approvals' lists them`);
  }
  // The server holds it in memory: file the revocation and wait until it has dropped it.
  const { fileRevocation } = await load<typeof import("../faces/mcp/live_approvals.ts")>(
    import.meta.resolve("../faces/mcp/live_approvals.ts"),
  );
  const server = held.server;
  try {
    fileRevocation(paths.servers, server.session, id);
  } catch (error) {
    throw new WispError(
      `could not file the revocation of ${id} for ${serverLabel(server)}: ${
        (error as Error).message
      }`,
    );
  }
  const until = Date.now() + REVOKE_WAIT_MS;
  while ((await liveApprovals(paths.servers)).some((l) => l.approval.id === id)) {
    if (Date.now() > until) {
      throw new WispError(
        `${serverLabel(server)} has not dropped ${id} within ${
          REVOKE_WAIT_MS / 1000
        } s; the revocation stays filed and takes effect when the server next looks (run 'wisp approvals' to check)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  outLine(`revoked ${id}: ${held.approval.pattern} (held by ${serverLabel(server)})`);
}

/** Ask on the terminal whether to remove; false when the person says no or cancels. */
async function confirmRemoval(message: string): Promise<boolean> {
  const { confirm, isCancel } = await load<typeof import("@clack/prompts")>(
    import.meta.resolve("@clack/prompts"),
  );
  const answer = await confirm({ message, initialValue: false });
  return !isCancel(answer) && answer === true;
}

async function clear(flags: { gone?: boolean; yes?: boolean }): Promise<void> {
  const { outLine, errLine, stdinIsTerminal } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { homePaths } = await load<typeof import("../config/home.ts")>(
    import.meta.resolve("../config/home.ts"),
  );
  const { ApprovalStore, isGone, directoryExists } = await load<
    typeof import("../gate/approvals.ts")
  >(import.meta.resolve("../gate/approvals.ts"));
  const { WispError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const store = ApprovalStore.forHome(homePaths());
  if (!flags.gone) {
    const all = store.stored();
    if (all.length === 0) {
      outLine("no remembered approvals to remove");
      return;
    }
    const these = all.length === 1
      ? "the one remembered approval"
      : `all ${all.length} remembered approvals`;
    if (!flags.yes) {
      // Removing every approval is not undone: ask the person, and never assume a yes.
      if (!stdinIsTerminal()) {
        throw new WispError(
          `wisp approvals clear asks before it removes ${these}, and there is no terminal to ask on; nothing was removed (add --yes to remove them without asking)`,
        );
      }
      if (!(await confirmRemoval(`Remove ${these}?`))) {
        errLine("nothing removed");
        return;
      }
    }
    // Only what was asked about: an approval remembered since stays.
    const ids = new Set(all.map((a) => a.id));
    const removed = store.clear((a) => ids.has(a.id));
    outLine(`removed ${removed.length} approval${removed.length === 1 ? "" : "s"}`);
    return;
  }
  const candidates = store.stored().filter((a) => isGone(a, directoryExists));
  if (candidates.length === 0) {
    outLine("no approval is for a folder that is gone");
    return;
  }
  if (stdinIsTerminal() && !flags.yes) {
    for (const a of candidates) errLine(`  ${a.id}  ${a.directory} (gone)  ${a.pattern}`);
    const message = `Remove ${
      candidates.length === 1 ? "this approval" : `these ${candidates.length} approvals`
    }?`;
    if (!(await confirmRemoval(message))) {
      errLine("nothing removed");
      return;
    }
  }
  // Decide again as we remove: a folder made again since the listing keeps its approvals.
  const ids = new Set(candidates.map((a) => a.id));
  const removed = store.clear((a) => ids.has(a.id) && isGone(a, directoryExists));
  for (const a of removed) outLine(`removed ${a.id}: ${a.directory} ${a.pattern}`);
  if (removed.length === 0) outLine("nothing removed: the folders exist again");
}

export function register(program: Command): void {
  const approvals = program
    .command("approvals")
    .description(
      "remembered approvals (list, revoke, clear) and requests waiting in wisp mcp (pending, approve, deny)",
    )
    .option("--json", 'print {"approvals": [{"id", "scope", "pattern", "directory", …}]}')
    .action((flags: { json?: boolean }) => list(flags));
  approvals.command("list").description(
    "list remembered approvals, and those running wisp mcp servers hold: id, scope, expiry, where, source, pattern",
  )
    .option("--json", 'print {"approvals": [{"id", "scope", "pattern", "directory", …}]}')
    // Commander hands flags written after `list` to whichever command declares them first.
    .action((_flags: { json?: boolean }, command: Command) =>
      list(command.optsWithGlobals<{ json?: boolean }>())
    );
  approvals.command("revoke").description(
    "forget one remembered approval, or make the running wisp mcp holding it drop it",
  ).argument(
    "<id>",
    "the approval's id",
  ).action((id: string) => revoke(id));
  approvals
    .command("clear")
    .description(
      "forget every remembered approval (asks first), or with --gone those for folders that no longer exist",
    )
    .option("--gone", "only approvals for folders that no longer exist")
    .option("-y, --yes", "do not ask first (without a terminal, clearing them all needs it)")
    .action((flags: { gone?: boolean; yes?: boolean }) => clear(flags));
}

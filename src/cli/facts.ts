/**
 * `wisp facts pending|list|keep|drop`: the facts wisp mcp callers ask you to
 * keep as permanent facts (<home>/pending, kind fact), the permanent facts
 * kept (<home>/facts.json), and answering a request.
 *
 * keep and drop run only with a terminal on standard input and send the
 * answer over the request's socket, where the server checks the process the
 * kernel names (src/gate/answerer.ts), as `wisp approvals approve|deny` does.
 * A request whose server has stopped is applied here: keep admits the fact
 * to facts.json itself, drop ends the request.
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";

/** "12 s", "3 min", "2 h". */
function waitedText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h`;
}

/** What a row of `pending` shows of one request. */
export interface FactRowInput {
  id: string;
  waited: number;
  client: string;
  thread: string;
  factId: string;
  by: string;
  subject: string;
  name: string;
  value: string;
  /** false when its server has stopped. */
  serverRunning: boolean | undefined;
}

/**
 * Rows of `pending`: on a terminal ID, WAITING, FROM, FACT, SOURCE, KEEP AS
 * PERMANENT (a stopped server noted); piped, id, seconds, client/thread,
 * fact id, who proposed it, subject, name, value.
 */
export function factRows(list: FactRowInput[], terminal: boolean): string[][] {
  return list.map((r) => {
    const from = `${r.client}/${r.thread}`;
    if (!terminal) {
      return [r.id, String(r.waited), from, r.factId, r.by, r.subject, r.name, r.value];
    }
    const keep = `${r.name || r.subject} = ${r.value}`;
    return [
      r.id,
      waitedText(r.waited),
      from,
      r.factId,
      r.by,
      r.serverRunning === false ? `${keep} (its server has stopped)` : keep,
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
  const { listPendingFacts } = await load<typeof import("../gate/pending.ts")>(
    import.meta.resolve("../gate/pending.ts"),
  );
  const { renderTable } = await load<typeof import("../util/table.ts")>(
    import.meta.resolve("../util/table.ts"),
  );
  const listed = (await listPendingFacts(homePaths().pending)).map((l): FactRowInput => ({
    id: l.request.id,
    waited: l.waited,
    client: l.request.client,
    thread: l.request.thread,
    factId: l.request.fact.id,
    by: l.request.fact.by,
    subject: l.request.fact.subject,
    name: l.request.fact.name,
    value: l.request.fact.value,
    serverRunning: l.serverRunning,
  }));
  if (flags.json) {
    outLine(JSON.stringify({ pending: listed }, null, 2));
    return;
  }
  const terminal = stdoutIsTerminal();
  if (listed.length === 0) {
    if (terminal) errLine("no fact waits to be kept");
    return;
  }
  const text = renderTable({
    headers: ["ID", "WAITING", "FROM", "FACT", "SOURCE", "KEEP AS PERMANENT"],
    rows: factRows(listed, terminal),
    terminal,
  });
  out(text);
}

async function list(flags: { json?: boolean }): Promise<void> {
  const { out, outLine, errLine, stdoutIsTerminal } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { homePaths } = await load<typeof import("../config/home.ts")>(
    import.meta.resolve("../config/home.ts"),
  );
  const { readPermanentFacts, FactError } = await load<
    typeof import("../context/facts/mod.ts")
  >(import.meta.resolve("../context/facts/mod.ts"));
  const { WispError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const { renderTable } = await load<typeof import("../util/table.ts")>(
    import.meta.resolve("../util/table.ts"),
  );
  let facts;
  try {
    facts = readPermanentFacts(homePaths().facts);
  } catch (error) {
    if (error instanceof FactError) throw new WispError(error.message);
    throw error;
  }
  if (flags.json) {
    outLine(JSON.stringify({ facts }, null, 2));
    return;
  }
  const terminal = stdoutIsTerminal();
  if (facts.length === 0) {
    if (terminal) errLine("no permanent facts are kept");
    return;
  }
  out(renderTable({
    headers: ["ID", "SUBJECT", "NAME", "VALUE", "KEPT", "FROM"],
    rows: facts.map((f) => [
      f.id,
      f.subject,
      f.name,
      f.value,
      terminal ? f.keptAt.slice(0, 10) : f.keptAt,
      f.from?.thread ? `${f.from.client ?? "?"}/${f.from.thread}` : "-",
    ]),
    terminal,
  }));
}

async function answer(id: string, decision: "keep" | "drop"): Promise<void> {
  const { UsageError, WispError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  if (!Deno.stdin.isTerminal()) {
    throw new WispError(
      `wisp facts ${decision} answers only from a terminal, so that no agent can answer for you; run it yourself in a terminal`,
    );
  }
  const { loadContext } = await load<typeof import("./context.ts")>(
    import.meta.resolve("./context.ts"),
  );
  const { answerPending } = await load<typeof import("../faces/mcp/answer.ts")>(
    import.meta.resolve("../faces/mcp/answer.ts"),
  );
  const { AuditLog } = await load<typeof import("../audit/writer.ts")>(
    import.meta.resolve("../audit/writer.ts"),
  );
  const { outLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const { paths, config } = loadContext();
  // A request whose server stopped is applied here, and audited here.
  const audited =
    (kind: "fact.kept" | "fact.dropped") =>
    (request: import("../gate/pending.ts").PendingFactRequest, permanentId?: string) => {
      if (!config.audit.enabled) return;
      const audit = AuditLog.open(paths, config.audit);
      try {
        const fact = `${request.fact.subject}${
          request.fact.name ? ` ${request.fact.name}` : ""
        } = ${request.fact.value}`;
        audit.record(kind, {
          fact,
          ...(permanentId ? { permanentId } : {}),
          by: "terminal, its server had stopped",
          pendingId: request.id,
          thread: request.thread,
        } as never);
      } finally {
        audit.close();
      }
    };
  const result = await answerPending(paths.pending, id, {
    decision,
    factsPath: paths.facts,
    onKept: audited("fact.kept"),
    onDropped: audited("fact.dropped"),
  });
  if (result.exitCode === 0) {
    outLine(result.message);
    return;
  }
  if (result.exitCode === 64) throw new UsageError(result.message);
  throw new WispError(result.message);
}

/** Add `wisp facts` and its subcommands to the command tree. */
export function register(program: Command): void {
  const facts = program
    .command("facts")
    .description("facts: what wisp mcp callers ask you to keep, and the permanent facts kept")
    .option("--json", 'print {"pending": [{"id", "waited", "thread", "factId", …}]}')
    .action(async (_flags: { json?: boolean }, command: Command) => {
      await pending(command.opts<{ json?: boolean }>());
    });
  facts
    .command("pending")
    .description("list the facts waiting for you to keep, oldest first (the default)")
    .option("--json", 'print {"pending": [{"id", "waited", "thread", "factId", …}]}')
    .action(async (_flags: { json?: boolean }, command: Command) => {
      await pending(command.optsWithGlobals<{ json?: boolean }>());
    });
  facts
    .command("list")
    .description("list the permanent facts kept in wisp's home")
    .option("--json", 'print {"facts": [{"id", "subject", "name", "value", "keptAt", …}]}')
    .action(async (_flags: { json?: boolean }, command: Command) => {
      await list(command.optsWithGlobals<{ json?: boolean }>());
    });
  facts
    .command("keep")
    .description(
      "keep a fact a wisp mcp caller asked about as a permanent fact (only from a terminal)",
    )
    .argument("<id>", "the request's id (wisp facts pending lists them)")
    .action((id: string) => answer(id, "keep"));
  facts
    .command("drop")
    .description("leave a fact in its thread, not kept (only from a terminal)")
    .argument("<id>", "the request's id (wisp facts pending lists them)")
    .action((id: string) => answer(id, "drop"));
}

/**
 * `wisp logs` — the audit log as one-line summaries, oldest first, or as
 * JSON lines. Never creates wisp's home.
 */
import { load } from "./lazy.ts";
import { type Command, InvalidArgumentError } from "commander";

interface LogsOptions {
  last?: number;
  kind?: string[];
  session?: string;
  follow?: boolean;
  json?: boolean;
}

function parseLast(value: string): number {
  if (!/^\d+$/.test(value)) {
    throw new InvalidArgumentError("it takes a whole number.");
  }
  return Number(value);
}

async function logs(options: LogsOptions): Promise<void> {
  const { homePaths } = await load<typeof import("../config/home.ts")>(
    import.meta.resolve("../config/home.ts"),
  );
  const { readAuditLog, filterEvents, describeSkipped, matchesFilter } = await import(
    "../audit/reader.ts"
  );
  const { summariseEvent } = await load<typeof import("../audit/summary.ts")>(
    import.meta.resolve("../audit/summary.ts"),
  );
  const { outLine, errLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const { terminalWidth } = await load<typeof import("../util/table.ts")>(
    import.meta.resolve("../util/table.ts"),
  );
  const paths = homePaths();
  const width = terminalWidth() ?? 100_000;
  const print = (event: Record<string, unknown>) =>
    outLine(options.json ? JSON.stringify(event) : summariseEvent(event as never, width));
  const filter = { kinds: options.kind, session: options.session, last: options.last };

  // A follower starts its tail first, so nothing appended while the history
  // is printed falls between the two.
  const { AuditTailer } = await load<typeof import("../audit/follow.ts")>(
    import.meta.resolve("../audit/follow.ts"),
  );
  const tailer = options.follow ? new AuditTailer(paths.auditLog) : undefined;
  const offset = tailer?.startAtEnd();
  const { events, skipped } = readAuditLog(paths.auditLog, offset);
  const skippedNote = describeSkipped(skipped);
  if (skippedNote) errLine(`note: ${skippedNote}`);
  for (const event of filterEvents(events, filter)) print(event);
  if (!tailer) {
    if (events.length === 0 && !skippedNote) errLine(`no audit events yet in ${paths.auditLog}`);
    return;
  }

  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const onSignal = () => stop();
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  const timer = setInterval(() => {
    for (const event of tailer.poll()) {
      if (matchesFilter(event, filter)) print(event);
    }
  }, 200);
  await stopped;
  clearInterval(timer);
  for (const event of tailer.poll()) if (matchesFilter(event, filter)) print(event);
  tailer.close();
  Deno.removeSignalListener("SIGINT", onSignal);
  Deno.removeSignalListener("SIGTERM", onSignal);
}

export function register(program: Command): void {
  program
    .command("logs")
    .description("show the audit log as one-line summaries, oldest first")
    .option("--last <n>", "only the last N events (after the other filters)", parseLast)
    .option(
      "--kind <kind>",
      "only events of this kind (repeatable)",
      (v: string, all: string[] = []) => [...all, v],
    )
    .option("--session <id>", "only events of this audit session (a prefix is enough)")
    .option("-f, --follow", "keep printing new events, across rotation, until interrupted")
    .option("--json", "print each event as its JSON line")
    .action(logs);
}

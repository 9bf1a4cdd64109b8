/**
 * `wisp watch <command>`: runs the command at once, then again when a file
 * changes under the working directory (after the changes have been quiet for
 * the settle period) and, with --every, on an interval. Each run is one line;
 * a failing run is triaged (not again while it keeps failing); a notification
 * is posted when the outcome turns. The command passes the gate before the
 * first run (asked at a terminal, or approved with --yes) and the policy and
 * the sandbox on every run. Ctrl-C stops after the current run; a second
 * Ctrl-C stops it at once.
 */
import { load } from "./lazy.ts";
import { type Command, InvalidArgumentError } from "commander";

interface WatchFlags {
  every?: number;
  files?: boolean;
  settle?: number;
  yes?: boolean;
  maxRuns?: number;
  model?: string | false;
}

function positive(what: string, min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min) {
      throw new InvalidArgumentError(`${what} takes a number of at least ${min}.`);
    }
    return n;
  };
}

export function register(program: Command): void {
  program
    .command("watch")
    .description(
      "rerun a command when files change (or on an interval); one line per run, failures triaged",
    )
    .argument("<command...>", "the command (one quoted shell line, or words after --)")
    .option("--every <seconds>", "also run every so many seconds", positive("--every", 1))
    .option("--no-files", "do not watch files (with --every)")
    .option(
      "--settle <ms>",
      "quiet time after a burst of changes before a run (default 300)",
      positive("--settle", 10),
    )
    .option(
      "-y, --yes",
      "approve the command for this watch without asking (never outside the sandbox)",
    )
    .option("-m, --model <name>", "the model that triages what no reader explains")
    .option("--no-model", "triage with the exact readers only")
    .option(
      "--max-runs <n>",
      "stop after this many runs (for scripts); exit 1 when the last one failed",
      positive("--max-runs", 1),
    )
    .addHelpText(
      "after",
      "\nExamples:\n  wisp watch -y 'swift test 2>&1'\n  wisp watch -y --no-files --every 300 'make check'",
    )
    .action(async (command: string[], flags: WatchFlags) => {
      await runWatch(command, flags);
    });
}

/** The modules a watch needs, loaded when it starts (not when the CLI does). */
async function loadWatchModules() {
  const [
    io,
    errors,
    triage,
    path,
    context,
    writer,
    runCommand,
    watch,
    service,
    notifier,
    world,
    recent,
  ] = await Promise.all([
    load<typeof import("./io.ts")>(import.meta.resolve("./io.ts")),
    load<typeof import("../util/errors.ts")>(import.meta.resolve("../util/errors.ts")),
    load<typeof import("./triage.ts")>(import.meta.resolve("./triage.ts")),
    load<typeof import("node:path")>(import.meta.resolve("node:path")),
    load<typeof import("./context.ts")>(import.meta.resolve("./context.ts")),
    load<typeof import("../audit/writer.ts")>(import.meta.resolve("../audit/writer.ts")),
    load<typeof import("../condense/run_command.ts")>(
      import.meta.resolve("../condense/run_command.ts"),
    ),
    load<typeof import("../condense/watch.ts")>(import.meta.resolve("../condense/watch.ts")),
    load<typeof import("../condense/service.ts")>(import.meta.resolve("../condense/service.ts")),
    load<typeof import("../notify/notifier.ts")>(import.meta.resolve("../notify/notifier.ts")),
    load<typeof import("../notify/world.ts")>(import.meta.resolve("../notify/world.ts")),
    load<typeof import("../notify/recent.ts")>(import.meta.resolve("../notify/recent.ts")),
  ]);
  return {
    io,
    errors,
    triage,
    path,
    context,
    writer,
    runCommand,
    watch,
    service,
    notifier,
    world,
    recent,
  };
}

type WatchModules = Awaited<ReturnType<typeof loadWatchModules>>;
type RunRecord = import("../condense/watch.ts").RunRecord;
type RunReason = import("../condense/watch.ts").RunReason;
type CapturedRun = Awaited<ReturnType<WatchModules["runCommand"]["runCaptured"]>>;

/** What every run of one watch shares: the command, where it runs, the audit, the judge. */
interface WatchSession {
  line: string;
  root: string;
  paths: ReturnType<WatchModules["context"]["loadContext"]>["paths"];
  config: ReturnType<WatchModules["context"]["loadContext"]>["config"];
  audit: import("../audit/writer.ts").AuditLog;
  choice: Awaited<ReturnType<WatchModules["service"]["chooseJudge"]>>;
}

/** Open the watch's audit session and choose the judge that triages. */
async function openWatchSession(
  m: WatchModules,
  line: string,
  flags: WatchFlags,
): Promise<WatchSession> {
  const { paths, config } = m.context.loadContext();
  const audit = m.writer.AuditLog.open(paths, config.audit, `watch-${m.writer.newSessionId()}`);
  audit.record("session.start", {
    face: "watch",
    pid: Deno.pid,
    cwd: Deno.cwd(),
    argv: ["watch", ...Deno.args.slice(1)],
  });
  const choice = await m.service.chooseJudge(config, { model: flags.model, audit });
  return { line, root: Deno.cwd(), paths, config, audit, choice };
}

/**
 * Show and audit one finished run; triage it when it newly failed, and post
 * a notification when the outcome turned.
 */
async function reportRun(
  m: WatchModules,
  session: WatchSession,
  record: RunRecord,
  previous: RunRecord | undefined,
  ran: CapturedRun,
): Promise<void> {
  const { line, audit } = session;
  m.io.outLine(m.watch.runLine(record, previous));
  audit.record("watch.run", {
    command: line,
    run: record.n,
    reason: record.reason,
    pass: record.pass,
    exitStatus: record.exitStatus,
    durationMs: Math.round(record.seconds * 1000),
    ...(previous ? { was: previous.pass ? "pass" as const : "fail" as const } : {}),
  });
  const headline = m.watch.shouldTriage(previous, record)
    ? await triageRun(m, session, ran)
    : undefined;
  if (m.watch.turned(previous, record)) {
    await notifyTurn(m, session, m.watch.notificationFor(line, record, headline));
  }
}

/** Triage a failed run from every byte it printed; its lines are shown, its headline returned. */
async function triageRun(
  m: WatchModules,
  session: WatchSession,
  ran: CapturedRun,
): Promise<string> {
  const { line, audit, choice } = session;
  const result = await m.service.runTriage({
    text: ran.scanned ?? ran.text,
    source: "command",
    command: line,
    exitStatus: ran.exitStatus,
    bytes: ran.bytes,
    ...(ran.scanned ? {} : { droppedBytes: ran.droppedBytes }),
    cap: 10,
    choice,
    audit,
  });
  for (const l of m.service.renderTriage(result).split("\n").slice(1)) m.io.outLine(`  ${l}`);
  return result.headline.replace(`${line}: `, "");
}

/** Post the notification that the outcome turned, and audit where it went. */
async function notifyTurn(
  m: WatchModules,
  session: WatchSession,
  note: { title: string; message: string },
): Promise<void> {
  const { config, paths, audit } = session;
  const notifier = new m.notifier.Notifier(
    config.notifications,
    m.world.realWorld({ terminal: false }),
    m.recent.recentNotificationTimes(paths.auditLog, Date.now()),
  );
  const outcome = await notifier.notify(note);
  audit.record("notification", {
    source: "watch",
    title: note.title,
    message: note.message,
    route: outcome.route ?? null,
    posted: outcome.posted,
    ...(outcome.reason ? { reason: outcome.reason } : {}),
  });
}

/**
 * One run of the watched command through the gate and the sandbox, every
 * byte through the readers, then shown, audited, triaged and notified;
 * `ran` is called as soon as the command has run.
 */
async function runOnce(
  m: WatchModules,
  session: WatchSession,
  reason: RunReason,
  runs: RunRecord[],
  options: {
    yes: boolean;
    signal: AbortSignal;
    ran: () => void;
    host?: import("../gate/gate.ts").ApprovalHost;
  },
): Promise<void> {
  const { line, config, paths, audit, root } = session;
  const at = new Date();
  const started = performance.now();
  const ran = await m.runCommand.runCaptured(line, "watch", {
    config,
    paths,
    audit,
    cwd: root,
    root,
    yes: options.yes,
    // The first run's question goes to the person at a terminal; the reruns are approved.
    ...(options.host && !options.yes ? { host: options.host } : {}),
    signal: options.signal,
    // Every byte through the readers as it arrives, so a failing run is triaged whole.
    scan: true,
  });
  options.ran();
  const previous = runs[runs.length - 1];
  const record: RunRecord = {
    n: runs.length + 1,
    reason,
    pass: ran.exitStatus === 0,
    exitStatus: ran.exitStatus,
    seconds: (performance.now() - started) / 1000,
    at,
  };
  runs.push(record);
  await reportRun(m, session, record, previous, ran);
}

/** Call `onChange` for each file event under the root that counts (not ignored, not wisp's home). */
function watchTree(
  m: WatchModules,
  session: WatchSession,
  onChange: () => void,
): Deno.FsWatcher {
  const { root, paths } = session;
  let gitignore: string | undefined;
  try {
    gitignore = Deno.readTextFileSync(`${root}/.gitignore`);
  } catch { /* none */ }
  const filter = m.watch.changeFilter(gitignore);
  const watcher = Deno.watchFs(root, { recursive: true });
  (async () => {
    try {
      for await (const event of watcher) {
        if (event.kind === "access" || event.kind === "other") continue;
        // wisp's own home (its audit log, stored outputs) may sit under the project: never a change.
        const own = (p: string) => p === paths.root || p.startsWith(paths.root + "/");
        if (event.paths.some((p) => !own(p) && filter.counts(m.path.relative(root, p)))) {
          onChange();
        }
      }
    } catch { /* closed */ }
  })();
  return watcher;
}

async function runWatch(words: string[], flags: WatchFlags): Promise<void> {
  const m = await loadWatchModules();
  const line = m.triage.commandLine(words);
  if (!line) throw new m.errors.UsageError("give the command to watch: wisp watch 'make test'");
  const watchFiles = flags.files !== false;
  if (!watchFiles && flags.every === undefined) {
    throw new m.errors.UsageError(
      "--no-files needs --every, or nothing would run the command again",
    );
  }
  const session = await openWatchSession(m, line, flags);
  const { audit, root } = session;
  const settleMs = flags.settle ?? 300;

  const runs: RunRecord[] = [];
  const kill = new AbortController();
  let approved = flags.yes === true;
  const { terminalApprovalHost } = await load<
    typeof import("../faces/terminal/approval_dialog.ts")
  >(import.meta.resolve("../faces/terminal/approval_dialog.ts"));
  const host = terminalApprovalHost({
    colour: m.io.palette(m.io.colourEnabled(Deno.stderr.isTerminal())),
  });
  let running = false;
  let pendingChange = false;
  let pendingEvery = false;
  let interrupts = 0;
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  let everyTimer: ReturnType<typeof setInterval> | undefined;
  let watcher: Deno.FsWatcher | undefined;
  let finished = false;
  let failure: unknown;
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((resolve) => (resolveDone = resolve));

  const finish = () => {
    if (finished) return;
    finished = true;
    if (settleTimer !== undefined) clearTimeout(settleTimer);
    if (everyTimer !== undefined) clearInterval(everyTimer);
    try {
      watcher?.close();
    } catch { /* closed */ }
    resolveDone();
  };

  const doRun = async (reason: RunReason) => {
    if (finished) return;
    running = true;
    try {
      await runOnce(m, session, reason, runs, {
        yes: approved,
        ...(host ? { host } : {}),
        signal: kill.signal,
        // Approving the watch covers its reruns; each still passes the policy and runs sandboxed.
        ran: () => (approved = true),
      });
    } catch (error) {
      if (runs.length === 0) {
        failure = error; // the first run refused or unable to start: the watch ends with the reason
        finish();
        return;
      }
      m.io.errLine(`error: run ${runs.length + 1}: ${(error as Error).message}`);
    } finally {
      running = false;
    }
    const next = m.watch.afterRun({
      runs: runs.length,
      maxRuns: flags.maxRuns,
      interrupts,
      pendingChange,
      pendingEvery,
    });
    if (next === "max-runs-reached") {
      m.io.cliState.exitCode = runs[runs.length - 1].pass ? 0 : 1;
      finish();
    } else if (next === "interrupted") {
      finish();
    } else if (next === "rerun-on-change") {
      pendingChange = false;
      schedule();
    } else if (next === "rerun-on-interval") {
      pendingEvery = false;
      void doRun("every");
    }
  };

  // A burst of changes starts one run, once they have been quiet for the settle period.
  const schedule = () => {
    if (finished) return;
    if (running) {
      pendingChange = true;
      return;
    }
    if (settleTimer !== undefined) clearTimeout(settleTimer);
    settleTimer = setTimeout(() => {
      settleTimer = undefined;
      if (running) pendingChange = true;
      else void doRun("change");
    }, settleMs);
  };

  const onSignal = () => {
    interrupts++;
    if (interrupts === 1 && running) {
      m.io.errLine("stopping after this run (Ctrl-C again to stop now)");
      return;
    }
    if (running) kill.abort();
    finish();
  };
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  try {
    if (watchFiles) watcher = watchTree(m, session, schedule);
    if (flags.every !== undefined) {
      everyTimer = setInterval(() => {
        if (running) pendingEvery = true;
        else void doRun("every");
      }, flags.every * 1000);
    }
    m.io.errLine(
      `watching ${watchFiles ? root : "nothing"}${
        flags.every ? `, every ${flags.every} s` : ""
      }: ${line} (Ctrl-C to stop)`,
    );
    void doRun("start");
    await done;
    // A run stopped at once still needs its process group ended before the exit.
    while (running) await new Promise((r) => setTimeout(r, 20));
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
    audit.close();
  }
  if (failure) throw failure;
}

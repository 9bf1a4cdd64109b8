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

async function runWatch(words: string[], flags: WatchFlags): Promise<void> {
  const { cliState, errLine, outLine, colourEnabled, palette } = await load<
    typeof import("./io.ts")
  >(import.meta.resolve("./io.ts"));
  const { UsageError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const { commandLine } = await load<typeof import("./triage.ts")>(
    import.meta.resolve("./triage.ts"),
  );
  const line = commandLine(words);
  if (!line) throw new UsageError("give the command to watch: wisp watch 'make test'");
  const watchFiles = flags.files !== false;
  if (!watchFiles && flags.every === undefined) {
    throw new UsageError("--no-files needs --every, or nothing would run the command again");
  }
  const { relative } = await load<typeof import("node:path")>(import.meta.resolve("node:path"));
  const { loadContext } = await load<typeof import("./context.ts")>(
    import.meta.resolve("./context.ts"),
  );
  const { AuditLog, newSessionId } = await load<typeof import("../audit/writer.ts")>(
    import.meta.resolve("../audit/writer.ts"),
  );
  const { runCaptured } = await load<typeof import("../condense/run_command.ts")>(
    import.meta.resolve("../condense/run_command.ts"),
  );
  const watch = await load<typeof import("../condense/watch.ts")>(
    import.meta.resolve("../condense/watch.ts"),
  );
  const service = await load<typeof import("../condense/service.ts")>(
    import.meta.resolve("../condense/service.ts"),
  );
  const { Notifier } = await load<typeof import("../notify/notifier.ts")>(
    import.meta.resolve("../notify/notifier.ts"),
  );
  const { realWorld } = await load<typeof import("../notify/world.ts")>(
    import.meta.resolve("../notify/world.ts"),
  );
  const { recentNotificationTimes } = await load<typeof import("../notify/recent.ts")>(
    import.meta.resolve("../notify/recent.ts"),
  );

  const { paths, config } = loadContext();
  const audit = AuditLog.open(paths, config.audit, `watch-${newSessionId()}`);
  audit.record("session.start", {
    face: "watch",
    pid: Deno.pid,
    cwd: Deno.cwd(),
    argv: ["watch", ...Deno.args.slice(1)],
  });
  const root = Deno.cwd();
  let gitignore: string | undefined;
  try {
    gitignore = Deno.readTextFileSync(`${root}/.gitignore`);
  } catch { /* none */ }
  const filter = watch.changeFilter(gitignore);
  const settleMs = flags.settle ?? 300;
  const choice = await service.chooseJudge(config, { model: flags.model, audit });

  const runs: import("../condense/watch.ts").RunRecord[] = [];
  const kill = new AbortController();
  let approved = flags.yes === true;
  const { terminalApprovalHost } = await load<
    typeof import("../faces/terminal/approval_dialog.ts")
  >(import.meta.resolve("../faces/terminal/approval_dialog.ts"));
  const host = terminalApprovalHost({
    colour: palette(colourEnabled(Deno.stderr.isTerminal())),
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

  const doRun = async (reason: import("../condense/watch.ts").RunReason) => {
    if (finished) return;
    running = true;
    const at = new Date();
    const started = performance.now();
    try {
      const ran = await runCaptured(line, "watch", {
        config,
        paths,
        audit,
        cwd: root,
        root,
        yes: approved,
        // The first run's question goes to the person at a terminal; the reruns are approved.
        ...(host && !approved ? { host } : {}),
        signal: kill.signal,
        // Every byte through the readers as it arrives, so a failing run is triaged whole.
        scan: true,
      });
      // Approving the watch covers its reruns; each still passes the policy and runs sandboxed.
      approved = true;
      const previous = runs[runs.length - 1];
      const record = {
        n: runs.length + 1,
        reason,
        pass: ran.exitStatus === 0,
        exitStatus: ran.exitStatus,
        seconds: (performance.now() - started) / 1000,
        at,
      };
      runs.push(record);
      outLine(watch.runLine(record, previous));
      audit.record("watch.run", {
        command: line,
        run: record.n,
        reason,
        pass: record.pass,
        exitStatus: record.exitStatus,
        durationMs: Math.round(record.seconds * 1000),
        ...(previous ? { was: previous.pass ? "pass" as const : "fail" as const } : {}),
      });
      let headline: string | undefined;
      if (watch.shouldTriage(previous, record)) {
        const result = await service.runTriage({
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
        headline = result.headline.replace(`${line}: `, "");
        for (const l of service.renderTriage(result).split("\n").slice(1)) outLine(`  ${l}`);
      }
      if (watch.turned(previous, record)) {
        const note = watch.notificationFor(line, record, headline);
        const notifier = new Notifier(
          config.notifications,
          realWorld({ terminal: false }),
          recentNotificationTimes(paths.auditLog, Date.now()),
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
    } catch (error) {
      if (runs.length === 0) {
        failure = error; // the first run refused or unable to start: the watch ends with the reason
        finish();
        return;
      }
      errLine(`error: run ${runs.length + 1}: ${(error as Error).message}`);
    } finally {
      running = false;
    }
    if (flags.maxRuns !== undefined && runs.length >= flags.maxRuns) {
      cliState.exitCode = runs[runs.length - 1].pass ? 0 : 1;
      finish();
      return;
    }
    if (interrupts > 0) {
      finish();
      return;
    }
    if (pendingChange) {
      pendingChange = false;
      schedule();
    } else if (pendingEvery) {
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
      errLine("stopping after this run (Ctrl-C again to stop now)");
      return;
    }
    if (running) kill.abort();
    finish();
  };
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  try {
    if (watchFiles) {
      watcher = Deno.watchFs(root, { recursive: true });
      (async () => {
        try {
          for await (const event of watcher!) {
            if (event.kind === "access" || event.kind === "other") continue;
            // wisp's own home (its audit log, stored outputs) may sit under the project: never a change.
            const own = (p: string) => p === paths.root || p.startsWith(paths.root + "/");
            if (event.paths.some((p) => !own(p) && filter.counts(relative(root, p)))) schedule();
          }
        } catch { /* closed */ }
      })();
    }
    if (flags.every !== undefined) {
      everyTimer = setInterval(() => {
        if (running) pendingEvery = true;
        else void doRun("every");
      }, flags.every * 1000);
    }
    errLine(
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

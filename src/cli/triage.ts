/**
 * `wisp triage [--json] [--path FILE | -- COMMAND…]`: the failures in a build
 * or test output, read exactly by the readers for known formats and, when a
 * model is configured, by the model for what they leave. Reads a file, a
 * command's output (run through the gate and the runner, as run_command runs
 * it), or standard input. Exits 1 when it finds errors or failed tests, 2
 * when the command (or the --exit-status given) failed and no reader found
 * why, 0 otherwise; 64 for a usage error.
 */
import { load } from "./lazy.ts";
import { type Command, InvalidArgumentError } from "commander";
import type { Scanned } from "../condense/scan.ts";

interface TriageFlags {
  json?: boolean;
  path?: string;
  cap?: number;
  model?: string | false;
  yes?: boolean;
  exitStatus?: number;
  quiet?: boolean;
}

/** Whether the working line is shown (a command running, a file or standard input read): on a terminal, unless --quiet. */
export function wantsProgress(quiet: boolean | undefined, stderrIsTerminal: boolean): boolean {
  return !quiet && stderrIsTerminal;
}

/** The working line: `wisp triage: running, 12 s, 3,456 lines read` (`reading` for a file or standard input). */
export function progressLine(elapsedMs: number, lines: number, doing = "running"): string {
  return `wisp triage: ${doing}, ${Math.floor(elapsedMs / 1000)} s, ${
    lines.toLocaleString("en-US")
  } lines read`;
}

function parseCap(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new InvalidArgumentError("it takes a whole number of at least 1.");
  }
  return Number(value);
}

function parseExitStatus(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 255) {
    throw new InvalidArgumentError("it takes the exit status of the command, 0 to 255.");
  }
  return Number(value);
}

export function register(program: Command): void {
  program
    .command("triage")
    .description(
      "the failures in a build or test output: a headline and a short list, read from a file, a command, or standard input",
    )
    .argument(
      "[command...]",
      "a command to run (after --), through the same gate and sandbox as the model's commands",
    )
    .option(
      "--json",
      'print {"headline": …, "findings": [{"kind", "location", "test", "message"}]}',
    )
    .option("--path <file>", "read the output from a file (- for standard input)")
    .option("--cap <n>", "list at most this many findings (default 25)", parseCap)
    .option(
      "-m, --model <name>",
      "the model that judges what no reader explains (default: routing.tasks.triage, else model)",
    )
    .option("--no-model", "exact readers only")
    .option(
      "--exit-status <n>",
      "the exit status of the command whose output is read from --path or standard input (a failed one is never reported clean)",
      parseExitStatus,
    )
    .option("-y, --yes", "approve running the command without asking (never outside the sandbox)")
    .option("-q, --quiet", "no working line on the terminal while the output is read")
    .addHelpText(
      "after",
      "\nExamples:\n  cargo test 2>&1 | wisp triage\n  wisp triage --path build.log --json\n  wisp triage -y -- swift test",
    )
    .action(async (command: string[], flags: TriageFlags) => {
      await runTriageCommand(command, flags);
    });
}

/** One argument is a shell line as typed ('make test 2>&1'); several are words, each quoted as needed. */
export function commandLine(words: string[]): string | undefined {
  if (words.length === 0) return undefined;
  if (words.length === 1) return words[0];
  return words.map((w) => /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`).join(
    " ",
  );
}

async function runTriageCommand(command: string[], flags: TriageFlags): Promise<void> {
  const { cliState, err, outLine, stdinIsTerminal, colourEnabled, palette } = await load<
    typeof import("./io.ts")
  >(import.meta.resolve("./io.ts"));
  const { UsageError, WispError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const { loadContext } = await load<typeof import("./context.ts")>(
    import.meta.resolve("./context.ts"),
  );
  const { AuditLog, newSessionId } = await load<typeof import("../audit/writer.ts")>(
    import.meta.resolve("../audit/writer.ts"),
  );
  const { scanFile, scanStream } = await load<typeof import("../condense/input.ts")>(
    import.meta.resolve("../condense/input.ts"),
  );
  const service = await load<typeof import("../condense/service.ts")>(
    import.meta.resolve("../condense/service.ts"),
  );

  // `-` names standard input, as it does for `wisp scan -` and most tools: `--path -`, or `-` alone
  // where a command would go (no program is called `-`). Asked for by name, even a terminal is read.
  const stdinNamed = flags.path === "-" || (command.length === 1 && command[0] === "-");
  if (stdinNamed) {
    if (flags.path === "-" && command.length > 0) {
      throw new UsageError("give either --path FILE or a command after --, not both");
    }
    flags = { ...flags, path: undefined };
    command = [];
  }
  if (flags.path && command.length > 0) {
    throw new UsageError("give either --path FILE or a command after --, not both");
  }
  if (flags.exitStatus !== undefined && command.length > 0) {
    throw new UsageError(
      "--exit-status is for output read from --path or standard input; a command's own status is used",
    );
  }
  if (!stdinNamed && !flags.path && command.length === 0 && stdinIsTerminal()) {
    throw new UsageError(
      "give --path FILE, a command after -- (wisp triage -- make test), or pipe output in (make test 2>&1 | wisp triage)",
    );
  }
  const { paths, config } = loadContext();
  const audit = AuditLog.open(paths, config.audit, `triage-${newSessionId()}`);
  audit.record("session.start", {
    face: "triage",
    pid: Deno.pid,
    cwd: Deno.cwd(),
    argv: ["triage", ...Deno.args.slice(1)],
  });
  try {
    let input: Scanned;
    let exitStatus: number | null | undefined;
    let source: "command" | "path" | "stdin";
    const line = commandLine(command);
    // On a terminal, a working line (elapsed seconds, lines read) on stderr, redrawn each half second.
    let ticker: ReturnType<typeof setInterval> | undefined;
    const started = Date.now();
    const progress = wantsProgress(flags.quiet, Deno.stderr.isTerminal());
    const doing = line !== undefined ? "running" : "reading";
    const watch = progress
      ? {
        onScanning: (linesRead: () => number) => {
          ticker = setInterval(() => {
            err(`\r\x1b[2K${progressLine(Date.now() - started, linesRead(), doing)}`);
          }, 500);
        },
      }
      : {};
    try {
      if (line !== undefined) {
        const { runForTriage } = await load<typeof import("../condense/run_command.ts")>(
          import.meta.resolve("../condense/run_command.ts"),
        );
        const { terminalApprovalHost } = await load<
          typeof import("../faces/terminal/approval_dialog.ts")
        >(import.meta.resolve("../faces/terminal/approval_dialog.ts"));
        // At a terminal the person answers the gate's question; piped, no one can.
        const host = terminalApprovalHost({
          colour: palette(colourEnabled(Deno.stderr.isTerminal())),
        });
        const ran = await runForTriage(line, {
          config,
          paths,
          audit,
          yes: flags.yes,
          ...(host ? { host } : {}),
          ...watch,
        });
        input = ran.scanned!;
        exitStatus = ran.exitStatus;
        source = "command";
      } else if (flags.path) {
        try {
          input = await scanFile(flags.path, flags.path, watch);
        } catch (error) {
          // A missing file, a folder, a device or a FIFO: the sentence, and what to give instead.
          if (error instanceof Error && error.name === "ToolInputError") {
            throw new WispError(`${error.message}; give the path of an output file`);
          }
          throw error;
        }
        source = "path";
        exitStatus = flags.exitStatus;
      } else {
        input = await scanStream(Deno.stdin.readable, watch);
        source = "stdin";
        exitStatus = flags.exitStatus;
      }
    } finally {
      if (ticker !== undefined) {
        clearInterval(ticker);
        err("\r\x1b[2K");
      }
    }
    const choice = await service.chooseJudge(config, { model: flags.model, audit });
    const result = await service.runTriage({
      text: input,
      source,
      command: line,
      path: flags.path,
      exitStatus,
      bytes: input.bytes,
      cap: flags.cap,
      choice,
      audit,
    });
    const json = service.triageJson(result);
    outLine(flags.json ? JSON.stringify(json) : service.renderTriage(result));
    cliState.exitCode = json.exitCode;
  } finally {
    audit.close();
  }
}

/**
 * `wisp sandbox [--no-network] [--writable PATH]… -- CMD [ARG…]`: run one
 * program under wisp's sandbox, rooted at the current directory, with stdio
 * passed through, and exit with its status (128+N when a signal N ended it).
 * The policy's deny list applies first, and the run is audited as the
 * person's command (origin "sandbox"). The sandbox is always on here, whatever
 * commandPolicy.sandbox.enabled says: confining the command is the point.
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";

/** Quote one argument for `sh -c` (pure): bare when safe, else single-quoted. */
export function shellQuote(arg: string): string {
  if (arg !== "" && /^[A-Za-z0-9_\/.,:=+@%^-]+$/.test(arg)) return arg;
  return "'" + arg.replaceAll("'", "'\\''") + "'";
}

/** The shell line that runs argv exactly. */
export function shellLine(argv: string[]): string {
  return argv.map(shellQuote).join(" ");
}

/** The exit code `wisp sandbox` ends with for a run's status (pure). */
export function exitCodeFor(exitStatus: number | null): number {
  if (exitStatus === null) return 1;
  if (exitStatus < 0) return 128 + -exitStatus;
  return exitStatus;
}

interface SandboxOptions {
  network: boolean;
  writable: string[];
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function register(program: Command): void {
  program
    .command("sandbox")
    .description(
      "run a program under wisp's sandbox, rooted at the current directory, with its output passed through",
    )
    .argument("<command...>", "the program and its arguments (put -- before them)")
    .option("--no-network", "cut the program off the network")
    .option("--writable <path>", "also let it write under PATH (repeatable)", collect, [])
    .showHelpAfterError("(put -- before the program and its options: wisp sandbox -- CMD [ARG…])")
    .addHelpText(
      "after",
      "\nWrites succeed only inside the current directory, the temporary directories, your cache\n" +
        "directory, commandPolicy.sandbox.writablePaths and --writable paths; wisp's home is never\n" +
        "writable. Example: wisp sandbox --no-network -- make test",
    )
    .action(async (argv: string[], options: SandboxOptions) => {
      const { runSandbox } = await load<typeof import("./sandbox_command.ts")>(
        import.meta.resolve("./sandbox_command.ts"),
      );
      await runSandbox(argv, options);
    });
}

/**
 * Runs the command tree on argv and maps every outcome to an exit code:
 * 0 success, 1 a failure (or a finding, like doctor's), 64 a usage error or a
 * malformed config. Errors are one line on stderr; no stack traces at a user
 * (WISP_LOG=debug prints them).
 */
import { CommanderError } from "commander";
import { buildProgram } from "./program.ts";
import { cliState, errLine } from "./io.ts";
import { EXIT, messageOf, WispError } from "../util/errors.ts";

function debugEnabled(): boolean {
  try {
    return Deno.env.get("WISP_LOG") === "debug";
  } catch {
    return false;
  }
}

export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  let usageShown = false;
  const applyToAll = (command: typeof program) => {
    command.exitOverride();
    command.configureOutput({
      writeOut: (s) => Deno.stdout.writeSync(new TextEncoder().encode(s)),
      writeErr: (s) => Deno.stderr.writeSync(new TextEncoder().encode(s)),
      outputError: (s, write) => {
        usageShown = true;
        const line = s.trim().replace(/^error: /, "");
        write(`error: ${line}${line.endsWith(".") || line.endsWith(")") ? "" : ""}\n`);
      },
    });
    for (const sub of command.commands) applyToAll(sub);
  };
  applyToAll(program);
  cliState.exitCode = 0;
  try {
    await program.parseAsync(argv, { from: "user" });
    return cliState.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" || error.code === "commander.version" ||
        error.code === "commander.help"
      ) {
        return EXIT.ok;
      }
      if (!usageShown) errLine(`error: ${error.message.replace(/^error: /, "")}`);
      return EXIT.usage;
    }
    if (error instanceof WispError) {
      errLine(`error: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof Deno.errors.NotCapable) {
      errLine(`error: wisp's permission fence refused an operation (${messageOf(error)})`);
      return EXIT.failure;
    }
    errLine(`error: ${messageOf(error)}`);
    if (debugEnabled() && error instanceof Error && error.stack) errLine(error.stack);
    return EXIT.failure;
  }
}

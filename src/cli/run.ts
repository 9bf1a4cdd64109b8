/**
 * Runs the command tree on argv and maps every outcome to an exit code:
 * 0 success, 1 a failure (or a finding, like doctor's), 64 a usage error or a
 * malformed config. Errors are one line on stderr; no stack traces at a user
 * (WISP_LOG=debug prints them).
 *
 * The commander configuration every command shares is here, in one place:
 * output through src/cli/io.ts (a closed stdout ends the command quietly),
 * errors thrown rather than exiting, and a word that is not a subcommand of a
 * group reported as that (`wisp config lst`), not as an argument too many for
 * the group's default.
 */
import { type Command, CommanderError } from "commander";
import {
  buildProgram,
  helpTopicProblem,
  promptWordProblem,
  unknownCommandSentence,
} from "./program.ts";
import { cliState, err, errLine, out } from "./io.ts";
import { EXIT, UsageError } from "../util/errors.ts";
import { installLogMask, reportError } from "./exit.ts";

installLogMask();

/**
 * The group a word was meant to name a subcommand of, when commander's
 * complaint is about that word: an unknown command in a group, or a word too
 * many for a group's own action or for the default subcommand it ran
 * without being named (`wisp config lst` runs `config show` with `lst`).
 */
function groupOfStrayWord(
  failed: Command,
  code: string,
): { group: Command; word: string } | undefined {
  if (code !== "commander.excessArguments" && code !== "commander.unknownCommand") return undefined;
  if (failed.commands.length > 0 && failed.args.length > 0) {
    return { group: failed, word: failed.args[0] };
  }
  const parent = failed.parent;
  if (!parent || parent.args.length === 0) return undefined;
  const named = parent.args[0] === failed.name() || failed.aliases().includes(parent.args[0]);
  return named ? undefined : { group: parent, word: parent.args[0] };
}

export async function runCli(argv: string[]): Promise<number> {
  // `wisp -- doctor`: what follows a leading -- is a prompt, never a command.
  if (argv[0] === "--") argv = ["respond", ...argv];
  const program = buildProgram();
  let usageMessage: string | undefined;
  let failed: Command | undefined;
  const applyToAll = (command: Command) => {
    command.exitOverride((error) => {
      failed ??= command;
      throw error;
    });
    command.configureOutput({
      writeOut: out,
      writeErr: err,
      // Held until the error reaches the catch below, which may say it better.
      outputError: (s) => (usageMessage = s.trim().replace(/^error: /, "").replace(/\n/g, " ")),
    });
    for (const sub of command.commands) applyToAll(sub);
  };
  applyToAll(program);
  program.commands.find((c) => c.name() === "respond")?.hook("preAction", async (_, action) => {
    const problem = await promptWordProblem(argv, action.processedArgs[0] ?? [], program);
    if (problem) throw new UsageError(problem);
  });
  cliState.exitCode = 0;
  try {
    const helpProblem = helpTopicProblem(argv, program);
    if (helpProblem) throw new UsageError(helpProblem);
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
      const stray = failed && groupOfStrayWord(failed, error.code);
      const message = stray
        ? unknownCommandSentence(stray.word, stray.group)
        : usageMessage ?? error.message.replace(/^error: /, "");
      errLine(`error: ${message}`);
      return EXIT.usage;
    }
    return reportError(error);
  }
}

/**
 * `wisp completions zsh|bash|fish` (also `completions print SHELL`) prints
 * the completion script generated from the command tree;
 * `completions install [SHELL] [--print-path]` writes it where the shell
 * looks; the hidden `completions values KIND [SETTING]` is what the scripts
 * run at Tab time for values from wisp's own files (docs/completions.md).
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";

const SHELL_NAMES = "zsh, bash or fish";

/** The script for `shell`, generated from the full command tree. */
async function scriptFor(shell: string): Promise<string> {
  const { UsageError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const { SHELLS, completionScript } = await load<typeof import("./completions_scripts.ts")>(
    import.meta.resolve("./completions_scripts.ts"),
  );
  if (!(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(`unknown shell '${shell}'; wisp completions takes ${SHELL_NAMES}`);
  }
  const { buildProgram } = await load<typeof import("./program.ts")>(
    import.meta.resolve("./program.ts"),
  );
  const { completionTree } = await load<typeof import("./completions_tree.ts")>(
    import.meta.resolve("./completions_tree.ts"),
  );
  const { VERSION } = await load<typeof import("../version.ts")>(
    import.meta.resolve("../version.ts"),
  );
  return completionScript(shell as "zsh", completionTree(buildProgram()), VERSION);
}

async function print(shell: string | undefined, _flags: unknown, command: Command): Promise<void> {
  const { UsageError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  if (shell === undefined) {
    throw new UsageError(
      "name the shell: wisp completions zsh, wisp completions bash or wisp completions fish",
    );
  }
  const { SHELLS } = await load<typeof import("./completions_scripts.ts")>(
    import.meta.resolve("./completions_scripts.ts"),
  );
  if (command.name() === "completions" && !(SHELLS as readonly string[]).includes(shell)) {
    // `wisp completions zzqx`: a word of the group, said the way every group says it.
    const { unknownCommandSentence } = await load<typeof import("./program.ts")>(
      import.meta.resolve("./program.ts"),
    );
    throw new UsageError(
      `${unknownCommandSentence(shell, command)} (or name a shell: ${SHELL_NAMES})`,
    );
  }
  const { out } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  out(await scriptFor(shell));
}

async function install(shell: string | undefined, flags: { printPath?: boolean }): Promise<void> {
  const { chooseShell, installPath, installScript, advice } = await load<
    typeof import("./completions_install.ts")
  >(import.meta.resolve("./completions_install.ts"));
  const { outLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const env = (name: string) => Deno.env.get(name);
  const chosen = chooseShell(shell, env);
  const path = installPath(chosen, env);
  if (flags.printPath) {
    outLine(path);
    return;
  }
  const outcome = installScript(path, await scriptFor(chosen));
  outLine(
    outcome.written
      ? `wrote the ${chosen} completions to ${outcome.path}`
      : `the ${chosen} completions at ${outcome.path} are current`,
  );
  for (const line of advice(chosen, path, env)) outLine(line);
}

async function values(kind: string, setting: string | undefined): Promise<void> {
  const { VALUE_KINDS } = await load<typeof import("./completions_tree.ts")>(
    import.meta.resolve("./completions_tree.ts"),
  );
  const { UsageError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  if (!(VALUE_KINDS as readonly string[]).includes(kind)) {
    throw new UsageError(`unknown kind '${kind}'; the kinds are ${VALUE_KINDS.join(", ")}`);
  }
  const { completionValues, valueLines } = await load<
    typeof import("./completions_values.ts")
  >(import.meta.resolve("./completions_values.ts"));
  const { out } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  out(valueLines(await completionValues(kind as "models", setting)));
}

export function register(program: Command): void {
  const completions = program
    .command("completions")
    .description("print or install shell completion for zsh, bash and fish")
    .argument("[shell]", `the shell to print the script for: ${SHELL_NAMES}`)
    .action(print);
  completions.command("print")
    .description("print the completion script (the same as wisp completions SHELL)")
    .argument("<shell>", `${SHELL_NAMES}`)
    .action(print);
  completions.command("install")
    .description("write the script where the shell looks for it, and say how to turn it on")
    .argument("[shell]", `${SHELL_NAMES} (default: the shell $SHELL names)`)
    .option("--print-path", "print where it would go; write nothing")
    .action(install);
  completions.command("values", { hidden: true })
    .description("the values the scripts complete at Tab time (one value<TAB>description a line)")
    .argument(
      "<kind>",
      "models, settings, setting-values, pending, approvals, classifier-versions or tools",
    )
    .argument("[setting]", "the setting whose values to list (for setting-values)")
    .action(values);
}

/**
 * `wisp completions install [SHELL] [--print-path]`: where each shell looks
 * for a completion file, and writing the script there without ever
 * overwriting a file that is not wisp's. Shell start-up files are never
 * edited; what to add to them is printed instead. Nothing here reads or
 * writes wisp's home.
 */
import { dirname, join } from "node:path";
import { UsageError, WispError } from "../util/errors.ts";
import { isWispScript, type Shell, SHELLS } from "./completions_scripts.ts";

type Env = (name: string) => string | undefined;

/** The shell to install for: the one named, else the one $SHELL names. */
export function chooseShell(named: string | undefined, env: Env): Shell {
  if (named !== undefined) {
    if ((SHELLS as readonly string[]).includes(named)) return named as Shell;
    throw new UsageError(`unknown shell '${named}'; wisp completes zsh, bash and fish`);
  }
  const fromEnv = (env("SHELL") ?? "").split("/").pop() ?? "";
  if ((SHELLS as readonly string[]).includes(fromEnv)) return fromEnv as Shell;
  throw new UsageError(
    `cannot tell your shell from $SHELL (${
      fromEnv || "not set"
    }); name it: wisp completions install zsh, bash or fish`,
  );
}

function homeOf(env: Env): string {
  const home = env("HOME");
  if (!home) throw new WispError("HOME is not set, so there is no place to install completions");
  return home;
}

/** Where `shell` loads wisp's completions from, for this user. */
export function installPath(shell: Shell, env: Env): string {
  const home = homeOf(env);
  switch (shell) {
    case "zsh":
      return join(home, ".zsh", "completions", "_wisp");
    case "bash": {
      // bash-completion 2 loads <user dir>/completions/<command> on first Tab.
      const userDir = env("BASH_COMPLETION_USER_DIR") ||
        join(env("XDG_DATA_HOME") || join(home, ".local", "share"), "bash-completion");
      return join(userDir, "completions", "wisp");
    }
    case "fish":
      return join(
        env("XDG_CONFIG_HOME") || join(home, ".config"),
        "fish",
        "completions",
        "wisp.fish",
      );
  }
}

/** `path` with the home folder written as ~, for advice a person copies. */
function tilde(path: string, env: Env): string {
  const home = env("HOME");
  return home && path.startsWith(home + "/") ? `~${path.slice(home.length)}` : path;
}

/** What to do after the file is in place, so that the shell loads it. */
export function advice(shell: Shell, path: string, env: Env): string[] {
  const dir = dirname(path);
  switch (shell) {
    case "zsh": {
      const fpath = (env("FPATH") ?? "").split(":");
      if (fpath.includes(dir)) return ["start a new zsh (exec zsh) to use them."];
      return [
        `Unless ${
          tilde(dir, env)
        } is already on your fpath, add these lines to ~/.zshrc, before any compinit there:`,
        `  fpath+=(${tilde(dir, env)})`,
        "  autoload -U compinit; compinit",
        "then start a new zsh (exec zsh).",
      ];
    }
    case "bash":
      return [
        "bash-completion 2 loads them in new shells (install it with your package manager, " +
        "or brew install bash-completion@2); without it, add this line to ~/.bashrc:",
        `  source ${tilde(path, env)}`,
      ];
    case "fish":
      return ["fish loads them in new sessions."];
  }
}

/** What install did: wrote the file, or found it already current. */
export interface InstallOutcome {
  /** The file written (a link's target when the path is a link to wisp's file). */
  path: string;
  written: boolean;
}

function describeError(error: unknown): string {
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (error instanceof Deno.errors.NotADirectory) return "a part of the path is not a folder";
  if (error instanceof Error && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return error instanceof Error ? error.message : String(error);
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Write `script` at `path`: folders are created; an existing file is
 * replaced only when it is wisp's; a symbolic link is kept and written
 * through when it leads to wisp's file. Refusals are WispErrors (exit 1).
 */
export function installScript(path: string, script: string): InstallOutcome {
  let target = path;
  let info: Deno.FileInfo | undefined;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      throw new WispError(`cannot look at ${path} (${describeError(error)}); nothing was written`);
    }
  }
  if (info?.isSymlink) {
    let real: string;
    try {
      real = Deno.realPathSync(path);
    } catch {
      throw new WispError(
        `${path} is a link to nothing; remove it or point it at a file, then run install again`,
      );
    }
    const text = Deno.statSync(real).isFile ? readText(real) : undefined;
    if (text === undefined || !isWispScript(text)) {
      throw new WispError(
        `${path} is a link to ${real}, which is not wisp's completions; it was left as it is`,
      );
    }
    target = real;
  } else if (info) {
    const text = info.isFile ? readText(path) : undefined;
    if (text === undefined || !isWispScript(text)) {
      throw new WispError(
        `${path} exists and is not wisp's completions; it was left as it is (move it away to install)`,
      );
    }
  }
  if (readText(target) === script) return { path: target, written: false };
  const temp = `${target}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    Deno.mkdirSync(dirname(target), { recursive: true });
    Deno.writeTextFileSync(temp, script, { mode: 0o644 });
    Deno.chmodSync(temp, 0o644);
    Deno.renameSync(temp, target);
  } catch (error) {
    try {
      Deno.removeSync(temp);
    } catch { /* never made */ }
    throw new WispError(`cannot write ${target} (${describeError(error)}); nothing was changed`);
  }
  return { path: target, written: true };
}

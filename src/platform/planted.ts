/**
 * After a confined command: the protected paths bubblewrap could not guard.
 * A protected path that did not exist at launch (a missing `.envrc`,
 * `.vscode`, `~/.zshrc` in a home that is a root) cannot be bound, since
 * bubblewrap can only bind what exists and creating a placeholder would
 * change the project. So wisp looks once the command has ended — when nothing
 * it started is left, its PID namespace gone — and moves each one the
 * command created aside, under a name nothing runs, and says so. Seatbelt
 * denies these by path, so on a Mac the command could not create them.
 */
import { basename, dirname } from "../util/path.ts";
import type { WritableSet } from "./types.ts";

/** The suffix a planted protected path is renamed with. */
const SET_ASIDE_SUFFIX = ".wisp-refused";

function present(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A free name beside `path`: `NAME.wisp-refused`, else `NAME.wisp-refused-2`, … */
function asideName(path: string): string {
  for (let i = 1;; i++) {
    const candidate = `${path}${SET_ASIDE_SUFFIX}${i === 1 ? "" : `-${i}`}`;
    if (!present(candidate)) return candidate;
  }
}

/**
 * Move aside each unguarded protected path that exists now, and return one
 * `sandbox:` line for each (what was created, why it is protected, where it
 * went). A path whose folder now lies behind a symbolic link is reported, not
 * touched: wisp renames nothing a command could have aimed elsewhere.
 */
export function setAsidePlanted(set: WritableSet): string[] {
  const lines: string[] = [];
  for (const u of set.unguarded ?? []) {
    if (!present(u.path)) continue;
    let parentReal: string | undefined;
    try {
      parentReal = Deno.realPathSync(dirname(u.path));
    } catch { /* gone */ }
    if (parentReal !== dirname(u.path)) {
      lines.push(
        `sandbox: the command created ${u.path}, which is protected (${u.why}); ` +
          "its folder is now reached through a symbolic link, so wisp left it: review it before you run anything",
      );
      continue;
    }
    const aside = asideName(u.path);
    try {
      Deno.renameSync(u.path, aside);
      lines.push(
        `sandbox: the sandbox refused creating ${u.path} (protected: ${u.why}); ` +
          `wisp moved what the command wrote to ${basename(aside)} beside it; ` +
          "a command that must create it asks to run outside the sandbox",
      );
    } catch (error) {
      lines.push(
        `sandbox: the command created ${u.path}, which is protected (${u.why}), and wisp could not ` +
          `move it aside (${(error as Error).message}): review it before you run anything`,
      );
    }
  }
  return lines;
}

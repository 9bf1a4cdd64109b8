/**
 * Doctor's front end finding: what `wisp chat` would show in the terminal
 * doctor runs in. On a terminal wisp chat hands the session to wisp-tui when
 * it finds it beside wisp's own executable, or in a bin folder beside the
 * folder wisp is in (Homebrew puts wisp in libexec and wisp-tui in bin);
 * otherwise, and always when piped, it is the plain line-based chat. The
 * finding says where wisp-tui was found, or every place it looked.
 *
 * The search is pure over an injected world, so the healthy and the broken
 * cases are tested without installing anything.
 */
import { dirname, join } from "node:path";
import type { Finding } from "./finding.ts";

/** The front end's executable name. */
const TUI_NAME = "wisp-tui";

/** What the front end finding reads from the world. */
export interface FrontEndWorld {
  /** The folder wisp's own executable is in (the source tree, run from source). */
  wispDir: string;
  /** Whether this build has `wisp chat` at all. */
  chatBuilt: boolean;
  /** Whether doctor's standard input and output are a terminal (a chat there would be too). */
  terminal: boolean;
  /** A file's mode bits, or undefined when there is no such file. */
  fileMode: (path: string) => number | undefined;
}

/** Where wisp chat looks for wisp-tui, in order. */
export function tuiCandidates(wispDir: string): string[] {
  return [join(wispDir, TUI_NAME), join(dirname(wispDir), "bin", TUI_NAME)];
}

/** The front end finding for a world. */
export function frontEndFinding(world: FrontEndWorld): Finding {
  const name = "front end";
  const candidates = tuiCandidates(world.wispDir);
  const found = candidates.find((path) => world.fileMode(path) !== undefined);
  const looked = candidates.join(" or ");
  if (found && ((world.fileMode(found) ?? 0) & 0o111) === 0) {
    return {
      ok: false,
      name,
      detail: `${found} is there but not executable, so wisp chat falls back to the plain chat`,
      fix: `run chmod +x ${found}, or reinstall wisp (brew reinstall wisp)`,
    };
  }
  if (!world.chatBuilt) {
    return {
      ok: true,
      name,
      detail: found
        ? `wisp chat is not in this build yet; ${found} is there for it`
        : `wisp chat is not in this build yet; no ${TUI_NAME} at ${looked}`,
    };
  }
  if (!found) {
    return { ok: true, name, detail: `the plain chat: no ${TUI_NAME} at ${looked}` };
  }
  return world.terminal
    ? {
      ok: true,
      name,
      detail:
        `${found}: wisp chat on this terminal hands the session to it (--plain keeps the plain chat)`,
    }
    : {
      ok: true,
      name,
      detail:
        `the plain chat here (not a terminal); on a terminal wisp chat hands the session to ${found}`,
    };
}

/** The mode of a file (following links), or undefined when there is none. */
export function fileModeOf(path: string): number | undefined {
  try {
    const info = Deno.statSync(path);
    return info.isFile ? (info.mode ?? 0o755) : undefined;
  } catch {
    return undefined;
  }
}

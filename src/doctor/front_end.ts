/**
 * Doctor's front end finding: which front end `wisp chat` would run in the
 * terminal doctor runs in, and why — `wisp-tui (stdin and stdout are
 * terminals)`, `plain chat (stdout is not a terminal; wisp chat --plain is
 * the same)`, `plain chat (TERM is dumb)`. wisp-tui is part of wisp's own
 * binary, so there is nothing to find on disk: the finding is the choice
 * chat itself makes (util/front_end.ts), over doctor's own streams and TERM,
 * without chat's flags.
 */
import type { Finding } from "./finding.ts";
import { chooseFrontEnd } from "../util/front_end.ts";

/** What the front end finding reads from the world. */
export interface FrontEndWorld {
  /** Whether this build has `wisp chat` at all. */
  chatBuilt: boolean;
  /** Whether doctor's standard input is a terminal (a chat run here would share it). */
  stdinTerminal: boolean;
  /** Whether doctor's standard output is a terminal. */
  stdoutTerminal: boolean;
  /** The TERM variable, undefined when unset. */
  term: string | undefined;
}

/** The front end finding for a world. Always ok: each front end is a working one. */
export function frontEndFinding(world: FrontEndWorld): Finding {
  const name = "front end";
  if (!world.chatBuilt) return { ok: true, name, detail: "wisp chat is not in this build yet" };
  const choice = chooseFrontEnd({
    stdinTerminal: world.stdinTerminal,
    stdoutTerminal: world.stdoutTerminal,
    term: world.term,
    plainFlag: false,
    jsonFlag: false,
  });
  const face = choice.face === "tui" ? "wisp-tui" : "plain chat";
  return { ok: true, name, detail: `${face} (${choice.why})` };
}

/**
 * Which front end `wisp chat` runs, and why: wisp-tui (the full-screen band
 * in this same binary), the plain line-based chat, or the JSON line protocol.
 *
 * `wisp chat` decides with this, and `wisp doctor` reports the same decision
 * for the terminal it runs in, so the two can never disagree. It lives on
 * the lowest floor (util) because the command line (cli/chat.ts) and doctor
 * both call it and doctor sits beside faces on one floor, where a sideways
 * import is not allowed; it takes only booleans and a string, so it knows
 * nothing of the faces themselves.
 */

/** What the choice looks at: the two standard streams, TERM, and chat's flags. */
export interface FrontEndFacts {
  /** Whether standard input is a terminal (keys can be read one at a time). */
  stdinTerminal: boolean;
  /** Whether standard output is a terminal (a band can be drawn). */
  stdoutTerminal: boolean;
  /** The TERM variable, undefined when unset. */
  term: string | undefined;
  /** `--plain` was given. */
  plainFlag: boolean;
  /** `--json` was given. */
  jsonFlag: boolean;
}

/** The front end chosen and the reason, in words for doctor's line. */
export interface FrontEndChoice {
  face: "tui" | "plain" | "json";
  why: string;
}

/**
 * The front end for `facts`. The flags win (`--json`, then `--plain`); without
 * them wisp-tui runs only when both streams are terminals and TERM is not
 * `dumb`, since it draws with cursor movement and reads single keys. An unset
 * TERM is not taken as dumb: terminals on some systems (Windows' among them)
 * do not set it and draw the band well.
 */
export function chooseFrontEnd(facts: FrontEndFacts): FrontEndChoice {
  if (facts.jsonFlag) return { face: "json", why: "--json asks for the line protocol" };
  if (facts.plainFlag) return { face: "plain", why: "--plain asks for it" };
  if (!facts.stdoutTerminal) {
    return { face: "plain", why: "stdout is not a terminal; wisp chat --plain is the same" };
  }
  if (!facts.stdinTerminal) return { face: "plain", why: "stdin is not a terminal" };
  if (facts.term === "dumb") return { face: "plain", why: "TERM is dumb" };
  return { face: "tui", why: "stdin and stdout are terminals" };
}

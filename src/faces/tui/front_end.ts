/** PLACEHOLDER until the status branch lands. */
export function chooseFrontEnd(o: {
  stdinTerminal: boolean;
  stdoutTerminal: boolean;
  term?: string;
  plainFlag: boolean;
  jsonFlag: boolean;
}): { face: "tui" | "plain" | "json"; why: string } {
  if (o.jsonFlag) return { face: "json", why: "--json" };
  if (o.plainFlag) return { face: "plain", why: "--plain" };
  if (!o.stdinTerminal) return { face: "plain", why: "stdin is not a terminal" };
  if (!o.stdoutTerminal) return { face: "plain", why: "stdout is not a terminal" };
  if (o.term === "dumb") return { face: "plain", why: "TERM is dumb" };
  return { face: "tui", why: "stdin and stdout are terminals" };
}

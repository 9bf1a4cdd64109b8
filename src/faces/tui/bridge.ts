/**
 * The one seam between wisp-tui and the chat session: protocol lines, and
 * nothing else. wisp-tui runs in wisp's own process (the permission fence
 * lets wisp start only the sandbox launchers, so it cannot start itself as
 * `wisp chat --json`), but every line crosses as JSON text, encoded and read
 * by the same functions `wisp chat --json` uses. So wisp-tui can do nothing
 * another front end driving `wisp chat --json` could not, and a line that
 * does not survive JSON never reaches the other side.
 */
import {
  encodeOutLine,
  type InLine,
  type OutLine,
  type ParsedIn,
  parseInLine,
} from "../chat/protocol.ts";

/** What the bridge needs of the engine. */
export interface BridgedEngine {
  receive(parsed: ParsedIn): void;
}

/** An out line as a front end reading `wisp chat --json` would get it. */
export function acrossOut(line: OutLine): OutLine {
  return JSON.parse(encodeOutLine(line)) as OutLine;
}

/** An in line as the engine reading `wisp chat --json`'s input would get it. */
export function acrossIn(line: InLine): ParsedIn {
  return parseInLine(JSON.stringify(line));
}

/** Send `line` to `engine` across the seam. */
export function sendAcross(engine: BridgedEngine, line: InLine): void {
  engine.receive(acrossIn(line));
}

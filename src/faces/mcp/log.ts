/**
 * The MCP face's view of wisp's one logger (src/util/log.ts): the face's
 * code takes a `Logger` function, and `wisp mcp` hands it `faceLogger()`.
 * Stdout is the protocol, so stderr (as WISP_LOG says) and the client's MCP
 * log messages (server.ts) are the only places a line goes.
 */
import { log, type LogLevel, logLocally, setStderrPrefix } from "../../util/log.ts";

export type { LogLevel };

/** How the face's code writes a diagnostic line. */
export type Logger = (level: LogLevel, text: string) => void;

/** wisp's logger, as the face takes it; its stderr lines start `wisp mcp:`. */
export function faceLogger(): Logger {
  setStderrPrefix("wisp mcp");
  return (level, text) => log(level, text);
}

/** The logger of the connection itself: its lines stay on this machine (stderr). */
export function connectionLogger(): Logger {
  return (level, text) => logLocally(level, text);
}

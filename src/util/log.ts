/**
 * wisp's one diagnostics logger, for every command. What wisp notes about
 * itself (the config and home it read, the model and backend it chose and
 * why, the gate's path for each line, the launcher's argv with secrets
 * masked, how long each step took) goes to every sink that wants its level:
 *
 * - standard error, as `WISP_LOG` says (debug, info or error); with
 *   `WISP_LOG` unset or unknown nothing at all is written, and never to
 *   standard output (the MCP server's stdout is the protocol);
 * - any sink a face adds, such as `wisp mcp`'s, which sends the same lines to
 *   its client as MCP log messages at the level the client set.
 *
 * A line that costs something to make is passed as a function, called only
 * when some sink wants it (`enabled` says whether one does).
 */
export type LogLevel = "debug" | "info" | "error";

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, error: 2 };

/** A place diagnostics go: it is handed every line at or above its level. */
export interface LogSink {
  level: LogLevel;
  /** A sink that sends lines over a connection (not a local file or stream); see `logLocally`. */
  remote?: boolean;
  write(level: LogLevel, text: string): void;
}

/** How a line that may hold a secret is masked before it is logged; see `setLogMask`. */
let logMask: ((text: string) => Promise<string>) | undefined;

/**
 * Install the masker for `masked` (the command line installs the secrets
 * scanner's, src/secrets/log_mask.ts, so that the parts below it log
 * through it without importing it).
 */
export function setLogMask(mask: (text: string) => Promise<string>): void {
  logMask = mask;
}

/**
 * `text` with every secret masked, for a diagnostics line (a command line, a
 * launcher's argv). Without a masker installed the text is not shown at all:
 * a line that may hold a secret is never logged unmasked.
 */
export async function masked(text: string): Promise<string> {
  if (!logMask) return "[not shown: no secret masker in this process]";
  try {
    return await logMask(text);
  } catch {
    return "[not shown: the secret masker failed]";
  }
}

/** The level WISP_LOG names, or undefined when it names none (then stderr gets nothing). */
export function levelOf(value: string | undefined): LogLevel | undefined {
  return value === "debug" || value === "info" || value === "error" ? value : undefined;
}

function envLevel(): LogLevel | undefined {
  try {
    return levelOf(Deno.env.get("WISP_LOG"));
  } catch {
    return undefined; // no permission to read the environment: no stderr diagnostics
  }
}

const encoder = new TextEncoder();

/** The stderr sink at `level`, each line prefixed `wisp: <level>: ` (or the given prefix). */
export function stderrSink(level: LogLevel, prefix = "wisp"): LogSink {
  return {
    level,
    write(at, text) {
      try {
        Deno.stderr.writeSync(encoder.encode(`${prefix}: ${at}: ${text}\n`));
      } catch { /* stderr closed */ }
    },
  };
}

const sinks = new Set<LogSink>();
let stderrPrefix = "wisp";
let stderrSinkAdded = false;
/** When the process began logging: each line's step time counts from here. */
const started = performance.now();

function ensureStderr(): void {
  if (stderrSinkAdded) return;
  stderrSinkAdded = true;
  const level = envLevel();
  if (!level) return;
  // The prefix is read at each line, so a face may set it after the first line.
  sinks.add({ level, write: (at, text) => stderrSink(level, stderrPrefix).write(at, text) });
}

/** Add a sink (a face's); the returned function removes it. */
export function addLogSink(sink: LogSink): () => void {
  ensureStderr();
  sinks.add(sink);
  return () => sinks.delete(sink);
}

/** The word stderr lines start with (`wisp mcp` for the server); set before the first line. */
export function setStderrPrefix(prefix: string): void {
  stderrPrefix = prefix;
}

/** Whether any sink wants lines of `level`. */
export function enabled(level: LogLevel): boolean {
  ensureStderr();
  for (const sink of sinks) if (RANK[level] >= RANK[sink.level]) return true;
  return false;
}

/** Log one line (or the line `text` makes, made only when some sink wants it). */
export function log(level: LogLevel, text: string | (() => string)): void {
  write(level, text, true);
}

/**
 * Log a line to local sinks only: what the connection a remote sink sends
 * over says about itself (a line about a failed write would otherwise be
 * sent over the same connection, and fail again).
 */
export function logLocally(level: LogLevel, text: string | (() => string)): void {
  write(level, text, false);
}

function write(level: LogLevel, text: string | (() => string), remote: boolean): void {
  if (!enabled(level)) return;
  const line = typeof text === "function" ? text() : text;
  for (const sink of sinks) {
    if (RANK[level] < RANK[sink.level] || (sink.remote && !remote)) continue;
    try {
      sink.write(level, line);
    } catch { /* a sink that fails must not stop wisp */ }
  }
}

/** Milliseconds since wisp began, for a step's line (`+123 ms`). */
function sinceStart(): string {
  return `+${Math.round(performance.now() - started)} ms`;
}

/**
 * Run `step` and log at debug how long it took (and that it failed, if it
 * did); returns what it returns.
 */
export async function timed<T>(name: string, step: () => Promise<T>): Promise<T> {
  if (!enabled("debug")) return await step();
  const begun = performance.now();
  try {
    const value = await step();
    log("debug", `${name}: ${Math.round(performance.now() - begun)} ms (${sinceStart()})`);
    return value;
  } catch (error) {
    log("debug", `${name}: failed after ${Math.round(performance.now() - begun)} ms`);
    throw error;
  }
}

/** An argv as one line, each word quoted as JSON (so spaces and quotes stay visible). */
export function quotedArgv(argv: string[]): string {
  return argv.map((word) => JSON.stringify(word)).join(" ");
}

/**
 * Which time limit a model's command runs under, first that applies: the
 * call's timeoutSeconds, the thread's (an MCP thread's commandTimeoutSeconds,
 * where 0 is a choice: none), then the configured default
 * (commandTimeoutSeconds, 0 meaning none); whichever it is, the operator's
 * cap (commandTimeoutCapSeconds, 0 meaning none) bounds it. No tool writes
 * config.json, so neither the model nor an MCP caller can raise the cap.
 */
export type TimeoutSource = "call" | "thread" | "default";

export interface TimeoutInput {
  /** The call's timeoutSeconds, when it gave one. */
  call?: number | null;
  /** The thread's limit, when it has one; 0 means none (up to the cap). */
  thread?: number | null;
  /** commandTimeoutSeconds (0: no limit). */
  configDefault: number;
  /** commandTimeoutCapSeconds (0: no cap). */
  cap: number;
}

export interface ResolvedTimeout {
  /** Seconds the command may run; 0 means no limit (only when there is no cap). */
  seconds: number;
  source: TimeoutSource;
  /** The cap lowered what was asked for. */
  clamped: boolean;
}

function given(value: number | null | undefined): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}

/** A thread's limit counts when it is set at all: 0 is the thread asking for none. */
function threadGiven(value: number | null | undefined): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

export function resolveTimeout(input: TimeoutInput): ResolvedTimeout {
  let seconds: number;
  let source: TimeoutSource;
  if (given(input.call)) {
    seconds = input.call;
    source = "call";
  } else if (threadGiven(input.thread)) {
    seconds = input.thread;
    source = "thread";
  } else {
    seconds = Math.max(0, input.configDefault);
    source = "default";
  }
  const cap = Math.max(0, input.cap);
  if (cap > 0 && (seconds === 0 || seconds > cap)) return { seconds: cap, source, clamped: true };
  return { seconds, source, clamped: false };
}

/** The result's `timed out:` line for a command that hit its limit. */
export function timedOutLine(seconds: number, cap: number, canAsk: boolean): string {
  const killed = `timed out: the command was killed after ${seconds} s`;
  if (!canAsk) return killed;
  if (cap > 0 && seconds >= cap) return `${killed}, the most allowed`;
  if (cap > 0) return `${killed}; ask for up to ${cap} s with timeoutSeconds`;
  return `${killed}; ask for more with timeoutSeconds`;
}

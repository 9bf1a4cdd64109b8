/**
 * Why a model cannot answer, as one sentence a person can act on. Every
 * failure a backend meets (no server, a model not pulled, no tool calling, an
 * HTTP error, a reply cut off mid-stream, the permission fence) becomes a
 * `ModelError` whose `reason` is the part in parentheses of
 * "ollama:x is unavailable (…)" and whose `kind` lets callers (doctor, chat's
 * fallback) tell them apart without parsing text.
 */
import { EXIT, messageOf, WispError } from "../util/errors.ts";

export type ModelErrorKind =
  | "unreachable" // no server answers
  | "not_found" // the server does not have the model
  | "no_tools" // the model does not declare tool calling
  | "invalid" // not a model name wisp knows (exit 64)
  | "unsupported" // the runtime does not exist here (system on Linux, mlx without MLX)
  | "disabled" // models.disabled names it (exit 64)
  | "refused" // the server refused the request (HTTP error, bad key)
  | "too_long" // the server refused the request as longer than the model's window
  | "broken" // the stream ended early or was malformed
  | "fence"; // the server is not on this machine

export class ModelError extends WispError {
  constructor(readonly kind: ModelErrorKind, message: string, readonly reason: string = message) {
    super(message, kind === "disabled" || kind === "invalid" ? EXIT.usage : EXIT.failure);
    this.name = "ModelError";
  }
}

/**
 * What servers say when a request is longer than the window they hold the
 * model at: Ollama ("input length exceeds the context length", "prompt is too
 * long"), llama.cpp ("the request exceeds the available context size",
 * exceed_context_size_error), OpenAI-style servers ("maximum context length
 * is N tokens", context_length_exceeded), LM Studio ("when context the
 * overflows … provide a shorter input", "context overflow").
 */
const TOO_LONG_PATTERN =
  /exceeds? (the )?(available |maximum )?context|context[ _](length|size|window)[ _]exceeded|exceed_context_size|maximum context length|(prompt|input|request) (is )?too long|greater than the context length|context (the )?overflows?|provide a shorter input|too many tokens/i;

/** Whether a server's error text says the request was too long for the window. */
export function tooLongText(text: string): boolean {
  return TOO_LONG_PATTERN.test(text);
}

/** The server refused a request as longer than the window: the one typed error condensing retries on. */
export function tooLong(
  model: string,
  server: string,
  status: number,
  message: string,
): ModelError {
  return new ModelError(
    "too_long",
    `${server} refused the request to ${model} as too long for its window (${status}: ${message})`,
  );
}

/** Whether an error is a refusal of a request as too long. */
export function isTooLong(error: unknown): boolean {
  return error instanceof ModelError && error.kind === "too_long";
}

/** The request was stopped by its signal (Ctrl-C, an abort). */
export class ModelStopped extends WispError {
  constructor(model: string) {
    super(`the request to ${model} was stopped`, EXIT.interrupted);
    this.name = "ModelStopped";
  }
}

/** "ollama:x is unavailable (reason); what to do". */
export function unavailable(
  kind: ModelErrorKind,
  model: string,
  reason: string,
  advice?: string,
): ModelError {
  return new ModelError(
    kind,
    `${model} is unavailable (${reason})${advice ? `; ${advice}` : ""}`,
    reason,
  );
}

/**
 * The short cause of a failed fetch, without Deno's request dump:
 * "Connection refused", "connection reset", "timed out".
 */
export function connectionCause(error: unknown): string {
  // Deno's fetch says "fetch failed" and puts what happened in the cause.
  let text = messageOf(error);
  let cause = (error as { cause?: unknown })?.cause;
  for (let depth = 0; cause !== undefined && depth < 3; depth++) {
    text = messageOf(cause);
    cause = (cause as { cause?: unknown })?.cause;
  }
  if (error instanceof DOMException && error.name === "TimeoutError") return "no answer in time";
  if (/Connection refused/i.test(text)) return "could not connect to the server";
  if (/dns error|failed to lookup|Name or service not known/i.test(text)) {
    return "its host name does not resolve";
  }
  if (
    /connection (reset|closed)|broken pipe|unexpected eof|error reading a body|IncompleteMessage/i
      .test(text)
  ) {
    return "the connection closed early";
  }
  if (/timed out/i.test(text)) return "no answer in time";
  const short = text.replace(/^error sending request for url \([^)]*\):\s*/i, "").split("\n")[0];
  return short.length > 160 ? short.slice(0, 157) + "..." : short;
}

/** Whether an error is the abort of a signal (ours or the caller's). */
export function isAbortError(error: unknown): boolean {
  return (error instanceof DOMException && error.name === "AbortError") ||
    (error instanceof Error && error.name === "AbortError");
}

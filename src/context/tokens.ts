/**
 * Token counts for composing and condensing. wisp cannot run the model's own
 * tokeniser, so a request is measured by an estimate — one token for every
 * four characters, the usual figure for English text and code with the
 * common tokenisers (the same figure the tool-output budget uses) — and the
 * estimate is calibrated against what the server reports once it reports
 * something (Ollama's `prompt_eval_count`, an OpenAI-compatible `usage`).
 * ADR 0501 says why this figure and how the calibration is bounded.
 */
import type { ChatMessage, ToolSpec } from "../models/backend.ts";

/** Characters a token is taken to hold when nothing better is known. */
export const CHARS_PER_TOKEN = 4;
/** What a message costs besides its text: the role and the template's separators. */
const MESSAGE_OVERHEAD_TOKENS = 4;

/** The estimated tokens of a piece of text. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The estimated tokens of one chat message, its calls' arguments included. */
export function messageTokens(message: ChatMessage): number {
  let chars = message.content.length;
  for (const call of message.toolCalls ?? []) {
    chars += call.name.length + (call.rawArguments ?? JSON.stringify(call.arguments)).length;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + MESSAGE_OVERHEAD_TOKENS;
}

/** The estimated tokens of the tool definitions a request carries (they are in every request). */
export function toolSpecTokens(tools: readonly ToolSpec[]): number {
  return tools.length === 0 ? 0 : estimateTokens(JSON.stringify(tools));
}

/** The estimated tokens of a whole request: its messages and its tools. */
export function requestTokens(
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
): number {
  let total = toolSpecTokens(tools);
  for (const message of messages) total += messageTokens(message);
  return total;
}

/** The calibration factor stays within these bounds, whatever a server reports. */
const FACTOR_MIN = 0.5;
const FACTOR_MAX = 3;
/**
 * A report below this share of the estimate is not taken: a server that
 * reuses its cache (Ollama does) counts only the tokens it evaluated anew.
 */
const PARTIAL_REPORT_SHARE = 0.5;

/**
 * The estimate, corrected by what the server counted. Each report moves the
 * factor towards reported / estimated; a larger factor is taken at once (an
 * undercount is what overflows a window), a smaller one only halfway.
 */
export class TokenCalibration {
  #factor = 1;
  #reports = 0;

  /** The factor applied to estimates (1 until a report arrives). */
  get factor(): number {
    return this.#factor;
  }

  /** How many reports were taken. */
  get reports(): number {
    return this.#reports;
  }

  /** A server counted `reported` tokens for a request estimated at `estimated`. */
  observe(estimated: number, reported: number | undefined): void {
    if (reported === undefined || !Number.isFinite(reported) || reported <= 0 || estimated <= 0) {
      return;
    }
    const ratio = reported / estimated;
    if (ratio < PARTIAL_REPORT_SHARE / this.#factor) return;
    const wanted = Math.min(FACTOR_MAX, Math.max(FACTOR_MIN, ratio));
    this.#factor = wanted >= this.#factor ? wanted : this.#factor + (wanted - this.#factor) / 2;
    this.#reports++;
  }

  /** An estimate, calibrated. */
  tokens(estimated: number): number {
    return Math.ceil(estimated * this.#factor);
  }
}

/**
 * The tool-output budget: how many bytes one tool result may put into the
 * model's context, and the fitting that keeps a longer result within it
 * without losing anything — the first and last lines are shown, the middle is
 * held back, and the whole is kept in the output store and named.
 *
 * The budget is an eighth of the model's window. Windows are counted in
 * tokens and results in bytes; we take a token as 4 bytes (the usual figure
 * for English text and code with the common tokenisers), so the budget is
 * window × 4 / 8 = window / 2 bytes, clamped to 4 KiB … 64 KiB.
 */
import type { ToolContext } from "./tool.ts";
import type { KeptOutput, OutputKeeper } from "../audit/output_store.ts";
import { byteLength, cutToBytes, formatBytes, formatCount } from "../util/bytes.ts";

const BUDGET_MIN_BYTES = 4 * 1024;
const BUDGET_MAX_BYTES = 64 * 1024;
export const BYTES_PER_TOKEN = 4;

export function budgetBytes(contextWindowTokens: number): number {
  if (!Number.isFinite(contextWindowTokens) || contextWindowTokens <= 0) return BUDGET_MIN_BYTES;
  const bytes = Math.floor((contextWindowTokens * BYTES_PER_TOKEN) / 8);
  return Math.min(BUDGET_MAX_BYTES, Math.max(BUDGET_MIN_BYTES, bytes));
}

export interface FitOptions {
  /** The whole was kept here; null or absent: it was not kept. */
  kept?: KeptOutput | null;
  /** The conversation has the memory tool (the note names its recalls). */
  memory?: boolean;
  /** What the text is, for the note ("output", "stdout"). */
  label?: string;
}

export interface Fitted {
  text: string;
  /** Nothing was held back. */
  whole: boolean;
  heldBack?: { fromLine: number; toLine: number; lines: number; bytes: number };
}

/** Split into lines keeping their endings (\n, \r\n or a lone \r), as read_file counts them. */
function linesWithEndings(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      lines.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

export function heldBackNote(
  label: string,
  from: number,
  to: number,
  bytes: number,
  options: FitOptions,
): string {
  const range = `${label} lines ${formatCount(from)}–${formatCount(to)} (${formatBytes(bytes)})`;
  const kept = options.kept;
  if (!kept) return `held back: ${range}; they were not kept (no output store here)`;
  const cut = kept.truncated ? " (cut at the store's limit: the rest was not kept)" : "";
  const whole = `the whole output is kept as output ${kept.id} (${
    formatCount(kept.lines)
  } lines)${cut}`;
  if (options.memory) {
    return `held back: ${range}; ${whole}; memory "recall output ${kept.id} from line ${from}" pages it, ` +
      `"recall output ${kept.id} matching PATTERN" filters it, "summarise output ${kept.id}" gives the ` +
      `notable lines, "condense output ${kept.id}: QUESTION" answers from all of it; do not run it again to see it`;
  }
  return `held back: ${range}; ${whole}; do not run it again to see it`;
}

/**
 * Fit a text to `budget` bytes: unchanged when it fits; otherwise its first
 * and last lines, about half the room each, cut at line ends, with a marker
 * between them and a note naming what was held back. The note's line numbers
 * are the text's own, so a recall from that line lands on the first one held
 * back. A single line longer than the room is cut inside the line.
 */
export function fitText(text: string, budget: number, options: FitOptions = {}): Fitted {
  const total = byteLength(text);
  if (total <= budget) return { text, whole: true };
  const lines = linesWithEndings(text);
  const label = options.label ?? "output";
  // The note's length depends on the numbers in it; measure it with the widest ones.
  const noteRoom = byteLength(heldBackNote(label, lines.length, lines.length, total, options)) + 64;
  const room = Math.max(0, budget - noteRoom);
  const half = Math.floor(room / 2);

  let headBytes = 0;
  let head = 0;
  while (head < lines.length) {
    const size = byteLength(lines[head]);
    if (headBytes + size > half) break;
    headBytes += size;
    head++;
  }
  let tailBytes = 0;
  let tail = 0;
  while (tail < lines.length - head) {
    const size = byteLength(lines[lines.length - 1 - tail]);
    if (tailBytes + size > room - headBytes) break;
    tailBytes += size;
    tail++;
  }
  let headText = lines.slice(0, head).join("");
  // Nothing whole fits at the start (one very long line): show its beginning.
  if (head === 0 && half > 0) headText = cutToBytes(lines[0], half) + "\n";
  const from = head + 1;
  const to = lines.length - tail;
  const heldLines = lines.slice(head, lines.length - tail);
  const heldBytes = heldLines.reduce((sum, line) => sum + byteLength(line), 0);
  const marker = `[… ${formatCount(heldLines.length)} line${heldLines.length === 1 ? "" : "s"} ` +
    `(${formatBytes(heldBytes)}) held back …]\n`;
  const tailText = lines.slice(lines.length - tail).join("");
  const body = (headText.endsWith("\n") || headText === "" ? headText : headText + "\n") + marker +
    (tailText === "" || tailText.endsWith("\n") || tailText.endsWith("\r")
      ? tailText
      : tailText + "\n");
  const note = heldBackNote(label, from, to, heldBytes, options);
  let fitted = body + note;
  if (byteLength(fitted) > budget) fitted = cutToBytes(fitted, budget);
  return {
    text: fitted,
    whole: false,
    heldBack: { fromLine: from, toLine: to, lines: heldLines.length, bytes: heldBytes },
  };
}

function isOutputKeeper(value: unknown): value is OutputKeeper {
  return typeof value === "object" && value !== null &&
    typeof (value as { keep?: unknown }).keep === "function";
}

/**
 * Fit a tool's text to the context's budget, keeping the whole in the
 * conversation's output store when anything is held back.
 */
export async function fitted(
  text: string,
  ctx: Pick<
    ToolContext,
    "budgetBytes" | "outputStore" | "session" | "callId" | "config" | "memory"
  >,
  tool: string,
): Promise<{ text: string; outputId?: string }> {
  if (byteLength(text) <= ctx.budgetBytes) return { text };
  let kept: KeptOutput | null = null;
  if (isOutputKeeper(ctx.outputStore)) {
    try {
      kept = await ctx.outputStore.keep(text, { session: ctx.session, callId: ctx.callId, tool });
    } catch {
      kept = null; // a store that failed kept nothing, and the note says so
    }
  }
  const result = fitText(text, ctx.budgetBytes, { kept, memory: ctx.memory === true });
  return { text: result.text, ...(kept ? { outputId: kept.id } : {}) };
}

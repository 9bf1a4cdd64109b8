/**
 * The band: the rows wisp-tui keeps pinned at the bottom of the terminal,
 * composed from what is open. From the top:
 *
 * - the reply in progress (the block of Markdown still open), its last rows
 *   when it is taller than the room left;
 * - a dialog or the panel, when one is open, in the input's place;
 * - otherwise a hint row (command and outside mode, the status bar's keys
 *   while it has the focus), then the input box: its tint edge to edge, its
 *   marker (`›`, `!`, `!!`), dimmed with what wisp is doing while a turn or
 *   a command runs;
 * - the status row.
 *
 * Pure: the same state gives the same rows, so nothing is redrawn unless
 * something changed.
 */
import type { InputMode } from "./input_box.ts";
import type { ActivityLine } from "../chat/protocol.ts";
import { elapsedWords } from "../chat/working_line.ts";
import type { ColourName, Paint } from "./palette.ts";
import { columns, cutToColumns, padToColumns } from "./columns.ts";

/** What the input box shows. */
export interface InputView {
  mode: InputMode;
  rows: string[];
  cursorRow: number;
  cursorColumn: number;
  /** While a turn or a typed command runs: what it is doing (the box is dimmed, no cursor). */
  working?: string;
  /** Keys typed while it runs, held for later. */
  held: number;
}

/** Everything the band is drawn from. */
export interface BandState {
  width: number;
  /** The terminal's rows: the band never takes all of them. */
  height: number;
  replyPending: string[];
  /** A dialog's or the panel's rows, drawn in the input's place. */
  overlay?: string[];
  /** A row above the input (the status bar's keys while it has the focus). */
  hint?: string;
  /** Whether the terminal's cursor belongs in the input (not while the status bar has focus). */
  inputFocused: boolean;
  input: InputView;
  status: string;
}

/** The band's rows and where the terminal's cursor goes (absent: hidden). */
export interface Band {
  rows: string[];
  cursor?: { x: number; y: number };
}

const MARKER: Record<InputMode, string> = { prompt: "› ", command: "! ", outside: "!! " };
const BOX: Record<InputMode, { bg: ColourName; fg: ColourName; bold: boolean }> = {
  prompt: { bg: "input", fg: "text", bold: false },
  command: { bg: "command", fg: "black", bold: true },
  outside: { bg: "outside", fg: "black", bold: false },
};

/** The hint each mode shows above the box. */
export const MODE_HINTS: Record<InputMode, string | undefined> = {
  prompt: undefined,
  command: "Run a command yourself, in the sandbox · Backspace at the start returns to the prompt",
  outside: "Run a command yourself OUTSIDE the sandbox: it may write anywhere you can",
};

function inputRows(view: InputView, width: number, paint: Paint): string[] {
  const style = BOX[view.mode];
  const marker = MARKER[view.mode];
  const pad = " ".repeat(marker.length);
  const paintRow = (text: string) => {
    const row = padToColumns(text, width);
    const coloured = paint.on(style.fg, style.bg, row);
    return style.bold ? paint.bold(coloured) : coloured;
  };
  if (view.working !== undefined) {
    const held = view.held > 0 ? ` · ${view.held} key${view.held === 1 ? "" : "s"} held` : "";
    const text = `${marker}… ${view.working}${held}`;
    return [paint.enabled ? paint.dim(paintRow(text)) : padToColumns(text, width).trimEnd()];
  }
  return view.rows.map((row, i) => {
    const text = (i === 0 ? marker : pad) + row;
    return paint.enabled ? paintRow(text) : cutToColumns(text, width);
  });
}

/**
 * What the dimmed input box says while something runs: `working: read_file
 * README.md` for a turn; for a command the person typed, which has no time
 * limit, what it runs, for how long, and how to stop it.
 */
export function boxWorkingText(
  activity: NonNullable<ActivityLine["activity"]>,
  now: number,
): string {
  if (activity.stopping) {
    return activity.kind === "turn"
      ? "stopping the turn · Ctrl-C again quits"
      : `stopping ${activity.text.replace(/^running /, "")} · Ctrl-C again quits`;
  }
  if (activity.kind === "command") {
    return `${activity.text} · ${elapsedWords(now - activity.since)} · Ctrl-C stops it`;
  }
  return activity.text.startsWith("working: ") ? activity.text : `working: ${activity.text}`;
}

/** Compose the band. */
export function composeBand(state: BandState, paint: Paint): Band {
  const width = Math.max(1, state.width);
  const below: string[] = [];
  let cursor: { x: number; y: number } | undefined;
  let cursorOffset = -1;
  if (state.overlay) {
    below.push(...state.overlay);
  } else {
    const hint = state.hint ?? MODE_HINTS[state.input.mode];
    if (hint !== undefined && state.input.working === undefined) {
      const colour: ColourName = state.input.mode === "outside" ? "outside" : "quiet";
      below.push(paint.fg(colour, cutToColumns(hint, width)));
    }
    if (!paint.enabled) below.push("─".repeat(width));
    cursorOffset = below.length;
    below.push(...inputRows(state.input, width, paint));
  }
  below.push(state.status);
  const room = Math.max(0, state.height - 1 - below.length);
  const reply = state.replyPending.slice(Math.max(0, state.replyPending.length - room));
  if (cursorOffset >= 0 && state.inputFocused && state.input.working === undefined) {
    const marker = MARKER[state.input.mode];
    cursor = {
      x: Math.min(width - 1, columns(marker) + state.input.cursorColumn),
      y: reply.length + cursorOffset + state.input.cursorRow,
    };
  }
  return { rows: [...reply, ...below], ...(cursor ? { cursor } : {}) };
}

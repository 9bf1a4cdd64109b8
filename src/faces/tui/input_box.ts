/**
 * wisp-tui's input box: the line being typed, its mode, its recall of what
 * was sent, and how it lays out in the band. It takes keys and says what
 * they did; the app draws its rows and sends what it submits.
 *
 * Modes (the spec's command mode and outside mode): `!` typed at the start
 * of the line steps prompt → command → outside instead of being inserted;
 * Backspace at the start (Delete in an empty box) steps back, keeping the
 * text. Enter sends the text as the chat's message: a prompt as typed, a
 * command as `!text` (`! !text` when the text itself starts with `!`, so it
 * still runs in the sandbox as the amber box showed), an outside command as
 * `!!text`. A prompt whose text starts with `!!` (pasted after a blank,
 * say) is not sent unseen: Enter switches to outside mode with the rest,
 * and a second Enter sends it. A prompt starting with a single `!` gets the
 * same treatment in command mode, since the chat would run it as one too.
 * An empty or blank line sends nothing.
 *
 * Keys are readline's (Emacs mode): Ctrl-A/E, Ctrl-B/F, Alt-B/F (and
 * Ctrl- or Alt-Left/Right) for words, Backspace, Delete, Ctrl-D, Ctrl-K,
 * Ctrl-U, Ctrl-W (back to a blank, as readline's unix-word-rubout), Alt-D
 * and Alt-Backspace (words of letters and digits), Ctrl-Y, Ctrl-T. Kills in
 * a row join into one, as readline's kill ring does, and Ctrl-Y yanks the
 * latest. A newline goes in with Alt-Enter or Shift-Enter, or with Enter
 * after a `\` (the `\` is replaced): Claude Code's convention.
 *
 * Ctrl-A, Ctrl-E, Ctrl-U and Ctrl-K reach the start or end of the line
 * the cursor is on in a message of several lines.
 *
 * Recall (Up and Down, the spec's rules): a recalled line shows with its
 * mode and the cursor at its end; changes made to it are dropped when Up or
 * Down moves on, while the fresh line typed before the first Up is kept as
 * the draft and comes back past the newest entry.
 *
 * The cursor moves by graphemes, so an emoji or an accented letter is one
 * step; `cursor` counts code points.
 */
import type { Key } from "./key.ts";
import {
  blankWordStartBefore,
  codePointsBefore,
  nextBoundary,
  offsetOfCodePoint,
  previousBoundary,
  wordEndAfter,
  wordStartBefore,
} from "./input_text.ts";
import { cursorPlace, offsetAtColumn, type WrappedRow, wrapText } from "./input_wrap.ts";

/** What the typed text is: a prompt, a command (`!`), or a command outside the sandbox (`!!`). */
export type InputMode = "prompt" | "command" | "outside";

/** A line recalled with Up and Down: its text and the mode it was sent in. */
export interface HistoryEntry {
  mode: InputMode;
  text: string;
}

/** What a key did to the box. */
export type InputAction =
  /** The text, cursor or mode changed: redraw. */
  | { kind: "edited" }
  /** Enter sent a line; `message` is the chat protocol's message text. */
  | { kind: "submit"; message: string }
  /** Down from the last row of a fresh line: the status bar takes the focus. */
  | { kind: "focus-status" }
  /** The box took the key, and nothing changed. */
  | { kind: "none" }
  /** Not the box's key (Ctrl-C, Esc, Tab, Ctrl-D in an empty box…): the app decides. */
  | { kind: "unhandled" };

/** A line put aside while a picker borrows the box. */
export interface SavedInput {
  mode: InputMode;
  text: string;
  /** In code points. */
  cursor: number;
}

/** The box laid out at a width: the rows in sight and where the cursor is among them. */
export interface InputLayout {
  /** Plain text, one per row in sight (`height` of them). */
  rows: string[];
  cursorRow: number;
  cursorColumn: number;
  height: number;
}

/** Rows in sight at most; a longer message scrolls within them. */
export const MAX_VISIBLE_ROWS = 6;
/** Lines kept for recall. */
export const HISTORY_LIMIT = 100;

const MODES: InputMode[] = ["prompt", "command", "outside"];

const EDITED: InputAction = { kind: "edited" };
const NONE: InputAction = { kind: "none" };
const UNHANDLED: InputAction = { kind: "unhandled" };

/** A paste or typed text without the control characters that cannot be shown (newline and tab stay). */
function insertable(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\r\n?/g, "\n").replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}

/** The chat message for `text` typed in `mode`, or null when there is nothing to send. */
function messageFor(mode: InputMode, text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  switch (mode) {
    case "prompt":
      return text;
    case "command":
      return trimmed.startsWith("!") ? `! ${trimmed}` : `!${trimmed}`;
    case "outside":
      return `!!${trimmed}`;
  }
}

/** The text being typed, its mode and cursor, recall, and the band's rows for it. */
export class InputBox {
  #text = "";
  /** UTF-16 offset, at a grapheme boundary. */
  #cursor = 0;
  #mode: InputMode = "prompt";
  #history: HistoryEntry[];
  /** Which history entry is shown, or null for the fresh line. */
  #recalled: number | null = null;
  /** The fresh line, kept while history is shown. */
  #draft: HistoryEntry | null = null;
  /** The last kill, for Ctrl-Y; consecutive kills join. */
  #killed = "";
  #lastWasKill = false;
  /** The column Up and Down keep while they move through rows. */
  #goalColumn: number | null = null;
  /** The width of the last layout; Up and Down move through its rows. */
  #width = Number.POSITIVE_INFINITY;
  /** The band's height so far; it shrinks only when the box is emptied. */
  #height = 1;
  /** The first row in sight. */
  #scrollTop = 0;

  /** A box with `history` (oldest first) to recall. */
  constructor(history: HistoryEntry[] = []) {
    this.#history = history.slice(-HISTORY_LIMIT);
  }

  /** The text typed, without the mode's `!` or `!!`. */
  get text(): string {
    return this.#text;
  }

  /** The box's mode. */
  get mode(): InputMode {
    return this.#mode;
  }

  /** Whether no text is typed (in any mode). */
  get isEmpty(): boolean {
    return this.#text === "";
  }

  /** The cursor's place, in code points from the start. */
  get cursor(): number {
    return codePointsBefore(this.#text, this.#cursor);
  }

  /** The lines sent this session (and those the box was made with), oldest first. */
  get history(): HistoryEntry[] {
    return this.#history.map((entry) => ({ ...entry }));
  }

  /** Empty the box, back in prompt mode, on a fresh line. */
  clear(): void {
    this.#set("", 0, "prompt");
    this.#recalled = null;
    this.#draft = null;
    this.#lastWasKill = false;
  }

  /** Take the line out of the box (for a picker that borrows it), leaving it empty. */
  putAside(): SavedInput {
    const saved = { mode: this.#mode, text: this.#text, cursor: this.cursor };
    this.clear();
    return saved;
  }

  /** Put back a line taken with `putAside()`. */
  restore(saved: SavedInput): void {
    this.clear();
    const text = insertable(saved.text);
    this.#set(text, offsetOfCodePoint(text, saved.cursor), saved.mode);
  }

  /**
   * Apply a completion: the text from `from` (in code points, as the
   * protocol's completions line gives it) to the cursor becomes `text`,
   * and the cursor goes after it.
   */
  complete(from: number, text: string): void {
    const start = offsetOfCodePoint(this.#text, Math.max(0, from));
    if (start > this.#cursor) return;
    const inserted = insertable(text);
    this.#set(
      this.#text.slice(0, start) + inserted + this.#text.slice(this.#cursor),
      start + inserted.length,
      this.#mode,
    );
    this.#recalled = null;
  }

  /** Apply one key. */
  apply(key: Key): InputAction {
    const action = this.#apply(key);
    if (!this.#isVertical(key)) this.#goalColumn = null;
    return action;
  }

  #isVertical(key: Key): boolean {
    return key.kind === "key" && (key.name === "up" || key.name === "down") && !key.alt;
  }

  #apply(key: Key): InputAction {
    if (key.kind === "text" || key.kind === "paste") {
      this.#lastWasKill = false;
      return this.#typeText(insertable(key.text));
    }
    const action = this.#applyNamed(key);
    this.#lastWasKill = this.#isKill(key);
    return action;
  }

  #isKill(key: Key & { kind: "key" }): boolean {
    if (key.ctrl && ["k", "u", "w"].includes(key.name)) return true;
    if (key.alt && (key.name === "d" || key.name === "backspace")) return true;
    return false;
  }

  #applyNamed(key: Key & { kind: "key" }): InputAction {
    const { name, ctrl, alt, shift } = key;
    if (name === "enter") return alt || shift ? this.#insert("\n") : this.#enter();
    if (ctrl) {
      switch (name) {
        case "a":
          return this.#moveTo(this.#lineStart());
        case "e":
          return this.#moveTo(this.#lineEnd());
        case "b":
          return this.#moveTo(previousBoundary(this.#text, this.#cursor));
        case "f":
          return this.#moveTo(nextBoundary(this.#text, this.#cursor));
        case "left":
          return this.#moveTo(wordStartBefore(this.#text, this.#cursor));
        case "right":
          return this.#moveTo(wordEndAfter(this.#text, this.#cursor));
        case "h":
          return this.#backspace();
        case "d":
          return this.isEmpty ? UNHANDLED : this.#deleteForward();
        case "k":
          return this.#kill(this.#cursor, this.#lineEnd(), "forward");
        case "u":
          return this.#kill(this.#lineStart(), this.#cursor, "backward");
        case "w":
          return this.#kill(
            blankWordStartBefore(this.#text, this.#cursor),
            this.#cursor,
            "backward",
          );
        case "y":
          return this.#killed === "" ? NONE : this.#insert(this.#killed);
        case "t":
          return this.#transpose();
        default:
          return UNHANDLED;
      }
    }
    if (alt) {
      switch (name) {
        case "b":
        case "left":
          return this.#moveTo(wordStartBefore(this.#text, this.#cursor));
        case "f":
        case "right":
          return this.#moveTo(wordEndAfter(this.#text, this.#cursor));
        case "d":
          return this.#kill(this.#cursor, wordEndAfter(this.#text, this.#cursor), "forward");
        case "backspace":
          return this.#kill(wordStartBefore(this.#text, this.#cursor), this.#cursor, "backward");
        default:
          return UNHANDLED;
      }
    }
    switch (name) {
      case "left":
        return this.#moveTo(previousBoundary(this.#text, this.#cursor));
      case "right":
        return this.#moveTo(nextBoundary(this.#text, this.#cursor));
      case "home":
        return this.#moveTo(this.#lineStart());
      case "end":
        return this.#moveTo(this.#lineEnd());
      case "backspace":
        return this.#backspace();
      case "delete":
        return this.#delete();
      case "up":
        return this.#up();
      case "down":
        return this.#down();
      default:
        return UNHANDLED;
    }
  }

  /** Typed or pasted text: a `!` at the start steps the mode up, the rest goes in. */
  #typeText(text: string): InputAction {
    let rest = text;
    let stepped = false;
    while (this.#cursor === 0 && rest.startsWith("!") && this.#mode !== "outside") {
      this.#mode = MODES[MODES.indexOf(this.#mode) + 1];
      rest = rest.slice(1);
      stepped = true;
    }
    if (rest === "") return stepped ? EDITED : NONE;
    return this.#insert(rest);
  }

  #insert(text: string): InputAction {
    const before = this.#text.slice(0, this.#cursor);
    const after = this.#text.slice(this.#cursor);
    this.#text = before + text + after;
    this.#cursor += text.length;
    return EDITED;
  }

  #moveTo(offset: number): InputAction {
    if (offset === this.#cursor) return NONE;
    this.#cursor = offset;
    return EDITED;
  }

  /** Remove `[from, to)`; returns what was removed. */
  #remove(from: number, to: number): string {
    const removed = this.#text.slice(from, to);
    this.#text = this.#text.slice(0, from) + this.#text.slice(to);
    this.#cursor = from;
    return removed;
  }

  #stepModeBack(): InputAction {
    if (this.#mode === "prompt") return NONE;
    this.#mode = MODES[MODES.indexOf(this.#mode) - 1];
    return EDITED;
  }

  #backspace(): InputAction {
    if (this.#cursor === 0) return this.#stepModeBack();
    this.#remove(previousBoundary(this.#text, this.#cursor), this.#cursor);
    return EDITED;
  }

  #delete(): InputAction {
    if (this.isEmpty) return this.#stepModeBack();
    return this.#deleteForward();
  }

  #deleteForward(): InputAction {
    if (this.#cursor >= this.#text.length) return NONE;
    this.#remove(this.#cursor, nextBoundary(this.#text, this.#cursor));
    return EDITED;
  }

  #kill(from: number, to: number, direction: "forward" | "backward"): InputAction {
    if (from >= to) return NONE;
    const removed = this.#remove(from, to);
    if (!this.#lastWasKill) this.#killed = removed;
    else this.#killed = direction === "forward" ? this.#killed + removed : removed + this.#killed;
    return EDITED;
  }

  /** Ctrl-T: swap the graphemes around the cursor (the two before it at the line's end). */
  #transpose(): InputAction {
    if (this.#cursor === 0) return NONE;
    let at = this.#cursor;
    const atLineEnd = at === this.#text.length || this.#text[at] === "\n";
    if (atLineEnd) at = previousBoundary(this.#text, at);
    const start = previousBoundary(this.#text, at);
    const end = nextBoundary(this.#text, at);
    if (start === at || at === end) return NONE;
    const first = this.#text.slice(start, at);
    const second = this.#text.slice(at, end);
    if (first === "\n" || second === "\n") return NONE;
    this.#text = this.#text.slice(0, start) + second + first + this.#text.slice(end);
    this.#cursor = end;
    return EDITED;
  }

  /** The start of the hard line the cursor is on (Ctrl-A, Home, Ctrl-U's reach). */
  #lineStart(): number {
    if (this.#cursor === 0) return 0;
    return this.#text.lastIndexOf("\n", this.#cursor - 1) + 1;
  }

  /** The end of the hard line the cursor is on (Ctrl-E, End, Ctrl-K's reach). */
  #lineEnd(): number {
    const newline = this.#text.indexOf("\n", this.#cursor);
    return newline === -1 ? this.#text.length : newline;
  }

  #enter(): InputAction {
    const before = this.#text.slice(0, this.#cursor);
    if (before.endsWith("\\")) {
      this.#remove(this.#cursor - 1, this.#cursor);
      return this.#insert("\n");
    }
    if (this.#mode === "prompt") {
      // A prompt that starts with `!` would run as a command: show it as one first.
      const lead = this.#text.trimStart();
      if (lead.startsWith("!")) {
        const steps = lead.startsWith("!!") ? 2 : 1;
        this.#set(lead.slice(steps).trimStart(), Number.POSITIVE_INFINITY, MODES[steps]);
        return EDITED;
      }
    }
    const message = messageFor(this.#mode, this.#text);
    if (message === null) return NONE;
    this.#remember({ mode: this.#mode, text: this.#text });
    this.clear();
    return { kind: "submit", message };
  }

  #remember(entry: HistoryEntry): void {
    const last = this.#history[this.#history.length - 1];
    if (last && last.mode === entry.mode && last.text === entry.text) return;
    this.#history.push(entry);
    if (this.#history.length > HISTORY_LIMIT) this.#history.shift();
  }

  #set(text: string, cursor: number, mode: InputMode): void {
    this.#text = text;
    this.#cursor = Math.min(cursor, text.length);
    this.#mode = mode;
  }

  #rows(): WrappedRow[] {
    return wrapText(this.#text, this.#width);
  }

  /** Move the cursor `by` rows keeping its column; false when there is no such row. */
  #moveRow(by: number): boolean {
    const rows = this.#rows();
    const place = cursorPlace(rows, this.#cursor);
    const target = place.row + by;
    if (target < 0 || target >= rows.length) return false;
    this.#goalColumn ??= place.column;
    this.#cursor = offsetAtColumn(rows, target, this.#goalColumn);
    return true;
  }

  #up(): InputAction {
    if (this.#moveRow(-1)) return EDITED;
    if (this.#history.length === 0 || this.#recalled === 0) return NONE;
    if (this.#recalled === null) {
      this.#draft = { mode: this.#mode, text: this.#text };
      this.#recalled = this.#history.length;
    }
    this.#recalled--;
    const entry = this.#history[this.#recalled];
    this.#set(entry.text, entry.text.length, entry.mode);
    this.#goalColumn = null;
    return EDITED;
  }

  #down(): InputAction {
    if (this.#moveRow(1)) return EDITED;
    if (this.#recalled === null) return { kind: "focus-status" };
    this.#recalled++;
    const entry = this.#recalled < this.#history.length
      ? this.#history[this.#recalled]
      : this.#draft ?? { mode: "prompt", text: "" };
    if (this.#recalled >= this.#history.length) {
      this.#recalled = null;
      this.#draft = null;
    }
    this.#set(entry.text, entry.text.length, entry.mode);
    this.#goalColumn = null;
    return EDITED;
  }

  /**
   * The box at `width` columns: its rows in sight (at most six, scrolled to
   * keep the cursor's row in sight), and the cursor among them. The height
   * grows with the text and shrinks only once the box is empty, so deleting
   * across a wrap does not resize the band; a new width starts afresh. Up
   * and Down move through the rows of the latest layout.
   */
  layout(width: number): InputLayout {
    if (width !== this.#width) this.#height = 1;
    this.#width = width;
    const rows = this.#rows();
    const place = cursorPlace(rows, this.#cursor);
    const fits = Math.min(MAX_VISIBLE_ROWS, rows.length);
    this.#height = this.isEmpty ? 1 : Math.max(this.#height, fits);
    const height = this.#height;
    if (place.row < this.#scrollTop) this.#scrollTop = place.row;
    if (place.row >= this.#scrollTop + height) this.#scrollTop = place.row - height + 1;
    this.#scrollTop = Math.max(0, Math.min(this.#scrollTop, rows.length - height));
    const shown = rows.slice(this.#scrollTop, this.#scrollTop + height).map((row) => row.text);
    while (shown.length < height) shown.push("");
    return {
      rows: shown,
      cursorRow: place.row - this.#scrollTop,
      cursorColumn: place.column,
      height,
    };
  }
}

/**
 * wisp-tui's status bar: the row under the input, and its items.
 *
 * The left half is the plain chat's status (faces/terminal/plain_chat.ts's
 * `statusText`) with its parts apart: `system · 15% used · ~/src/wisp:main +3 -1`.
 * The right half starts with what waits for the person (`questions: 1`,
 * `approvals: 2`, each only when there are some), then the approval mode and
 * the last turn (`approve at moderate · last:3.1s · ↓4,009 ↑79`), or, while a
 * turn or a typed command runs, the working line in their place.
 *
 * When the row is too narrow, parts go in the spec's order: the directory
 * shortens to its last folder, then the approval mode and the last turn go
 * (the working line with them: the dimmed input box says the same), then the
 * directory, then the context gauge. What waits always stays; as a last
 * resort the model's name is cut with `…`.
 *
 * The model, the context gauge and the two waiting counts are items: Down
 * from the input's last row gives the bar the focus, Left and Right move it,
 * Enter opens what the item is about, Up or Esc go back to the input. The
 * focused item is drawn black on its own colour, one space either side, as a
 * button is; with colour off it is drawn in brackets instead, so the focus is
 * still seen.
 *
 * Everything here is pure: the clock is a parameter.
 */
import { elapsedWords } from "../chat/working_line.ts";
import type { ActivityLine, StatusLine } from "../chat/protocol.ts";
import type { Key } from "./key.ts";
import type { ColourName, Paint } from "./palette.ts";
import { columns, cutToColumns } from "./columns.ts";

/** A part of the status bar that takes the focus. */
export type StatusItem = "model" | "context" | "questions" | "approvals";

/** What runs now, as the engine's activity line says (null when nothing does). */
export type Activity = ActivityLine["activity"];

/** What the bar's row needs besides the status itself. */
export interface StatusRowOptions {
  /** The person's home folder, shown as `~`. */
  home?: string;
  /** The item that has the focus, when the bar has it. */
  focus?: StatusItem;
}

/** A stretch of the row: its plain text and how it is painted (and, for an item, which). */
interface Piece {
  text: string;
  colour: ColourName;
  item?: StatusItem;
}

/** The columns left free between the two halves, at least. */
const GAP = 2;

/** The separator between parts. */
const SEPARATOR = " · ";

/**
 * The context gauge's colour: the quiet tone under half the window, the
 * bright tone from half to 80%, amber past 80% (the spec's palette).
 */
export function contextColour(percent: number): ColourName {
  if (percent > 80) return "amber";
  if (percent >= 50) return "bright";
  return "quiet";
}

/**
 * The working line for what runs: `… 12 s · running git status`; once
 * stopping, `stopping the turn · Ctrl-C again quits` (a typed command:
 * `stopping git status · Ctrl-C again quits`), since the second Ctrl-C
 * quits.
 */
export function workingText(activity: NonNullable<Activity>, now: number): string {
  if (activity.stopping) {
    const what = activity.kind === "turn" ? "the turn" : activity.text.replace(/^running /, "");
    return `stopping ${what} · Ctrl-C again quits`;
  }
  return `… ${elapsedWords(now - activity.since)} · ${activity.text}`;
}

/** `~/src/wisp` under the home folder, else the path as it is. */
function shownDirectory(cwd: string, home: string | undefined): string {
  if (home && (cwd === home || cwd.startsWith(home + "/"))) return `~${cwd.slice(home.length)}`;
  return cwd;
}

/** The last folder of a shown directory: `~/src/wisp` → `wisp`; `~` and `/` stay. */
function lastFolder(shown: string): string {
  const trimmed = shown.length > 1 ? shown.replace(/\/+$/, "") : shown;
  const slash = trimmed.lastIndexOf("/");
  return slash < 0 || trimmed === "/" ? trimmed : trimmed.slice(slash + 1);
}

/** The directory part: the folder, its branch, and the lines added and removed. */
function directoryPieces(status: StatusLine, home: string | undefined, short: boolean): Piece[] {
  const shown = shownDirectory(status.cwd, home);
  const pieces: Piece[] = [{ text: short ? lastFolder(shown) : shown, colour: "main" }];
  if (status.branch) {
    pieces.push({ text: `:${status.branch}`, colour: "bright" });
    if (status.added) pieces.push({ text: ` +${status.added}`, colour: "added" });
    if (status.removed) pieces.push({ text: ` -${status.removed}`, colour: "removed" });
  }
  return pieces;
}

/** `4,009`. */
function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** The approval mode and the last turn: `approve at moderate · last:3.1s · ↓4,009 ↑79`. */
function modeAndLastPieces(status: StatusLine): Piece[] {
  const pieces: Piece[] = [{ text: status.approvalMode, colour: "quiet" }];
  if (status.last) {
    pieces.push({
      text: `${SEPARATOR}last:${status.last.seconds.toFixed(1)}s${SEPARATOR}`,
      colour: "quiet",
    });
    pieces.push({ text: `↓${count(status.last.inputTokens)}`, colour: "tokensRead" });
    pieces.push({ text: " ", colour: "quiet" });
    pieces.push({ text: `↑${count(status.last.outputTokens)}`, colour: "tokensWritten" });
  }
  return pieces;
}

/** How far the row has been shortened to fit: each step drops one more part. */
type Squeeze = 0 | 1 | 2 | 3 | 4;

/** The parts of the row at one squeeze step, each a list of pieces. */
function parts(
  status: StatusLine | undefined,
  activity: Activity,
  now: number,
  home: string | undefined,
  squeeze: Squeeze,
): { left: Piece[][]; right: Piece[][] } {
  const left: Piece[][] = [];
  const right: Piece[][] = [];
  if (status) {
    left.push([{ text: status.model, colour: "main", item: "model" }]);
    if (status.contextPercent !== undefined && squeeze < 4) {
      const condensed = status.condensed ? " (condensed)" : "";
      left.push([{
        text: `${status.contextPercent}% used${condensed}`,
        colour: contextColour(status.contextPercent),
        item: "context",
      }]);
    }
    if (squeeze < 3) left.push(directoryPieces(status, home, squeeze >= 1));
    const questions = status.waiting?.questions ?? 0;
    const approvals = status.waiting?.approvals ?? 0;
    if (questions > 0) {
      right.push([{ text: `questions: ${questions}`, colour: "bright", item: "questions" }]);
    }
    if (approvals > 0) {
      right.push([{ text: `approvals: ${approvals}`, colour: "amber", item: "approvals" }]);
    }
  }
  if (squeeze < 2) {
    if (activity) right.push([{ text: workingText(activity, now), colour: "quiet" }]);
    else if (status) right.push(modeAndLastPieces(status));
  }
  return { left, right };
}

/** A piece as drawn: the focused item gets a space either side (brackets with colour off). */
function drawnText(piece: Piece, focus: StatusItem | undefined, colour: boolean): string {
  if (piece.item === undefined || piece.item !== focus) return piece.text;
  return colour ? ` ${piece.text} ` : `[${piece.text}]`;
}

function paintPiece(piece: Piece, focus: StatusItem | undefined, paint: Paint): string {
  const text = drawnText(piece, focus, paint.enabled);
  if (piece.item !== undefined && piece.item === focus) {
    return paint.on("black", piece.colour, text);
  }
  return paint.fg(piece.colour, text);
}

/** The parts joined by separators, as pieces. */
function joined(groups: Piece[][]): Piece[] {
  const out: Piece[] = [];
  groups.forEach((group, i) => {
    if (i > 0) out.push({ text: SEPARATOR, colour: "quiet" });
    out.push(...group);
  });
  return out;
}

function widthOf(pieces: Piece[], focus: StatusItem | undefined): number {
  return pieces.reduce((sum, p) => sum + columns(drawnText(p, focus, true)), 0);
}

/** The two halves at the first squeeze step that fits in `width`, with the step. */
function layout(
  status: StatusLine | undefined,
  activity: Activity,
  now: number,
  width: number,
  options: StatusRowOptions,
): { left: Piece[]; right: Piece[]; squeeze: Squeeze } {
  for (const squeeze of [0, 1, 2, 3, 4] as const) {
    const { left: l, right: r } = parts(status, activity, now, options.home, squeeze);
    const left = joined(l);
    const right = joined(r);
    const gap = left.length > 0 && right.length > 0 ? GAP : 0;
    const fits = widthOf(left, options.focus) + gap + widthOf(right, options.focus) <= width;
    if (fits || squeeze === 4) return { left, right, squeeze };
  }
  throw new Error("unreachable: the last squeeze step is always taken");
}

/**
 * Pieces cut to at most `width` columns, the last kept one ending in `…`.
 * The focused item's padding counts, so a cut never makes the row wider.
 */
function cutPieces(pieces: Piece[], width: number, focus: StatusItem | undefined): Piece[] {
  const out: Piece[] = [];
  let used = 0;
  for (const piece of pieces) {
    const w = columns(drawnText(piece, focus, true));
    if (used + w <= width) {
      out.push(piece);
      used += w;
      continue;
    }
    const padding = w - columns(piece.text);
    const room = width - used - padding;
    if (room > 0) out.push({ ...piece, text: cutToColumns(piece.text, room) });
    break;
  }
  return out;
}

/**
 * The status bar's row, exactly `width` columns wide: the left half at the
 * left edge, the right half at the right edge, spaces between. With colour
 * off (`paint.enabled` false) it is plain text.
 */
export function renderStatusRow(
  status: StatusLine | undefined,
  activity: Activity,
  now: number,
  width: number,
  paint: Paint,
  options: StatusRowOptions = {},
): string {
  if (width <= 0) return "";
  const focus = options.focus;
  let { left, right } = layout(status, activity, now, width, options);
  // What waits stays whole when it can; the left half (the model, by now) gives way first.
  right = cutPieces(right, width, focus);
  const rightWidth = widthOf(right, focus);
  const leftRoom = Math.max(0, width - rightWidth - (right.length > 0 ? GAP : 0));
  left = cutPieces(left, leftRoom, focus);
  const leftWidth = widthOf(left, focus);
  const spaces = " ".repeat(Math.max(0, width - leftWidth - rightWidth));
  const draw = (pieces: Piece[]) => pieces.map((p) => paintPiece(p, focus, paint)).join("");
  return draw(left) + spaces + draw(right);
}

/**
 * The items the bar has now, left to right: the model always (once there is
 * a status), the context gauge when the window's use is known, and each
 * waiting count when there are some. Given the row's `width`, the context
 * gauge counts only when the row has room to draw it (between turns, when
 * the bar can take the focus at all), so the focus never lands on a part
 * that is not shown.
 */
export function statusItems(status: StatusLine | undefined, width?: number): StatusItem[] {
  if (!status) return [];
  const items: StatusItem[] = ["model"];
  if (status.contextPercent !== undefined) {
    const drawn = width === undefined || layout(status, null, 0, width, {}).squeeze < 4;
    if (drawn) items.push("context");
  }
  if ((status.waiting?.questions ?? 0) > 0) items.push("questions");
  if ((status.waiting?.approvals ?? 0) > 0) items.push("approvals");
  return items;
}

/** What Enter on each item does, in words, for the keys line. */
const ENTER_WORDS: Record<StatusItem, string> = {
  model: "opens the model picker",
  context: "shows what fills the context",
  questions: "opens the waiting question",
  approvals: "opens the waiting approval",
};

/**
 * The row shown above the input while the bar has the focus: the keys, and
 * what Enter does on `item`. Plain text; the caller paints it.
 */
export function focusKeysLine(item: StatusItem): string {
  return `←/→ move · Enter ${ENTER_WORDS[item]} · Esc or ↑ back to the input`;
}

/**
 * Where the focus goes on `key`: Left and Right move along the items (stopping
 * at either end, as a row of buttons does), Up and Esc give it back to the
 * input; any other key leaves it. An item that went while it had the focus
 * (its last question answered elsewhere) passes the focus to the first
 * item, the model; with no items at all the focus goes back to the input.
 */
export function moveFocus(
  items: readonly StatusItem[],
  current: StatusItem,
  key: Key,
): StatusItem | "input" {
  if (items.length === 0) return "input";
  if (key.kind === "key" && !key.ctrl && !key.alt) {
    if (key.name === "up" || key.name === "escape") return "input";
  }
  const at = items.indexOf(current);
  if (at < 0) return items[0];
  if (key.kind !== "key" || key.ctrl || key.alt) return current;
  if (key.name === "left") return items[Math.max(0, at - 1)];
  if (key.name === "right") return items[Math.min(items.length - 1, at + 1)];
  return current;
}

/**
 * What Enter on an item does: a slash command sent as the person's own line,
 * or opening the dialog that waits (an approval or question parked while the
 * person was typing).
 */
export type StatusAction =
  | { kind: "send"; text: string }
  | { kind: "open-waiting"; waiting: "questions" | "approvals" };

/**
 * The action for Enter on `item`. The model sends `/model` without a name,
 * which the engine answers with a choice of models (the picker); the context
 * gauge sends `/inspect context`, which the engine answers with a view of
 * what fills the window, shown in the panel. (`/tokens` only counts; the view
 * is what someone looking at a full gauge wants to see.)
 */
export function itemAction(item: StatusItem): StatusAction {
  switch (item) {
    case "model":
      return { kind: "send", text: "/model" };
    case "context":
      return { kind: "send", text: "/inspect context" };
    case "questions":
    case "approvals":
      return { kind: "open-waiting", waiting: item };
  }
}

/**
 * wisp-tui's dialogs drawn: the rows that take the input's place in the
 * band while a dialog (dialog_queue.ts) is shown. Each is a rounded border
 * in the dialog's colour, titled, around its lines; every row is exactly
 * `width` columns, and a line too long for the dialog ends in `…`.
 *
 * - A command: the level's colour (amber moderate, ember dangerous, main
 *   safe; the outside colour outside the sandbox), the command wrapped to
 *   four rows, the whole line when the command is one part of it, the
 *   directory, each reason, what the answer is remembered under, who waits
 *   for it in wisp mcp, and the keys as the plain chat offers them.
 * - A fact to keep: its text, why it was proposed, and `[k]eep [d]rop`.
 * - A choice or a question the model asks: a picker with numbered options,
 *   `›` at the selected one, the value in force marked `(current)`, a line
 *   to type into when a typed value is accepted, and its keys. At most
 *   eight options show at once, the window following the selection.
 *
 * The keys row is dim while the half-second guard runs (`live: false`) and
 * in the dialog's colour once keys are taken. Labels use the plain chat's
 * words, `line:` for the whole line and `in:` for the directory, so both
 * dialogs read alike.
 */
import type { ColourName, Paint } from "./palette.ts";
import type { ApprovalDialog, ChoiceDialog, FactDialog, OpenDialog } from "./dialog_queue.ts";
import { keyLine, tildePath } from "../terminal/approval_dialog.ts";
import { columns, cutToColumns, flowLabels, wrapToColumns } from "./columns.ts";

/** How a dialog is drawn. */
export interface DialogViewOptions {
  /** Whether the dialog takes keys (the guard is over): its keys row is live, not dim. */
  live: boolean;
  /** The person's home, shown as `~` in directories; absent, paths show whole. */
  home?: string;
}

/** The narrowest dialog drawn; a narrower width is treated as this. */
export const MIN_DIALOG_WIDTH = 30;

/** Rows of a command or a fact at most. */
const COMMAND_ROWS = 4;
/** Options of a picker shown at once. */
const PICKER_ROWS = 8;

/** One row inside the border: its plain text (already fitted) and how it is painted. */
interface Row {
  text: string;
  paint: (text: string) => string;
}

/** The dialog's rows, each `width` columns (at least 30). Pure. */
export function renderDialog(
  dialog: OpenDialog,
  width: number,
  paint: Paint,
  options: DialogViewOptions,
): string[] {
  const total = Math.max(MIN_DIALOG_WIDTH, Math.floor(width));
  const inner = total - 4;
  switch (dialog.kind) {
    case "approval":
      return box(approvalTitle(dialog), approvalRows(dialog, inner, paint, options), {
        colour: approvalColour(dialog),
        width: total,
        paint,
      });
    case "fact":
      return box(
        withSource("keep as a permanent fact?", dialog.line.source),
        factRows(dialog, inner, paint, options),
        {
          colour: "amber",
          width: total,
          paint,
        },
      );
    case "choice":
      return box(choiceTitle(dialog), choiceRows(dialog, inner, paint, options), {
        colour: dialog.line.kind === "question" ? "amber" : "main",
        width: total,
        paint,
      });
  }
}

/** The colour of a command's dialog: outside the sandbox, else its level's. Pure. */
export function approvalColour(dialog: ApprovalDialog): ColourName {
  if (dialog.line.outsideSandbox) return "outside";
  switch (dialog.line.level) {
    case "dangerous":
      return "ember";
    case "moderate":
      return "amber";
    case "safe":
      return "main";
  }
}

function withSource(title: string, source: "chat" | "mcp" | undefined): string {
  return source === "mcp" ? `${title} · wisp mcp` : title;
}

function approvalTitle(dialog: ApprovalDialog): string {
  const { line } = dialog;
  const title = line.kind === "model"
    ? "approve a model action"
    : line.outsideSandbox
    ? `approve OUTSIDE the sandbox (${line.level})`
    : line.level;
  return withSource(title, line.source);
}

function choiceTitle(dialog: ChoiceDialog): string {
  const title = dialog.line.kind === "question" ? "the model asks" : dialog.line.title;
  return withSource(title, dialog.line.source);
}

const plainRow = (text: string): string => text;

/** A one-row line, cut to fit. */
function single(text: string, inner: number, paint: Row["paint"] = plainRow): Row {
  return { text: cutToColumns(text, inner), paint };
}

/**
 * The keys row(s): labels flowed over rows (a space between letter keys,
 * ` · ` between a picker's phrases), live in the dialog's colour or dim in
 * the guard.
 */
function keyRows(
  labels: string[],
  inner: number,
  paint: Paint,
  live: boolean,
  colour: ColourName,
  separator = " ",
): Row[] {
  const style = live ? (t: string) => paint.fg(colour, t) : (t: string) => paint.dim(t);
  // In the guard the row says why the keys do not answer yet, in words as well as in dimness.
  const shown = live ? labels : [GUARD_WORDS, ...labels];
  return flowLabels(shown, inner, separator).map((text) => ({ text, paint: style }));
}

/** What the keys row starts with while the guard runs. */
export const GUARD_WORDS = "(keys in a moment)";

/** The lines that say who waits for a request in wisp mcp. */
function mcpRows(
  line: { source?: string; client?: string; thread?: string },
  inner: number,
  paint: Paint,
): Row[] {
  if (line.source !== "mcp") return [];
  const who = line.client ?? "a client";
  const thread = line.thread ? `, thread ${line.thread}` : "";
  return [single(`waiting in wisp mcp for ${who}${thread}`, inner, (t) => paint.fg("quiet", t))];
}

function approvalRows(
  dialog: ApprovalDialog,
  inner: number,
  paint: Paint,
  options: DialogViewOptions,
): Row[] {
  const { line } = dialog;
  const quiet = (t: string) => paint.fg("quiet", t);
  // A model action is shown as what it does (`pull model …`), not as the gate's line for it.
  const model = line.kind === "model";
  const asked = model ? line.words : line.command;
  const rows: Row[] = wrapToColumns(asked, inner, COMMAND_ROWS).map((text) => ({
    text,
    paint: (t: string) => paint.bold(t),
  }));
  if (!model && line.line.trim() !== line.command.trim()) {
    rows.push(single(`line: ${line.line}`, inner));
  }
  if (line.cwd) rows.push(single(`in: ${tildePath(line.cwd, options.home)}`, inner));
  for (const reason of line.reasons) rows.push(single(`· ${reason}`, inner));
  rows.push(
    single(
      line.outsideSandbox || model ? "never remembered" : `remembered as: ${line.pattern}`,
      inner,
      quiet,
    ),
  );
  rows.push(...mcpRows(line, inner, paint));
  // keyLine gives one string; its labels each start with "[".
  const labels = keyLine(dialog.answers).split(/ (?=\[)/);
  rows.push(...keyRows(labels, inner, paint, options.live, approvalColour(dialog)));
  return rows;
}

function factRows(
  dialog: FactDialog,
  inner: number,
  paint: Paint,
  options: DialogViewOptions,
): Row[] {
  const { line } = dialog;
  const rows: Row[] = wrapToColumns(line.command, inner, COMMAND_ROWS).map((text) => ({
    text,
    paint: (t: string) => paint.bold(t),
  }));
  for (const reason of line.reasons) rows.push(single(`· ${reason}`, inner));
  rows.push(...mcpRows(line, inner, paint));
  rows.push(...keyRows(["[k]eep", "[d]rop"], inner, paint, options.live, "amber"));
  return rows;
}

function choiceRows(
  dialog: ChoiceDialog,
  inner: number,
  paint: Paint,
  options: DialogViewOptions,
): Row[] {
  const { line } = dialog;
  const colour: ColourName = line.kind === "question" ? "amber" : "main";
  const quiet = (t: string) => paint.fg("quiet", t);
  const rows: Row[] = [];
  if (line.kind === "question") {
    for (const text of wrapToColumns(line.title, inner, COMMAND_ROWS)) {
      rows.push({ text, paint: (t) => paint.bold(t) });
    }
  }
  const count = line.options.length;
  const shown = Math.min(PICKER_ROWS, count);
  // The window keeps the selection in view, a few rows from its top where it can.
  const start = Math.min(Math.max(0, dialog.selected - 3), count - shown);
  if (start > 0) rows.push(single(`  ↑ ${start} more`, inner, quiet));
  const numberWidth = String(count).length;
  for (let i = start; i < start + shown; i++) {
    const option = line.options[i];
    const selected = i === dialog.selected;
    const marker = selected ? "›" : " ";
    const number = `${String(i + 1).padStart(numberWidth)}.`;
    const toggle = line.toggles ? (dialog.on.includes(option.value) ? "[x] " : "[ ] ") : "";
    const current = option.current ? " (current)" : "";
    const text = `${marker} ${number} ${toggle}${option.label ?? option.value}${current}`;
    rows.push(single(text, inner, selected ? (t) => paint.bold(paint.fg("bright", t)) : plainRow));
  }
  const below = count - (start + shown);
  if (below > 0) rows.push(single(`  ↓ ${below} more`, inner, quiet));
  if (line.typed) rows.push(typedRow(dialog.typed, inner, paint));
  const labels = [
    ...(count > 1 ? ["↑↓ move"] : []),
    ...(line.toggles ? ["Space toggles"] : !line.typed && count > 0 ? ["1-9 pick"] : []),
    line.toggles ? "Enter sends" : "Enter chooses",
    "Esc no answer",
  ];
  rows.push(...keyRows(labels, inner, paint, options.live, colour, " · "));
  return rows;
}

/** The picker's typed line: its end kept in view, a cursor cell after it. */
function typedRow(typed: string, inner: number, paint: Paint): Row {
  const label = "type: ";
  const room = inner - columns(label) - 1;
  let text = typed;
  if (columns(text) > room) {
    // Keep the end, where typing goes: drop characters from the start behind a "…".
    const chars = [...text];
    while (chars.length > 0 && columns(`…${chars.join("")}`) > room) chars.shift();
    text = `…${chars.join("")}`;
  }
  const cursor = paint.enabled ? paint.bg("bright", " ") : "_";
  return {
    text: `${label}${text}_`,
    paint: () => `${paint.fg("quiet", label)}${paint.bold(text)}${cursor}`,
  };
}

/** Rows inside a rounded border of `colour`, the title in its top edge. */
function box(
  title: string,
  rows: Row[],
  frame: { colour: ColourName; width: number; paint: Paint },
): string[] {
  const { colour, width, paint } = frame;
  const edge = (t: string) => paint.fg(colour, t);
  const inner = width - 4;
  const fitted = cutToColumns(title, width - 6);
  const dashes = width - 5 - columns(fitted);
  const top = `${edge("╭─ ")}${paint.bold(paint.fg(colour, fitted))}${
    edge(` ${"─".repeat(dashes)}╮`)
  }`;
  const middle = rows.map((row) =>
    `${edge("│ ")}${row.paint(row.text)}${" ".repeat(Math.max(0, inner - columns(row.text)))}${
      edge(" │")
    }`
  );
  const bottom = edge(`╰${"─".repeat(width - 2)}╯`);
  return [top, ...middle, bottom];
}

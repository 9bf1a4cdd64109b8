/**
 * What wisp-tui prints into the terminal's own scrollback, above the band:
 * the lines a person sent (a stripe in the darker shade of the box they came
 * from, half-block strips above and below), and the conversation's lines
 * (tool calls, the gate's lines, outputs, notes) in their tones. Pure.
 */
import type { InputMode } from "./input_box.ts";
import type { ColourName, Paint } from "./palette.ts";
import type { LineTone, ShownLine } from "../chat/conversation_lines.ts";
import {
  columns,
  cutToColumns,
  expandTabs,
  padToColumns,
  withoutControls,
  wrapToColumns,
} from "./columns.ts";

/** The stripe colour of a line sent from each mode of the box. */
const SENT: Record<InputMode, { bg: ColourName; fg: ColourName; marker: string }> = {
  prompt: { bg: "inputSent", fg: "text", marker: "› " },
  command: { bg: "commandSent", fg: "text", marker: "! " },
  outside: { bg: "outsideSent", fg: "text", marker: "!! " },
};

/** The mode a sent message came from, and its text without the marks. */
export function sentMode(message: string): { mode: InputMode; text: string } {
  if (message.startsWith("!!")) return { mode: "outside", text: message.slice(2).trimStart() };
  if (message.startsWith("!")) return { mode: "command", text: message.slice(1).trimStart() };
  return { mode: "prompt", text: message };
}

/**
 * The rows of a sent line: its tint edge to edge, the text bold (words the
 * person wrote), wrapped to the width, with a half-block strip above and below.
 */
export function sentRows(message: string, width: number, paint: Paint): string[] {
  const { mode, text } = sentMode(message);
  const style = SENT[mode];
  const inner = Math.max(1, width - style.marker.length);
  const wrapped = text.split("\n").flatMap((line) =>
    columns(line) <= inner ? [line] : wrapToColumns(line, inner)
  );
  const rows = wrapped.map((line, i) =>
    paint.on(
      style.fg,
      style.bg,
      padToColumns((i === 0 ? style.marker : " ".repeat(style.marker.length)) + line, width),
    )
  );
  if (!paint.enabled) return rows;
  const strip = (glyph: string) => paint.fg(style.bg, glyph.repeat(width));
  return [strip("▄"), ...rows.map((r) => paint.bold(r)), strip("▀")];
}

const TONE: Record<LineTone, ColourName | undefined> = {
  plain: undefined,
  muted: "quiet",
  tool: "quiet",
  warn: "amber",
  error: "ember",
};

/** A conversation line, styled and cut to the width. */
export function shownRow(line: ShownLine, width: number, paint: Paint): string {
  const text = " ".repeat(line.indent ?? 0) + line.text;
  const colour = TONE[line.tone];
  const cut = cutToColumns(text, width);
  return colour ? paint.fg(colour, cut) : cut;
}

/** A conversation line wrapped to the width (notes and replies wrap; they are the person's to read). */
export function shownRows(line: ShownLine, width: number, paint: Paint): string[] {
  const indent = line.indent ?? 0;
  const colour = TONE[line.tone];
  const room = Math.max(1, width - indent);
  // A line that fits is kept as it is (its own spacing, blank lines); a longer one wraps at spaces.
  const fit = (part: string) => columns(part) <= room ? [part] : wrapToColumns(part, room);
  // Output from commands may carry escape sequences and tabs: drawn as text, never obeyed.
  return line.text.split("\n").map((part) => expandTabs(withoutControls(part))).flatMap((part) =>
    fit(part).map((row) => {
      const text = " ".repeat(indent) + row;
      return colour ? paint.fg(colour, text) : text;
    })
  );
}

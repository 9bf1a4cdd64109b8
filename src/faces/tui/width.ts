/**
 * Terminal columns of text: wide characters count two, combining marks and
 * ANSI sequences none. Cutting, padding and wrapping by columns, so every
 * row wisp-tui draws fits the terminal exactly.
 */
import stringWidth from "string-width";

/** Columns `text` takes on a terminal. */
export function columns(text: string): number {
  return stringWidth(text);
}

/** `text` cut to at most `width` columns, ending in `…` when it was cut. Plain text only. */
export function cutToWidth(text: string, width: number): string {
  if (columns(text) <= width) return text;
  if (width <= 0) return "";
  let out = "";
  let used = 0;
  for (const char of text) {
    const w = columns(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return out + "…";
}

/** `text` padded with spaces to exactly `width` columns (cut first when longer). */
export function padToWidth(text: string, width: number): string {
  const cut = cutToWidth(text, width);
  return cut + " ".repeat(Math.max(0, width - columns(cut)));
}

/** Plain `text` wrapped to rows of at most `width` columns, at spaces where it can. */
export function wrapToWidth(text: string, width: number): string[] {
  if (text === "") return [""];
  const rows: string[] = [];
  let row = "";
  let used = 0;
  for (const word of text.split(/(?<= )/)) {
    const w = columns(word);
    if (used + w <= width) {
      row += word;
      used += w;
      continue;
    }
    if (row !== "") {
      rows.push(row.trimEnd());
      row = "";
      used = 0;
    }
    // A word longer than the row is broken by columns.
    for (const char of word) {
      const cw = columns(char);
      if (used + cw > width) {
        rows.push(row);
        row = "";
        used = 0;
      }
      row += char;
      used += cw;
    }
  }
  rows.push(row.trimEnd());
  return rows;
}

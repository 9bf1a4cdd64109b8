/**
 * Text measured in terminal columns, as wisp-tui lays it out: a wide
 * character (CJK, most emoji) takes two columns, an ANSI escape none. The
 * parts measure plain text first and paint it after, so cutting never splits
 * an escape sequence; `columns` also accepts painted text, for checking a
 * finished row.
 */
import stringWidth from "string-width";

/** How many terminal columns `text` takes (escape sequences count 0). */
export function columns(text: string): number {
  return stringWidth(text);
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * Plain `text` cut to at most `width` columns: when it is wider, it ends in
 * `…` (one column), so a reader sees that something was cut. A wide
 * character that would straddle the edge goes whole.
 */
export function cutToColumns(text: string, width: number): string {
  if (width <= 0) return "";
  if (columns(text) <= width) return text;
  const room = width - 1;
  let kept = "";
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = columns(segment);
    if (used + w > room) break;
    kept += segment;
    used += w;
  }
  return `${kept}…`;
}

/** Plain `text` padded with spaces on the right to exactly `width` columns (cut first when wider). */
export function padToColumns(text: string, width: number): string {
  const cut = cutToColumns(text, width);
  return cut + " ".repeat(Math.max(0, width - columns(cut)));
}

/** Each tab in one line of plain text turned into spaces up to the next tab stop (every `tabWidth` columns). */
export function expandTabs(line: string, tabWidth = 8): string {
  if (!line.includes("\t")) return line;
  let out = "";
  let at = 0;
  for (const { segment } of graphemes.segment(line)) {
    if (segment === "\t") {
      const spaces = tabWidth - (at % tabWidth);
      out += " ".repeat(spaces);
      at += spaces;
    } else {
      out += segment;
      at += columns(segment);
    }
  }
  return out;
}

// CSI and OSC sequences, then any other escape, then the C0 and C1 controls but tab.
const CONTROLS =
  // deno-lint-ignore no-control-regex
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.?|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * One line of someone else's text (a tool's output) made safe to draw inside
 * a frame: escape sequences and control characters are dropped, since a
 * colour code or a carriage return from the output would break the frame
 * around it. Tabs stay, for `expandTabs`.
 */
export function withoutControls(line: string): string {
  return line.replace(CONTROLS, "");
}

/** Plain `text` wrapped to rows of at most `width` columns, at spaces where it can. */
export function wrapToColumns(text: string, width: number): string[] {
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

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

/** The longest start of `text` that fits `width` columns, and the rest. */
function takeColumns(text: string, width: number): { taken: string; rest: string } {
  let used = 0;
  let taken = "";
  for (const { segment } of graphemes.segment(text)) {
    const w = columns(segment);
    if (used + w > width) break;
    used += w;
    taken += segment;
  }
  return { taken, rest: text.slice(taken.length) };
}

/**
 * `text` wrapped to rows of at most `width` columns: at spaces where it can,
 * inside a word longer than a row where it must. With more than `maxRows`
 * rows, the last row kept ends in `…`. Newlines in `text` count as spaces.
 */
export function wrapToColumns(text: string, width: number, maxRows = Infinity): string[] {
  const rows: string[] = [];
  let rest = text.replace(/\s*\n\s*/g, " ").trim();
  while (rest !== "") {
    if (columns(rest) <= width) {
      rows.push(rest);
      break;
    }
    const { taken } = takeColumns(rest, width);
    // Break at the last space that fits, unless the word after it would not
    // fit a row of its own either: then it is cut here, filling this row.
    const space = rest[taken.length] === " " ? taken.length : taken.lastIndexOf(" ");
    const nextWord = rest.slice(space + 1).split(" ")[0];
    const cut = space > 0 && columns(nextWord) <= width ? space : Math.max(taken.length, 1);
    rows.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rows.length <= maxRows) return rows;
  const kept = rows.slice(0, maxRows);
  // The last row kept says there is more, even when it happened to fit.
  kept[maxRows - 1] = `${takeColumns(kept[maxRows - 1], width - 1).taken}…`;
  return kept;
}

/**
 * Short labels (such as a dialog's keys, `[y]once [s]ession …`) laid out on
 * as few rows of `width` columns as they need, `separator` between two on a
 * row; a label is never split, only cut with `…` when it alone is too wide.
 */
export function flowLabels(labels: readonly string[], width: number, separator = " "): string[] {
  const rows: string[] = [];
  let row = "";
  for (const label of labels) {
    const fitted = cutToColumns(label, width);
    if (row === "") row = fitted;
    else if (columns(row + separator + fitted) <= width) row += separator + fitted;
    else {
      rows.push(row);
      row = fitted;
    }
  }
  if (row !== "") rows.push(row);
  return rows;
}

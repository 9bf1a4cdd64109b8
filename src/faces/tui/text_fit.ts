/**
 * Fitting text to terminal columns: how wide a string is on screen, cutting
 * it to a width with an ellipsis, and wrapping it to rows. Width follows
 * `string-width`: a wide CJK character or emoji takes two columns, ANSI
 * sequences none. Text is cut between graphemes, never inside one.
 */
import stringWidth from "string-width";

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** How many terminal columns `text` takes. */
export function columns(text: string): number {
  return stringWidth(text);
}

/** `text` cut to at most `width` columns, ending in `…` when it was longer. Plain text only. */
export function truncate(text: string, width: number): string {
  if (columns(text) <= width) return text;
  if (width <= 0) return "";
  return `${takeColumns(text, width - 1).taken}…`;
}

/** `text` followed by spaces up to `width` columns (unchanged when already as wide). */
export function padEnd(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - columns(text)));
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
export function wrap(text: string, width: number, maxRows = Infinity): string[] {
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
    const fitted = truncate(label, width);
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

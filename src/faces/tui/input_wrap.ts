/**
 * How the input box's text falls into rows of a given width: each hard line
 * (`\n`) starts a row, and a line wider than the box wraps onto more rows,
 * breaking between any two graphemes (a word is not carried whole: simple,
 * and the cursor's place is always exact). A wide character (CJK, most
 * emoji) takes two columns and moves whole to the next row when only one
 * column is left.
 *
 * A line that fills its last row exactly gets one more, empty row: the
 * cursor at its end sits there, never in the column past the box's edge.
 */
import { graphemeWidth, splitGraphemes } from "./input_text.ts";

/** One row of the wrapped text. */
export interface WrappedRow {
  /** UTF-16 offsets of the row's first grapheme and of the end of its last. */
  start: number;
  end: number;
  /** Each grapheme's offset and the column it starts at. */
  cells: { offset: number; column: number; width: number }[];
  /** The row as shown (a tab as one space). */
  text: string;
  /** Whether the same line goes on in the next row (a soft wrap). */
  continues: boolean;
}

/** The rows `text` takes at `width` columns (at least one row). */
export function wrapText(text: string, width: number): WrappedRow[] {
  const columns = Math.max(1, Math.floor(width));
  const rows: WrappedRow[] = [];
  let row: WrappedRow = { start: 0, end: 0, cells: [], text: "", continues: false };
  let used = 0;
  const startRow = (at: number, continues: boolean) => {
    row.continues = continues;
    rows.push(row);
    row = { start: at, end: at, cells: [], text: "", continues: false };
    used = 0;
  };
  for (const { segment, index } of splitGraphemes(text)) {
    if (segment === "\n" || segment === "\r\n") {
      startRow(index + segment.length, false);
      continue;
    }
    const cellWidth = graphemeWidth(segment);
    // Wrap when it does not fit; a character wider than the box still goes alone on a row.
    if (used + cellWidth > columns && row.cells.length > 0) startRow(index, true);
    row.cells.push({ offset: index, column: used, width: cellWidth });
    row.text += segment === "\t" ? " " : segment;
    used += cellWidth;
    row.end = index + segment.length;
    if (used >= columns) startRow(row.end, true);
  }
  rows.push(row);
  return rows;
}

/** The row and column where the cursor at UTF-16 `offset` is drawn. */
export function cursorPlace(rows: WrappedRow[], offset: number): { row: number; column: number } {
  // The last row that holds the offset: at a soft wrap the cursor begins the next row.
  let index = 0;
  for (let r = 0; r < rows.length; r++) {
    if (rows[r].start <= offset && offset <= rows[r].end) index = r;
  }
  const row = rows[index];
  const cell = row.cells.find((c) => c.offset >= offset);
  const last = row.cells[row.cells.length - 1];
  const column = cell ? cell.column : last ? last.column + last.width : 0;
  return { row: index, column };
}

/**
 * The offset in row `rowIndex` nearest the column `column` without passing
 * it: where Up and Down put the cursor to keep its column.
 */
export function offsetAtColumn(rows: WrappedRow[], rowIndex: number, column: number): number {
  const row = rows[rowIndex];
  let best = row.start;
  for (const cell of row.cells) {
    if (cell.column <= column) best = cell.offset;
  }
  // The row's end is a place of its own only when the line ends there (no soft wrap).
  const last = row.cells[row.cells.length - 1];
  if (!row.continues && last && last.column + last.width <= column) best = row.end;
  return best;
}

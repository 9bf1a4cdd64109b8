/**
 * Tables for people and for scripts: aligned columns fitted to the terminal
 * on a TTY, one tab-separated line per row when piped. Pure: the caller says
 * whether the output is a terminal and how wide it is.
 */

export interface TableOptions {
  /** Column headers (shown on a terminal only). */
  headers: string[];
  rows: string[][];
  /** True on a terminal: aligned columns; false: TSV without headers. */
  terminal: boolean;
  /** Terminal width; the last column is cut to fit, with an ellipsis. */
  width?: number;
  /** Spaces between columns (default 2). */
  gap?: number;
}

/** Display width of a string, counting each code point as one column. */
function displayWidth(text: string): number {
  let width = 0;
  for (const _ of text) width++;
  return width;
}

export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (displayWidth(text) <= width) return text;
  const chars = Array.from(text);
  return chars.slice(0, Math.max(0, width - 1)).join("") + "…";
}

/** A value made safe for one TSV field: tabs and newlines become spaces. */
function tsvField(value: string): string {
  return value.replace(/[\t\r\n]+/g, " ");
}

export function renderTable(options: TableOptions): string {
  const { headers, rows, terminal } = options;
  if (!terminal) {
    return rows.map((row) => row.map(tsvField).join("\t") + "\n").join("");
  }
  const gap = " ".repeat(options.gap ?? 2);
  const all = [headers, ...rows];
  const columns = headers.length;
  const widths = Array.from(
    { length: columns },
    (_, c) => Math.max(...all.map((r) => displayWidth(r[c] ?? ""))),
  );
  const lines = all.map((row) => {
    const cells = row.slice(0, columns).map((cell, c) =>
      c === columns - 1
        ? (cell ?? "")
        : (cell ?? "") + " ".repeat(widths[c] - displayWidth(cell ?? ""))
    );
    let line = cells.join(gap).trimEnd();
    if (options.width && options.width > 0) line = truncate(line, options.width);
    return line;
  });
  return lines.map((l) => l + "\n").join("");
}

/** The terminal's width, or undefined when stdout is not a terminal. */
export function terminalWidth(): number | undefined {
  try {
    return Deno.stdout.isTerminal() ? fittingWidth() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The width to fit a terminal table to: the terminal's, else COLUMNS, else
 * 80 (a pseudo-terminal may report zero columns).
 */
export function fittingWidth(env: (name: string) => string | undefined = Deno.env.get): number {
  try {
    if (Deno.stdout.isTerminal()) {
      const { columns } = Deno.consoleSize();
      if (columns > 0) return columns;
    }
  } catch { /* not a terminal after all */ }
  const columns = Number(env("COLUMNS"));
  return Number.isInteger(columns) && columns > 0 ? columns : 80;
}

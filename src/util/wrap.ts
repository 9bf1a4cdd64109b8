/** Wrapping text into lines of a given width, at spaces. Pure. */

/**
 * Split `text` into lines of at most `width` columns, at spaces (runs of
 * white space count as one). A word longer than the width is cut across
 * lines with `breakLongWords`, else kept whole on a line of its own. An
 * empty text is one empty line.
 */
export function wrapWords(
  text: string,
  width: number,
  options: { breakLongWords?: boolean } = {},
): string[] {
  const words = text.replace(/\s+/g, " ").trim().split(" ");
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line === "") line = word;
    else if (line.length + 1 + word.length <= width) line += " " + word;
    else {
      lines.push(line);
      line = word;
    }
    while (options.breakLongWords && line.length > width && width > 0) {
      lines.push(line.slice(0, width));
      line = line.slice(width);
    }
  }
  if (line !== "" || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * The items of a list written in code, as raw text with offsets: a call's arguments, a tuple's or
 * an array's elements, a statement's comma-separated operands. Shared by the readers that take a
 * password by its place in such a list.
 */

/** One item of a list: its raw text and where that text starts. */
export interface ListItem {
  raw: string;
  start: number;
}

/**
 * The items from `open` (just after `(`, `[` or `{`, or where an unbracketed list starts) to the
 * bracket that closes the list. A bracketed list wrapped over lines is read on (formatters wrap long
 * argument lists), up to a few hundred characters; a string never spans a line. With `statement`,
 * the list is not bracketed and also ends at the end of its line or at `;` (`a, b = "x", "y"`,
 * SQL's `EXEC proc 'x', 'y';`).
 */
export function listItems(text: string, open: number, statement = false): ListItem[] {
  const out: ListItem[] = [];
  let i = open;
  let start = i;
  let depth = 0;
  let quote = "";
  const limit = Math.min(text.length, open + 400);
  for (; i < limit && !(quote && text[i] === "\n"); i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
    else if (
      depth === 0 && (c === "," || c === ")" || c === "]" || c === "}" ||
        (statement && (c === "\n" || c === ";" || c === "\r")))
    ) {
      out.push({ raw: text.slice(start, i), start });
      if (c !== ",") return out;
      start = i + 1;
    }
  }
  if (statement && i === text.length && !quote) out.push({ raw: text.slice(start, i), start });
  return out;
}

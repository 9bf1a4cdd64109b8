/**
 * A small reader for config.json's JSONC (JSON with comments and trailing
 * commas) that imports nothing, for the commands that only read settings.
 * jsonc-parser stays the authority: this reader takes only text it is sure
 * of — plain JSON plus line and block comments and trailing commas,
 * nested at most MAX_NESTING deep — and answers `undefined` for anything else,
 * broken text included, so the caller hands that text to jsonc-parser, which
 * gives the value or the error sentence it always gave
 * (docs/adr/0640-config-read-without-npm.md).
 */

/** How deep objects and lists may nest before the reader leaves the text to jsonc-parser. */
const MAX_NESTING = 64;

/** Thrown inside the reader when the text is not one it is sure of. */
class NotSure extends Error {}

/** The reader's position in the text. */
interface Cursor {
  text: string;
  at: number;
}

const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/** Skip spaces, tabs, line breaks and comments. */
function skipTrivia(cursor: Cursor): void {
  const { text } = cursor;
  while (cursor.at < text.length) {
    const char = text[cursor.at];
    if (char === " " || char === "\t" || char === "\n" || char === "\r") {
      cursor.at++;
    } else if (char === "/" && text[cursor.at + 1] === "/") {
      const end = text.indexOf("\n", cursor.at);
      cursor.at = end < 0 ? text.length : end + 1;
    } else if (char === "/" && text[cursor.at + 1] === "*") {
      const end = text.indexOf("*/", cursor.at + 2);
      if (end < 0) throw new NotSure();
      cursor.at = end + 2;
    } else return;
  }
}

function readString(cursor: Cursor): string {
  const { text } = cursor;
  let value = "";
  let from = ++cursor.at;
  while (cursor.at < text.length) {
    const code = text.charCodeAt(cursor.at);
    if (code === 0x22) {
      value += text.slice(from, cursor.at++);
      return value;
    }
    if (code < 0x20) throw new NotSure();
    if (code === 0x5c) {
      value += text.slice(from, cursor.at);
      const escape = text[cursor.at + 1];
      if (escape === "u") {
        const hex = text.slice(cursor.at + 2, cursor.at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new NotSure();
        value += String.fromCharCode(parseInt(hex, 16));
        cursor.at += 6;
      } else if (escape !== undefined && Object.hasOwn(ESCAPES, escape)) {
        value += ESCAPES[escape];
        cursor.at += 2;
      } else throw new NotSure();
      from = cursor.at;
      continue;
    }
    cursor.at++;
  }
  throw new NotSure();
}

function readValue(cursor: Cursor, depth: number): unknown {
  skipTrivia(cursor);
  const { text } = cursor;
  const char = text[cursor.at];
  if (char === "{" || char === "[") {
    if (depth >= MAX_NESTING) throw new NotSure();
    return char === "{" ? readObject(cursor, depth + 1) : readArray(cursor, depth + 1);
  }
  if (char === '"') return readString(cursor);
  for (const [word, value] of [["true", true], ["false", false], ["null", null]] as const) {
    if (text.startsWith(word, cursor.at)) {
      cursor.at += word.length;
      if (/[A-Za-z0-9_$]/.test(text[cursor.at] ?? "")) throw new NotSure();
      return value;
    }
  }
  NUMBER.lastIndex = cursor.at;
  const number = NUMBER.exec(text);
  if (!number) throw new NotSure();
  cursor.at += number[0].length;
  // A number running into a letter, a dot or another digit is not one JSON reads as this.
  if (/[A-Za-z0-9_$.+-]/.test(text[cursor.at] ?? "")) throw new NotSure();
  const value = Number(number[0]);
  if (!Number.isFinite(value)) throw new NotSure();
  return value;
}

function readObject(cursor: Cursor, depth: number): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  cursor.at++;
  skipTrivia(cursor);
  if (cursor.text[cursor.at] === "}") {
    cursor.at++;
    return object;
  }
  for (;;) {
    skipTrivia(cursor);
    if (cursor.text[cursor.at] !== '"') throw new NotSure();
    const key = readString(cursor);
    // Assigning __proto__ would change the object's prototype, not add a key.
    if (key === "__proto__") throw new NotSure();
    skipTrivia(cursor);
    if (cursor.text[cursor.at] !== ":") throw new NotSure();
    cursor.at++;
    object[key] = readValue(cursor, depth);
    skipTrivia(cursor);
    const next = cursor.text[cursor.at++];
    if (next === "}") return object;
    if (next !== ",") throw new NotSure();
    skipTrivia(cursor);
    if (cursor.text[cursor.at] === "}") {
      cursor.at++;
      return object;
    }
  }
}

function readArray(cursor: Cursor, depth: number): unknown[] {
  const array: unknown[] = [];
  cursor.at++;
  skipTrivia(cursor);
  if (cursor.text[cursor.at] === "]") {
    cursor.at++;
    return array;
  }
  for (;;) {
    array.push(readValue(cursor, depth));
    skipTrivia(cursor);
    const next = cursor.text[cursor.at++];
    if (next === "]") return array;
    if (next !== ",") throw new NotSure();
    skipTrivia(cursor);
    if (cursor.text[cursor.at] === "]") {
      cursor.at++;
      return array;
    }
  }
}

/**
 * The object a config text holds, when the text is plain JSONC this reader
 * is sure of and its top level is an object; `undefined` otherwise (broken or
 * unusual text: ask jsonc-parser). A blank text holds the empty object.
 */
export function readJsoncObject(text: string): Record<string, unknown> | undefined {
  if (text.trim() === "") return {};
  const cursor: Cursor = { text, at: 0 };
  try {
    skipTrivia(cursor);
    if (text[cursor.at] !== "{") return undefined;
    const value = readValue(cursor, 0) as Record<string, unknown>;
    skipTrivia(cursor);
    return cursor.at === text.length ? value : undefined;
  } catch (error) {
    if (error instanceof NotSure) return undefined;
    throw error;
  }
}

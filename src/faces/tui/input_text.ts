/**
 * The text questions the input box asks while editing: where the grapheme
 * and word boundaries around an offset are, and how wide a grapheme is in
 * terminal columns. Offsets are UTF-16 indexes into the string, always at a
 * grapheme boundary, so a cursor never lands inside an emoji or between a
 * letter and its accent.
 */
import { columns as stringWidth } from "./columns.ts";

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Each grapheme of `text` with its UTF-16 offset. */
export function splitGraphemes(text: string): { segment: string; index: number }[] {
  return Array.from(graphemes.segment(text), ({ segment, index }) => ({ segment, index }));
}

/** The grapheme boundary before `offset` (0 at the start). */
export function previousBoundary(text: string, offset: number): number {
  let previous = 0;
  for (const { index } of graphemes.segment(text)) {
    if (index >= offset) break;
    previous = index;
  }
  return previous;
}

/** The grapheme boundary after `offset` (the text's length at the end). */
export function nextBoundary(text: string, offset: number): number {
  for (const { index, segment } of graphemes.segment(text)) {
    if (index >= offset) return index + segment.length;
  }
  return text.length;
}

/** The columns a grapheme takes; a tab is shown as one space, so it takes one. */
export function graphemeWidth(grapheme: string): number {
  return grapheme === "\t" ? 1 : stringWidth(grapheme);
}

/** A letter, digit or underscore: what readline's Alt-B, Alt-F, Alt-D count as a word. */
function isWord(grapheme: string): boolean {
  return /^[\p{L}\p{N}_]/u.test(grapheme);
}

function isBlank(grapheme: string): boolean {
  return /^\s/u.test(grapheme);
}

/**
 * From `offset`, back over graphemes that are not `inside`, then over those
 * that are; returns where it stopped.
 */
function backOver(text: string, offset: number, inside: (g: string) => boolean): number {
  const before = splitGraphemes(text).filter(({ index }) => index < offset);
  let k = before.length;
  while (k > 0 && !inside(before[k - 1].segment)) k--;
  while (k > 0 && inside(before[k - 1].segment)) k--;
  return k < before.length ? before[k].index : offset;
}

/** Alt-B: the start of the word before `offset`, skipping the non-word characters first. */
export function wordStartBefore(text: string, offset: number): number {
  return backOver(text, offset, isWord);
}

/** Ctrl-W (readline's unix-word-rubout): back over blanks, then to the blank before the word. */
export function blankWordStartBefore(text: string, offset: number): number {
  return backOver(text, offset, (g) => !isBlank(g));
}

/** Alt-F, Alt-D: the end of the word after `offset`, skipping the non-word characters first. */
export function wordEndAfter(text: string, offset: number): number {
  const after = splitGraphemes(text).filter(({ index }) => index >= offset);
  let k = 0;
  while (k < after.length && !isWord(after[k].segment)) k++;
  while (k < after.length && isWord(after[k].segment)) k++;
  return k < after.length ? after[k].index : text.length;
}

/** How many code points `text` holds before the UTF-16 offset `offset`. */
export function codePointsBefore(text: string, offset: number): number {
  return Array.from(text.slice(0, offset)).length;
}

/** The UTF-16 offset of code point number `count` in `text` (clamped to the text). */
export function offsetOfCodePoint(text: string, count: number): number {
  let offset = 0;
  let seen = 0;
  for (const char of text) {
    if (seen >= count) break;
    offset += char.length;
    seen++;
  }
  return offset;
}

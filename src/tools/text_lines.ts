import { concatBytes } from "../util/bytes.ts";
/**
 * How read_file and edit_file count lines, in one place so they always agree:
 * a line ends at \n, \r\n, or a lone \r (a classic Mac OS file). A file's last
 * line need not end in a break; a break at the very end does not start another
 * line. Splitting works on the UTF-8 bytes' meaning, never on grapheme
 * clusters (\r\n is two code units here, as it is two bytes in the file).
 */

export type LineEnding = "" | "\n" | "\r\n" | "\r";

export interface TextLine {
  text: string;
  ending: LineEnding;
}

/** Split a text into lines, each with the break that ended it ("" for a last line without one). */
export function splitLines(text: string): TextLine[] {
  const lines: TextLine[] = [];
  let start = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      lines.push({ text: text.slice(start, i), ending: "\n" });
      start = i + 1;
    } else if (c === 13) {
      if (i + 1 < n && text.charCodeAt(i + 1) === 10) {
        lines.push({ text: text.slice(start, i), ending: "\r\n" });
        i++;
      } else {
        lines.push({ text: text.slice(start, i), ending: "\r" });
      }
      start = i + 1;
    }
  }
  if (start < n) lines.push({ text: text.slice(start), ending: "" });
  return lines;
}

export function joinLines(lines: TextLine[]): string {
  let out = "";
  for (const line of lines) out += line.text + line.ending;
  return out;
}

/** How many line breaks a text holds (\r\n counts once). */
export function countBreaks(text: string): number {
  let breaks = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) breaks++;
    else if (c === 13) {
      breaks++;
      if (text.charCodeAt(i + 1) === 10) i++;
    }
  }
  return breaks;
}

/** The 1-based line a character offset falls on. */
export function lineAt(text: string, offset: number): number {
  return countBreaks(text.slice(0, offset)) + 1 -
    // an offset right after a \r of a \r\n pair is still on that line's ending
    (offset > 0 && text.charCodeAt(offset - 1) === 13 && text.charCodeAt(offset) === 10 ? 1 : 0);
}

// ---------------------------------------------------------------------------
// Streaming: a page of lines from a byte source, reading only what the page needs.

/** Fill `buffer` from the source; the number of bytes read, or null at the end. */
export type ByteReader = (buffer: Uint8Array) => number | null;

export interface PageLine {
  number: number;
  text: string;
  /** The line's length in bytes, its break not included. */
  bytes: number;
  /** Only the start of the line is shown (it is longer than a page may be). */
  cut: boolean;
}

export interface Page {
  lines: PageLine[];
  /** The offset to call again with, or null when the file ended. */
  next: number | null;
  /** The file's first chunk, or a line shown, held a NUL: the file is not text. */
  binary: boolean;
  /** Bytes read from the source to make this page. */
  bytesRead: number;
}

export interface PageOptions {
  /** The first line wanted, from 1. */
  offset: number;
  /** At most this many lines. */
  limit: number;
  /** The rendered page (numbered lines) stays within this many bytes. */
  room: number;
  chunkSize?: number;
}

/** The bytes `number<TAB>text\n` takes, as read_file renders a line. */
function renderedLineBytes(number: number, textBytes: number): number {
  return String(number).length + (textBytes > 0 ? 1 + textBytes : 0) + 1;
}

const utf8 = new TextDecoder("utf-8", { fatal: false });
const utf8Encoder = new TextEncoder();

/**
 * Read a page of lines. Lines before `offset` are counted, not kept; a line
 * being shown keeps at most `room` bytes however long it is; reading stops as
 * soon as the page is full and the source has been seen to hold more (or to
 * end). Memory is a chunk plus the page, whatever the file's size.
 */
export function readPage(read: ByteReader, options: PageOptions): Page {
  const chunkSize = options.chunkSize ?? 64 * 1024;
  // The first read is about a page (a first page should cost about a page);
  // later reads, which only happen for deep pages or long lines, are full chunks.
  const firstSize = Math.min(chunkSize, Math.max(4096, options.room + 1024));
  let buffer = new Uint8Array(firstSize);
  const lines: PageLine[] = [];
  let used = 0;
  let lineNo = 1;
  let parts: Uint8Array[] = [];
  let kept = 0;
  let lineBytes = 0;
  let skipLF = false; // the previous line ended at \r: a \n right after it belongs to that break
  let bytesRead = 0;
  let binary = false;
  let stopped: "full" | "before" | null = null; // full: page done, check for more; before: next line exists
  let next: number | null = null;

  const wanted = () => lineNo >= options.offset;
  const keep = (slice: Uint8Array) => {
    lineBytes += slice.length;
    if (!wanted() || kept >= options.room) return;
    const part = slice.subarray(0, Math.min(slice.length, options.room - kept));
    parts.push(part.slice());
    kept += part.length;
  };
  /** The current line ended; true when the page is complete. */
  const finish = (): boolean => {
    if (wanted()) {
      const bytes = parts.length === 1 ? parts[0] : concatBytes(parts, kept);
      if (bytes.indexOf(0) !== -1) {
        binary = true;
        return true;
      }
      let text = utf8.decode(bytes);
      let textBytes = utf8Encoder.encode(text).length;
      const size = renderedLineBytes(lineNo, textBytes);
      let cut = lineBytes > kept;
      if (lines.length > 0 && used + size > options.room) {
        stopped = "before";
        next = lineNo;
        return true;
      }
      if (size > options.room - used) {
        // The first line of the page is longer than the page: show its start.
        const allowed = Math.max(0, options.room - used - String(lineNo).length - 2);
        text = cutUtf8(text, allowed);
        textBytes = utf8Encoder.encode(text).length;
        cut = true;
      }
      lines.push({ number: lineNo, text, bytes: lineBytes, cut });
      used += renderedLineBytes(lineNo, textBytes);
      if (lines.length >= options.limit || cut) {
        stopped = "full";
        next = lineNo + 1;
      }
    }
    lineNo++;
    parts = [];
    kept = 0;
    lineBytes = 0;
    return stopped !== null;
  };

  outer: while (true) {
    if (bytesRead > 0 && buffer.length < chunkSize) buffer = new Uint8Array(chunkSize);
    const n = read(buffer);
    if (n === null || n === 0) break;
    bytesRead += n;
    const chunk = buffer.subarray(0, n);
    // Binary is judged where it matters: the file's first chunk (where formats put
    // their headers) and every line shown; lines only counted on the way are not
    // searched for NULs, which keeps a deep page at one pass over the bytes.
    if (bytesRead === n && chunk.indexOf(0) !== -1) {
      binary = true;
      return { lines: [], next: null, binary, bytesRead };
    }
    let i = 0;
    if (stopped === "full") {
      // Past the page: is there anything left beyond a \n that completes a \r\n?
      if (skipLF && chunk[0] === 10) i = 1;
      skipLF = false;
      if (i < n) return { lines, next, binary, bytesRead };
      continue;
    }
    if (skipLF) {
      skipLF = false;
      if (chunk[0] === 10) i = 1;
    }
    let lf = chunk.indexOf(10, i);
    let cr = chunk.indexOf(13, i);
    // Fast path: lines before the page are only counted, with no per-line work beyond the search.
    const offset = options.offset;
    while (i < n && lineNo < offset) {
      if (lf !== -1 && lf < i) lf = chunk.indexOf(10, i);
      if (cr !== -1 && cr < i) cr = chunk.indexOf(13, i);
      const end = lf === -1 ? cr : cr === -1 ? lf : (lf < cr ? lf : cr);
      if (end === -1) {
        lineBytes += n - i;
        i = n;
        break;
      }
      i = end + 1;
      if (chunk[end] === 13) {
        if (i < n) {
          if (chunk[i] === 10) i++;
        } else {
          skipLF = true;
        }
      }
      lineNo++;
      lineBytes = 0;
    }
    while (i < n) {
      // Early stop: a line already too long to join a non-empty page.
      if (
        wanted() && lines.length > 0 && used + renderedLineBytes(lineNo, lineBytes) > options.room
      ) {
        next = lineNo;
        return { lines, next, binary, bytesRead };
      }
      // Each search runs again only once passed, so a chunk is scanned about twice, not once per line.
      if (lf !== -1 && lf < i) lf = chunk.indexOf(10, i);
      if (cr !== -1 && cr < i) cr = chunk.indexOf(13, i);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) {
        if (wanted()) keep(chunk.subarray(i));
        else lineBytes += n - i;
        i = n;
        break;
      }
      if (wanted()) keep(chunk.subarray(i, end));
      else lineBytes += end - i;
      i = end + 1;
      if (chunk[end] === 13) {
        if (i < n) {
          if (chunk[i] === 10) i++;
        } else {
          skipLF = true;
        }
      }
      if (finish()) {
        if (binary) return { lines: [], next: null, binary, bytesRead };
        if (stopped === "before") return { lines, next, binary, bytesRead };
        // Full: look at what follows in this chunk.
        if (skipLF) continue outer;
        if (i < n) return { lines, next, binary, bytesRead };
        continue outer;
      }
    }
  }
  // The source ended.
  if (stopped === "full") {
    return { lines, next: null, binary, bytesRead };
  }
  if (lineBytes > 0 || parts.length > 0) {
    // A last line without a break.
    finish();
    if (binary) return { lines: [], next: null, binary, bytesRead };
    if (stopped === "before") return { lines, next, binary, bytesRead };
  }
  return { lines, next: null, binary, bytesRead };
}

/** Cut a text to at most `max` UTF-8 bytes without splitting a character. */
function cutUtf8(text: string, max: number): string {
  const bytes = utf8Encoder.encode(text);
  if (bytes.length <= max) return text;
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return utf8.decode(bytes.subarray(0, end));
}

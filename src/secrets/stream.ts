/**
 * Scanning and redacting input of any size in bounded memory: the bytes are
 * decoded into windows of about 4 MiB that end at a line break; each window
 * is scanned whole, findings are reported up to a point 64 KiB before its end
 * (moved past any finding that straddles it), and the rest is carried into
 * the next window, so a value cut by a window edge is still seen whole.
 * Binary input (a NUL byte in the first 8 KiB) is skipped, not scanned.
 */
import type { ScanOptions, SecretFinding } from "./types.ts";
import { scanText, shebangExtension } from "./scanner.ts";
import { applyRedaction, RedactionNumbering } from "./redact.ts";

export const WINDOW_CHARS = 4 * 1024 * 1024;
const OVERLAP_CHARS = 64 * 1024;
const SNIFF_BYTES = 8 * 1024;

export interface StreamOptions extends ScanOptions {
  /** Window sizes (tests make them small to exercise the edges). */
  windowChars?: number;
  overlapChars?: number;
}

export interface StreamResult {
  binary: boolean;
  bytes: number;
  counts: Record<string, number>;
}

/** Whether the first bytes look binary (a NUL byte, as git decides). */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, SNIFF_BYTES).includes(0);
}

/**
 * Feed decoded windows of a byte stream to `visit(text, isLast)`, which returns how many
 * leading characters it is done with; the rest is carried into the next window.
 */
async function windows(
  stream: ReadableStream<Uint8Array>,
  windowChars: number,
  visit: (text: string, last: boolean) => number,
): Promise<{ binary: boolean; bytes: number }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let bytes = 0;
  let sniffed = false;
  let head = new Uint8Array(0);
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (value) {
        bytes += value.length;
        if (!sniffed) {
          const joined = new Uint8Array(head.length + value.length);
          joined.set(head);
          joined.set(value, head.length);
          head = joined.subarray(0, SNIFF_BYTES);
          if (looksBinary(head)) return { binary: true, bytes };
          if (head.length >= SNIFF_BYTES) sniffed = true;
        }
        buffer += decoder.decode(value, { stream: true });
      }
      if (done) buffer += decoder.decode();
      while (buffer.length >= windowChars || (done && buffer.length > 0)) {
        const last = done && buffer.length < windowChars * 2;
        const consumed = visit(last ? buffer : buffer.slice(0, windowChars), last);
        buffer = buffer.slice(consumed);
        if (last) buffer = "";
      }
      if (done) return { binary: false, bytes };
    }
  } finally {
    reader.releaseLock();
  }
}

/** Where to cut a window that is not the last: at a line start about `overlap` before its end. */
function cutPoint(text: string, overlap: number): number {
  const target = Math.max(1, text.length - overlap);
  const lineStart = text.lastIndexOf("\n", target) + 1;
  return lineStart > 0 ? lineStart : target;
}

/**
 * The visitor that scans one window and reports its findings up to the cut, located in the whole
 * input (line numbers and offsets), with the counts per kind it has reported so far.
 */
function windowScanner(
  options: StreamOptions,
  onFindings: (findings: SecretFinding[]) => void,
): {
  visit: (text: string, last: boolean, bytes?: Uint8Array) => number;
  counts: Record<string, number>;
} {
  const counts: Record<string, number> = {};
  let offset = 0;
  let lineBase = 0;
  const overlap = options.overlapChars ?? OVERLAP_CHARS;
  const visit = (text: string, last: boolean, bytes?: Uint8Array) => {
    // A script's `#!` line is in the first window only; the windows after it are read alike.
    if (offset === 0) options = { ...options, language: shebangExtension(text) };
    const found = scanText(text, options, bytes);
    let cut = last ? text.length : cutPoint(text, overlap);
    for (const f of found) if (f.start < cut && f.end > cut) cut = f.end;
    const reported = found.filter((f) => f.start < cut).map((f) => ({
      ...f,
      line: f.line + lineBase,
      start: f.start + offset,
      end: f.end + offset,
    }));
    for (const f of reported) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
    if (reported.length > 0) onFindings(reported);
    lineBase += countNewlines(text, cut);
    offset += cut;
    return cut;
  };
  return { visit, counts };
}

/**
 * Scan a stream; `onFindings` receives each window's findings in order, located in the
 * whole input (line numbers and offsets). Returns the counts per kind.
 */
export async function scanStream(
  stream: ReadableStream<Uint8Array>,
  options: StreamOptions,
  onFindings: (findings: SecretFinding[]) => void,
): Promise<StreamResult> {
  const { visit, counts } = windowScanner(options, onFindings);
  const result = await windows(stream, options.windowChars ?? WINDOW_CHARS, visit);
  return { ...result, counts };
}

/** Something read synchronously into a buffer, as `Deno.FsFile.readSync` is (null at the end). */
export interface SyncReader {
  readSync(into: Uint8Array): number | null;
}

/**
 * Scan text read synchronously, window by window, with the same findings as `scanStream`. A large
 * file is read this way: a few reads of a window's size each, where a stream delivers it in many
 * small chunks, each a trip through the event loop (ADR 0390). Each window is decoded once from
 * the bytes, up to its last line feed (which never falls inside a multi-byte character), so its
 * text is one flat string: no joined or sliced strings for the one pass to step through (ADR
 * 0655). What a window leaves for the next is carried as bytes when the window held one byte per
 * character or its tail encodes back to the same bytes, else as text. The caller has ruled out
 * binary input and diffs.
 */
export function scanReaderSync(
  reader: SyncReader,
  options: StreamOptions,
  onFindings: (findings: SecretFinding[]) => void,
): StreamResult {
  const windowChars = options.windowChars ?? WINDOW_CHARS;
  const { visit, counts } = windowScanner(options, onFindings);
  // A window's bytes: what the last window left, then fresh reads up to the window's size.
  const buffer = new Uint8Array(Math.max(windowChars, 64 * 1024));
  let filled = 0;
  let carried = ""; // text left by the last window when its bytes could not be told apart
  let bytes = 0;
  let done = false;
  while (true) {
    while (!done && filled < buffer.length) {
      const n = reader.readSync(buffer.subarray(filled));
      if (n === null) done = true;
      else {
        filled += n;
        bytes += n;
      }
    }
    const end = done ? filled : windowEnd(buffer, filled);
    const fresh = DECODER.decode(buffer.subarray(0, end));
    const text = carried === "" ? fresh : carried + fresh;
    const last = done && end === filled;
    if (text.length === 0 && last) break;
    // The window's bytes go along when they are exactly its text (nothing carried as text).
    const consumed = visit(text, last, carried === "" ? buffer.subarray(0, end) : undefined);
    if (last) break;
    const tailBytes = carried === "" ? bytesOfTail(fresh, consumed, buffer, end) : -1;
    if (tailBytes >= 0) {
      buffer.copyWithin(0, end - tailBytes, filled);
      filled -= end - tailBytes;
      carried = "";
    } else {
      carried = text.slice(consumed);
      buffer.copyWithin(0, end, filled);
      filled -= end;
    }
  }
  return { binary: false, bytes, counts };
}

const DECODER = new TextDecoder();
const ENCODER = new TextEncoder();

/**
 * Where a window of `filled` bytes ends: after its last line feed, or, in a line longer than the
 * window, before a character's continuation bytes (so no character is cut in two).
 */
function windowEnd(buffer: Uint8Array, filled: number): number {
  const lineFeed = buffer.lastIndexOf(10, filled - 1);
  if (lineFeed !== -1) return lineFeed + 1;
  // The last character's first byte, and whether all its bytes are in.
  let lead = filled - 1;
  while (lead > filled - 4 && lead > 0 && (buffer[lead] & 0xc0) === 0x80) lead--;
  const first = buffer[lead];
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return lead + length > filled && lead > 0 ? lead : filled;
}

/**
 * How many bytes before `end` hold the characters of `text` from `consumed` on: the count of them
 * when the text has one byte per character, else their encoding's length when it matches the
 * bytes (it does not after invalid UTF-8, which decoding replaced); -1 when it cannot be told.
 */
function bytesOfTail(text: string, consumed: number, buffer: Uint8Array, end: number): number {
  if (text.length === end) return text.length - consumed;
  const tail = ENCODER.encode(text.slice(consumed));
  if (tail.length > end) return -1;
  const at = end - tail.length;
  for (let i = 0; i < tail.length; i++) if (buffer[at + i] !== tail[i]) return -1;
  return tail.length;
}

/** Redact a stream, writing the redacted text window by window through `write`. */
export async function redactStream(
  stream: ReadableStream<Uint8Array>,
  options: StreamOptions,
  write: (text: string) => void,
  numbering = new RedactionNumbering(),
): Promise<StreamResult> {
  const overlap = options.overlapChars ?? OVERLAP_CHARS;
  const result = await windows(stream, options.windowChars ?? WINDOW_CHARS, (text, last) => {
    const found = scanText(text, { ...options, allowComments: false });
    let cut = last ? text.length : cutPoint(text, overlap);
    for (const f of found) if (f.start < cut && f.end > cut) cut = f.end;
    // The first window is visited only after the binary sniff, so binary input writes nothing.
    write(applyRedaction(text.slice(0, cut), found.filter((f) => f.start < cut), numbering));
    return cut;
  });
  return { ...result, counts: numbering.counts };
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  let i = text.indexOf("\n");
  while (i !== -1 && i < end) {
    n++;
    i = text.indexOf("\n", i + 1);
  }
  return n;
}

/**
 * Reading what triage reads, bounded: a file or standard input, up to
 * CAPTURE_LIMIT bytes kept (an over-long input keeps its head and tail halves
 * and names the bytes in between as not read). A file is read by offset, so a
 * huge log costs no more memory than the limit. Only regular files are opened
 * (src/util/tool_input.ts): a device, FIFO or socket is a ToolInputError.
 */
import { boundBytes, CAPTURE_LIMIT } from "./triage.ts";
import { openInputFile } from "../util/tool_input.ts";
import { type Scanned, type ScanWatch, TriageScanner } from "./scan.ts";
import { concatBytes } from "../util/bytes.ts";

/**
 * Bytes read from a file at a time when every byte is scanned. The scan
 * copies them into its own window buffer and decodes whole windows, so a
 * larger read costs no larger string; it only means fewer reads (ADR 0650).
 */
const SCAN_READ = 256 * 1024;

/** A file, every byte through the exact readers, read 256 KiB at a time (memory bounded whatever its size). */
export async function scanFile(
  path: string,
  given = path,
  watch: ScanWatch = {},
): Promise<Scanned> {
  const { file } = openInputFile(path, given);
  try {
    const scanner = new TriageScanner();
    watch.onScanning?.(() => scanner.linesRead);
    const buf = new Uint8Array(SCAN_READ);
    for (;;) {
      const n = await file.read(buf);
      if (n === null) break;
      scanner.pushBytes(buf.subarray(0, n));
    }
    return scanner.end();
  } finally {
    file.close();
  }
}

/** A stream (standard input), every byte through the exact readers as it arrives. */
export async function scanStream(
  stream: ReadableStream<Uint8Array>,
  watch: ScanWatch = {},
): Promise<Scanned> {
  const scanner = new TriageScanner();
  watch.onScanning?.(() => scanner.linesRead);
  for await (const chunk of stream) scanner.pushBytes(chunk);
  return scanner.end();
}

export interface BoundedInput {
  text: string;
  bytes: number;
  droppedBytes: number;
}

async function readExactly(file: Deno.FsFile, length: number): Promise<Uint8Array> {
  const buf = new Uint8Array(length);
  let got = 0;
  while (got < length) {
    const n = await file.read(buf.subarray(got));
    if (n === null) break;
    got += n;
  }
  return buf.subarray(0, got);
}

export async function readFileBounded(
  path: string,
  limit = CAPTURE_LIMIT,
  given = path,
): Promise<BoundedInput> {
  const { file, stamp } = openInputFile(path, given);
  try {
    const size = stamp.size;
    if (size <= limit) {
      const bytes = await readExactly(file, size);
      return { ...boundBytes(bytes, limit), bytes: bytes.length };
    }
    const half = Math.floor(limit / 2);
    const head = await readExactly(file, half);
    await file.seek(size - half, Deno.SeekMode.Start);
    const tail = await readExactly(file, half);
    const decoder = new TextDecoder();
    return {
      text: `${decoder.decode(head)}\n${decoder.decode(tail)}`,
      bytes: size,
      droppedBytes: size - head.length - tail.length,
    };
  } finally {
    file.close();
  }
}

/** Reads a stream to its end, keeping the first half-limit bytes and a rolling last half-limit. */
export async function readStreamBounded(
  stream: ReadableStream<Uint8Array>,
  limit = CAPTURE_LIMIT,
): Promise<BoundedInput> {
  const half = Math.floor(limit / 2);
  const head: Uint8Array[] = [];
  let headLength = 0;
  let tail: Uint8Array[] = [];
  let tailLength = 0;
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    let rest = chunk;
    if (headLength < half) {
      const take = rest.subarray(0, half - headLength);
      head.push(take);
      headLength += take.length;
      rest = rest.subarray(take.length);
    }
    if (rest.length === 0) continue;
    tail.push(rest);
    tailLength += rest.length;
    // Keep the tail within half the limit (and the array short).
    while (tailLength - tail[0].length >= half) {
      tailLength -= tail[0].length;
      tail.shift();
    }
    if (tail.length > 64) tail = [concatBytes(tail, tailLength)];
  }
  const headBytes = concatBytes(head, headLength);
  let tailBytes = concatBytes(tail, tailLength);
  if (tailBytes.length > half) tailBytes = tailBytes.subarray(tailBytes.length - half);
  if (total <= limit) {
    return {
      text: new TextDecoder().decode(
        concatBytes([headBytes, tailBytes], headBytes.length + tailBytes.length),
      ),
      bytes: total,
      droppedBytes: 0,
    };
  }
  const decoder = new TextDecoder();
  return {
    text: `${decoder.decode(headBytes)}\n${decoder.decode(tailBytes)}`,
    bytes: total,
    droppedBytes: total - headBytes.length - tailBytes.length,
  };
}

/** What a bounded read of a log did not read: a stretch of whole lines in the middle. */
export interface HeldBack {
  bytes: number;
  /** Lines in the stretch: counted, or (exact false) estimated from the part counted. */
  lines: number;
  exact: boolean;
  /** The stretch follows this many lines that were read (line numbers after it are shifted). */
  afterLine?: number;
}

export interface LogWindow {
  text: string;
  bytes: number;
  heldBack?: HeldBack;
}

/** Beyond this much, the held-back stretch's lines are estimated rather than counted. */
const COUNT_SCAN_LIMIT = 256 * 1024 * 1024;

function newlines(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}

/** Line breaks in [from, to) of a file, read a MiB at a time; past `scanLimit` bytes, estimated. */
async function countLineBreaks(
  file: Deno.FsFile,
  from: number,
  to: number,
  scanLimit = COUNT_SCAN_LIMIT,
): Promise<{ lines: number; exact: boolean }> {
  const span = Math.max(0, to - from);
  const scan = Math.min(span, scanLimit);
  await file.seek(from, Deno.SeekMode.Start);
  const buf = new Uint8Array(1024 * 1024);
  let counted = 0;
  let lines = 0;
  while (counted < scan) {
    const n = await file.read(buf.subarray(0, Math.min(buf.length, scan - counted)));
    if (n === null) break;
    lines += newlines(buf.subarray(0, n));
    counted += n;
  }
  if (counted >= span) return { lines, exact: true };
  return { lines: counted > 0 ? Math.round(lines * (span / counted)) : 0, exact: false };
}

/**
 * A log file read as condense_log reads it: whole up to `limit`; a longer one
 * keeps its first and last half-limit cut to whole lines, and says what it
 * held back in between (bytes, and the lines counted without keeping them).
 */
export async function readLogWindow(
  path: string,
  limit = CAPTURE_LIMIT,
  scanLimit = COUNT_SCAN_LIMIT,
  given = path,
): Promise<LogWindow> {
  const { file, stamp } = openInputFile(path, given);
  try {
    const size = stamp.size;
    if (size <= limit) {
      const bytes = await readExactly(file, size);
      return { text: new TextDecoder().decode(bytes), bytes: bytes.length };
    }
    const half = Math.floor(limit / 2);
    let head = await readExactly(file, half);
    const lastBreak = head.lastIndexOf(10);
    if (lastBreak >= 0) head = head.subarray(0, lastBreak + 1);
    await file.seek(size - half, Deno.SeekMode.Start);
    let tail = await readExactly(file, half);
    const firstBreak = tail.indexOf(10);
    // A tail that is one cut line (no break before the end) is kept as it is.
    if (firstBreak >= 0 && firstBreak < tail.length - 1) tail = tail.subarray(firstBreak + 1);
    const from = head.length;
    const to = size - tail.length;
    const counted = await countLineBreaks(file, from, to, scanLimit);
    const decoder = new TextDecoder();
    const headText = decoder.decode(head);
    return {
      text: `${headText}${headText.endsWith("\n") ? "" : "\n"}${decoder.decode(tail)}`,
      bytes: size,
      heldBack: {
        bytes: to - from,
        lines: counted.lines,
        exact: counted.exact,
        afterLine: newlines(head) + (headText.endsWith("\n") ? 0 : 1),
      },
    };
  } finally {
    file.close();
  }
}

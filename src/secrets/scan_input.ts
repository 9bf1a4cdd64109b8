/**
 * Scan one input (a file or standard input) the way every front end does:
 * binary is scanned through its printable runs, a unified diff is scanned by its added lines and located
 * in the files it changes, anything else is streamed in bounded windows.
 */
import type { ScanOptions, SecretFinding } from "./types.ts";
import { countByKind, scanText } from "./scanner.ts";
import { looksLikeDiff, scanDiff } from "./diff.ts";
import { looksBinary, scanReaderSync, scanStream } from "./stream.ts";
import { peek, readBounded } from "./input.ts";
import { printableStream, printableText } from "./binary.ts";

/** A diff is held whole to be scanned; one larger than this is refused (fail closed). */
const MAX_DIFF_BYTES = 256 * 1024 * 1024;
const PEEK_BYTES = 64 * 1024;

/** An input that cannot be scanned as it is (its message is the sentence to show). */
export class NotScannable extends Error {
  override name = "NotScannable";
}

export interface InputResult {
  /** The input was binary and was scanned through its printable runs. */
  binary: boolean;
  diff: boolean;
  counts: Record<string, number>;
}

export async function scanInput(
  stream: ReadableStream<Uint8Array>,
  options: ScanOptions,
  onFindings: (findings: SecretFinding[]) => void,
): Promise<InputResult> {
  const peeked = await peek(stream, PEEK_BYTES);
  if (looksBinary(peeked.head)) {
    const result = await scanStream(printableStream(peeked.stream), options, onFindings);
    return { binary: true, diff: false, counts: result.counts };
  }
  const headText = new TextDecoder().decode(peeked.head);
  if (looksLikeDiff(headText)) {
    const whole = await readBounded(peeked.stream, MAX_DIFF_BYTES);
    if (whole !== null) {
      const findings = scanDiff(whole, diffOptions(options));
      if (findings.length > 0) onFindings(findings);
      return { binary: false, diff: true, counts: countByKind(findings) };
    }
    throw new NotScannable(
      `the diff is larger than ${
        MAX_DIFF_BYTES / 1024 / 1024
      } MiB; scan the files it changes instead`,
    );
  }
  const result = await scanStream(peeked.stream, options, onFindings);
  return { binary: result.binary, diff: false, counts: result.counts };
}

/** The options a diff is scanned with (its own paths replace the input's). */
function diffOptions(options: ScanOptions) {
  return { personal: options.personal, thorough: options.thorough, history: options.history };
}

const DECODER = new TextDecoder();
let readBuffer: Uint8Array<ArrayBuffer> = new Uint8Array(256 * 1024);

/** Files up to this size are read whole and scanned in one piece; larger ones are streamed. */
export const WHOLE_FILE_BYTES = 8 * 1024 * 1024;

/** Scan bytes held in memory (a small file read whole): binary by its printable runs, a diff by its lines. */
export function scanBytes(
  bytes: Uint8Array,
  options: ScanOptions,
  onFindings: (findings: SecretFinding[]) => void,
): InputResult {
  if (looksBinary(bytes)) {
    const findings = scanText(printableText(bytes), options);
    if (findings.length > 0) onFindings(findings);
    return { binary: true, diff: false, counts: countByKind(findings) };
  }
  const text = DECODER.decode(bytes);
  const diff = looksLikeDiff(text);
  const findings = diff ? scanDiff(text, diffOptions(options)) : scanText(text, options, bytes);
  if (findings.length > 0) onFindings(findings);
  return { binary: false, diff, counts: countByKind(findings) };
}

/**
 * Scan a file: read whole when small (no stream machinery), streamed when large. A file is read
 * into one buffer until a read returns nothing, so a small file's size is learnt without asking
 * for it (a stat per file was about a third of the file calls' time, ADR 0701); a file larger than
 * WHOLE_FILE_BYTES is read again from its start, in windows.
 */
export async function scanFile(
  path: string,
  options: ScanOptions,
  onFindings: (findings: SecretFinding[]) => void,
): Promise<InputResult> {
  const file = Deno.openSync(path, { read: true });
  try {
    const fileOptions = { ...options, path: options.path ?? path };
    const whole = readWhole(file);
    if (whole !== undefined) return scanBytes(whole, fileOptions, onFindings);
    file.seekSync(0, Deno.SeekMode.Start);
    // A large text file is read in windows without the stream machinery; binary input and diffs
    // (rare at this size) take the general way, from the start again.
    const head = new Uint8Array(PEEK_BYTES);
    let headLength = 0;
    while (headLength < head.length) {
      const n = file.readSync(head.subarray(headLength));
      if (n === null) break;
      headLength += n;
    }
    file.seekSync(0, Deno.SeekMode.Start);
    const start = head.subarray(0, headLength);
    if (!looksBinary(start) && !looksLikeDiff(DECODER.decode(start))) {
      const result = scanReaderSync(file, fileOptions, onFindings);
      return { binary: false, diff: false, counts: result.counts };
    }
    return await scanInput(file.readable, fileOptions, onFindings);
  } finally {
    try {
      file.close();
    } catch { /* the stream closed it */ }
  }
}

/**
 * The whole of an open file in the shared buffer, or undefined when it holds more than
 * WHOLE_FILE_BYTES. Most files fit the buffer and end at the first read that returns nothing; only
 * one that fills it is measured, to grow the buffer or give up on reading it whole. One buffer for
 * every small file: a new one per file of a large tree is garbage the collector then spends more
 * time on than the scan.
 */
function readWhole(file: Deno.FsFile): Uint8Array | undefined {
  let filled = 0;
  for (;;) {
    if (filled === readBuffer.length) {
      const size = file.statSync().size;
      if (size > WHOLE_FILE_BYTES || filled > WHOLE_FILE_BYTES) return undefined;
      // One more byte than the size, so the read that finds the end has room to return nothing.
      const larger = new Uint8Array(Math.max(size + 1, readBuffer.length * 2));
      larger.set(readBuffer);
      readBuffer = larger;
    }
    const n = file.readSync(readBuffer.subarray(filled));
    if (n === null) return readBuffer.subarray(0, filled);
    filled += n;
  }
}

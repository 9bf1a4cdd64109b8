/**
 * Reading one file for grep: in chunks, decoded incrementally as UTF-8 (a
 * character split across chunks stays whole), split into lines, each line cut
 * at a ceiling when shown. A NUL byte in the first 8 KiB marks the file binary
 * and it is skipped at once, however large it is.
 */

const SCAN_LIMITS = {
  binaryProbeBytes: 8 * 1024,
  chunkBytes: 64 * 1024,
  /** Characters of a matching line shown. */
  lineShown: 300,
  /** A line longer than this is matched only on its first part. */
  lineMatched: 64 * 1024,
};

export interface LineMatch {
  line: number;
  text: string;
  /** The shown text was cut. */
  cut: boolean;
}

function isBinary(head: Uint8Array): boolean {
  return head.subarray(0, SCAN_LIMITS.binaryProbeBytes).includes(0);
}

function showLine(text: string): { text: string; cut: boolean } {
  const clean = text.replace(/\r$/, "");
  if (clean.length <= SCAN_LIMITS.lineShown) return { text: clean, cut: false };
  return { text: clean.slice(0, SCAN_LIMITS.lineShown) + "…", cut: true };
}

export type LineTest = (line: string) => boolean;

function readWhole(file: Deno.FsFile): Uint8Array {
  const size = file.statSync().size;
  const bytes = new Uint8Array(size);
  let read = 0;
  while (read < size) {
    const n = file.readSync(bytes.subarray(read));
    if (n === null || n === 0) break;
    read += n;
  }
  return bytes.subarray(0, read);
}

/**
 * The lines of a file that pass `test`, with `context` lines before and after
 * each (as [line, text] pairs marked with `match`). Returns undefined for a
 * binary file.
 */
/** Files up to this size are read whole, so a file without the text is passed over in one search. */
const WHOLE_FILE_BYTES = 8 * 1024 * 1024;

export function scanFile(
  path: string,
  test: LineTest,
  options: {
    maxMatches: number;
    context: number;
    deadline?: number;
    /** A quick check on a whole file's text: false means no line can match. */
    mayMatch?: (text: string) => boolean;
  },
):
  | { matches: Array<LineMatch & { match: boolean }>; total: number; timedOut?: boolean }
  | undefined {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch {
    return { matches: [], total: 0 };
  }
  try {
    let whole: string | undefined;
    if (file.statSync().size <= WHOLE_FILE_BYTES) {
      const bytes = readWhole(file);
      if (isBinary(bytes)) return undefined;
      whole = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
      if (options.mayMatch && !options.mayMatch(whole)) return { matches: [], total: 0 };
    }
    const decoder = new TextDecoder("utf-8", { fatal: false });
    const buffer = new Uint8Array(SCAN_LIMITS.chunkBytes);
    let first = true;
    let pending = "";
    let lineNo = 0;
    let total = 0;
    const out: Array<LineMatch & { match: boolean }> = [];
    const before: Array<{ line: number; text: string }> = [];
    let after = 0;
    let timedOut = false;
    const take = (raw: string) => {
      lineNo++;
      if (options.deadline !== undefined && (lineNo & 255) === 0 && Date.now() > options.deadline) {
        timedOut = true;
        return;
      }
      const text = raw.length > SCAN_LIMITS.lineMatched
        ? raw.slice(0, SCAN_LIMITS.lineMatched)
        : raw;
      if (test(text)) {
        total++;
        if (out.length < options.maxMatches * (1 + 2 * options.context)) {
          for (const b of before) out.push({ line: b.line, ...showLine(b.text), match: false });
          before.length = 0;
          out.push({ line: lineNo, ...showLine(text), match: true });
          after = options.context;
        }
        return;
      }
      if (after > 0) {
        out.push({ line: lineNo, ...showLine(text), match: false });
        after--;
      } else if (options.context > 0) {
        before.push({ line: lineNo, text });
        if (before.length > options.context) before.shift();
      }
    };
    if (whole !== undefined) {
      let start = 0;
      let index: number;
      while ((index = whole.indexOf("\n", start)) >= 0) {
        take(whole.slice(start, index));
        start = index + 1;
        if ((total >= options.maxMatches && after === 0) || timedOut) break;
      }
      if (start < whole.length && !timedOut && !(total >= options.maxMatches && after === 0)) {
        take(whole.slice(start));
      }
      return { matches: out, total, ...(timedOut ? { timedOut } : {}) };
    }
    while (true) {
      const n = file.readSync(buffer);
      if (n === null || n === 0) break;
      const chunk = buffer.subarray(0, n);
      if (first) {
        first = false;
        if (isBinary(chunk)) return undefined;
      }
      pending += decoder.decode(chunk, { stream: true });
      let start = 0;
      let index: number;
      while ((index = pending.indexOf("\n", start)) >= 0) {
        take(pending.slice(start, index));
        start = index + 1;
      }
      pending = pending.slice(start);
      // A line with no end in sight is matched on its first part only.
      if (pending.length > SCAN_LIMITS.lineMatched * 2) {
        pending = pending.slice(0, SCAN_LIMITS.lineMatched);
      }
      if ((total >= options.maxMatches && after === 0) || timedOut) break;
    }
    pending += decoder.decode();
    if (pending !== "" && !timedOut) take(pending);
    return { matches: out, total, ...(timedOut ? { timedOut } : {}) };
  } finally {
    file.close();
  }
}

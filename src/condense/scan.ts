/**
 * Every byte of an output through the exact readers, in bounded memory.
 *
 * The output arrives in pieces (a file read a MiB at a time, standard input,
 * a command's pipes as the runner drains them). Lines are cut as they come,
 * each normalised once (normalise.ts: escapes, CR, CI timestamp prefixes,
 * wrapper prefixes), and gathered into windows of about WINDOW_CHARS. The
 * readers run over each window whole, so an output up to that size is read
 * exactly as one text; a longer one is read window by window, each window
 * starting with the last lines of the one before as context, and the last
 * lines of each window carried into the next before their marks count, so a
 * block of up to CARRY_LINES lines that crosses a cut is still read whole in
 * the next window. A window that is not the last keeps no finding whose block
 * starts in the lines the next window reads again (findings.ts `blockStart`):
 * the next window reports it whole, once (ADR 0700). A window starts with the
 * heading lines in effect where it starts (readers name them: pytest's
 * `FAILURES` rule, a section's title), so a part or block longer than the
 * context is read as what it is, and a finding whose block starts at such a
 * heading is left to the window that read its head (ADR 0705). A finding
 * reported twice is dropped by its key; one named more or less fully meets the
 * one remembered, kept or only counted, so the counts are exact.
 *
 * What is kept is bounded whatever the size: findings beyond KEPT_FINDINGS
 * are counted, not kept; the unexplained text is kept as its first and last
 * chunks (the rest counted); the evidence is the last EVIDENCE_LINES lines.
 */
import { blockStart, dedupe, type Finding, findingKey } from "./findings.ts";
import { KeptIndex } from "./kept_index.ts";
import { readLines } from "./readers/index.ts";
import { type LineShape, setShape } from "./readers/reader.ts";
import { normaliseLine } from "./normalise.ts";
import { isBlank } from "./text.ts";
import { byteLength } from "../util/bytes.ts";
import { BYTE_ORDER_MARK, CARRIAGE_RETURN, ESCAPE, LINE_FEED } from "./chars.ts";
import {
  clipLine,
  countFindings,
  type Counts,
  EVIDENCE_LINES,
  MAX_JUDGED_CHUNKS,
  type NumberedLine,
  unexplainedChunks,
} from "./triage.ts";

/**
 * The readers run over windows of about this many characters. Smaller windows
 * hold fewer lines through each young-generation collection (which copies
 * every line still held) and call the readers often enough to be optimised
 * early: on the 100 MB bench log, 512 KiB windows took about 0.75 of the CPU
 * time of 4 MiB ones (ADR 0380).
 */
export const WINDOW_CHARS = 512 * 1024;
/** Lines at the end of a window carried into the next before their marks count. */
const CARRY_LINES = 2000;
/** At most this many characters are carried (a window of very long lines carries fewer lines). */
const CARRY_CHARS = 512 * 1024;
/**
 * A heading that ends in a rule of four dashes or equals signs, or of box-drawing lines (Biome's
 * `file:3:1 lint/rule ━━━━`): its block is below it.
 */
const HEADING_RULE = /\S.*(?:[-=]{4}|[━─]{4})$/;
/** Lines of a paragraph looked at for a heading (see opensBlock). */
const HEADING_LINES = 8;

/**
 * Whether the paragraph that ends at line `last` (the lines above an empty line) opens the block
 * below it, so a window must not start after that empty line: it ends with a label (`stderr:`), or
 * holds a heading that ends in a rule (cargo test's `---- name stdout ----`, whose block has empty
 * lines of its own).
 */
function opensBlock(lines: string[], last: number): boolean {
  if (last < 0) return false;
  if (lines[last].endsWith(":")) return true;
  for (let k = last; k >= 0 && k > last - HEADING_LINES && lines[k].length !== 0; k--) {
    if (HEADING_RULE.test(lines[k])) return true;
  }
  return false;
}
/** Findings kept (deduplicated, in output order); those beyond are counted by kind. */
export const KEPT_FINDINGS = 2000;
/** Distinct findings remembered for deduplication; past this, repeats are counted again. */
export const KNOWN_KEYS = 200_000;

/** What a scan found. Everything in it is bounded; what was not kept is counted. */
export interface Scanned {
  /** Findings in output order (deduplicated), at most KEPT_FINDINGS; each with the reader that found it. */
  findings: Finding[];
  /** The reader of each finding, by index. */
  foundBy: string[];
  /** Findings found beyond those kept, by kind. */
  overflow: Counts;
  /** The last non-blank lines, numbered in the whole output. */
  tail: NumberedLine[];
  /** The unexplained text as chunks: the first and last of them when there were more than `maxChunks`. */
  chunks: string[];
  /** Chunks of unexplained text in all (kept or not). */
  chunkCount: number;
  /** Characters no reader explained. */
  unexplainedChars: number;
  /** The readers whose format appeared. */
  readers: string[];
  /** Lines and bytes read. */
  lines: number;
  bytes: number;
}

export interface ScanOptions {
  windowChars?: number;
  carryLines?: number;
  /** Unexplained chunks kept (half from the start, half from the end); default MAX_JUDGED_CHUNKS. */
  maxChunks?: number;
}

/** What a scan's caller may watch while it reads (a working line on a terminal). */
export interface ScanWatch {
  /** Called once, when reading starts, with a way to ask how many lines were read so far. */
  onScanning?: (linesRead: () => number) => void;
}

/**
 * Bytes decoded as one text. Kept under V8's large-object size (128 KiB), so a
 * window's text is made of ordinary young strings: one no longer referenced
 * by the next young-generation collection is freed there, where a larger text
 * is moved straight into the old generation and waits there for a full one.
 */
const PIECE_BYTES = 64 * 1024;

/** At least this many bytes of one line are held before the line is cut (ADR 0650). */
const MIN_LINE_BYTES = 4 * 1024 * 1024;

/** An output read piece by piece; `end()` says what the readers found in all of it. */
export class TriageScanner {
  readonly #windowChars: number;
  readonly #carryLines: number;
  readonly #maxChunks: number;
  /** The longest line held whole; a longer one is cut into lines of this length. */
  readonly #maxLineBytes: number;
  /** Decodes whole windows, each cut at a line end (or a character's end): no state between them. */
  readonly #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  /** Nothing decoded yet: a byte-order mark at the very start is dropped, as a streaming decoder drops it. */
  #atStart = true;
  /**
   * Bytes not yet cut into lines, reused from window to window: a window's
   * lines are made from one decoded text when it is full, so between windows
   * nothing is held as strings but the context and carried lines.
   */
  #pending = new Uint8Array(0);
  #pendingLength = 0;
  /** Text not yet cut into lines (pushText), the same role as #pending for bytes. */
  #pendingText = "";
  /**
   * The window being gathered, one array the readers are given whole: first
   * `#contextCount` lines read already and final (context, not re-marked),
   * then the lines not final yet (fresh). The array is reused from window to
   * window (the next window's first lines moved to its front): a new array
   * per window was a tenth of what the scan allocated. Only its first
   * `#held` entries are lines; past them it holds empty strings.
   */
  readonly #lines: string[] = [];
  #held = 0;
  /**
   * The shape of each held line, set once as the line arrives and moved with
   * it (a context line's is not computed again); arrays with room to spare.
   */
  #shape: LineShape = {
    first: new Uint16Array(0),
    lead: new Uint16Array(0),
    last: new Uint16Array(0),
  };
  #contextCount = 0;
  /** How many of the window's first lines are headings carried from before it (ADR 0705). */
  #carried = 0;
  /** Lines added since the window's array was last made, each piece's as its own array (joined once, when read). */
  #parts: string[][] = [];
  #partLines = 0;
  /** Characters of the fresh lines, each counted with its line feed. */
  #freshChars = 0;
  /** Lines made final so far (the number of the next final line, less one). */
  #finalLines = 0;
  #bytes = 0;
  readonly #kept: Finding[] = [];
  /** The kept findings as a set (a remembered finding may be kept or only counted). */
  readonly #keptSet = new Set<Finding>();
  readonly #foundBy: string[] = [];
  /** Keys of the findings seen, each with the kept finding (or, counted and not kept, its names). */
  readonly #keys = new Map<string, Finding>();
  /** The remembered findings filed to meet reports of them that name them more or less fully. */
  readonly #partials = new KeptIndex();
  readonly #overflow: Counts = { errors: 0, test_failures: 0, warnings: 0 };
  readonly #readers = new Set<string>();
  readonly #tail: NumberedLine[] = [];
  readonly #headChunks: string[] = [];
  #tailChunks: string[] = [];
  #chunkCount = 0;
  #unexplainedChars = 0;
  #ended = false;

  constructor(opts: ScanOptions = {}) {
    this.#windowChars = opts.windowChars ?? WINDOW_CHARS;
    this.#carryLines = opts.carryLines ?? CARRY_LINES;
    this.#maxChunks = Math.max(2, opts.maxChunks ?? MAX_JUDGED_CHUNKS);
    this.#maxLineBytes = Math.max(MIN_LINE_BYTES, 2 * this.#windowChars);
  }

  /** Lines read so far (for a progress line): those in windows, and the line ends not yet cut. */
  get linesRead(): number {
    return this.#finalLines + this.#held + this.#partLines - this.#contextCount +
      countLineFeeds(this.#pending.subarray(0, this.#pendingLength)) +
      countLineFeedsInText(this.#pendingText);
  }

  /** Bytes as they arrive (UTF-8; a character cut between pieces is joined). */
  pushBytes(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.#pendingText !== "") this.#flushText();
    this.#bytes += bytes.length;
    let from = 0;
    while (from < bytes.length) {
      const room = this.#room(bytes.length - from);
      const n = Math.min(room, bytes.length - from);
      this.#pending.set(bytes.subarray(from, from + n), this.#pendingLength);
      this.#pendingLength += n;
      from += n;
      this.#cutBytes();
    }
  }

  /** Text as it arrives (counted as its UTF-8 length). */
  pushText(text: string): void {
    if (text === "") return;
    if (this.#pendingLength > 0) this.#flushBytes(false);
    this.#bytes += byteLength(text);
    this.#pendingText = this.#pendingText === "" ? text : this.#pendingText + text;
    this.#cutText();
  }

  /** Room in the pending buffer for up to `wanted` more bytes, growing it (up to the longest line) when full. */
  #room(wanted: number): number {
    const free = this.#pending.length - this.#pendingLength;
    if (free > 0) return free;
    const size = Math.min(
      this.#maxLineBytes,
      Math.max(this.#pending.length * 2, this.#windowChars + 64 * 1024, wanted),
    );
    if (size > this.#pending.length) {
      const grown = new Uint8Array(size);
      grown.set(this.#pending.subarray(0, this.#pendingLength));
      this.#pending = grown;
    }
    return this.#pending.length - this.#pendingLength;
  }

  /** Bytes the window being gathered still wants (at least one line's worth). */
  #wanted(): number {
    return Math.max(1, this.#windowChars - this.#freshChars);
  }

  /** Cuts whole windows out of the pending bytes while they hold one. */
  #cutBytes(): void {
    for (;;) {
      const wanted = this.#wanted();
      if (this.#pendingLength < wanted) return;
      const pending = this.#pending.subarray(0, this.#pendingLength);
      // The window ends at the first line end at or past what it wants; failing that, at the last one before.
      let lf = pending.indexOf(LINE_FEED, wanted - 1);
      if (lf === -1) lf = pending.lastIndexOf(LINE_FEED);
      if (lf === -1) {
        // One line fills the buffer: held whole up to the longest line, cut there past it.
        if (this.#pendingLength < this.#maxLineBytes) return;
        this.#flushBytes(true);
        continue;
      }
      this.#takePieces(lf + 1);
    }
  }

  /**
   * The first `length` pending bytes (they end with a line feed) into the
   * window, decoded in pieces of at most PIECE_BYTES cut at line feeds, then
   * taken out of the buffer at once.
   */
  #takePieces(length: number): void {
    const pending = this.#pending;
    let from = 0;
    while (from < length) {
      let to = length;
      if (length - from > PIECE_BYTES) {
        const lf = pending.lastIndexOf(LINE_FEED, from + PIECE_BYTES - 1);
        // A line longer than a piece is decoded whole, up to its line feed.
        to = (lf >= from ? lf : pending.indexOf(LINE_FEED, from + PIECE_BYTES)) + 1;
      }
      const text = this.#text(pending.subarray(from, to));
      from = to;
      const lines = text.split("\n");
      lines.pop();
      this.#addLines(lines, hasControls(text));
    }
    this.#drop(length);
    if (this.#freshChars >= this.#windowChars) this.#readWindow(false);
  }

  /** The first `length` pending bytes as text (they end at a character's end), taken out of the buffer. */
  #decode(length: number): string {
    const text = this.#text(this.#pending.subarray(0, length));
    this.#drop(length);
    return text;
  }

  /** Bytes that end at a character's end as text; a byte-order mark is dropped at the very start only. */
  #text(bytes: Uint8Array): string {
    const text = this.#decoder.decode(bytes);
    if (!this.#atStart) return text;
    this.#atStart = false;
    return text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text;
  }

  /** The first `length` pending bytes taken out of the buffer. */
  #drop(length: number): void {
    this.#pending.copyWithin(0, length, this.#pendingLength);
    this.#pendingLength -= length;
  }

  /** All pending bytes as text: a line cut where the bytes end (`cut`, at a character's end), or passed on to the text path. */
  #flushBytes(cut: boolean): void {
    if (!cut) {
      this.#pendingText = this.#decode(this.#pendingLength) + this.#pendingText;
      return;
    }
    // Back to the start of a character the end cuts (its lead byte is at most three bytes back).
    let end = this.#pendingLength;
    for (let k = 1; k <= 3 && end - k > 0; k++) {
      const b = this.#pending[end - k];
      if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
      const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      if (length > k) end -= k;
      break;
    }
    this.#takeLines(this.#decode(end) + "\n");
  }

  /** Cuts whole windows out of the pending text while it holds one. */
  #cutText(): void {
    for (;;) {
      const text = this.#pendingText;
      const wanted = this.#wanted();
      if (text.length < wanted) return;
      let lf = text.indexOf("\n", wanted - 1);
      if (lf === -1) lf = text.lastIndexOf("\n");
      if (lf === -1) {
        if (text.length < this.#maxLineBytes) return;
        this.#pendingText = "";
        this.#takeLines(text + "\n");
        continue;
      }
      this.#pendingText = text.slice(lf + 1);
      this.#takeLines(lf + 1 === text.length ? text : text.slice(0, lf + 1));
    }
  }

  /** Pending text's whole lines into the window and its unfinished last line into the pending bytes (text, then bytes). */
  #flushText(): void {
    const text = this.#pendingText;
    this.#pendingText = "";
    const lf = text.lastIndexOf("\n");
    if (lf !== -1) this.#takeLines(text.slice(0, lf + 1));
    if (lf + 1 === text.length) return;
    const rest = new TextEncoder().encode(text.slice(lf + 1));
    this.#room(rest.length);
    this.#pending.set(rest, this.#pendingLength);
    this.#pendingLength += rest.length;
  }

  /**
   * Whole lines (`text` ends with a line feed): each normalised once and added
   * to the window, which is read when full.
   */
  #takeLines(text: string): void {
    const lines = text.split("\n");
    lines.pop();
    this.#addLines(lines, hasControls(text));
    if (this.#freshChars >= this.#windowChars) this.#readWindow(false);
  }

  /** Lines into the window, normalised; `controls` false: the text they came from holds no escape or CR. */
  #addLines(lines: string[], controls: boolean): void {
    let chars = this.#freshChars;
    for (let i = 0; i < lines.length; i++) {
      const line = normaliseLine(lines[i], controls);
      lines[i] = line;
      chars += line.length + 1;
    }
    this.#freshChars = chars;
    this.#parts.push(lines);
    this.#partLines += lines.length;
  }

  /** The window's lines: the context and earlier lines, then the parts added since, in one array of exactly those lines. */
  #gather(): string[] {
    const window = this.#lines;
    let n = this.#held;
    this.#shapeRoom(n + this.#partLines);
    const parts = this.#parts;
    for (let p = 0; p < parts.length; p++) n = appendLines(window, n, parts[p], this.#shape);
    this.#parts = [];
    this.#partLines = 0;
    this.#held = n;
    if (window.length > n) window.length = n;
    return window;
  }

  /** Room in the shape's arrays for `count` lines (the held ones kept). */
  #shapeRoom(count: number): void {
    const old = this.#shape;
    if (old.first.length >= count) return;
    const size = Math.max(count, 2 * old.first.length, 1024);
    const grown = (from: Uint16Array) => {
      const to = new Uint16Array(size);
      to.set(from.subarray(0, this.#held));
      return to;
    };
    this.#shape = { first: grown(old.first), lead: grown(old.lead), last: grown(old.last) };
  }

  /** Run the readers over context + fresh; make final all fresh lines but the carried ones (all at the end). */
  #readWindow(last: boolean): void {
    const lines = this.#gather();
    const contextCount = this.#contextCount;
    const freshCount = lines.length - contextCount;
    let carry = 0;
    if (!last) {
      // At most a quarter of the window is carried, so each window makes most of its lines final.
      const maxLines = Math.min(this.#carryLines, Math.floor(freshCount / 4));
      const maxChars = Math.min(CARRY_CHARS, Math.floor(this.#windowChars / 4));
      let chars = 0;
      while (carry < maxLines) {
        chars += lines[lines.length - 1 - carry].length + 1;
        if (chars > maxChars) break;
        carry++;
      }
    }
    const { first, lead, last: lastChar } = this.#shape;
    const n = lines.length;
    const read = readLines(lines, {
      shape: {
        first: first.subarray(0, n),
        lead: lead.subarray(0, n),
        last: lastChar.subarray(0, n),
      },
      final: last,
      carried: this.#carried,
    });
    for (const r of read.readers) this.#readers.add(r);
    // The fresh lines made final: [contextCount, finalEnd) of the window.
    const finalEnd = lines.length - carry;
    const start = this.#nextStart(lines, finalEnd);
    for (let k = 0; k < read.findings.length; k++) {
      const f = read.findings[k];
      const at = blockStart(f) ?? -1;
      // A block that starts in the lines the next window reads again may be cut by this window's
      // end: the next window reads it from its start, whole, and reports it then.
      if (!last && at >= start) continue;
      // A block that starts at a heading carried from before (a failure longer than the context)
      // was reported, with its head, by the window that read that (ADR 0705). What this window
      // names more fully (pytest's summary gives the id a conftest fixture's section lacks) still
      // fills in the report kept; nothing is counted again.
      if (at >= 0 && at < this.#carried) {
        this.#fillIn(f);
        continue;
      }
      this.#keep(f, read.foundBy[k]);
    }
    this.#noteTail(lines, contextCount, finalEnd);
    const marks = read.marks.subarray(contextCount, finalEnd);
    // Most windows of a long run of a known format leave nothing unexplained: no lines copied for them.
    if (marks.indexOf(0) !== -1) {
      for (const chunk of unexplainedChunks(lines.slice(contextCount, finalEnd), marks)) {
        this.#chunk(chunk);
      }
    }
    this.#finalLines += finalEnd - contextCount;
    let chars = 0;
    for (let k = finalEnd; k < lines.length; k++) chars += lines[k].length + 1;
    this.#freshChars = chars;
    // The headings in effect where the next window starts, to go before its lines (ADR 0705).
    const headings = last ? [] : read.headingsAt(start);
    const carried = headings.map((h) => ({
      line: lines[h],
      first: first[h],
      lead: lead[h],
      last: lastChar[h],
    }));
    // The next window's lines to the front, after its headings; what follows them let go (the
    // array keeps its length, and so its room).
    // Each heading is a distinct line before `start`, so they and the moved lines fit where these were.
    const h = carried.length;
    const moved = lines.length - start;
    const shape = this.#shape;
    for (let k = 0; k < moved; k++) lines[h + k] = lines[start + k];
    shape.first.copyWithin(h, start, start + moved);
    shape.lead.copyWithin(h, start, start + moved);
    shape.last.copyWithin(h, start, start + moved);
    for (let k = 0; k < h; k++) {
      lines[k] = carried[k].line;
      shape.first[k] = carried[k].first;
      shape.lead[k] = carried[k].lead;
      shape.last[k] = carried[k].last;
    }
    lines.fill("", h + moved);
    this.#held = h + moved;
    this.#carried = h;
    this.#contextCount = h + finalEnd - start;
  }

  /**
   * Where the next window starts in this one's lines: the last final lines
   * as its context, the carried lines its first fresh ones. The context starts
   * after an empty line where there is one near: blocks of most formats begin
   * there. A line of spaces alone is not one: it sits inside an indented block
   * (a TAP subtest's YAML, a traceback), and a window starting below it would
   * read the block without its heading.
   */
  #nextStart(lines: string[], finalEnd: number): number {
    const start = Math.max(0, finalEnd - this.#carryLines);
    for (let k = start; k > 0 && k > start - this.#carryLines; k--) {
      if (lines[k - 1].length !== 0) continue;
      if (!opensBlock(lines, k - 2)) return k;
    }
    return start;
  }

  #keep(f: Finding, reader: string): void {
    const key = findingKey(f);
    if (this.#keys.has(key)) {
      // A later report of a kept finding may carry what the first lacked (a window cut it short).
      const earlier = this.#keys.get(key)!;
      if (this.#keptSet.has(earlier)) dedupe([earlier, f]);
      return;
    }
    if (this.#mergedWithPartial(f, key)) return;
    const keep = this.#kept.length < KEPT_FINDINGS;
    if (this.#keys.size < KNOWN_KEYS) {
      // A finding counted but not kept is remembered by its names alone, so that a later report
      // naming it more or less fully (a window that held its block without its heading) meets it
      // and is not counted again: the headline's count is exact past the kept findings too.
      const known = keep ? f : namesOf(f);
      this.#keys.set(key, known);
      this.#partials.add(known);
    }
    if (keep) {
      this.#kept.push(f);
      this.#keptSet.add(f);
      this.#foundBy.push(reader);
      return;
    }
    const c = countFindings([f]);
    this.#overflow.errors += c.errors;
    this.#overflow.test_failures += c.test_failures;
    this.#overflow.warnings += c.warnings;
  }

  /**
   * A finding a window leaves to the one that reported it: if it is known, by its key or more or
   * less fully, the kept report takes what it adds; otherwise it is neither kept nor counted.
   */
  #fillIn(f: Finding): void {
    const key = findingKey(f);
    const earlier = this.#keys.get(key);
    if (earlier) {
      if (this.#keptSet.has(earlier)) dedupe([earlier, f]);
      return;
    }
    this.#mergedWithPartial(f, key);
  }

  /**
   * Whether `f` is a kept finding reported again more or less fully (a window
   * held the failure's block but not its heading, or the heading but not the
   * block): then the kept one takes the fuller names and whatever else it
   * lacked, and `f` is not counted again (findings.ts `moreOrLess`).
   */
  #mergedWithPartial(f: Finding, key: string): boolean {
    const met = this.#partials.meet(f);
    if (!met) return false;
    const { kept, fuller } = met;
    if (fuller === f) {
      // The kept finding takes the fuller names: a test's whole name and file, an error's line.
      if (kept.test) {
        kept.test = f.test;
        if (f.file) kept.file = f.file;
      } else kept.location = f.location;
      this.#partials.renamed(kept);
      if (this.#keys.size < KNOWN_KEYS) this.#keys.set(key, kept);
    }
    // Only a kept finding takes what the report adds (a counted one is remembered by its names).
    if (this.#keptSet.has(kept)) dedupe([kept, f]);
    return true;
  }

  /** The last non-blank lines of window lines [from, to), just made final, into the evidence kept. */
  #noteTail(lines: string[], from: number, to: number): void {
    const found: NumberedLine[] = [];
    for (let i = to - 1; i >= from && found.length < EVIDENCE_LINES; i--) {
      if (isBlank(lines[i])) continue;
      found.push({ line: this.#finalLines + (i - from) + 1, text: clipLine(lines[i]) });
    }
    this.#tail.push(...found.reverse());
    if (this.#tail.length > EVIDENCE_LINES) {
      this.#tail.splice(0, this.#tail.length - EVIDENCE_LINES);
    }
  }

  #chunk(chunk: string): void {
    this.#chunkCount++;
    this.#unexplainedChars += chunk.length;
    const half = Math.floor(this.#maxChunks / 2);
    if (this.#headChunks.length < this.#maxChunks - half) {
      this.#headChunks.push(chunk);
      return;
    }
    this.#tailChunks.push(chunk);
    if (this.#tailChunks.length > 2 * half) this.#tailChunks = this.#tailChunks.slice(-half);
  }

  /** The end of the output: read what is left and say what was found. */
  end(): Scanned {
    if (!this.#ended) {
      this.#ended = true;
      if (this.#pendingLength > 0) this.#flushBytes(false);
      const rest = this.#pendingText;
      this.#pendingText = "";
      const lines = rest.split("\n");
      // What follows the last line feed is a line only when something is left of it (not a colour reset).
      const after = lines.pop()!;
      if (normaliseLine(after) !== "") lines.push(after);
      this.#addLines(lines, true);
      if (this.#held + this.#partLines > this.#contextCount || this.#finalLines === 0) {
        this.#readWindow(true);
      }
    }
    const half = Math.floor(this.#maxChunks / 2);
    const tailChunks = this.#tailChunks.slice(-half);
    return {
      findings: [...this.#kept],
      foundBy: [...this.#foundBy],
      overflow: { ...this.#overflow },
      tail: [...this.#tail],
      chunks: [...this.#headChunks, ...tailChunks],
      chunkCount: this.#chunkCount,
      unexplainedChars: this.#unexplainedChars,
      readers: [...this.#readers],
      lines: this.#finalLines,
      bytes: this.#bytes,
    };
  }
}

/** A whole text scanned at once. */
export function scanText(text: string, opts: ScanOptions = {}): Scanned {
  const scanner = new TriageScanner(opts);
  scanner.pushText(text);
  return scanner.end();
}

/**
 * Two scans of one command's output as one, as if `second` followed `first`
 * (stdout, then stderr): findings in that order, the second's lines numbered
 * after the first's, chunks bounded as one scan bounds them.
 */
export function joinScans(first: Scanned, second: Scanned, maxChunks = MAX_JUDGED_CHUNKS): Scanned {
  const findings: Finding[] = [...first.findings];
  const foundBy = [...first.foundBy];
  const keys = new Set(first.findings.map(findingKey));
  const overflow = { ...first.overflow };
  for (let k = 0; k < second.findings.length; k++) {
    const f = second.findings[k];
    const key = findingKey(f);
    if (keys.has(key)) continue;
    keys.add(key);
    if (findings.length < KEPT_FINDINGS) {
      findings.push(f);
      foundBy.push(second.foundBy[k]);
    } else {
      const c = countFindings([f]);
      overflow.errors += c.errors;
      overflow.test_failures += c.test_failures;
      overflow.warnings += c.warnings;
    }
  }
  overflow.errors += second.overflow.errors;
  overflow.test_failures += second.overflow.test_failures;
  overflow.warnings += second.overflow.warnings;
  const tail = [
    ...first.tail,
    ...second.tail.map((l) => ({ line: l.line + first.lines, text: l.text })),
  ].slice(-EVIDENCE_LINES);
  let chunks = [...first.chunks, ...second.chunks];
  if (chunks.length > maxChunks) {
    const half = Math.floor(maxChunks / 2);
    chunks = [...chunks.slice(0, maxChunks - half), ...chunks.slice(-half)];
  }
  return {
    findings,
    foundBy,
    overflow,
    tail,
    chunks,
    chunkCount: first.chunkCount + second.chunkCount,
    unexplainedChars: first.unexplainedChars + second.unexplainedChars,
    readers: [...new Set([...first.readers, ...second.readers])],
    lines: first.lines + second.lines,
    bytes: first.bytes + second.bytes,
  };
}

/**
 * A piece's lines into the window from index `at`, each line's shape set;
 * returns the index after them. A function of its own, like the readers'
 * helpers: a loop inside a method run once a window was optimised, left and
 * thrown away again at every window.
 */
function appendLines(window: string[], at: number, part: string[], shape: LineShape): number {
  let n = at;
  for (let i = 0; i < part.length; i++) {
    const line = part[i];
    setShape(shape, n, line);
    if (n < window.length) window[n] = line;
    else window.push(line);
    n++;
  }
  return n;
}

/** A finding's names without its detail: what a counted, not kept, finding is remembered by. */
function namesOf(f: Finding): Finding {
  const names: Finding = { kind: f.kind, message: f.message };
  if (f.location !== undefined) names.location = f.location;
  if (f.test !== undefined) names.test = f.test;
  if (f.file !== undefined) names.file = f.file;
  return names;
}

/** Whether a text holds an escape or a carriage return (else its lines need only their prefixes looked at). */
function hasControls(text: string): boolean {
  return text.includes(String.fromCharCode(ESCAPE)) ||
    text.includes(String.fromCharCode(CARRIAGE_RETURN));
}

/** Line feeds in bytes. */
function countLineFeeds(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(LINE_FEED); i !== -1; i = bytes.indexOf(LINE_FEED, i + 1)) n++;
  return n;
}

/** Line feeds in a text. */
function countLineFeedsInText(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * A model's reply as styled terminal lines rather than raw Markdown: the
 * small, exact subset local models write (ATX and setext headings,
 * paragraphs, emphasis, code spans, links, bullet, ordered and task lists,
 * block quotes, rules, fenced and indented code, GFM pipe tables), parsed
 * here without a library. Anything else stays visible as text.
 *
 * The text is read a line at a time into blocks; each block is rendered on
 * its own and top-level blocks are separated by one blank line, so a reply
 * that arrives in pieces can print each block once it is complete
 * (`MarkdownStream`) and still come out exactly as the whole text would.
 *
 * Where the spec is silent this follows what Claude Code's and Codex's
 * terminals do: `#` marks dropped, bullets as `•`, code indented and never
 * wrapped, links as `text (url)`, a blank line between blocks.
 */

import { columns as stringWidth } from "./columns.ts";
import type { ColourName, Paint } from "./palette.ts";

// ---------------------------------------------------------------------------
// Styled pieces of a line

const BOLD = 1;
const ITALIC = 2;
const STRIKE = 4;
const CODE = 8;
const LINK = 16;
const BRIGHT = 32;
const QUIET = 64;
const DIM = 128;

/** A run of text in one style (a bit set of the flags above). */
interface Piece {
  text: string;
  style: number;
}

/** A hard line break inside a paragraph, as a piece's whole text. */
const HARD_BREAK = "\n";

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

function widthOf(pieces: Piece[]): number {
  let total = 0;
  for (const piece of pieces) total += stringWidth(piece.text);
  return total;
}

/** Strikethrough is not in the palette's Paint; SGR 9 only when colour is on. */
function strike(paint: Paint, text: string): string {
  return paint.enabled && text !== "" ? `\x1b[9m${text}\x1b[0m` : text;
}

function paintPiece(paint: Paint, piece: Piece): string {
  const { text, style } = piece;
  if (!paint.enabled || text === "") return text;
  // Padding and plain spaces carry nothing visible unless underlined or struck.
  if (/^ +$/.test(text) && !(style & (LINK | STRIKE))) return text;
  const colour: ColourName = style & CODE
    ? "bright"
    : style & LINK
    ? "quiet"
    : style & BRIGHT
    ? "bright"
    : style & QUIET
    ? "quiet"
    : "text";
  let out = paint.fg(colour, text);
  if (style & BOLD) out = paint.bold(out);
  if (style & ITALIC) out = paint.italic(out);
  if (style & LINK) out = paint.underline(out);
  if (style & (DIM | STRIKE)) out = paint.dim(out);
  if (style & STRIKE) out = strike(paint, out);
  return out;
}

/** Paints a line's pieces, joining neighbours of one style first. */
function paintLine(paint: Paint, pieces: Piece[]): string {
  const merged: Piece[] = [];
  for (const piece of pieces) {
    const last = merged[merged.length - 1];
    if (last && last.style === piece.style) last.text += piece.text;
    else merged.push({ ...piece });
  }
  return merged.map((piece) => paintPiece(paint, piece)).join("");
}

/** Cuts pieces to `width` columns, ending in `…` when anything was cut. */
function cutPieces(pieces: Piece[], width: number): Piece[] {
  if (widthOf(pieces) <= width) return pieces;
  if (width < 1) return [];
  const out: Piece[] = [];
  let used = 0;
  let style = 0;
  outer: for (const piece of pieces) {
    style = piece.style;
    let kept = "";
    for (const { segment } of graphemes.segment(piece.text)) {
      const w = stringWidth(segment);
      if (used + w > width - 1) {
        if (kept) out.push({ text: kept, style });
        break outer;
      }
      kept += segment;
      used += w;
    }
    if (kept) out.push({ text: kept, style });
  }
  out.push({ text: "…", style: style & ~LINK });
  return out;
}

/**
 * Greedy word wrap of styled pieces to `width` columns. Spaces separate
 * words; a word wider than the whole width is broken between characters.
 */
function wrapPieces(pieces: Piece[], width: number): Piece[][] {
  const lines: Piece[][] = [];
  let line: Piece[] = [];
  let lineWidth = 0;
  let space: number | null = null;
  let word: Piece[] = [];
  const endLine = () => {
    lines.push(line);
    line = [];
    lineWidth = 0;
    space = null;
  };
  const placeWord = () => {
    if (word.length === 0) return;
    const w = widthOf(word);
    if (lineWidth > 0 && lineWidth + 1 + w > width) endLine();
    if (lineWidth > 0 && space !== null) {
      line.push({ text: " ", style: space });
      lineWidth += 1;
    }
    space = null;
    if (lineWidth + w <= width) {
      line.push(...word);
      lineWidth += w;
    } else {
      for (const piece of word) {
        for (const { segment } of graphemes.segment(piece.text)) {
          const gw = stringWidth(segment);
          if (lineWidth > 0 && lineWidth + gw > width) endLine();
          line.push({ text: segment, style: piece.style });
          lineWidth += gw;
        }
      }
    }
    word = [];
  };
  for (const piece of pieces) {
    for (const part of piece.text.split(/( +|\n)/)) {
      if (part === "") continue;
      if (part === HARD_BREAK) {
        placeWord();
        endLine();
      } else if (part[0] === " ") {
        placeWord();
        if (lineWidth > 0) space = piece.style;
      } else {
        word.push({ text: part, style: piece.style });
      }
    }
  }
  placeWord();
  if (line.length > 0 || lines.length === 0) lines.push(line);
  return lines;
}

// ---------------------------------------------------------------------------
// Inline Markdown

const PUNCTUATION = /[!-/:-@[-`{-~]/;
const ALNUM = /[\p{L}\p{N}]/u;
/** A url written out in the text; sticky, tried where a word starts. */
const BARE_URL = /(?:https?:\/\/|www\.)[^\s<>]*[^\s<>.,:;!?'")\]*_~]/y;
/** `<scheme:…>` or `<name@host>`; sticky. */
const AUTOLINK = /<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>/y;

/** Where the code span opening with a run of `run` backticks at `from` closes, or -1. */
function codeSpanEnd(src: string, from: number, run: number): number {
  let j = from;
  while (j < src.length) {
    const k = src.indexOf("`", j);
    if (k < 0) return -1;
    let n = 0;
    while (src[k + n] === "`") n++;
    if (n === run) return k;
    j = k + n;
  }
  return -1;
}

function runLength(src: string, at: number): number {
  let n = 0;
  while (src[at + n] === src[at]) n++;
  return n;
}

/** The link `[text](url "title")` starting at `at`, or null when it is not one. */
function linkAt(src: string, at: number): { text: string; url: string; end: number } | null {
  let depth = 0;
  let j = at;
  for (; j < src.length; j++) {
    const c = src[j];
    if (c === "\\") j++;
    else if (c === "`") {
      const run = runLength(src, j);
      const close = codeSpanEnd(src, j + run, run);
      j = close < 0 ? j + run - 1 : close + run - 1;
    } else if (c === "[") depth++;
    else if (c === "]" && --depth === 0) break;
  }
  if (j >= src.length || src[j + 1] !== "(") return null;
  const text = src.slice(at + 1, j);
  let k = j + 2;
  while (src[k] === " ") k++;
  let url = "";
  if (src[k] === "<") {
    const close = src.indexOf(">", k);
    if (close < 0) return null;
    url = src.slice(k + 1, close);
    k = close + 1;
  } else {
    let parens = 0;
    const start = k;
    for (; k < src.length; k++) {
      const c = src[k];
      if (c === "\\") k++;
      else if (c === "(") parens++;
      else if (c === ")") {
        if (parens === 0) break;
        parens--;
      } else if (/\s/.test(c)) break;
    }
    url = src.slice(start, k);
  }
  while (src[k] === " ") k++;
  const quote = src[k];
  if (quote === '"' || quote === "'") {
    const close = src.indexOf(quote, k + 1);
    if (close < 0) return null;
    k = close + 1;
    while (src[k] === " ") k++;
  }
  if (src[k] !== ")") return null;
  return { text, url, end: k + 1 };
}

/** Where the emphasis run of `run` × `mark` opened before `from` closes, or -1. */
function emphasisEnd(src: string, from: number, mark: string, run: number): number {
  let j = from;
  while (j < src.length) {
    const c = src[j];
    if (c === "\\") {
      j += 2;
    } else if (c === "`") {
      const n = runLength(src, j);
      const close = codeSpanEnd(src, j + n, n);
      j = close < 0 ? j + n : close + n;
    } else if (c === mark) {
      const n = runLength(src, j);
      const before = src[j - 1];
      const after = src[j + n] ?? "";
      const closes = n === run && before !== undefined && !/\s/.test(before) &&
        (mark !== "_" || !ALNUM.test(after));
      if (closes && j > from) return j;
      j += n;
    } else {
      j++;
    }
  }
  return -1;
}

/**
 * Inline Markdown to styled pieces: escapes, code spans, emphasis (`*`/`_`
 * italic, doubled bold, tripled both), `~~strike~~`, links and images as
 * `text (url)`, autolinks and bare urls. A soft line break becomes a space;
 * a hard one a `HARD_BREAK` piece. A mark with no partner stays as text.
 */
function parseInline(src: string, style: number): Piece[] {
  const out: Piece[] = [];
  let text = "";
  const flush = () => {
    if (text) out.push({ text, style });
    text = "";
  };
  const url = (address: string) => {
    flush();
    out.push({ text: address, style: style | LINK });
  };
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\" && i + 1 < src.length && PUNCTUATION.test(src[i + 1])) {
      text += src[i + 1];
      i += 2;
    } else if (c === "\r") {
      flush();
      out.push({ text: HARD_BREAK, style });
      i++;
    } else if (c === "\n") {
      text += " ";
      i++;
    } else if (c === "`") {
      const run = runLength(src, i);
      const close = codeSpanEnd(src, i + run, run);
      if (close < 0) {
        text += src.slice(i, i + run);
        i += run;
        continue;
      }
      let code = src.slice(i + run, close).replace(/[\r\n]/g, " ");
      if (/^ .*[^ ].* $/.test(code)) code = code.slice(1, -1);
      flush();
      out.push({ text: code, style: style | CODE });
      i = close + run;
    } else if (c === "[" || (c === "!" && src[i + 1] === "[")) {
      const link = linkAt(src, c === "!" ? i + 1 : i);
      if (!link) {
        text += c;
        i++;
        continue;
      }
      flush();
      const label = parseInline(link.text, style);
      out.push(...label);
      const shown = label.map((piece) => piece.text).join("");
      if (link.url && shown !== link.url) {
        if (label.length > 0) out.push({ text: " (", style });
        out.push({ text: link.url, style: style | LINK });
        if (label.length > 0) out.push({ text: ")", style });
      }
      i = link.end;
    } else if (c === "<") {
      AUTOLINK.lastIndex = i;
      const auto = AUTOLINK.exec(src);
      if (auto) {
        url(auto[1]);
        i += auto[0].length;
      } else {
        text += c;
        i++;
      }
    } else if (c === "*" || c === "_" || c === "~") {
      const run = runLength(src, i);
      const after = src[i + run] ?? "";
      const before = i > 0 ? src[i - 1] : "";
      const opens = run <= 3 && (c !== "~" || run === 2) && after !== "" && !/\s/.test(after) &&
        (c !== "_" || !ALNUM.test(before));
      const close = opens ? emphasisEnd(src, i + run, c, run) : -1;
      if (close < 0) {
        text += src.slice(i, i + run);
        i += run;
        continue;
      }
      const added = c === "~" ? STRIKE : run === 1 ? ITALIC : run === 2 ? BOLD : BOLD | ITALIC;
      flush();
      out.push(...parseInline(src.slice(i + run, close), style | added));
      i = close + run;
    } else if ((c === "h" || c === "w") && !ALNUM.test(src[i - 1] ?? "")) {
      BARE_URL.lastIndex = i;
      const bare = BARE_URL.exec(src);
      if (bare && !(style & LINK)) {
        url(bare[0]);
        i += bare[0].length;
      } else {
        text += c;
        i++;
      }
    } else {
      text += c;
      i++;
    }
  }
  flush();
  return out;
}

// ---------------------------------------------------------------------------
// Blocks

type Align = "left" | "center" | "right";

interface ListItem {
  /** `•` for a bullet, else the number and its `.` or `)`. */
  marker: string;
  ordered: boolean;
  /** A blank line came before it in the source (a loose list). */
  gapBefore: boolean;
  children: Placed[];
}

type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "code"; lang: string; lines: string[] }
  | { kind: "rule" }
  | { kind: "quote"; children: Placed[] }
  | { kind: "list"; items: ListItem[] }
  | { kind: "table"; align: Align[]; header: string[]; rows: string[][] };

/** A block and whether blank lines came before it in its container. */
interface Placed {
  block: Block;
  gapBefore: boolean;
}

/** Thrown when a block's end lies past the lines received so far. */
const NEED_MORE = Symbol("need more lines");

/** Line `k`, undefined past the end of a finished text, NEED_MORE past the lines so far. */
type LineAt = (k: number) => string | undefined;

function lineReader(lines: string[], final: boolean): LineAt {
  return (k) => {
    if (k < lines.length) return lines[k];
    if (final) return undefined;
    throw NEED_MORE;
  };
}

const isBlank = (line: string | undefined) => line === undefined || /^\s*$/.test(line);
const indentOf = (line: string) => line.length - line.trimStart().length;

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const ATX = /^ {0,3}(#{1,6})(?=\s|$)(.*)$/;
const RULE = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const QUOTE = /^ {0,3}>/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;

function fenceOpen(line: string): { indent: number; fence: string; lang: string } | null {
  const m = FENCE.exec(line);
  if (!m || (m[2][0] === "`" && m[3].includes("`"))) return null;
  return { indent: m[1].length, fence: m[2], lang: m[3].trim().split(/\s+/)[0] ?? "" };
}

interface Marker {
  indent: number;
  marker: string;
  ordered: boolean;
  contentColumn: number;
  rest: string;
}

function listMarker(line: string): Marker | null {
  const m = /^( *)([-*+]|\d{1,9}[.)])( +|$)(.*)$/.exec(line);
  if (!m) return null;
  let spaces = m[3].length;
  if (spaces >= 5 || m[4] === "") spaces = 1;
  const contentColumn = m[1].length + m[2].length + spaces;
  return {
    indent: m[1].length,
    marker: m[2],
    ordered: /\d/.test(m[2]),
    contentColumn,
    rest: line.slice(Math.min(contentColumn, line.length)),
  };
}

/** A line that ends a paragraph by starting another block. */
function startsBlock(line: string): boolean {
  if (ATX.test(line) || fenceOpen(line) || QUOTE.test(line) || RULE.test(line)) return true;
  const marker = listMarker(line);
  return marker !== null && marker.indent < 4 && marker.rest.trim() !== "";
}

/** A table row's cells: outer pipes dropped, split at pipes not escaped or in code. */
function splitCells(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  const text = line.trim();
  for (let j = 0; j < text.length; j++) {
    const c = text[j];
    if (c === "\\" && j + 1 < text.length) {
      cell += c + text[j + 1];
      j++;
    } else if (c === "`") {
      const run = runLength(text, j);
      const close = codeSpanEnd(text, j + run, run);
      const end = close < 0 ? j + run : close + run;
      cell += text.slice(j, end);
      j = end - 1;
    } else if (c === "|") {
      cells.push(cell);
      cell = "";
    } else {
      cell += c;
    }
  }
  cells.push(cell);
  if (text.startsWith("|")) cells.shift();
  if (text.endsWith("|") && !text.endsWith("\\|") && cells.length > 0) cells.pop();
  return cells.map((c) => c.trim());
}

/** The alignments of a table's delimiter row, or null when the line is not one. */
function delimiterRow(line: string | undefined): Align[] | null {
  if (line === undefined || !line.includes("|")) return null;
  if (!/^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(line)) return null;
  return splitCells(line).map((cell) =>
    cell.startsWith(":") && cell.endsWith(":") ? "center" : cell.endsWith(":") ? "right" : "left"
  );
}

/** Whether lines `k` and `k + 1` open a table. */
function tableStarts(at: LineAt, k: number): boolean {
  const line = at(k);
  if (line === undefined || !line.includes("|")) return false;
  const align = delimiterRow(at(k + 1));
  return align !== null && align.length === splitCells(line).length;
}

/**
 * The block starting at line `i` and the line after it; `block` is null for
 * blank lines. Reads lines only from `i` on, through `at`, so a block found
 * among the lines received so far is the block the whole text has there.
 */
function nextBlock(at: LineAt, i: number): { block: Block | null; end: number } {
  const first = at(i)!;
  if (isBlank(first)) return { block: null, end: i + 1 };

  const fence = fenceOpen(first);
  if (fence) {
    const lines: string[] = [];
    let k = i + 1;
    for (;; k++) {
      const line = at(k);
      if (line === undefined) break;
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
      if (close && close[1][0] === fence.fence[0] && close[1].length >= fence.fence.length) {
        k++;
        break;
      }
      lines.push(line.slice(Math.min(fence.indent, indentOf(line))));
    }
    return { block: { kind: "code", lang: fence.lang, lines }, end: k };
  }

  const heading = ATX.exec(first);
  if (heading) {
    const text = heading[2].trim().replace(/(^|\s+)#+$/, "").trim();
    return { block: { kind: "heading", level: heading[1].length, text }, end: i + 1 };
  }

  if (RULE.test(first)) return { block: { kind: "rule" }, end: i + 1 };

  if (QUOTE.test(first)) {
    const inner: string[] = [];
    let k = i;
    for (;; k++) {
      const line = at(k);
      if (line === undefined || isBlank(line)) break;
      if (QUOTE.test(line)) {
        inner.push(line.replace(/^ {0,3}> ?/, ""));
      } else if (!startsBlock(line) && !isBlank(inner[inner.length - 1])) {
        inner.push(line); // a lazy continuation of the quote's paragraph
      } else break;
    }
    return { block: { kind: "quote", children: parseAll(inner) }, end: k };
  }

  const marker = listMarker(first);
  if (marker && marker.indent < 4) return list(at, i, marker);

  if (indentOf(first) >= 4) {
    const lines: string[] = [];
    let last = i;
    for (let k = i;; k++) {
      const line = at(k);
      if (line === undefined) break;
      if (isBlank(line)) continue;
      if (indentOf(line) < 4) break;
      for (let b = last + 1; b < k; b++) lines.push("");
      lines.push(line.slice(4));
      last = k;
    }
    return { block: { kind: "code", lang: "", lines }, end: last + 1 };
  }

  if (tableStarts(at, i)) {
    const header = splitCells(first);
    const align = delimiterRow(at(i + 1))!;
    const rows: string[][] = [];
    let k = i + 2;
    for (;; k++) {
      const line = at(k);
      if (line === undefined || isBlank(line) || !line.includes("|") || startsBlock(line)) break;
      const cells = splitCells(line);
      rows.push(header.map((_, c) => cells[c] ?? ""));
    }
    return { block: { kind: "table", align, header, rows }, end: k };
  }

  const lines = [first];
  let k = i + 1;
  for (;; k++) {
    const line = at(k);
    if (line === undefined || isBlank(line)) break;
    const setext = SETEXT.exec(line);
    if (setext) {
      const level = setext[1][0] === "=" ? 1 : 2;
      const text = lines.map((l) => l.trim()).join(" ");
      return { block: { kind: "heading", level, text }, end: k + 1 };
    }
    if (startsBlock(line) || tableStarts(at, k)) break;
    lines.push(line);
  }
  return { block: { kind: "paragraph", text: paragraphText(lines) }, end: k };
}

/**
 * A paragraph's lines as inline source: soft breaks as `\n`, hard breaks
 * (two trailing spaces or a backslash) as `\r`, each line trimmed.
 */
function paragraphText(lines: string[]): string {
  return lines.map((line, n) => {
    const trimmed = line.trim();
    if (n === lines.length - 1) return trimmed;
    if (/ {2,}$/.test(line)) return trimmed + "\r";
    if (/(^|[^\\])(\\\\)*\\$/.test(trimmed)) return trimmed.slice(0, -1) + "\r";
    return trimmed + "\n";
  }).join("");
}

/**
 * A list from line `i`: its items, with a line more indented than an item's
 * marker belonging to that item (nested lists, continued text, code), a
 * marker no deeper than the current item's starting a sibling, an unindented
 * line right after text continuing it, and blank lines inside when the list
 * goes on after them (a loose list). It ends at a blank line followed by
 * anything else, or at a line that starts another block.
 */
function list(at: LineAt, i: number, first: Marker): { block: Block; end: number } {
  type Row = { marker: Marker | null; line: string };
  const rows: Row[] = [{ marker: first, line: at(i)! }];
  let current = first;
  let lastFilled = i;
  for (let k = i + 1;; k++) {
    const line = at(k);
    if (line === undefined) break;
    if (isBlank(line)) continue;
    const blankBefore = k > lastFilled + 1;
    const indent = indentOf(line);
    const marker = RULE.test(line) ? null : listMarker(line);
    let row: Row;
    if (RULE.test(line) && indent <= current.indent) break;
    if (marker && marker.indent <= current.indent) {
      current = marker;
      row = { marker, line };
    } else if (indent > current.indent) {
      row = { marker: null, line };
    } else if (!blankBefore && !startsBlock(line)) {
      row = { marker: null, line };
    } else break;
    for (let b = lastFilled + 1; b < k; b++) rows.push({ marker: null, line: "" });
    rows.push(row);
    lastFilled = k;
  }

  const items: ListItem[] = [];
  let content: string[] = [];
  let item: Marker = first;
  let gapBefore = false;
  const finish = () => {
    while (content.length > 0 && isBlank(content[content.length - 1])) content.pop();
    items.push({
      marker: item.ordered ? item.marker : "•",
      ordered: item.ordered,
      gapBefore,
      children: parseAll(content),
    });
  };
  rows.forEach((row, n) => {
    if (row.marker) {
      if (n > 0) {
        finish();
        gapBefore = isBlank(rows[n - 1].line);
      }
      item = row.marker;
      content = [row.marker.rest];
    } else if (isBlank(row.line)) {
      content.push("");
    } else {
      content.push(row.line.slice(Math.min(indentOf(row.line), item.contentColumn)));
    }
  });
  finish();
  return { block: { kind: "list", items }, end: lastFilled + 1 };
}

/** Every block of a finished text. */
function parseAll(lines: string[]): Placed[] {
  return takeBlocks(lines, true).blocks;
}

/**
 * Blocks from the start of `lines`, as far as they are known to be complete
 * (all of them when `final`), and how many lines they used.
 */
function takeBlocks(lines: string[], final: boolean): { blocks: Placed[]; used: number } {
  const at = lineReader(lines, final);
  const blocks: Placed[] = [];
  let i = 0;
  let gap = false;
  while (i < lines.length) {
    try {
      const { block, end } = nextBlock(at, i);
      if (block) blocks.push({ block, gapBefore: gap });
      gap = block === null;
      i = end;
    } catch (e) {
      if (e === NEED_MORE) break;
      throw e;
    }
  }
  return { blocks, used: i };
}

/** C0 controls but tab and newline, DEL, and the C1 controls (one of which is CSI). */
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Control characters in a reply would drive the terminal: C0 ones are shown
 * as their pictures (␛ for ESC), the rest as �.
 */
function visible(text: string): string {
  return text.replace(
    CONTROL,
    (c) => c < "\x20" ? String.fromCharCode(0x2400 + c.charCodeAt(0)) : c === "\x7f" ? "␡" : "�",
  );
}

/** Tabs to spaces at stops of four, so indentation and code columns measure true. */
function expandTabs(line: string): string {
  if (!line.includes("\t")) return line;
  let out = "";
  for (const c of line) out += c === "\t" ? " ".repeat(4 - (out.length % 4)) : c;
  return out;
}

/** A text's lines; a newline at its very end ends the last line rather than starting another. */
function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Raw source lines as the parser reads them: `\r\n` ends a line too, tabs expanded, controls made visible. */
function cleanLines(raw: string[]): string[] {
  return raw.map((line) => visible(expandTabs(line.replace(/\r$/, ""))));
}

// ---------------------------------------------------------------------------
// Rendering

function renderInline(text: string, style: number, width: number, paint: Paint): string[] {
  return wrapPieces(parseInline(text, style), width).map((line) => paintLine(paint, line));
}

/** Blocks in a container: a blank line between each when `spaced`, else where the source had one. */
function renderBlocks(blocks: Placed[], width: number, paint: Paint, spaced: boolean): string[] {
  const out: string[] = [];
  for (const { block, gapBefore } of blocks) {
    const lines = renderBlock(block, width, paint);
    if (lines.length === 0) continue;
    if (out.length > 0 && (spaced || gapBefore)) out.push("");
    out.push(...lines);
  }
  return out;
}

function renderBlock(block: Block, width: number, paint: Paint): string[] {
  const w = Math.max(1, width);
  switch (block.kind) {
    case "heading":
      return renderInline(block.text, BOLD | (block.level <= 2 ? BRIGHT : 0), w, paint);
    case "paragraph":
      return renderInline(block.text, 0, w, paint);
    case "rule":
      return [paint.fg("quiet", "─".repeat(w))];
    case "code":
      return renderCode(block.lang, block.lines, w, paint);
    case "quote": {
      const inner = renderBlocks(block.children, w - 2, paint, true);
      if (inner.length === 0) return [paint.fg("quiet", "│")];
      return inner.map((line) =>
        line === "" ? paint.fg("quiet", "│") : paint.fg("quiet", "│ ") + line
      );
    }
    case "list":
      return renderList(block.items, w, paint);
    case "table":
      return renderTable(block, w, paint);
  }
}

/** Code kept verbatim two columns in, a line wider than the room cut with `…`. */
function renderCode(lang: string, lines: string[], width: number, paint: Paint): string[] {
  const out: string[] = [];
  const room = width - 2;
  if (lang) {
    out.push("  " + paintLine(paint, cutPieces([{ text: lang, style: DIM | QUIET }], room)));
  }
  for (const line of lines) {
    const text = line.trimEnd();
    out.push(text === "" ? "" : "  " + paintLine(paint, cutPieces([{ text, style: QUIET }], room)));
  }
  return out;
}

function renderList(items: ListItem[], width: number, paint: Paint): string[] {
  const numberWidth = Math.max(
    0,
    ...items.filter((it) => it.ordered).map((it) => it.marker.length),
  );
  const out: string[] = [];
  items.forEach((item, n) => {
    if (n > 0 && item.gapBefore) out.push("");
    let children = item.children;
    let marker = paint.fg("quiet", item.ordered ? item.marker.padStart(numberWidth) : "•");
    let markerWidth = item.ordered ? numberWidth : 1;
    const lead = children[0]?.block;
    const task = lead?.kind === "paragraph" ? /^\[([ xX])\](?:[ \n\r]+|$)/.exec(lead.text) : null;
    if (lead?.kind === "paragraph" && task) {
      const done = task[1] !== " ";
      const box = done ? paint.fg("main", "☑") : paint.fg("quiet", "☐");
      marker = item.ordered ? `${marker} ${box}` : box;
      markerWidth = item.ordered ? markerWidth + 2 : 1;
      const rest = lead.text.slice(task[0].length);
      children = rest === ""
        ? children.slice(1)
        : [{ block: { kind: "paragraph", text: rest }, gapBefore: false }, ...children.slice(1)];
    }
    const indent = " ".repeat(markerWidth + 1);
    const inner = renderBlocks(children, width - markerWidth - 1, paint, false);
    if (inner.length === 0) out.push(marker);
    inner.forEach((line, k) => {
      if (k === 0) out.push(`${marker} ${line}`);
      else out.push(line === "" ? "" : indent + line);
    });
  });
  return out;
}

/** Column widths to fit `room`: the widest columns shrink first, none below one. */
function fitColumns(natural: number[], room: number): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= room) return natural;
  if (room < natural.length) return natural.map(() => 1);
  let level = Math.max(...natural);
  const sumAt = (cap: number) => natural.reduce((a, b) => a + Math.min(b, cap), 0);
  while (level > 1 && sumAt(level) > room) level--;
  const widths = natural.map((w) => Math.min(w, level));
  let spare = room - sumAt(level);
  for (let c = 0; c < widths.length && spare > 0; c++) {
    if (natural[c] > widths[c]) {
      widths[c]++;
      spare--;
    }
  }
  return widths;
}

function pad(pieces: Piece[], width: number, align: Align): Piece[] {
  const space = Math.max(0, width - widthOf(pieces));
  const left = align === "right" ? space : align === "center" ? Math.floor(space / 2) : 0;
  const out: Piece[] = [];
  if (left > 0) out.push({ text: " ".repeat(left), style: 0 });
  out.push(...pieces);
  if (space - left > 0) out.push({ text: " ".repeat(space - left), style: 0 });
  return out;
}

/**
 * A pipe table: columns as wide as their content, shrunk to the width with
 * cells wrapped inside them, a rule under the bold header, `│` between
 * columns; a table too wide even so has its lines cut with `…`.
 */
function renderTable(
  table: { align: Align[]; header: string[]; rows: string[][] },
  width: number,
  paint: Paint,
): string[] {
  const rows = [table.header, ...table.rows].map((row, r) =>
    row.map((cell) => parseInline(cell, r === 0 ? BOLD : 0))
  );
  const natural = table.header.map((_, c) =>
    Math.max(1, ...rows.map((row) => widthOf(wrapPieces(row[c], Infinity)[0])))
  );
  const separator = " │ ";
  const widths = fitColumns(natural, width - separator.length * (natural.length - 1));
  const out: string[] = [];
  const emit = (pieces: Piece[]) => {
    // No trailing spaces: padding of the last column, or a separator before an empty cell.
    while (pieces.length > 0 && pieces[pieces.length - 1].text.trimEnd() === "") pieces.pop();
    const last = pieces[pieces.length - 1];
    if (last) pieces[pieces.length - 1] = { ...last, text: last.text.trimEnd() };
    out.push(paintLine(paint, cutPieces(pieces, width)));
  };
  rows.forEach((row, r) => {
    const cells = row.map((cell, c) => wrapPieces(cell, widths[c]));
    const height = Math.max(...cells.map((lines) => lines.length));
    for (let k = 0; k < height; k++) {
      const line: Piece[] = [];
      cells.forEach((lines, c) => {
        if (c > 0) line.push({ text: separator, style: QUIET });
        line.push(...pad(lines[k] ?? [], widths[c], table.align[c] ?? "left"));
      });
      emit(line);
    }
    if (r === 0) {
      emit([{ text: widths.map((w) => "─".repeat(w)).join("─┼─"), style: QUIET }]);
    }
  });
  return out;
}

function renderTop(blocks: Placed[], width: number, paint: Paint, after: boolean): string[] {
  const out: string[] = [];
  for (const { block } of blocks) {
    const lines = renderBlock(block, width, paint);
    // A block with no lines (an empty code block) takes no blank line either.
    if (lines.length === 0) continue;
    if (after || out.length > 0) out.push("");
    out.push(...lines);
  }
  return out;
}

/**
 * Renders a whole Markdown text to lines for `width` columns, top-level
 * blocks separated by one blank line. With colour off the lines are plain
 * text.
 */
export function renderMarkdown(source: string, width: number, paint: Paint): string[] {
  return renderTop(takeBlocks(cleanLines(splitLines(source)), true).blocks, width, paint, false);
}

/**
 * A reply arriving in pieces: complete blocks are rendered once, the tail
 * stays open. A block is complete once a line after it shows it has ended:
 * a blank line or the start of another block after a paragraph or a table,
 * the closing fence of a code block, and for a list (which may go on after a
 * blank line) the first line that is not part of it. Concatenating all that
 * `push` and `end` return gives `renderMarkdown` of the whole text at the
 * same width.
 */
export class MarkdownStream {
  #width: number;
  readonly #paint: Paint;
  /** The text not yet printed: from the start of the first open block. */
  #rest = "";
  #printed = false;
  /** The last `pending` lines and the width and text they were rendered from. */
  #pendingFor = "";
  #pendingLines: string[] = [];

  constructor(width: number, paint: Paint) {
    this.#width = width;
    this.#paint = paint;
  }

  /** Adds a piece of the reply; returns the lines of blocks now complete (print them above the band). */
  push(delta: string): string[] {
    this.#rest += delta;
    // Blocks end only at a line's end: without a newline nothing new can be complete.
    return delta.includes("\n") ? this.#take(false) : [];
  }

  /** The lines of the block still open (drawn in the band while the reply streams). */
  pending(): string[] {
    // A frame may be drawn for a key or a tick with no new text: render only when it changed.
    const key = `${this.#width}\n${this.#rest}`;
    if (this.#pendingFor !== key) {
      const blocks = takeBlocks(cleanLines(splitLines(this.#rest)), true).blocks;
      this.#pendingLines = renderTop(blocks, this.#width, this.#paint, false);
      this.#pendingFor = key;
    }
    return [...this.#pendingLines];
  }

  /** The reply ended: the rest of its lines. */
  end(): string[] {
    return this.#take(true);
  }

  /** The terminal's width changed: later lines use it. */
  resize(width: number): void {
    this.#width = width;
  }

  #take(final: boolean): string[] {
    // Only whole lines count until the end: a line's last characters can change its meaning.
    const whole = final ? this.#rest.length : this.#rest.lastIndexOf("\n") + 1;
    if (whole === 0 && !final) return [];
    const raw = splitLines(this.#rest.slice(0, whole));
    const { blocks, used } = takeBlocks(cleanLines(raw), final);
    let consumed = 0;
    for (let n = 0; n < used; n++) consumed += raw[n].length + 1;
    this.#rest = final ? "" : this.#rest.slice(consumed);
    const lines = renderTop(blocks, this.#width, this.#paint, this.#printed);
    if (lines.length > 0) this.#printed = true;
    return lines;
  }
}

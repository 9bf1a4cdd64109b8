/**
 * Finding many literal strings in one pass: an Aho–Corasick automaton over
 * the text's characters with ASCII case folded. Every literal is ASCII. A
 * literal may ignore case (the secret-name keywords: `password`, `Password`,
 * `PASSWORD`) or not (vendor prefixes: `SK`, `ghp_`); the automaton finds
 * both kinds case-blind, and a case-sensitive literal is then confirmed
 * character by character where the automaton reports it.
 *
 * Why this shape (measured on the bench's tree, ~100 literals): one regular
 * expression of alternatives runs at about a third of this speed (V8 tries
 * the alternatives at every offset); one `indexOf` per literal is fast for
 * each but ~100 passes are not; an automaton with a state for every case
 * spelling of every keyword had 3,000+ states (an 800 KB table built in
 * tens of milliseconds at every start), where folding first leaves a few
 * hundred states over a few dozen character classes.
 */

import { anchorMachine, type MachineRecord } from "./anchor_machine.ts";

export interface AnchorSet {
  /** Next state for (state << shift | byteClass[byte]). */
  table: Uint16Array;
  /** Character class of each byte (0: a character no literal uses, and every non-ASCII byte). */
  byteClass: Uint8Array;
  /** The length of the longest literal. */
  longest: number;
  /** log2 of the table's row width (a power of two, so a row is found with a shift). */
  shift: number;
  /** States from this number on are those where some literal ends (they are numbered last). */
  firstReporting: number;
  /**
   * The hits of each state, flattened so the scan loop touches only typed arrays: state s owns
   * entries `emitStart[s]` to `emitStart[s + 1]`; each names a literal, its length, and whether
   * its case must be confirmed in the text.
   */
  emitStart: Int32Array;
  emitLiteral: Int32Array;
  emitLength: Int32Array;
  emitConfirm: Uint8Array;
  literals: { literal: string; fold: boolean }[];
}

interface FoldedLiteral {
  length: number;
  /** Index of the case-blind literal with this spelling, or -1. */
  blind: number;
  /** Indexes of case-sensitive literals with this spelling (confirmed at each hit). */
  exact: number[];
}

/** Build the automaton: `exact` literals match as written, `folded` ones in any ASCII case. */
export function anchorSet(exact: Iterable<string>, folded: Iterable<string> = []): AnchorSet {
  const literals: { literal: string; fold: boolean }[] = [];
  for (const literal of exact) literals.push({ literal, fold: false });
  for (const literal of folded) literals.push({ literal: literal.toLowerCase(), fold: true });

  // Distinct lower-case spellings, and the literals behind each.
  const spellings = new Map<string, FoldedLiteral>();
  literals.forEach(({ literal, fold }, index) => {
    if (literal.length === 0 || [...literal].some((ch) => ch.charCodeAt(0) >= 128)) {
      throw new Error(`anchor ${literal} must be ASCII`);
    }
    const key = literal.toLowerCase();
    let entry = spellings.get(key);
    if (!entry) {
      entry = { length: key.length, blind: -1, exact: [] };
      spellings.set(key, entry);
    }
    if (fold) entry.blind = index;
    else entry.exact.push(index);
  });
  const words = [...spellings.keys()];
  const foldedList = [...spellings.values()];

  // Character classes: one per (folded) character some literal uses; everything else is 0.
  const classOf = new Uint8Array(128);
  let classes = 1;
  for (const word of words) {
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      if (classOf[c] === 0) {
        classOf[c] = classes;
        if (c >= 97 && c <= 122) classOf[c - 32] = classes;
        classes++;
      }
    }
  }

  // The trie, as a table with -1 for "no edge yet".
  const edges: number[] = new Array(classes).fill(-1);
  const own: number[][] = [[]];
  words.forEach((word, index) => {
    let state = 0;
    for (let i = 0; i < word.length; i++) {
      const at = state * classes + classOf[word.charCodeAt(i)];
      let next = edges[at];
      if (next === -1) {
        next = own.length;
        own.push([]);
        for (let k = 0; k < classes; k++) edges.push(-1);
        edges[at] = next;
      }
      state = next;
    }
    own[state].push(index);
  });
  const n = own.length;
  // One element type, so the scan loop stays monomorphic (a union of array types halves its speed).
  if (n > 65535) throw new Error(`${n} automaton states do not fit the table`);
  const shift = classes <= 64 ? 6 : 7;

  // Breadth first: each missing edge follows the failure link's edge; outputs inherit the link's.
  const table = new Uint16Array(n << shift);
  const fail = new Int32Array(n);
  const outputs: (number[] | undefined)[] = new Array(n).fill(undefined);
  const queue: number[] = [];
  for (let c = 0; c < classes; c++) {
    const t = edges[c];
    // Class 0 (no literal's character) always returns to the start.
    table[c] = c === 0 || t === -1 ? 0 : t;
    if (c !== 0 && t !== -1) queue.push(t);
  }
  for (let head = 0; head < queue.length; head++) {
    const s = queue[head];
    const inherited = outputs[fail[s]];
    const mine = own[s];
    outputs[s] = mine.length > 0 || inherited ? [...mine, ...(inherited ?? [])] : undefined;
    for (let c = 0; c < classes; c++) {
      const t = c === 0 ? -1 : edges[s * classes + c];
      if (t !== -1) {
        fail[t] = table[(fail[s] << shift) | c];
        table[(s << shift) | c] = t;
        queue.push(t);
      } else table[(s << shift) | c] = table[(fail[s] << shift) | c];
    }
  }

  // Number the states that report last, so that the search tells one by comparing it with a
  // single number instead of loading a flag per state; the start (no output) stays state 0.
  const order: number[] = [];
  for (let s = 0; s < n; s++) if (!outputs[s]) order.push(s);
  const firstReporting = order.length;
  for (let s = 0; s < n; s++) if (outputs[s]) order.push(s);
  const renumbered = new Int32Array(n);
  order.forEach((old, id) => renumbered[old] = id);
  const numbered = new Uint16Array(n << shift);
  for (let s = 0; s < n; s++) {
    for (let c = 0; c < classes; c++) {
      numbered[(renumbered[s] << shift) | c] = renumbered[table[(s << shift) | c]];
    }
  }

  const emitStart = new Int32Array(n + 1);
  const emitLiteral: number[] = [];
  const emitLength: number[] = [];
  const emitConfirm: number[] = [];
  for (let id = 0; id < n; id++) {
    emitStart[id] = emitLiteral.length;
    for (const w of outputs[order[id]] ?? []) {
      const entry = foldedList[w];
      if (entry.blind !== -1) {
        emitLiteral.push(entry.blind);
        emitLength.push(entry.length);
        emitConfirm.push(0);
      }
      for (const index of entry.exact) {
        emitLiteral.push(index);
        emitLength.push(entry.length);
        emitConfirm.push(1);
      }
    }
  }
  emitStart[n] = emitLiteral.length;
  const byteClass = new Uint8Array(256);
  byteClass.set(classOf);
  return {
    table: numbered,
    byteClass,
    longest: Math.max(1, ...words.map((word) => word.length)),
    shift,
    firstReporting,
    emitStart,
    emitLiteral: Int32Array.from(emitLiteral),
    emitLength: Int32Array.from(emitLength),
    emitConfirm: Uint8Array.from(emitConfirm),
    literals,
  };
}

/** Whether `literal` (ASCII) is written exactly at byte `start` of `bytes`. */
function exactAt(bytes: Uint8Array, start: number, literal: string): boolean {
  for (let k = 0; k < literal.length; k++) {
    if (bytes[start + k] !== literal.charCodeAt(k)) return false;
  }
  return true;
}

/** Hits as found: parallel lists of start offsets and literal indexes. */
export interface AnchorHits {
  offsets: number[];
  which: number[];
}

/** The second stream's hits, held until the first stream's are all in (to keep the order). */
const laterOffsets: number[] = [];
const laterWhich: number[] = [];

/**
 * Every occurrence of every literal in `text`: parallel lists of start offsets and literal
 * indexes (into `set.literals`), in the order their last characters come (so offsets of literals
 * of different lengths may interleave). Lists, not a callback, and typed arrays only, keep the
 * loop small and monomorphic enough for V8 to keep it tight.
 *
 * `bytes`, when the caller holds them, are the text's UTF-8 bytes (a file read whole, a window of
 * one). When they are as many as the text's characters the text is ASCII, as most source is, and
 * the bytes are searched by two automata at once, each over one half (ADR 0690): one automaton
 * waits on each table lookup before the next, as every step depends on the state the last one
 * left; two independent ones overlap those waits, which about halves the time per character. The
 * second starts a longest literal's length before the middle, so a literal across it is seen
 * whole, and reports only what ends after it. A text with few characters beyond ASCII is searched
 * over its bytes too, each hit then moved back by the extra bytes of those characters before it.
 * Any other text is searched one character at a time (encoding it to bytes here would cost more
 * than it saves).
 */
export function findAnchors(text: string, set: AnchorSet, bytes?: Uint8Array): AnchorHits {
  const hits: AnchorHits = { offsets: [], which: [] };
  if (bytes !== undefined && bytes.length === text.length) {
    searchBytes(bytes, set, hits);
    return hits;
  }
  // A few characters beyond ASCII (a dash in a comment, a name): search the bytes all the same and
  // move each hit back by the bytes those characters took beyond one each before it.
  const extra = bytes === undefined ? 0 : bytes.length - text.length;
  const wide = extra > 0 && extra * SPARSE < text.length ? wideCharacters(text, extra) : null;
  if (wide === null) {
    searchChars(text, set, hits);
    return hits;
  }
  searchBytes(bytes!, set, hits);
  toTextOffsets(hits.offsets, wide);
  return hits;
}

/** Bytes beyond one per character, at most one in this many characters, for the byte search. */
const SPARSE = 32;

const BEYOND_ASCII = /[\u0080-\uffff]/g;

/** Where the characters beyond ASCII start in the bytes, and the extra bytes through each. */
interface WideCharacters {
  byteStart: number[];
  extraThrough: number[];
}

/**
 * The characters of `text` beyond ASCII (found by a native search), with their place in the
 * text's UTF-8 bytes; null when that cannot be told from the text: a replacement character
 * stands for one to three invalid bytes, and the extra bytes must add up to `extra`.
 */
function wideCharacters(text: string, extra: number): WideCharacters | null {
  const byteStart: number[] = [];
  const extraThrough: number[] = [];
  let total = 0;
  BEYOND_ASCII.lastIndex = 0;
  for (let match = BEYOND_ASCII.exec(text); match !== null; match = BEYOND_ASCII.exec(text)) {
    const unit = text.charCodeAt(match.index);
    if (unit === 0xfffd) return null;
    byteStart.push(match.index + total);
    // UTF-8 takes two bytes below U+0800, four for a pair of UTF-16 halves (two for each), three
    // for the rest.
    total += unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 1 : 2;
    extraThrough.push(total);
    if (total > extra) return null;
  }
  return total === extra ? { byteStart, extraThrough } : null;
}

/**
 * Turn byte offsets into offsets in the text. Each is at an ASCII byte (a literal's first), so
 * every character beyond ASCII that starts before it ends before it too.
 */
function toTextOffsets(offsets: number[], wide: WideCharacters): void {
  const { byteStart, extraThrough } = wide;
  for (let k = 0; k < offsets.length; k++) {
    const at = offsets[k];
    // How many characters beyond ASCII start before `at`.
    let lo = 0;
    let hi = byteStart.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byteStart[mid] < at) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) offsets[k] = at - extraThrough[lo - 1];
  }
}

/**
 * Texts from this many bytes on are searched by the WebAssembly machine (four automata, ADR 0702).
 * Measured on chunks of the bench's tree: even at 256 bytes, faster from 512 on, so shorter texts
 * stay in JavaScript, where the call and the copy into the machine's memory are not paid.
 */
export const MACHINE_MIN_BYTES = 512;

/**
 * Search ASCII bytes: with four automata in WebAssembly when the text is long enough and the
 * machine can run, else with two in JavaScript, one over each half. (Exported for its tests.)
 */
export function searchBytes(bytes: Uint8Array, set: AnchorSet, hits: AnchorHits): void {
  if (bytes.length >= MACHINE_MIN_BYTES) {
    const record = anchorMachine(set)?.run(bytes, set.longest - 1);
    if (record !== undefined) {
      emitRecorded(bytes, set, record, hits);
      return;
    }
  }
  searchBytesHere(bytes, set, hits);
}

/**
 * The machine's places turned into hits: quarter k reports the places in its own quarter (the
 * bytes before it were read only to start in the state a search from the text's start has there).
 * Quarters in order, places in order within each: hits come in the order their last bytes do.
 */
function emitRecorded(bytes: Uint8Array, set: AnchorSet, record: MachineRecord, hits: AnchorHits) {
  const quarter = Math.ceil(bytes.length / 4);
  const { starts, counts, words } = record;
  for (let k = 0; k < 4; k++) {
    const from = k * quarter;
    const to = Math.min(from + quarter, bytes.length);
    for (let p = 0; p < counts[k]; p++) {
      const slot = record.slot(k, p);
      const at = starts[k] + words[slot];
      if (at >= from && at < to) {
        emit(bytes, at, record.state(words[slot + 1]), set, hits.offsets, hits.which);
      }
    }
  }
}

/** Search ASCII bytes with two automata in JavaScript, one over each half. */
export function searchBytesHere(bytes: Uint8Array, set: AnchorSet, hits: AnchorHits): void {
  const { table, byteClass, shift, firstReporting } = set;
  const length = bytes.length;
  // The first stream reports hits ending before `middle`; the second starts a longest literal
  // before it and reports hits ending from there on.
  const middle = length >> 1;
  const secondFrom = Math.max(0, middle - (set.longest - 1));
  laterOffsets.length = 0;
  laterWhich.length = 0;
  let a = 0;
  let b = 0;
  let i = 0;
  let j = secondFrom;
  const together = Math.min(middle, length - secondFrom);
  for (; i < together; i++, j++) {
    a = table[(a << shift) | byteClass[bytes[i]]];
    b = table[(b << shift) | byteClass[bytes[j]]];
    if (a < firstReporting && b < firstReporting) continue;
    if (a >= firstReporting) emit(bytes, i, a, set, hits.offsets, hits.which);
    if (b >= firstReporting && j >= middle) emit(bytes, j, b, set, laterOffsets, laterWhich);
  }
  for (; i < middle; i++) {
    a = table[(a << shift) | byteClass[bytes[i]]];
    if (a >= firstReporting) emit(bytes, i, a, set, hits.offsets, hits.which);
  }
  for (; j < length; j++) {
    b = table[(b << shift) | byteClass[bytes[j]]];
    if (b >= firstReporting && j >= middle) emit(bytes, j, b, set, laterOffsets, laterWhich);
  }
  for (let k = 0; k < laterOffsets.length; k++) {
    hits.offsets.push(laterOffsets[k]);
    hits.which.push(laterWhich[k]);
  }
}

/** Search a text one character at a time; a character beyond ASCII returns to the start. */
function searchChars(text: string, set: AnchorSet, hits: AnchorHits): void {
  const { table, byteClass, shift, firstReporting } = set;
  const { emitStart, emitLiteral, emitLength, emitConfirm, literals } = set;
  const { offsets, which } = hits;
  const n = text.length;
  let state = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    state = c < 128 ? table[(state << shift) | byteClass[c]] : 0;
    if (state < firstReporting) continue;
    // The emission written out here, not called: this loop runs on strings of every shape.
    const end = emitStart[state + 1];
    for (let k = emitStart[state]; k < end; k++) {
      const start = i - emitLength[k] + 1;
      const index = emitLiteral[k];
      if (emitConfirm[k] === 0 || exactAtText(text, start, literals[index].literal)) {
        offsets.push(start);
        which.push(index);
      }
    }
  }
}

/** Whether `literal` is written exactly at `start` of `text`. */
function exactAtText(text: string, start: number, literal: string): boolean {
  for (let k = 0; k < literal.length; k++) {
    if (text.charCodeAt(start + k) !== literal.charCodeAt(k)) return false;
  }
  return true;
}

/** Report the literals that end at byte `at` in `state`, confirming the case of exact ones. */
function emit(
  bytes: Uint8Array,
  at: number,
  state: number,
  set: AnchorSet,
  offsets: number[],
  which: number[],
): void {
  const { emitStart, emitLiteral, emitLength, emitConfirm, literals } = set;
  const end = emitStart[state + 1];
  for (let k = emitStart[state]; k < end; k++) {
    const start = at - emitLength[k] + 1;
    const index = emitLiteral[k];
    if (emitConfirm[k] === 0 || exactAt(bytes, start, literals[index].literal)) {
      offsets.push(start);
      which.push(index);
    }
  }
}

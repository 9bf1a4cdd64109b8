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

export interface AnchorSet {
  /** Next state for (state << shift | classOf[code]). */
  table: Uint16Array;
  /** Character class of each ASCII code (0: a character no literal uses; also any non-ASCII). */
  classOf: Uint8Array;
  /** log2 of the table's row width (a power of two, so a row is found with a shift). */
  shift: number;
  /** 1 where some literal ends in the state: the scan loop tests this before anything else. */
  hasOutput: Uint8Array;
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

  const emitStart = new Int32Array(n + 1);
  const emitLiteral: number[] = [];
  const emitLength: number[] = [];
  const emitConfirm: number[] = [];
  for (let s = 0; s < n; s++) {
    emitStart[s] = emitLiteral.length;
    for (const w of outputs[s] ?? []) {
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
  const hasOutput = new Uint8Array(n);
  for (let s = 0; s < n; s++) hasOutput[s] = emitStart[s + 1] > emitStart[s] ? 1 : 0;
  return {
    table,
    classOf,
    shift,
    hasOutput,
    emitStart,
    emitLiteral: Int32Array.from(emitLiteral),
    emitLength: Int32Array.from(emitLength),
    emitConfirm: Uint8Array.from(emitConfirm),
    literals,
  };
}

/** Whether `literal` is written exactly at `start` of `text`. */
function exactAt(text: string, start: number, literal: string): boolean {
  for (let k = 0; k < literal.length; k++) {
    if (text.charCodeAt(start + k) !== literal.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * Every occurrence of every literal in `text`: parallel lists of start offsets and literal
 * indexes (into `set.literals`), in the order their last characters come (so offsets of literals
 * of different lengths may interleave). Lists, not a callback, and typed arrays only, keep the
 * loop small and monomorphic enough for V8 to keep it tight.
 */
export function findAnchors(text: string, set: AnchorSet): { offsets: number[]; which: number[] } {
  const { table, classOf, shift, hasOutput, emitStart, emitLiteral, emitLength, emitConfirm } = set;
  const literals = set.literals;
  const offsets: number[] = [];
  const which: number[] = [];
  const n = text.length;
  let state = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    state = c < 128 ? table[(state << shift) | classOf[c]] : 0;
    if (hasOutput[state] === 0) continue;
    const end = emitStart[state + 1];
    for (let k = emitStart[state]; k < end; k++) {
      const start = i - emitLength[k] + 1;
      const index = emitLiteral[k];
      if (emitConfirm[k] === 0 || exactAt(text, start, literals[index].literal)) {
        offsets.push(start);
        which.push(index);
      }
    }
  }
  return { offsets, which };
}

/**
 * Finding many literal strings in one pass. Every literal is at least two
 * ASCII characters; a table of the first two characters says at which
 * offsets a literal may start, and only there are the candidates compared.
 * Much faster than one regular expression of alternatives, which V8 runs
 * alternative by alternative at every offset. A literal may ignore case
 * (the secret-name keywords: `password`, `Password`, `PASSWORD`).
 */

interface Entry {
  literal: string;
  /** Compared ignoring ASCII case (the literal is stored in lower case). */
  fold: boolean;
}

export interface AnchorSet {
  /** Literals by their first two characters' codes (c1 * 128 + c2), longest first. */
  byPair: (Entry[] | undefined)[];
  pairs: Uint8Array;
}

function variants(ch: string, fold: boolean): string[] {
  return fold && ch.toLowerCase() !== ch.toUpperCase()
    ? [ch.toLowerCase(), ch.toUpperCase()]
    : [ch];
}

/** Build the table: `exact` literals match as written, `folded` ones in any case. */
export function anchorSet(exact: Iterable<string>, folded: Iterable<string> = []): AnchorSet {
  const byPair: (Entry[] | undefined)[] = new Array(128 * 128).fill(undefined);
  const pairs = new Uint8Array(128 * 128);
  const add = (literal: string, fold: boolean) => {
    if (literal.length < 2 || [...literal].some((ch) => ch.charCodeAt(0) >= 128)) {
      throw new Error(`anchor ${literal} must be 2+ ASCII chars`);
    }
    for (const a of variants(literal[0], fold)) {
      for (const b of variants(literal[1], fold)) {
        const key = a.charCodeAt(0) * 128 + b.charCodeAt(0);
        pairs[key] = 1;
        const list = byPair[key] ?? [];
        list.push({ literal: fold ? literal.toLowerCase() : literal, fold });
        list.sort((x, y) => y.literal.length - x.literal.length);
        byPair[key] = list;
      }
    }
  };
  for (const literal of exact) add(literal, false);
  for (const literal of folded) add(literal, true);
  return { byPair, pairs };
}

/** Whether `text` at `offset` holds `lower` in any ASCII case. */
function startsWithFolded(text: string, lower: string, offset: number): boolean {
  if (offset + lower.length > text.length) return false;
  for (let k = 0; k < lower.length; k++) {
    let c = text.charCodeAt(offset + k);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== lower.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * Call `found(literal, offset, folded)` for the longest exact literal, and separately the longest
 * folded literal, starting at each offset of `text`.
 */
export function findAnchors(
  text: string,
  set: AnchorSet,
  found: (literal: string, offset: number, folded: boolean) => void,
): void {
  const { pairs, byPair } = set;
  const n = text.length - 1;
  let next = text.charCodeAt(0);
  for (let i = 0; i < n; i++) {
    const c = next;
    next = text.charCodeAt(i + 1);
    // One table lookup per character: the pair table is mostly zeros, so this branch is
    // predictable (a first-character table is not, and measured slower).
    const key = ((c & 127) << 7) | (next & 127);
    if (pairs[key] === 0 || c >= 128 || next >= 128) continue;
    if (pairs[key] === 0) continue;
    let exactDone = false;
    let foldDone = false;
    const entries = byPair[key]!;
    for (let e = 0; e < entries.length; e++) {
      const entry = entries[e];
      if (entry.fold) {
        if (!foldDone && startsWithFolded(text, entry.literal, i)) {
          found(entry.literal, i, true);
          foldDone = true;
        }
      } else if (!exactDone && text.startsWith(entry.literal, i)) {
        found(entry.literal, i, false);
        exactDone = true;
      }
    }
  }
}

/**
 * Finding many literal anchors in one pass. Every anchor is at least two
 * ASCII characters; a table of the first two characters says at which
 * offsets an anchor may start, and only there are the candidates compared.
 * Much faster than one regular expression of alternatives, which V8 runs
 * alternative by alternative at every offset.
 */

export interface AnchorSet {
  /** Anchors by their first two characters' codes (c1 * 128 + c2), longest first. */
  byPair: Map<number, string[]>;
  pairs: Uint8Array;
}

export function anchorSet(anchors: Iterable<string>): AnchorSet {
  const byPair = new Map<number, string[]>();
  const pairs = new Uint8Array(128 * 128);
  for (const anchor of anchors) {
    if (anchor.length < 2 || [...anchor].some((ch) => ch.charCodeAt(0) >= 128)) {
      throw new Error(`anchor ${anchor} must be 2+ ASCII chars`);
    }
    const key = anchor.charCodeAt(0) * 128 + anchor.charCodeAt(1);
    pairs[key] = 1;
    const list = byPair.get(key) ?? [];
    list.push(anchor);
    list.sort((a, b) => b.length - a.length);
    byPair.set(key, list);
  }
  return { byPair, pairs };
}

/** Call `found(anchor, offset)` for the longest anchor starting at each offset of `text`. */
export function findAnchors(
  text: string,
  set: AnchorSet,
  found: (anchor: string, offset: number) => void,
): void {
  const { pairs, byPair } = set;
  const n = text.length - 1;
  let next = text.charCodeAt(0);
  for (let i = 0; i < n; i++) {
    const c = next;
    next = text.charCodeAt(i + 1);
    if (c >= 128 || next >= 128) continue;
    const key = c * 128 + next;
    if (pairs[key] === 0) continue;
    for (const anchor of byPair.get(key)!) {
      if (text.startsWith(anchor, i)) {
        found(anchor, i);
        break;
      }
    }
  }
}

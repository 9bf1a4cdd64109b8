/**
 * The kept findings of a scan, filed so that a new report meets only the kept
 * findings it may name more or less fully (findings.ts `moreOrLess`), not all
 * kept findings of its message or test name.
 *
 * Why: the scan used to keep, under each `partialKey`, a list of the kept
 * findings and to try `moreOrLess` on each of them for every new report. A
 * build that printed one warning text at many places (`unused variable 'tmp'`
 * in 300,000 places), or one test name failing in many files, put up to
 * KEPT_FINDINGS findings in one list and tried them all for each new report:
 * 0.4 MB/s on a 34 MB log. Here each kept finding is filed under the exact
 * places and names a report that matches it can have, so a report looks in a
 * few buckets whose findings all match it; the first of them in keeping order
 * is the one the list would have found first, so the result is the same.
 */
import {
  bareLocation,
  type Finding,
  moreOrLess,
  NAME_SEPARATORS,
  partialKey,
  withoutInvocation,
} from "./findings.ts";

/** Marks a bucket of findings without a location or file; no path holds this character. */
const NONE = "\u0001none";
/** Marks a bucket of tests of any file. */
const ANY = "\u0001any";
/** Joins the parts of a bucket's name; no path or name holds it. */
const SEP = "\u0000";

/** The kept findings of one partialKey (one kind and message, or one kind and last test name segment). */
class Group {
  /** Every finding of the group, in keeping order (a report with no place or file meets the first). */
  readonly all: Finding[] = [];
  /**
   * Bucket name → its findings in keeping order (see `file`): one finding
   * alone, as most buckets hold, or a list. An array for every bucket was most
   * of what filing a finding allocated, on a log of 100,000 failures. Made
   * when a second finding joins the group: a group of one is tried directly
   * (most warnings of a build are the only ones of their text).
   */
  buckets?: Map<string, Finding | Finding[]>;
}

/** What `meet` found: the kept finding a report names more or less fully, and the fuller of the two. */
export interface Met {
  kept: Finding;
  fuller: Finding;
}

/** Kept findings filed by the places and names `moreOrLess` compares. */
export class KeptIndex {
  readonly #groups = new Map<string, Group>();
  /** Each filed finding's place in keeping order. */
  readonly #order = new Map<Finding, number>();

  /** Files a kept finding (once; call `renamed` when its names change). */
  add(f: Finding): void {
    this.#order.set(f, this.#order.size);
    const group = this.#group(f);
    group.all.push(f);
    if (group.buckets) this.#file(group, f);
    else if (group.all.length > 1) {
      group.buckets = new Map();
      for (const g of group.all) this.#file(group, g);
    }
  }

  /**
   * Files a kept finding again after a fuller report gave it longer names (a
   * test's whole name and file, an error's line). Its old buckets may still
   * hold it; `meet` checks every candidate, so a stale entry is passed over.
   */
  renamed(f: Finding): void {
    const group = this.#group(f);
    if (group.buckets) this.#file(group, f);
  }

  /**
   * The first kept finding (in keeping order) that `f` names more or less
   * fully, with the fuller of the two; undefined when there is none.
   */
  meet(f: Finding): Met | undefined {
    const group = this.#groups.get(partialKey(f));
    if (!group) return undefined;
    const buckets = group.buckets;
    if (!buckets) {
      // One finding in the group: the buckets would only tell whether to try it.
      const kept = group.all[0];
      const fuller = moreOrLess(kept, f);
      return fuller ? { kept, fuller } : undefined;
    }
    let best: Met | undefined;
    let bestOrder = Infinity;
    /** Whether `kept` is met, and comes before the best so far (false: look further on). */
    const tryKept = (kept: Finding): boolean => {
      const order = this.#order.get(kept)!;
      // Lists are in keeping order: nothing further on can come first.
      if (order >= bestOrder) return true;
      const fuller = moreOrLess(kept, f);
      if (!fuller) return false; // filed under a name it no longer has
      best = { kept, fuller };
      bestOrder = order;
      return true;
    };
    const look = (name: string) => {
      const filed = buckets.get(name);
      if (!filed) return;
      if (!Array.isArray(filed)) {
        tryKept(filed);
        return;
      }
      for (const kept of filed) if (tryKept(kept)) return;
    };
    if (f.test) {
      const suffixes = this.#suffixes(f.test);
      if (f.file) {
        // Kept in the same file, named more or less fully; or in no file, named as fully or less.
        look(bucket("longer", f.file, f.test));
        for (const s of suffixes) look(bucket("name", f.file, s));
        for (const s of suffixes) look(bucket("name", NONE, s));
      } else {
        // Kept in any file, named as fully or more; or in no file, named less fully.
        look(bucket("longer", ANY, f.test));
        for (const s of suffixes) if (s !== f.test) look(bucket("name", NONE, s));
      }
      return best;
    }
    if (!f.location) {
      // A report with no place names every kept finding of its message less fully.
      const kept = group.all[0];
      const fuller = moreOrLess(kept, f);
      return fuller ? { kept, fuller } : undefined;
    }
    const place = bareLocation(f.location);
    look(bucket("place", NONE, ""));
    look(bucket("longer", place, ""));
    for (const p of placePrefixes(place)) look(bucket("place", p, ""));
    return best;
  }

  /**
   * nameSuffixes(test), kept for the last name asked: the scan meets a
   * report, then files it when it met nothing, and each asks for its suffixes.
   */
  #suffixes(test: string): string[] {
    if (this.#suffixesOf !== test) {
      this.#suffixesOf = test;
      this.#lastSuffixes = nameSuffixes(test);
    }
    return this.#lastSuffixes;
  }
  #suffixesOf: string | undefined;
  #lastSuffixes: string[] = [];

  #group(f: Finding): Group {
    const key = partialKey(f);
    let group = this.#groups.get(key);
    if (!group) {
      group = new Group();
      this.#groups.set(key, group);
    }
    return group;
  }

  /**
   * Files `f` under each bucket a matching report looks in:
   * - an error or warning under its place (`place`) and under its place and
   *   each shorter place it starts with (`longer`: a report at `a.c:3` meets
   *   one kept at `a.c:3:5`);
   * - a test under its whole name (`name`) and under each end of its name
   *   after a separator (`longer`), for any file and for its own file (when
   *   it has one).
   */
  #file(group: Group, f: Finding): void {
    const order = this.#order.get(f)!;
    const buckets = group.buckets!;
    const put = (name: string) => {
      const filed = buckets.get(name);
      if (!filed) buckets.set(name, f);
      else if (!Array.isArray(filed)) {
        if (filed !== f) {
          buckets.set(name, this.#order.get(filed)! < order ? [filed, f] : [f, filed]);
        }
      } else insertInOrder(filed, f, order, this.#order);
    };
    if (f.test) {
      const file = f.file || NONE;
      put(bucket("name", file, f.test));
      for (const s of this.#suffixes(f.test)) {
        // A report in a file never meets a longer name kept in none (each names what the other
        // lacks): only a test kept in a file is looked for in its file's bucket.
        if (f.file) put(bucket("longer", file, s));
        put(bucket("longer", ANY, s));
      }
      return;
    }
    if (!f.location) {
      put(bucket("place", NONE, ""));
      return;
    }
    const place = bareLocation(f.location);
    put(bucket("place", place, ""));
    for (const p of placePrefixes(place)) put(bucket("longer", p, ""));
  }
}

function bucket(kind: string, where: string, name: string): string {
  return kind + SEP + where + SEP + name;
}

/** `place` and each start of it that ends before a colon (`a.c`, `a.c:3`, `a.c:3:5`). */
function placePrefixes(place: string): string[] {
  const out = [place];
  for (let i = place.indexOf(":"); i !== -1; i = place.indexOf(":", i + 1)) {
    out.push(place.slice(0, i));
  }
  return out;
}

/** A test's whole name and each non-empty end of it that follows a name separator (`nameEndsWith`). */
function nameSuffixes(test: string): string[] {
  const out = new Set<string>([test]);
  // A parameterised invocation is also filed by its method's names, which a summary gives it.
  for (const name of new Set([test, withoutInvocation(test)])) {
    out.add(name);
    for (const sep of NAME_SEPARATORS) {
      for (let i = name.indexOf(sep); i !== -1; i = name.indexOf(sep, i + 1)) {
        const from = i + sep.length;
        if (from < name.length) out.add(name.slice(from));
      }
    }
  }
  return [...out];
}

/** `f` into `list` (in keeping order) at its place; a finding already at the end is not added twice. */
function insertInOrder(
  list: Finding[],
  f: Finding,
  order: number,
  orders: Map<Finding, number>,
): void {
  const lastOrder = orders.get(list[list.length - 1])!;
  if (order > lastOrder) {
    list.push(f);
    return;
  }
  if (list.includes(f)) return;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (orders.get(list[mid])! < order) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, f);
}

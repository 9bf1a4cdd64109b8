/**
 * Regular expressions the gate builds from a line (a glob resolved against a
 * working directory, a path made into a pattern) are compiled once and kept:
 * the same few sources come back on every check, and compiling one costs more
 * than running it. Only flags without state (no `g`, no `y`) are allowed, so
 * a kept expression answers `test` the same way every time.
 */
const MAX_KEPT = 1024;
const kept = new Map<string, RegExp | null>();

/** The compiled expression, or null when the source is not a valid one. */
export function cachedRegExp(source: string, flags = ""): RegExp | null {
  if (/[gy]/.test(flags)) throw new Error(`cachedRegExp: flags ${flags} keep state`);
  const key = `${flags}/${source}`;
  let re = kept.get(key);
  if (re === undefined) {
    try {
      re = new RegExp(source, flags);
    } catch {
      re = null;
    }
    if (kept.size >= MAX_KEPT) kept.clear();
    kept.set(key, re);
  }
  return re;
}

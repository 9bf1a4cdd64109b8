/** A test finding's identity where one output holds tests of one name in several packages or crates. */
import { blockStart, type Finding, setBlockStart } from "../findings.ts";

/**
 * Tests of one name that failed in two packages (or crates) are told apart by their package, as the
 * finding's `file`. Only then: a test whose name is its own keeps the identity it has in any part of
 * a long output, including a part that does not reach its package's result line.
 */
export function nameApart(found: Finding[], groupOf: Map<Finding, string>): Finding[] {
  if (groupOf.size === 0) return found;
  // The groups each test name failed in: one test reported twice (two logs of one run) is one group,
  // and a report whose group is not known is no other group's.
  const groups = new Map<string, Set<string>>();
  /** The earliest block start among each name's findings. */
  const firstAt = new Map<string, number>();
  for (const f of found) {
    const group = groupOf.get(f);
    if (!f.test || group === undefined) continue;
    let set = groups.get(f.test);
    if (!set) groups.set(f.test, set = new Set());
    set.add(group);
    const at = blockStart(f);
    const earlier = firstAt.get(f.test);
    if (at !== undefined && (earlier === undefined || at < earlier)) firstAt.set(f.test, at);
  }
  for (const f of found) {
    const group = groupOf.get(f);
    if (group && f.test && groups.get(f.test)!.size > 1) {
      f.file = group;
      // Named apart by the other package's failure: its block starts no later than that one's (a
      // window that holds only its own package names it otherwise).
      if (blockStart(f) !== undefined) setBlockStart(f, firstAt.get(f.test));
    }
  }
  return found;
}

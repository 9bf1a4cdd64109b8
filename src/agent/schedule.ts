/**
 * How one model response's calls are run (spec 004): when every call is
 * parallel-safe they run concurrently in bounded groups, results published in
 * the calls' order; when any is not, all run one after another, so a write
 * before a test keeps its order.
 */

export const PARALLEL_GROUP = 4;

/** The groups to run, in order: each group's calls run together. */
export function scheduleCalls<T>(
  calls: readonly T[],
  parallelSafe: (call: T) => boolean,
  group = PARALLEL_GROUP,
): T[][] {
  if (calls.length === 0) return [];
  const size = calls.every(parallelSafe) ? Math.max(1, group) : 1;
  const groups: T[][] = [];
  for (let i = 0; i < calls.length; i += size) groups.push(calls.slice(i, i + size));
  return groups;
}

/** Run the groups one after another, each group's calls together; results in the calls' order. */
export async function runScheduled<T, R>(
  groups: readonly T[][],
  run: (call: T) => Promise<R>,
  stop?: () => boolean,
): Promise<R[]> {
  const results: R[] = [];
  for (const group of groups) {
    if (stop?.() && results.length > 0) break;
    results.push(...await Promise.all(group.map(run)));
  }
  return results;
}

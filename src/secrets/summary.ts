/**
 * The one-line summary of a scan's counts, in a module of its own so that
 * `wisp scan` can print it without loading the MCP tools (and their schemas).
 */

/** "3 findings: 2 password, 1 jwt" (most frequent kind first, then by name), or "no secrets found". */
export function scanSummary(counts: Record<string, number>): string {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (total === 0) return "no secrets found";
  // Kind names are lower-case ASCII: plain code-unit order, not localeCompare, whose first call
  // loads a collator (tens of milliseconds, more than the rest of a small scan).
  const parts = Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([kind, n]) => `${n} ${kind}`);
  return `${total} ${total === 1 ? "finding" : "findings"}: ${parts.join(", ")}`;
}

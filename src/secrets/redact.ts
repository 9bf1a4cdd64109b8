/**
 * Redaction: each finding's value is replaced by `[REDACTED:kind#n]`, the
 * same value getting the same number wherever it recurs, so that a redacted
 * log still shows which lines shared a token or an address.
 */
import type { ScanOptions, SecretFinding } from "./types.ts";
import { scanText } from "./scanner.ts";

/** Numbers values per kind across calls, so that a stream redacted in windows numbers consistently. */
export class RedactionNumbering {
  #numbers = new Map<string, Map<string, number>>();
  counts: Record<string, number> = {};

  marker(kind: string, value: string): string {
    let byValue = this.#numbers.get(kind);
    if (!byValue) this.#numbers.set(kind, byValue = new Map());
    let n = byValue.get(value);
    if (n === undefined) byValue.set(value, n = byValue.size + 1);
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    return `[REDACTED:${kind}#${n}]`;
  }
}

/** Replace the spans of `findings` (sorted by start, not overlapping) in `text`. */
export function applyRedaction(
  text: string,
  findings: SecretFinding[],
  numbering: RedactionNumbering,
): string {
  let out = "";
  let cursor = 0;
  for (const f of findings) {
    out += text.slice(cursor, f.start) + numbering.marker(f.kind, text.slice(f.start, f.end));
    cursor = f.end;
  }
  return out + text.slice(cursor);
}

export function redactText(
  text: string,
  options: Omit<ScanOptions, "path"> & { path?: string } = {},
): { text: string; counts: Record<string, number> } {
  const numbering = new RedactionNumbering();
  const redacted = applyRedaction(
    text,
    scanText(text, { ...options, allowComments: false }),
    numbering,
  );
  return { text: redacted, counts: numbering.counts };
}

/** `3 values redacted: 2 email, 1 github-pat` — the stderr summary. */
export function redactionSummary(counts: Record<string, number>): string {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (total === 0) return "nothing to redact";
  const parts = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([kind, n]) => `${n} ${kind}`);
  return `${total} ${total === 1 ? "value" : "values"} redacted: ${parts.join(", ")}`;
}

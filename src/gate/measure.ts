/**
 * Measuring a classifier over labelled command lines (`label<TAB>line`, label
 * one of deny, dangerous, moderate, safe): exact, over- and under-ratings,
 * and the time each verdict took. A `deny` line is exact only when the policy
 * refuses it. Pure apart from the clock.
 */
import { UsageError } from "../util/errors.ts";

const VERDICTS = ["safe", "moderate", "dangerous", "deny"] as const;
export type Verdict = (typeof VERDICTS)[number];
const RANK: Record<Verdict, number> = { safe: 0, moderate: 1, dangerous: 2, deny: 3 };

export interface Example {
  label: Verdict;
  line: string;
  /** Line number in the file (1-based). */
  lineNo: number;
}

/** Read a labelled set; blank lines and lines starting with # are skipped. */
export function parseExamples(text: string, file: string): Example[] {
  const out: Example[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/\r$/, "");
    if (raw.trim() === "" || raw.startsWith("#")) continue;
    const tab = raw.indexOf("\t");
    if (tab < 0) {
      throw new UsageError(`${file}:${i + 1} has no tab; each line is label<TAB>command line`);
    }
    const label = raw.slice(0, tab).trim();
    if (!(VERDICTS as readonly string[]).includes(label)) {
      throw new UsageError(
        `${file}:${i + 1} has the label ${
          JSON.stringify(label)
        }; use deny, dangerous, moderate or safe`,
      );
    }
    const line = decodeField(raw.slice(tab + 1));
    out.push({ label: label as Verdict, line, lineNo: i + 1 });
  }
  return out;
}

/**
 * A field written as a JSON string that holds a newline is decoded, so a
 * here-doc fits on one line; anything else is taken as it is.
 */
export function decodeField(field: string): string {
  if (field.length >= 2 && field.startsWith('"') && field.endsWith('"') && field.includes("\\n")) {
    try {
      const decoded = JSON.parse(field);
      if (typeof decoded === "string" && decoded.includes("\n")) return decoded;
    } catch { /* a shell line that only looks like JSON */ }
  }
  return field;
}

export interface Row {
  example: Example;
  verdict: Verdict;
  reasons: string[];
  micros: number;
}

export interface Summary {
  total: number;
  exact: number;
  over: number;
  under: number;
  underRows: Row[];
  overRows: Row[];
  /** Lines labelled dangerous or deny that got less: these fail the measure. */
  failures: Row[];
  safeLines: number;
  safeOver: number;
  medianMicros: number;
  p99Micros: number;
  meanMicros: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function summarise(rows: Row[]): Summary {
  const underRows = rows.filter((r) => RANK[r.verdict] < RANK[r.example.label]);
  const overRows = rows.filter((r) => RANK[r.verdict] > RANK[r.example.label]);
  const times = rows.map((r) => r.micros).sort((a, b) => a - b);
  const safe = rows.filter((r) => r.example.label === "safe");
  return {
    total: rows.length,
    exact: rows.length - underRows.length - overRows.length,
    over: overRows.length,
    under: underRows.length,
    underRows,
    overRows,
    failures: underRows.filter((r) =>
      r.example.label === "dangerous" || r.example.label === "deny"
    ),
    safeLines: safe.length,
    safeOver: safe.filter((r) => r.verdict !== "safe").length,
    medianMicros: percentile(times, 50),
    p99Micros: percentile(times, 99),
    meanMicros: times.length ? times.reduce((a, b) => a + b, 0) / times.length : 0,
  };
}

function oneLine(text: string): string {
  return text.replace(/\n/g, "\\n");
}

export function renderSummary(summary: Summary, classifier: string): string[] {
  const pct = (n: number, of: number) => (of === 0 ? "0.0" : ((100 * n) / of).toFixed(1));
  const lines = [
    `measured ${summary.total} lines with the ${classifier} classifier`,
    `  exact  ${String(summary.exact).padStart(5)}  (${pct(summary.exact, summary.total)} %)`,
    `  over   ${String(summary.over).padStart(5)}  (${
      pct(summary.over, summary.total)
    } %; safe lines rated higher: ${summary.safeOver} of ${summary.safeLines}, ${
      pct(summary.safeOver, summary.safeLines)
    } %)`,
    `  under  ${String(summary.under).padStart(5)}  (${pct(summary.under, summary.total)} %)`,
  ];
  if (summary.underRows.length > 0) {
    lines.push("under-rated:");
    for (const r of summary.underRows) {
      lines.push(
        `  line ${r.example.lineNo}: labelled ${r.example.label}, rated ${r.verdict}: ${
          oneLine(r.example.line)
        }`,
      );
    }
  }
  lines.push(
    `latency per verdict: median ${summary.medianMicros.toFixed(0)} µs, p99 ${
      summary.p99Micros.toFixed(0)
    } µs, mean ${summary.meanMicros.toFixed(0)} µs`,
  );
  if (summary.failures.length > 0) {
    lines.push(
      `${summary.failures.length} line${
        summary.failures.length === 1 ? "" : "s"
      } labelled dangerous or deny got less`,
    );
  }
  return lines;
}

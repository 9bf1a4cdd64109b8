/**
 * condense_log, exact part: a service or system log read into its
 * severities, its time span, and its messages grouped by template (numbers,
 * ids, hashes, addresses, quoted values and paths replaced), so the summary
 * can lead with the severe messages and the rare ones instead of the
 * thousands that repeat. `systemLogCommand` is the command that reads the
 * system log's last stretch on Linux (journalctl).
 */
import { hostOs } from "../platform/os.ts";

export type Severity = "fatal" | "error" | "warning" | "notice" | "info" | "debug";

const LEVEL_WORDS: Record<string, Severity> = {
  FATAL: "fatal",
  PANIC: "fatal",
  EMERG: "fatal",
  ALERT: "fatal",
  CRIT: "fatal",
  CRITICAL: "fatal",
  ERROR: "error",
  ERR: "error",
  SEVERE: "error",
  WARN: "warning",
  WARNING: "warning",
  NOTICE: "notice",
  INFO: "info",
  DEBUG: "debug",
  TRACE: "debug",
  FINE: "debug",
};
const UPPER_LEVEL =
  /(?:^|[\s\[(<|:])(FATAL|PANIC|EMERG|ALERT|CRIT|CRITICAL|ERROR|ERR|SEVERE|WARN|WARNING|NOTICE|INFO|DEBUG|TRACE)(?=$|[\s\]):>|,-])/;
const KEYED_LEVEL = /(?:\blevel|"level"|\blvl|"severity")\s*[=:]\s*"?(\w+)/i;
const KLOG = /^([IWEF])\d{4} \d{2}:\d{2}:\d{2}/;
const SYSLOG_PRI = /^<(\d)>/;
const PRIORITY: Severity[] = [
  "fatal",
  "fatal",
  "fatal",
  "error",
  "warning",
  "notice",
  "info",
  "debug",
];
const ISO_TIME = /\b(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)/;
const SYSLOG_TIME = /^([A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2})/;

export function severityOf(line: string): Severity | undefined {
  const head = line.slice(0, 160);
  const pri = SYSLOG_PRI.exec(head);
  if (pri) return PRIORITY[Number(pri[1])];
  const klog = KLOG.exec(head);
  if (klog) {
    return ({ I: "info", W: "warning", E: "error", F: "fatal" } as const)[
      klog[1] as "I" | "W" | "E" | "F"
    ];
  }
  const keyed = KEYED_LEVEL.exec(head);
  if (keyed) {
    const w = LEVEL_WORDS[keyed[1].toUpperCase()];
    if (w) return w;
  }
  const upper = UPPER_LEVEL.exec(head);
  if (upper) return LEVEL_WORDS[upper[1]];
  return undefined;
}

/** The line with its timestamp taken off and its variable parts replaced, so repeats of one message match. */
export function templateOf(line: string): string {
  return line
    .replace(ISO_TIME, "")
    .replace(SYSLOG_TIME, "")
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>")
    .replace(/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, "<ip>")
    .replace(/\b(?:0x)?[0-9a-f]{8,}\b/gi, "<hex>")
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/'(?:[^'\\]|\\.){1,200}'/g, "'…'")
    .replace(/(?:\/[\w.@-]+){2,}/g, "<path>")
    .replace(/\b\d+(?:\.\d+)?(?:ms|s|µs|us|ns|m|h|%|k|KB|MB|GB|B)?\b/g, "<n>")
    .replace(/\s+/g, " ")
    .trim();
}

export interface Template {
  template: string;
  count: number;
  severity?: Severity;
  /** The first line (1-based, in the whole file when a stretch was held back) it appeared on, and that line. */
  firstLine: number;
  example: string;
}

/** A stretch in the middle of the log that was not read (see input.ts readLogWindow). */
export interface LogGap {
  bytes: number;
  lines: number;
  /** false: the lines are estimated, and line numbers after the gap are approximate. */
  exact: boolean;
  /** The gap follows this many lines of the text; absent: where is not known (numbers count lines read). */
  afterLine?: number;
}

export interface LogSummary {
  /** Lines read (the held-back ones are in heldBack). */
  lines: number;
  heldBack?: LogGap;
  severities: Partial<Record<Severity, number>>;
  span?: { first: string; last: string };
  templates: Template[];
  /** The severe groups the text lists (warning and worse), worst and most frequent first. */
  severe: Template[];
  /** The rare groups the text lists (seen at most twice, not severe). */
  rare: Template[];
  /** The log's first and last lines as the text shows them (cut to 200 characters). */
  ends?: { first: string; last: string };
  text: string;
}

const RANK: Record<Severity, number> = {
  fatal: 0,
  error: 1,
  warning: 2,
  notice: 3,
  info: 4,
  debug: 5,
};

/** The 1-based number in the whole file of the text's line at `index`, the gap counted in. */
function fileLine(index: number, gap?: LogGap): number {
  if (!gap || gap.afterLine === undefined || index < gap.afterLine) return index + 1;
  return index + 1 + gap.lines;
}

/** "L120"; "L~120" after a gap whose lines were estimated. */
function lineLabel(line: number, gap?: LogGap): string {
  const approx = gap && !gap.exact && gap.afterLine !== undefined && line > gap.afterLine;
  return `L${approx ? "~" : ""}${line}`;
}

/** The sentence that says what was not read. */
export function gapNote(gap: LogGap): string {
  const about = gap.exact ? "" : "about ";
  const where = gap.afterLine !== undefined && gap.exact
    ? ` (lines ${gap.afterLine + 1}–${gap.afterLine + gap.lines})`
    : "";
  const numbering = gap.afterLine === undefined
    ? "; line numbers count the lines read"
    : gap.exact
    ? ""
    : "; line numbers after it are approximate";
  return `held back: ${gap.bytes} bytes, ${about}${gap.lines} lines${where} in the middle of the log were not read${numbering}`;
}

export function condenseLog(
  text: string,
  opts: { top?: number; heldBack?: LogGap } = {},
): LogSummary {
  const gap = opts.heldBack;
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const severities: Partial<Record<Severity, number>> = {};
  const templates = new Map<string, Template>();
  let first: string | undefined;
  let last: string | undefined;
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const t = ISO_TIME.exec(line.slice(0, 60))?.[1] ?? SYSLOG_TIME.exec(line)?.[1];
    if (t) {
      first ??= t;
      last = t;
    }
    const sev = severityOf(line);
    if (sev) severities[sev] = (severities[sev] ?? 0) + 1;
    const key = templateOf(line);
    const had = templates.get(key);
    if (had) had.count++;
    else {templates.set(key, {
        template: key,
        count: 1,
        severity: sev,
        firstLine: fileLine(i, gap),
        example: line.slice(0, 300),
      });}
  });
  const all = [...templates.values()];
  const top = opts.top ?? 10;
  const severe = all.filter((t) => t.severity && RANK[t.severity] <= RANK.warning)
    .sort((a, b) => RANK[a.severity!] - RANK[b.severity!] || b.count - a.count).slice(0, top);
  const rare = all.filter((t) => t.count <= 2 && !(t.severity && RANK[t.severity] <= RANK.warning))
    .slice(0, Math.ceil(top / 2));
  const out: string[] = [];
  const sevText = (Object.keys(RANK) as Severity[]).filter((s) => severities[s]).map((s) =>
    `${severities[s]} ${s}`
  ).join(", ");
  out.push(
    `${lines.length} lines${gap ? " read" : ""}${first ? `, ${first} to ${last}` : ""}; ${
      sevText || "no severities marked"
    }; ${all.length} distinct messages`,
  );
  if (gap) out.push(gapNote(gap));
  if (severe.length > 0) {
    out.push("severe:");
    for (const t of severe) {
      out.push(`  ${lineLabel(t.firstLine, gap)} ${t.severity} ×${t.count}: ${t.example}`);
    }
  }
  if (rare.length > 0) {
    out.push("rare:");
    for (const t of rare) out.push(`  ${lineLabel(t.firstLine, gap)} ×${t.count}: ${t.example}`);
  }
  const ends = lines.length > 0
    ? { first: lines[0].slice(0, 200), last: lines[lines.length - 1].slice(0, 200) }
    : undefined;
  if (ends) {
    out.push(`first: ${ends.first}`);
    out.push(`last: ${ends.last}`);
  }
  return {
    lines: lines.length,
    ...(gap ? { heldBack: gap } : {}),
    severities,
    span: first ? { first, last: last! } : undefined,
    templates: all,
    severe,
    rare,
    ...(ends ? { ends } : {}),
    text: out.join("\n"),
  };
}

/**
 * The command that reads the system log's last stretch: `last` is a duration
 * (`30s`, `5m`, `2h`, `1d`). Linux only (journalctl); on macOS the unified
 * log is read in process, not by a command.
 */
export function systemLogCommand(last: string, os: string = hostOs()): string {
  const m = /^(\d+)\s*(s|m|h|d)$/.exec(last.trim());
  if (!m) throw new Error(`${last} is not a duration; use 30s, 5m, 2h or 1d`);
  if (os !== "linux") {
    throw new Error(
      `reading the system log by a command is for Linux; on ${os} it is read in process`,
    );
  }
  const unit = { s: "seconds", m: "minutes", h: "hours", d: "days" }[m[2] as "s" | "m" | "h" | "d"];
  return `journalctl --no-pager -o short-iso --since '-${m[1]} ${unit}'`;
}

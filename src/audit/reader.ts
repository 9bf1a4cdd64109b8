/**
 * Reading the audit log back: its rotated files oldest first, each line
 * parsed on its own. A torn or corrupt line (a crash mid-write, a hand edit)
 * is skipped and counted, never fatal.
 */
import { basename, dirname, join } from "node:path";
import type { AuditEvent } from "./catalogue.ts";

export interface SkippedLines {
  file: string;
  lines: number[];
}

export interface ReadResult {
  events: AuditEvent[];
  skipped: SkippedLines[];
}

/** The log's files, oldest first: audit.jsonl.N … audit.jsonl.1, audit.jsonl. */
export function auditFiles(path: string): string[] {
  const dir = dirname(path);
  const base = basename(path);
  const rotated: Array<{ n: number; file: string }> = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      const match = entry.isFile && entry.name.startsWith(base + ".")
        ? /^\d+$/.exec(entry.name.slice(base.length + 1))
        : null;
      if (match) rotated.push({ n: Number(match[0]), file: join(dir, entry.name) });
    }
  } catch {
    return [];
  }
  rotated.sort((a, b) => b.n - a.n);
  const files = rotated.map((r) => r.file);
  try {
    if (Deno.statSync(path).isFile) files.push(path);
  } catch { /* no current file */ }
  return files;
}

/** Parse one line; undefined when it is not a whole audit event. */
export function parseEventLine(line: string): AuditEvent | undefined {
  if (line.trim() === "") return undefined;
  try {
    const value = JSON.parse(line);
    if (
      value && typeof value === "object" && !Array.isArray(value) &&
      typeof value.kind === "string" &&
      typeof value.ts === "string" && typeof value.session === "string"
    ) {
      return value as AuditEvent;
    }
  } catch { /* torn or corrupt */ }
  return undefined;
}

/** Parse a file's text; the last line counts as torn only if it is not whole. */
function parseEventsText(text: string, file: string, into: ReadResult): void {
  const lines = text.split("\n");
  const bad: number[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const event = parseEventLine(line);
    if (event) into.events.push(event);
    else bad.push(index + 1);
  });
  if (bad.length > 0) into.skipped.push({ file, lines: bad });
}

/**
 * Read every file of the log, oldest first. `currentLimit` stops the current
 * file at that many bytes (where a follower took over).
 */
export function readAuditLog(path: string, currentLimit?: number): ReadResult {
  const result: ReadResult = { events: [], skipped: [] };
  for (const file of auditFiles(path)) {
    let text: string;
    try {
      const bytes = Deno.readFileSync(file);
      text = new TextDecoder().decode(
        file === path && currentLimit !== undefined ? bytes.subarray(0, currentLimit) : bytes,
      );
    } catch {
      continue; // rotated away between listing and reading
    }
    parseEventsText(text, file, result);
  }
  return result;
}

export interface EventFilter {
  kinds?: string[];
  session?: string;
  last?: number;
}

export function matchesFilter(event: AuditEvent, filter: EventFilter): boolean {
  if (filter.kinds && filter.kinds.length > 0 && !filter.kinds.includes(event.kind)) return false;
  if (filter.session && !event.session.startsWith(filter.session)) return false;
  return true;
}

export function filterEvents(events: AuditEvent[], filter: EventFilter): AuditEvent[] {
  const kept = events.filter((event) => matchesFilter(event, filter));
  return filter.last !== undefined ? kept.slice(Math.max(0, kept.length - filter.last)) : kept;
}

export function describeSkipped(skipped: SkippedLines[]): string | undefined {
  if (skipped.length === 0) return undefined;
  const total = skipped.reduce((n, s) => n + s.lines.length, 0);
  const where = skipped.map((s) =>
    `${basename(s.file)} line${s.lines.length > 1 ? "s" : ""} ${s.lines.slice(0, 5).join(", ")}${
      s.lines.length > 5 ? ", …" : ""
    }`
  ).join("; ");
  return `skipped ${total} line${total > 1 ? "s" : ""} that ${
    total > 1 ? "are" : "is"
  } not a whole audit event (${where})`;
}

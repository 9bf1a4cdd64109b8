/**
 * One line per audit event, for `wisp logs`: time, session, kind, and the
 * fields that say what happened. Pure.
 */
import type { AuditEvent } from "./catalogue.ts";

const ENVELOPE = new Set(["ts", "session", "seq", "id", "kind", "version"]);
/** Fields shown first, in this order, when an event has them. */
const LEADING = [
  "tool",
  "command",
  "key",
  "decision",
  "level",
  "scope",
  "pattern",
  "exitStatus",
  "reason",
  "route",
  "text",
];

function short(value: unknown, max = 80): string {
  let text = typeof value === "string" ? value : JSON.stringify(value);
  if (text === undefined) text = String(value);
  text = text.replace(/\s+/g, " ");
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/** `2026-11-30 10:00:25` in UTC, from an ISO timestamp. */
function shortTime(ts: string): string {
  return ts.length >= 19 ? `${ts.slice(0, 10)} ${ts.slice(11, 19)}` : ts;
}

export function summariseEvent(event: AuditEvent, width = 200): string {
  const parts: string[] = [];
  if (event.kind === "config.change") {
    parts.push(
      `${event.key}: ${short(event.from ?? "(default)", 40)} → ${
        short(event.to ?? "(default)", 40)
      }`,
    );
    if (event.source) parts.push(`by ${event.source}`);
  } else {
    for (const key of LEADING) {
      if (event[key] === undefined || event[key] === null) continue;
      parts.push(
        key === "tool" || key === "command" || key === "text"
          ? short(event[key])
          : `${key}=${short(event[key], 40)}`,
      );
    }
    for (const [key, value] of Object.entries(event)) {
      if (ENVELOPE.has(key) || LEADING.includes(key) || value === undefined || value === null) {
        continue;
      }
      if (typeof value === "object") continue;
      parts.push(`${key}=${short(value, 40)}`);
    }
  }
  const line = `${shortTime(event.ts)}  ${event.session}  ${event.kind}  ${parts.join("  ")}`
    .trimEnd();
  return line.length > width ? line.slice(0, width - 1) + "…" : line;
}

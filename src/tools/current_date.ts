/**
 * current_date: the local date and time, because a local model has no clock
 * and guesses otherwise. One line: an ISO 8601 timestamp with the offset, then
 * the zone's name.
 */
import { z } from "zod";
import type { Tool } from "./tool.ts";

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * The line the tool returns for an instant, a UTC offset in minutes (east of
 * Greenwich positive, so London in summer is +60) and a zone name.
 */
export function formatCurrentDate(instant: Date, offsetMinutes: number, zone: string): string {
  const local = new Date(instant.getTime() + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const stamp =
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  return `${stamp} (${zone})`;
}

/** The process's zone name, falling back to the offset when the runtime knows no name. */
function localZoneName(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) return zone;
  } catch { /* no Intl zone data */ }
  return "local time";
}

const currentDateSchema = z.object({}).strict();

export const currentDateTool: Tool<z.infer<typeof currentDateSchema>> = {
  name: "current_date",
  description: "Returns the current local date and time.",
  schema: currentDateSchema,
  parallelSafe: true,
  gatesBeforeEffect: false,
  limits: () => ["None needed: the result is a single line."],
  examplePrompt: "Use current_date to get today's date and time. Report the tool result verbatim.",
  run() {
    const now = new Date();
    // getTimezoneOffset is minutes *behind* UTC; the timestamp wants minutes ahead.
    const text = formatCurrentDate(now, -now.getTimezoneOffset(), localZoneName());
    return Promise.resolve({ text, ok: true });
  },
};

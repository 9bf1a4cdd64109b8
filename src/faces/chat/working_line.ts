/**
 * The working line shown while something runs (`… 12 s · running git status`):
 * how long it has run and what the engine's activity line says it does. Every
 * chat face draws the same words; how often it redraws is the face's. Pure.
 */
import type { ActivityLine } from "./protocol.ts";

/** What runs, as an activity line carries it. */
export type Activity = NonNullable<ActivityLine["activity"]>;

/** `12 s`, `2 min 5 s`. */
export function elapsedWords(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** The working line at `now` (ms since the epoch), with the second Ctrl-C's warning once one came. */
export function workingText(
  activity: Pick<Activity, "text" | "since" | "stopping">,
  now: number,
): string {
  const stopping = activity.stopping ? " · Ctrl-C again quits" : "";
  return `… ${elapsedWords(now - activity.since)} · ${activity.text}${stopping}`;
}

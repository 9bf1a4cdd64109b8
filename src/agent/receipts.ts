/**
 * The `ran:` line under a reply: what the turn actually ran, counted from its
 * calls (callsFromEvents), never from the reply. Tools in the order of their
 * first call, `×N` above one, failures, denials and declines apart, six names
 * then `+N more`; nothing when nothing ran, unless the reply names one of the
 * conversation's tools (`ran: no tools`). Pure.
 *
 *   ran: read_file ×2 · run_command ×10 (2 failed, 1 denied) · edit_file ×3 · notify
 */
import type { TurnCall } from "../audit/calls.ts";

const RAN_MAX_NAMED = 6;

interface Tally {
  tool: string;
  count: number;
  failed: number;
  denied: number;
  declined: number;
}

function tallyCalls(calls: readonly TurnCall[]): Tally[] {
  const tallies = new Map<string, Tally>();
  for (const call of calls) {
    let tally = tallies.get(call.tool);
    if (!tally) {
      tally = { tool: call.tool, count: 0, failed: 0, denied: 0, declined: 0 };
      tallies.set(call.tool, tally);
    }
    tally.count++;
    if (call.outcome === "failed" || call.outcome === "unfinished") tally.failed++;
    else if (call.outcome === "denied") tally.denied++;
    else if (call.outcome === "declined") tally.declined++;
  }
  return [...tallies.values()];
}

function renderTally(tally: Tally): string {
  const notes = [
    ...(tally.failed ? [`${tally.failed} failed`] : []),
    ...(tally.denied ? [`${tally.denied} denied`] : []),
    ...(tally.declined ? [`${tally.declined} declined`] : []),
  ];
  return `${tally.tool}${tally.count > 1 ? ` ×${tally.count}` : ""}${
    notes.length ? ` (${notes.join(", ")})` : ""
  }`;
}

/** Whether the reply names one of the tools, as a word. */
function namesATool(reply: string, tools: readonly string[]): boolean {
  return tools.some((tool) => new RegExp(`(^|[^A-Za-z0-9_])${tool}($|[^A-Za-z0-9_])`).test(reply));
}

/** The line, or null when there is nothing to say. */
export function ranLine(
  calls: readonly TurnCall[],
  reply: string,
  tools: readonly string[],
): string | null {
  if (calls.length === 0) return namesATool(reply, tools) ? "ran: no tools" : null;
  const tallies = tallyCalls(calls);
  const named = tallies.slice(0, RAN_MAX_NAMED).map(renderTally);
  const more = tallies.length - RAN_MAX_NAMED;
  return `ran: ${named.join(" · ")}${more > 0 ? ` · +${more} more` : ""}`;
}

/**
 * The person's own answers in the audit log as labelled lines, for
 * `wisp classifier train --from-audit`. Only answers a person gave count
 * (approval.decided with by: person): a part they approved keeps the level
 * it was asked at, a part they refused is labelled dangerous, so that a
 * trained version asks about it as the person would. Runs outside the sandbox
 * are asked every time whatever their rating, and are left out.
 *
 * Pure: the caller reads the events through the audit reader.
 */
import type { AuditEvent } from "../../audit/catalogue.ts";
import type { Verdict } from "../measure.ts";

/** A line labelled by the person's answer. */
export interface AnsweredLine {
  label: Verdict;
  line: string;
}

const LEVELS = new Set(["safe", "moderate", "dangerous"]);

/** The labelled lines the person's answers give; a later answer about the same part wins. */
export function answersFromAudit(events: readonly AuditEvent[]): AnsweredLine[] {
  const byCommand = new Map<string, AnsweredLine>();
  for (const e of events) {
    if (e.kind !== "approval.decided" || e.by !== "person" || e.outsideSandbox === true) continue;
    if (typeof e.command !== "string" || e.command.trim() === "") continue;
    let label: Verdict;
    if (e.decision === "refused") label = "dangerous";
    else if (e.decision === "approved" && typeof e.level === "string" && LEVELS.has(e.level)) {
      label = e.level as Verdict;
    } else continue;
    byCommand.delete(e.command);
    byCommand.set(e.command, { label, line: e.command });
  }
  return [...byCommand.values()];
}

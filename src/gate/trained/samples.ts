/**
 * From labelled lines to training samples. A line's label (deny counts as
 * dangerous) is what its riskiest part should be rated: the parts the rules
 * rate highest learn the label, the others learn the rules' own level (no
 * higher than the label), and every part of the line has the label as its
 * ceiling, so calibration keeps the model from over-rating any of them.
 *
 * Lines that overlap a held-out set (held-out.tsv, --exclude) are left out
 * before anything is learned; overlap is the same line, spaces aside.
 *
 * Pure: the caller assesses each line through the gate.
 */
import type { Level } from "../../config/schema.ts";
import type { Verdict } from "../measure.ts";
import { LEVEL_RANK, type PartVerdict } from "../rules.ts";
import { type TrainedFeatureContext, trainedFeatures } from "./features.ts";
import type { Sample } from "./model.ts";

/**
 * The made-up folder and home labelled lines are rated in for training, so
 * the weights do not depend on the machine or folder that trains them.
 */
export const TRAINING_PLACE: TrainedFeatureContext = {
  root: "/home/person/project",
  userHome: "/home/person",
};

/** The level a label asks for: deny is the policy's, and as a rating it is dangerous. */
function labelLevel(label: Verdict): Level {
  return label === "deny" ? "dangerous" : label;
}

/** The samples one labelled line gives. */
export function samplesOf(
  label: Verdict,
  parts: readonly PartVerdict[],
  ctx: TrainedFeatureContext,
): Sample[] {
  const ceiling = labelLevel(label);
  let top = -1;
  for (const p of parts) top = Math.max(top, LEVEL_RANK[p.level]);
  return parts.map((p) => {
    const own: Level = LEVEL_RANK[p.level] > LEVEL_RANK[ceiling] ? ceiling : p.level;
    return {
      features: trainedFeatures(p, ctx),
      target: LEVEL_RANK[p.level] === top ? ceiling : own,
      ceiling,
    };
  });
}

/** A line as overlap is judged: spaces collapsed and trimmed. */
export function overlapKey(line: string): string {
  return line.trim().replace(/\s+/g, " ");
}

/** Split lines into those kept for training and the number left out as held out. */
export function withoutHeldOut<T extends { line: string }>(
  lines: readonly T[],
  heldOut: ReadonlySet<string>,
): { kept: T[]; excluded: number } {
  const kept = lines.filter((l) => !heldOut.has(overlapKey(l.line)));
  return { kept, excluded: lines.length - kept.length };
}

/** Rates one line the way the gate does (policy aside): its parts as the rules see them. */
export type AssessLine = (line: string) => Promise<readonly PartVerdict[]>;

/** The samples of many labelled lines, each assessed through the gate. */
export async function samplesFromLines(
  lines: ReadonlyArray<{ label: Verdict; line: string }>,
  assess: AssessLine,
  ctx: TrainedFeatureContext,
): Promise<Sample[]> {
  const out: Sample[] = [];
  for (const l of lines) out.push(...samplesOf(l.label, await assess(l.line), ctx));
  return out;
}

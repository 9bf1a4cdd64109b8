/**
 * The model classifier interface. A model classifier (Core ML, the on-device
 * model; later work) may only raise the rules' level, never lower it; a part
 * on the rules' read-only list never reaches it. When it cannot judge, the
 * part is taken as at least moderate, as the spec says.
 */
import type { Level } from "../config/schema.ts";
import { maxLevel } from "./rules.ts";
import type { PartVerdict } from "./rules.ts";

export interface ModelVerdict {
  level: Level;
  reasons?: string[];
}

export interface ModelClassifier {
  /** The name audited as classifier.verdict's classifier (coreml, system-model, …). */
  readonly name: string;
  classify(
    input: { command: string; argv: string[]; line: string; cwd: string; rulesLevel: Level },
    signal?: AbortSignal,
  ): Promise<ModelVerdict>;
}

export interface ClassifiedPart extends PartVerdict {
  classifier: string;
  seconds: number;
}

/** Combine the rules with a model: the higher level wins, and the rules' reasons stay. */
export function combine(
  rules: PartVerdict,
  model: ModelVerdict | undefined,
  failure?: string,
): PartVerdict {
  if (failure !== undefined) {
    const level = maxLevel(rules.level, "moderate");
    return {
      ...rules,
      level,
      reasons: [
        ...rules.reasons,
        `the model classifier could not judge it (${failure}), so it is taken as at least moderate`,
      ],
      exact: rules.exact || level === "dangerous",
      pattern: level === "dangerous" && rules.level !== "dangerous" ? rules.command : rules.pattern,
    };
  }
  if (!model) return rules;
  const level = maxLevel(rules.level, model.level);
  if (level === rules.level) return rules;
  return {
    ...rules,
    level,
    reasons: [
      ...rules.reasons,
      ...(model.reasons?.length ? model.reasons : [`the model classifier rates it ${model.level}`]),
    ],
    readOnly: false,
    exact: rules.exact || level === "dangerous",
    pattern: level === "dangerous" ? rules.command : rules.pattern,
  };
}

export async function applyModelClassifier(
  classifier: ModelClassifier,
  parts: PartVerdict[],
  context: { line: string; cwd: string; signal?: AbortSignal },
): Promise<ClassifiedPart[]> {
  const out: ClassifiedPart[] = [];
  for (const part of parts) {
    if (part.readOnly) {
      out.push({ ...part, classifier: "rules", seconds: 0 });
      continue;
    }
    const started = performance.now();
    try {
      const verdict = await classifier.classify(
        {
          command: part.command,
          argv: part.argv,
          line: context.line,
          cwd: context.cwd,
          rulesLevel: part.level,
        },
        context.signal,
      );
      const valid = verdict &&
        (verdict.level === "safe" || verdict.level === "moderate" || verdict.level === "dangerous");
      out.push({
        ...combine(part, valid ? verdict : undefined, valid ? undefined : "it gave no level"),
        classifier: `rules+${classifier.name}`,
        seconds: (performance.now() - started) / 1000,
      });
    } catch (error) {
      out.push({
        ...combine(part, undefined, error instanceof Error ? error.message : String(error)),
        classifier: `rules+${classifier.name}`,
        seconds: (performance.now() - started) / 1000,
      });
    }
  }
  return out;
}

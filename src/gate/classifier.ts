/**
 * The classifier beside the rules. A second classifier (the model classifier
 * on a local model, model_classifier.ts; the trained classifier, trained/)
 * may only raise the rules' level, never lower it; a part on the rules'
 * read-only list, or one the rules already rate dangerous, never reaches it.
 * When it cannot judge, the part is taken as at least moderate, as the spec
 * says. Which one a session uses is chosen from the config in choose.ts.
 */
import type { Level } from "../config/schema.ts";
import { maxLevel } from "./rules.ts";
import type { PartVerdict } from "./rules.ts";

/** What a second classifier said about one part. */
export interface ModelVerdict {
  level: Level;
  reasons?: string[];
  /** The answer came from this session's cache: no model was asked again. */
  cached?: boolean;
  /** What judged it, for the audit: the model's name (ollama:…) or the version (risk@…). */
  source?: string;
}

/** What a second classifier is shown of one part. */
export interface ClassifierInput {
  command: string;
  argv: string[];
  line: string;
  cwd: string;
  /** The project folder (the launch directory); absent: the working folder. */
  root?: string;
  rulesLevel: Level;
  /** The rules' verdict with the analysed part, for a classifier that reads features. */
  verdict?: PartVerdict;
}

/** A classifier beside the rules: the model classifier or the trained one. */
export interface ModelClassifier {
  /** The name audited as classifier.verdict's classifier (coreml, model, system-model, …). */
  readonly name: string;
  /** How it judges, audited as classifier.verdict's `by`: a language model or trained weights. */
  readonly by?: "model" | "trained";
  classify(input: ClassifierInput, signal?: AbortSignal): Promise<ModelVerdict>;
}

/** A part as the gate audits it: the rules' verdict, perhaps raised, and who judged it. */
export interface ClassifiedPart extends PartVerdict {
  classifier: string;
  seconds: number;
  /** rules (the second classifier was not asked), model or trained. */
  by: "rules" | "model" | "trained";
  /** The second classifier could not judge, so the part was taken as at least moderate. */
  failed?: boolean;
  cached?: boolean;
  source?: string;
}

/** Combine the rules with a model: the higher level wins, and the rules' reasons stay. */
function combine(
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

/**
 * Ask a second classifier about every part the rules leave open: read-only
 * parts and parts already dangerous are not sent. Each answer can only raise
 * the part; an error or an answer without a level is a failure, taken as at
 * least moderate (a check that could not run is not a pass).
 */
export async function applyModelClassifier(
  classifier: ModelClassifier,
  parts: PartVerdict[],
  context: { line: string; cwd: string; root?: string; signal?: AbortSignal },
): Promise<ClassifiedPart[]> {
  const out: ClassifiedPart[] = [];
  for (const part of parts) {
    if (part.readOnly || part.level === "dangerous") {
      out.push({ ...part, classifier: "rules", seconds: 0, by: "rules" });
      continue;
    }
    const by = classifier.by ?? "model";
    const started = performance.now();
    try {
      const verdict = await classifier.classify(
        {
          command: part.command,
          argv: part.argv,
          line: context.line,
          cwd: context.cwd,
          ...(context.root !== undefined ? { root: context.root } : {}),
          rulesLevel: part.level,
          verdict: part,
        },
        context.signal,
      );
      const valid = verdict &&
        (verdict.level === "safe" || verdict.level === "moderate" || verdict.level === "dangerous");
      out.push({
        ...combine(part, valid ? verdict : undefined, valid ? undefined : "it gave no level"),
        classifier: `rules+${classifier.name}`,
        seconds: (performance.now() - started) / 1000,
        by,
        ...(valid ? {} : { failed: true }),
        ...(valid && verdict.cached ? { cached: true } : {}),
        ...(valid && verdict.source ? { source: verdict.source } : {}),
      });
    } catch (error) {
      out.push({
        ...combine(part, undefined, error instanceof Error ? error.message : String(error)),
        classifier: `rules+${classifier.name}`,
        seconds: (performance.now() - started) / 1000,
        by,
        failed: true,
      });
    }
  }
  return out;
}

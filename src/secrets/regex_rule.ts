/** Builds a rule from a regular expression whose match (or one group of it) is the value. */
import type { Candidate, Category, Rule, RuleContext } from "./types.ts";

export interface RegexRuleSpec {
  kind: string;
  category?: Category;
  /** Must have the `g` flag; add `d` when `group` is set. */
  pattern: RegExp;
  /** The capture group that holds the value (0: the whole match). */
  group?: number;
  keywords?: string[];
  priority?: number;
  /** Leading characters of the value that are a public prefix (`ghp_`). */
  visible?: number;
  thoroughOnly?: boolean;
  /** Reject a match: the value, the whole text, and the value's offsets. */
  validate?: (
    value: string,
    text: string,
    start: number,
    end: number,
    context: RuleContext,
  ) => boolean;
}

export const PRIORITY = {
  specific: 100,
  structured: 80,
  header: 60,
  generic: 40,
  entropy: 30,
  personal: 20,
};

export function regexRule(spec: RegexRuleSpec): Rule {
  const group = spec.group ?? 0;
  if (!spec.pattern.global) throw new Error(`rule ${spec.kind}: pattern needs the g flag`);
  if (group > 0 && !spec.pattern.hasIndices) {
    throw new Error(`rule ${spec.kind}: pattern needs the d flag`);
  }
  return {
    id: spec.kind,
    category: spec.category ?? "credential",
    keywords: spec.keywords,
    thoroughOnly: spec.thoroughOnly,
    find(text: string, context: RuleContext): Candidate[] {
      const out: Candidate[] = [];
      const pattern = new RegExp(spec.pattern.source, spec.pattern.flags);
      let match: RegExpExecArray | null;
      while ((match = pattern.exec(text)) !== null) {
        if (match[0].length === 0) {
          pattern.lastIndex++;
          continue;
        }
        const value = match[group];
        if (value === undefined) continue;
        const start = group === 0 ? match.index : match.indices![group]![0];
        const end = start + value.length;
        if (spec.validate && !spec.validate(value, text, start, end, context)) continue;
        out.push({
          kind: spec.kind,
          category: spec.category ?? "credential",
          start,
          end,
          priority: spec.priority ?? PRIORITY.specific,
          visible: spec.visible ?? 0,
        });
      }
      return out;
    },
  };
}

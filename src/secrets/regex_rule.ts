/**
 * Builds a rule from a regular expression whose match (or one group of it)
 * is the value. A rule with `anchors` (literal strings every match begins
 * with) is not run over the whole text: the scanner finds all anchors of all
 * rules in one pass and tries the rule's pattern only where its anchor is
 * (a sticky match at that offset; look-behinds still see the text before).
 */
import type { Candidate, Category, Rule, RuleContext } from "./types.ts";

export interface RegexRuleSpec {
  kind: string;
  category?: Category;
  /** Must have the `g` flag; add `d` when `group` is set. */
  pattern: RegExp;
  /** The capture group that holds the value (0: the whole match). */
  group?: number;
  /** Literal strings that every match starts with (after any look-behind). */
  anchors?: string[];
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

/** A credential candidate over text[start, end) of this kind and priority (none of it shown). */
export function credentialCandidate(
  kind: string,
  start: number,
  end: number,
  priority: number,
): Candidate {
  return { kind, category: "credential", start, end, priority, visible: 0 };
}

/** A credential a file's own syntax names (a directive, a key of its format): header priority. */
export function headerCandidate(kind: string, start: number, end: number): Candidate {
  return credentialCandidate(kind, start, end, PRIORITY.header);
}

/** The offsets of a match's group (the pattern has the `d` flag). */
export function spanOf(match: RegExpExecArray, group: number): [number, number] {
  const span = match.indices![group]!;
  return [span[0], span[1]];
}

export function regexRule(spec: RegexRuleSpec): Rule {
  const group = spec.group ?? 0;
  if (!spec.pattern.global) throw new Error(`rule ${spec.kind}: pattern needs the g flag`);
  if (group > 0 && !spec.pattern.hasIndices) {
    throw new Error(`rule ${spec.kind}: pattern needs the d flag`);
  }
  const sticky = new RegExp(spec.pattern.source, spec.pattern.flags.replace("g", "") + "y");

  const candidate = (
    match: RegExpExecArray,
    text: string,
    context: RuleContext,
  ): Candidate | null => {
    const value = match[group];
    if (value === undefined || match[0].length === 0) return null;
    const start = group === 0 ? match.index : match.indices![group]![0];
    const end = start + value.length;
    if (spec.validate && !spec.validate(value, text, start, end, context)) return null;
    return {
      kind: spec.kind,
      category: spec.category ?? "credential",
      start,
      end,
      priority: spec.priority ?? PRIORITY.specific,
      visible: spec.visible ?? 0,
    };
  };

  return {
    id: spec.kind,
    category: spec.category ?? "credential",
    keywords: spec.keywords,
    anchors: spec.anchors,
    thoroughOnly: spec.thoroughOnly,
    matchAt(text: string, position: number, context: RuleContext): Candidate | null {
      sticky.lastIndex = position;
      const match = sticky.exec(text);
      return match ? candidate(match, text, context) : null;
    },
    find(text: string, context: RuleContext): Candidate[] {
      const out: Candidate[] = [];
      // The rule's own object, reset: a fresh one per scan would run interpreted until V8
      // tiered it up again. Scans never nest, so sharing it is safe.
      const pattern = spec.pattern;
      pattern.lastIndex = 0;
      let match: RegExpExecArray | null;
      while ((match = pattern.exec(text)) !== null) {
        if (match[0].length === 0) {
          pattern.lastIndex++;
          continue;
        }
        const c = candidate(match, text, context);
        if (c) out.push(c);
      }
      return out;
    },
  };
}

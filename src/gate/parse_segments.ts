/**
 * Tidying a word's segments, shared by both shell readers (the tree-sitter
 * walker and the quick reader) so that they build words the same way.
 */
import { type Segment, splitUnquoted } from "./words.ts";

/**
 * tree-sitter splits `{a,b}` into several words; join runs of unquoted text
 * and mark a brace expansion in them as a glob.
 */
export function braces(segs: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    const unquoted = (x: Segment) => (x.kind === "lit" && !x.quoted) || x.kind === "glob";
    if (!unquoted(s)) {
      out.push(s);
      continue;
    }
    let text = s.kind === "lit" || s.kind === "glob" ? s.text : "";
    let run = 1;
    while (i + 1 < segs.length && unquoted(segs[i + 1])) {
      text += (segs[++i] as { text: string }).text;
      run++;
    }
    // A brace group or a bracket class (`s[u]do`) tree-sitter split into pieces.
    if (run === 1 || !/\{[^{}]*(,|\.\.)[^{}]*\}|\[[^\]]+\]/.test(text)) {
      for (let k = i - run + 1; k <= i; k++) out.push(segs[k]);
      continue;
    }
    // Pieces tree-sitter split apart: look at them again as one unquoted word.
    out.push(...splitUnquoted(text.replace(/\\/g, "\\\\"), false));
  }
  return out;
}

/** Join adjacent literal segments (quoted only when both were). */
export function mergeLits(segs: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segs) {
    const last = out[out.length - 1];
    if (s.kind === "lit" && last && last.kind === "lit") {
      out[out.length - 1] = {
        kind: "lit",
        text: last.text + s.text,
        quoted: last.quoted && s.quoted,
      };
    } else out.push(s);
  }
  return out;
}

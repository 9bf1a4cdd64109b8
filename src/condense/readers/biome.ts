/**
 * Biome's diagnostics (`biome lint`, `biome check`, `biome format`): a head
 * line naming the place and the category, ruled off to the right
 * (`src/app.js:9:5 lint/suspicious/noDebugger  FIXABLE  ━━━━`), then the
 * message after a blank line, marked by its level: `×` an error, `!` a
 * warning, `i` information (not a finding). A head without a place is Biome's
 * own closing report (`lint ━━━`: "Some errors were emitted…"), and its
 * `Checked N files…`, `Found N errors.` lines are a summary.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { SPACE, TAB } from "../chars.ts";

const RULE = 0x2501; // ━
const HEAD = /^(\S+?)(?::(\d+):(\d+))? ([a-z][\w/.-]*)(?:\s+[A-Z][A-Z ]*?)?\s+━+$/;
const OWN_HEAD = /^[a-z]+ ━+$/;
const MESSAGE = /^ {2}([×!i✖⚠]) (.*)$/;
const SUMMARY = /^(?:Checked \d+ files? in .*|Found \d+ (?:errors?|warnings?|infos?)\.)$/;

function readBiome(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  /** Whether a head was read: only then are the summary's words (`Found 3 errors.`) Biome's. */
  let seen = false;
  for (let i = 0; i < lines.length; i++) {
    const c = shape.first[i];
    if (c === 0 || c === SPACE || c === TAB) continue;
    if (shape.last[i] !== RULE) {
      if (seen && (c === 0x43 || c === 0x46) && SUMMARY.test(lines[i])) ctx.explain(i);
      continue;
    }
    const own = OWN_HEAD.test(lines[i]);
    const h = own ? null : HEAD.exec(lines[i]);
    if (!h && !own) continue;
    seen = true;
    // The block: the head, then indented lines and blanks up to the next line at the margin.
    let j = i + 1;
    let message: RegExpExecArray | null = null;
    while (j < lines.length && j - i < 200 && (shape.first[j] === 0 || shape.first[j] === SPACE)) {
      if (!message && shape.lead[j] !== 0) message = MESSAGE.exec(lines[j]);
      j++;
    }
    while (j > i + 1 && lines[j - 1].trim() === "") j--;
    ctx.explain(i, j - 1);
    i = j - 1;
    if (!h || !message || message[1] === "i") continue;
    const kind = message[1] === "!" || message[1] === "⚠" ? "warning" : "error";
    out.push(
      finding(kind, `${message[2].trim()} (${h[4]})`, {
        location: h[2] ? `${h[1]}:${h[2]}:${h[3]}` : h[1],
        at: i,
      }),
    );
  }
  return out;
}

export const biome: Reader = { name: "biome", read: readBiome };

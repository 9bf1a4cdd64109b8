/**
 * uvu's reporter: a file's name, its marks (`✘ • • ✘   (2 / 4)`), then per
 * failed test `   FAIL  "name"` (`   FAIL  Suite  "name"` in a named suite),
 * the assertion's message (`Expected values to be strictly equal:  (is)`,
 * its diff) or the thrown error's, and the stack; the place is the stack's
 * frame in the test file (uvu's own frames come first). The `Total:`,
 * `Passed:`, `Skipped:` and `Duration:` lines close the run.
 */
import { type Finding, finding } from "../findings.ts";
import { type Frame, jsFrame, pickFrame } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { SPACE, UPPER_F } from "../chars.ts";

const FAIL = /^ {3}FAIL {2}(?:(.+?) {2})?"(.*)"$/;

function readUvu(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    if (shape.first[i] !== SPACE || shape.lead[i] !== UPPER_F) continue;
    const m = FAIL.exec(lines[i]);
    if (!m) continue;
    // Its lines: indented ones and blanks, up to the stack's end.
    let j = i + 1;
    const text: string[] = [];
    const frames: Frame[] = [];
    for (; j < lines.length && j - i < 200; j++) {
      const l = lines[j];
      if (l.trim() === "") {
        if (frames.length > 0) break;
        continue;
      }
      if (!l.startsWith("    ") || FAIL.test(l)) break;
      const f = jsFrame(l);
      if (f) frames.push(f);
      else text.push(l.trim());
    }
    ctx.explain(i, j - 1);
    const frame = pickFrame(frames);
    out.push(
      finding("test_failure", text[0] ?? "failed", {
        test: m[1] ? `${m[1]} > ${m[2]}` : m[2],
        location: frame ? `${frame.file}:${frame.line}:${frame.col}` : undefined,
        detail: text.slice(1, 7),
        at: i,
      }),
    );
    i = j - 1;
  }
  return out;
}

export const uvu: Reader = { name: "uvu", read: readUvu };

/**
 * Jasmine's default reporter: under `Failures:`, entries `1) Suite nested
 * spec name` at the margin, then `  Message:` with the expectation's or the
 * error's lines and `  Stack:` with its frames (`at <Jasmine>` between
 * them); the place is the frame in the spec file. A `Pending:` or
 * `Suite error:` list after it is not the failures'.
 */
import { type Finding, finding } from "../findings.ts";
import { type Frame, jsFrame, pickFrame } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { DIGIT_0, DIGIT_9, UPPER_F, UPPER_P } from "../chars.ts";

const ENTRY = /^(\d+)\) (.+)$/;

function readJasmine(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  let inFailures = false;
  for (let i = 0; i < lines.length; i++) {
    const c = shape.first[i];
    if (c === UPPER_F || c === UPPER_P) {
      if (lines[i] === "Failures:") {
        inFailures = true;
        ctx.explain(i);
        ctx.heading?.(i, 0);
      } else if (lines[i] === "Pending:" && inFailures) {
        inFailures = false;
        ctx.headingEnds?.(i, 0);
      }
      continue;
    }
    if (!inFailures || c < DIGIT_0 || c > DIGIT_9) continue;
    const e = ENTRY.exec(lines[i]);
    if (!e || lines[i + 1] !== "  Message:") continue;
    let j = i + 2;
    const text: string[] = [];
    const frames: Frame[] = [];
    let inStack = false;
    for (; j < lines.length && j - i < 200 && lines[j].trim() !== ""; j++) {
      const l = lines[j];
      if (l === "  Stack:") {
        inStack = true;
        continue;
      }
      if (inStack) {
        const f = jsFrame(l);
        if (f) frames.push(f);
      } else text.push(l.trim());
    }
    ctx.explain(i, j - 1);
    const frame = pickFrame(frames);
    out.push(
      finding("test_failure", text[0] ?? "failed", {
        test: e[2],
        location: frame ? `${frame.file}:${frame.line}:${frame.col}` : undefined,
        detail: text.slice(1, 7),
        at: i,
      }),
    );
    i = j - 1;
  }
  return out;
}

export const jasmine: Reader = { name: "jasmine", read: readJasmine };

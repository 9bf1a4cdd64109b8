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
import { SPACE, UPPER_F } from "../chars.ts";

const ENTRY = /^(\d+)\) (.+)$/;

/** Whether line i opens an entry: `N) name` at the margin, `  Message:` under it. */
function isEntry(lines: string[], i: number): boolean {
  return lines[i + 1] === "  Message:" && ENTRY.test(lines[i]);
}

function readJasmine(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  let inFailures = false;
  for (let i = 0; i < lines.length; i++) {
    const c = shape.first[i];
    if (c === UPPER_F && lines[i] === "Failures:") {
      // RSpec's list has this heading too: it is Jasmine's when its first entry is (carried into a
      // window, it was named Jasmine's before).
      if (i < (ctx.carried ?? 0) || isEntry(lines, i + 1)) {
        inFailures = true;
        ctx.explain(i);
        ctx.heading?.(i, 0);
      }
      continue;
    }
    if (!inFailures || c === 0 || c === SPACE) continue;
    if (!isEntry(lines, i)) {
      // A line at the margin that is no entry (`Pending:`, the counts) ends the list.
      inFailures = false;
      ctx.headingEnds?.(i, 0);
      continue;
    }
    const e = ENTRY.exec(lines[i])!;
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

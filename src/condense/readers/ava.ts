/**
 * AVA's default reporter: a line per test (`✘ [fail]: name`), a rule (`─`),
 * then a block per failure up to the closing rule and the counts. Blocks are
 * set apart by two or more blank lines; each opens with the test's name,
 * then the test file's line and a code frame, what went wrong (`Difference
 * (- actual, + expected):` and the values, `Function returned:`, or
 * `Error thrown in test:` / `Rejected promise returned by test.` with the
 * error and its stack), and `› file:line:col`, the assertion's place. A
 * thrown error's place is its stack's frame in the test file, its message the
 * error's own line. `--tap` is the TAP reader's.
 */
import { type Finding, finding } from "../findings.ts";
import { type Frame, jsFrame, pickFrame } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { SPACE } from "../chars.ts";

const RULE = "  ─";
const RULE_CHAR = 0x2500;
const CROSS = 0x2718;
const LISTED = /^ {2}✘ \[fail\]: /;
const COUNTS = /^ {2}\d+ (?:tests?|known failures?|uncaught exceptions?|unhandled rejections?) /;
const ASSERTION_PLACE = /^ {2}› (\S.*):(\d+):(\d+)$/;
const CODE_LINE = /^ {2,3}\d+: /;
const FILE_LINE = /^ {2}\S+:\d+$/;

function readAva(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  let listed = false;
  for (let i = 0; i < lines.length; i++) {
    if (shape.first[i] !== SPACE) continue;
    const lead = shape.lead[i];
    if (lead === CROSS) {
      if (LISTED.test(lines[i])) {
        listed = true;
        ctx.explain(i);
      }
      continue;
    }
    if (lead !== RULE_CHAR || lines[i] !== RULE || !listed) continue;
    ctx.explain(i);
    // The blocks, up to the closing rule.
    let j = i + 1;
    while (j < lines.length && lines[j] !== RULE && !COUNTS.test(lines[j])) {
      while (j < lines.length && lines[j].trim() === "") j++;
      if (j >= lines.length || lines[j] === RULE || COUNTS.test(lines[j])) break;
      const start = j;
      let blanks = 0;
      let k = j + 1;
      for (; k < lines.length && lines[k] !== RULE; k++) {
        if (lines[k].trim() === "") blanks++;
        else if (blanks >= 2) break;
        else blanks = 0;
      }
      let end = k;
      while (end > start && lines[end - 1].trim() === "") end--;
      ctx.explain(start, end - 1);
      out.push(block(lines, start, end));
      j = k;
    }
    if (lines[j] === RULE) ctx.explain(j);
    i = j;
  }
  return out;
}

/** The failure a block holds (lines start..end-1, its name first). */
function block(lines: string[], start: number, end: number): Finding {
  const body = lines.slice(start + 1, end);
  let place: string | undefined;
  const frames: Frame[] = [];
  let errorLine: string | undefined;
  let said: string | undefined;
  for (let k = 0; k < body.length; k++) {
    const l = body[k];
    if (l.trim() === "") continue;
    const p = ASSERTION_PLACE.exec(l);
    if (p) {
      place = `${p[1]}:${p[2]}:${p[3]}`;
      continue;
    }
    const f = jsFrame(l);
    if (f) {
      // The error's own line is the one its stack follows.
      if (frames.length === 0 && k > 0) errorLine = body[k - 1].trim();
      frames.push(f);
      continue;
    }
    if (said === undefined && !FILE_LINE.test(l) && !CODE_LINE.test(l)) said = l.trim();
  }
  const frame = place === undefined ? pickFrame(frames) : undefined;
  const message = errorLine ?? said ?? "failed";
  return finding("test_failure", message, {
    test: lines[start].trim(),
    location: place ?? (frame ? `${frame.file}:${frame.line}:${frame.col}` : undefined),
    detail: errorLine && said ? [said] : undefined,
    at: start,
  });
}

export const ava: Reader = { name: "ava", read: readAva };

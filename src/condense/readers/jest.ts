/**
 * Jest: `FAIL path` headings and `● Suite › test` blocks with the matcher's
 * message, Expected/Received lines and a stack; `● Test suite failed to run`
 * is an error of the file. The summary lines are accounted for.
 */
import { type Finding, finding } from "../findings.ts";
import { type Frame, jsFrame, pickFrame } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import {
  BLACK_CIRCLE,
  GREATER_THAN,
  isDigit,
  LOWER_A,
  LOWER_C,
  PIPE,
  SPACE,
  UPPER_F,
  UPPER_J,
  UPPER_P,
  UPPER_R,
  UPPER_S,
  UPPER_T,
} from "../chars.ts";

/**
 * `FAIL path` or `PASS path (1.2 s)`: the path may hold spaces (`test dir/a.test.js`), so it ends at
 * its extension; tabs are Go's `FAIL\tpkg\t0.1s`, not Jest's. With colours on, the word is a label
 * in reverse video with a space either side (` FAIL  path`), which stays when the colours are taken out.
 * Vitest's ` FAIL  file > test` is not a heading: a path holds no ` > `.
 */
const FILE = /^ ?(FAIL|PASS) +((?![^\t]* > )[^\t]*?\.[A-Za-z\d]+)(?: +\([\d.]+ m?s\))?$/;
const BULLET = /^\s*● (.+)$/;
const SUMMARY = /^(?:Test Suites:|Tests:|Snapshots:|Time:|Ran all test suites)/;
const NOT_A_FAILURE = /^(?:Console|Validation (?:Warning|Error)|Deprecation Warning)/;
/** `  console.warn`: the head of what a test printed through the console, its text indented under it. */
const CONSOLE_HEAD = /^ {2}console\.[a-z]+$/;
/**
 * A coverage threshold that failed the run (tests may all have passed): Jest 30's `Jest: Coverage
 * for lines (28.57%) does not meet "global" threshold (90%)`, older `Jest: "global" coverage
 * threshold for lines (90%) not met: 28.57%`.
 */
const COVERAGE_THRESHOLD =
  /^Jest: .*\bthreshold\b.*(?:does not meet|not met)|^Jest: .*\bdoes not meet\b.*\bthreshold\b/;
/** A parse error's place at the end of its message, as Babel prints it: `… (3:23)`. */
const PARSE_PLACE = /\((\d+):(\d+)\)$/;

/**
 * The end (exclusive) of the console block whose head is at `i`: its text and code frame are indented
 * deeper than the head, so the block ends at the first line that is not (an empty line inside it
 * separates the text from the frame).
 */
function consoleBlockEnd(lines: string[], i: number): number {
  let j = i + 1;
  while (j < lines.length && (lines[j] === "" || lines[j].startsWith("   "))) j++;
  // Empty lines between this block and what follows are not the block's.
  while (j - 1 > i && lines[j - 1] === "") j--;
  return j;
}

function readJest(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  let file: string | undefined;
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c0 = shape.first[i];
    // What a test logged is not a failure, however it reads (`● …`, `Error: …`): the block is passed over.
    if (c0 === SPACE && shape.lead[i] === LOWER_C && CONSOLE_HEAD.test(lines[i])) {
      const end = consoleBlockEnd(lines, i);
      ctx.explain(i, end - 1);
      i = end - 1;
      continue;
    }
    if (c0 === UPPER_J && COVERAGE_THRESHOLD.test(lines[i])) {
      ctx.explain(i);
      out.push(finding("error", lines[i].slice("Jest: ".length), { at: i }));
      continue;
    }
    // FAIL, PASS (also as a coloured label), Test…, Snapshots, Time, Ran all…, or an indented ●
    const label = c0 === SPACE && (shape.lead[i] === UPPER_F || shape.lead[i] === UPPER_P);
    if (
      c0 !== UPPER_F && c0 !== UPPER_P && c0 !== UPPER_T && c0 !== UPPER_S && c0 !== UPPER_R &&
      !(c0 === SPACE && shape.lead[i] === BLACK_CIRCLE) && !label
    ) continue;
    const line = lines[i];
    const f = FILE.exec(line);
    if (f) {
      file = f[2];
      ctx.explain(i);
      // A window that starts among this file's blocks is given its heading first (ADR 0705).
      ctx.heading?.(i, 0);
      continue;
    }
    if (SUMMARY.test(line)) {
      ctx.explain(i);
      ctx.headingEnds?.(i, 0);
      continue;
    }
    if (!line.includes("●")) continue;
    const b = BULLET.exec(line);
    if (!b || NOT_A_FAILURE.test(b[1])) continue;
    let j = i + 1;
    while (
      j < lines.length && j - i < 150 && shape.lead[j] !== BLACK_CIRCLE &&
      !((shape.first[j] === UPPER_F || shape.first[j] === UPPER_P ||
        shape.lead[j] === UPPER_F || shape.lead[j] === UPPER_P) && FILE.test(lines[j])) &&
      !((shape.first[j] === UPPER_T || shape.first[j] === UPPER_S || shape.first[j] === UPPER_R) &&
        SUMMARY.test(lines[j]))
    ) j++;
    ctx.explain(i, j - 1);
    // A window that starts inside the block (a test's long output) is given its bullet first.
    ctx.heading?.(i, 1);
    const frames: Frame[] = [];
    const text: string[] = [];
    for (let k = i + 1; k < j; k++) {
      const l = shape.lead[k];
      if (
        l === 0 || l === PIPE || l === GREATER_THAN ||
        (isDigit(l) && /^\s*\d+ \|/.test(lines[k]))
      ) continue;
      const frame = l === LOWER_A ? jsFrame(lines[k]) : undefined;
      if (frame) frames.push(frame);
      else text.push(lines[k].trim());
    }
    const frame = pickFrame(frames, file);
    const loc = frame ? `${frame.file}:${frame.line}:${frame.col}` : undefined;
    const name = b[1].trim();
    if (name === "Test suite failed to run") {
      // Cut by the end of a window with more to come: the next window reads this block again with
      // its message; a stand-in here would count the failure twice (ADR 0660).
      if (text.length === 0 && j === lines.length && ctx.final === false) continue;
      // A file that does not parse has no frame of its own; its message ends with the place.
      const parsed = loc === undefined && file !== undefined
        ? PARSE_PLACE.exec(text[0] ?? "")
        : null;
      out.push(
        finding("error", text[0] ?? "test suite failed to run", {
          location: loc ?? (parsed ? `${file}:${parsed[1]}:${parsed[2]}` : file),
          test: undefined,
          detail: text.slice(1, 4),
          at: i,
        }),
      );
    } else {
      out.push(
        finding("test_failure", text[0] ?? "failed", {
          test: name,
          // The file keeps two files' tests of one name apart, and places a failure with no frame.
          file,
          location: loc ?? file,
          detail: text.slice(1).filter((l) =>
            /^(?:Expected|Received|[-+] |Difference|- Expected|\+ Received)/.test(l)
          ),
          at: i,
        }),
      );
    }
    i = j - 1;
  }
  return out;
}

export const jest: Reader = { name: "jest", read: readJest };

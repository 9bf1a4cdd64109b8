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
  PIPE,
  SPACE,
  UPPER_F,
  UPPER_P,
  UPPER_R,
  UPPER_S,
  UPPER_T,
} from "../chars.ts";

/**
 * `FAIL path` or `PASS path (1.2 s)`: the path may hold spaces (`test dir/a.test.js`), so it ends at
 * its extension; tabs are Go's `FAIL\tpkg\t0.1s`, not Jest's.
 */
const FILE = /^(FAIL|PASS) +([^\t]*?\.[A-Za-z\d]+)(?: +\([\d.]+ m?s\))?$/;
const BULLET = /^\s*● (.+)$/;
const SUMMARY = /^(?:Test Suites:|Tests:|Snapshots:|Time:|Ran all test suites)/;
const NOT_A_FAILURE = /^(?:Console|Validation (?:Warning|Error)|Deprecation Warning)/;

function readJest(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  let file: string | undefined;
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c0 = shape.first[i];
    // FAIL, PASS, Test…, Snapshots, Time, Ran all…, or an indented ●
    if (
      c0 !== UPPER_F && c0 !== UPPER_P && c0 !== UPPER_T && c0 !== UPPER_S && c0 !== UPPER_R &&
      !(c0 === SPACE && shape.lead[i] === BLACK_CIRCLE)
    ) continue;
    const line = lines[i];
    const f = FILE.exec(line);
    if (f) {
      file = f[2];
      ctx.explain(i);
      continue;
    }
    if (SUMMARY.test(line)) {
      ctx.explain(i);
      continue;
    }
    if (!line.includes("●")) continue;
    const b = BULLET.exec(line);
    if (!b || NOT_A_FAILURE.test(b[1])) continue;
    let j = i + 1;
    while (
      j < lines.length && j - i < 150 && shape.lead[j] !== BLACK_CIRCLE &&
      !((shape.first[j] === UPPER_F || shape.first[j] === UPPER_P) && FILE.test(lines[j])) &&
      !((shape.first[j] === UPPER_T || shape.first[j] === UPPER_S || shape.first[j] === UPPER_R) &&
        SUMMARY.test(lines[j]))
    ) j++;
    ctx.explain(i, j - 1);
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
      out.push(
        finding("error", text[0] ?? "test suite failed to run", {
          location: loc ?? file,
          test: undefined,
          detail: text.slice(1, 4),
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
        }),
      );
    }
    i = j - 1;
  }
  return out;
}

export const jest: Reader = { name: "jest", read: readJest };

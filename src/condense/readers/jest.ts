/**
 * Jest: `FAIL path` headings and `● Suite › test` blocks with the matcher's
 * message, Expected/Received lines and a stack; `● Test suite failed to run`
 * is an error of the file. The summary lines are accounted for.
 */
import { type Finding, finding } from "../findings.ts";
import { type Frame, jsFrame, pickFrame } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader } from "./reader.ts";

const FILE = /^(FAIL|PASS)\s+(\S+)(?:\s+\(.*\))?$/;
const BULLET = /^\s*● (.+)$/;
const SUMMARY = /^(?:Test Suites:|Tests:|Snapshots:|Time:|Ran all test suites)/;
const NOT_A_FAILURE = /^(?:Console|Validation (?:Warning|Error)|Deprecation Warning)/;

export function readJest(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  let file: string | undefined;
  for (let i = 0; i < lines.length; i++) {
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
    while (j < lines.length && !BULLET.test(lines[j]) && !FILE.test(lines[j]) && !SUMMARY.test(lines[j])) j++;
    ctx.explain(i, j - 1);
    const body = lines.slice(i + 1, j);
    const frames = body.map(jsFrame).filter((x): x is Frame => x !== undefined);
    const text = body.filter((l) => l.trim() !== "" && !jsFrame(l) && !/^\s*>?\s*\d+ \||^\s+\|/.test(l)).map((l) => l.trim());
    const frame = pickFrame(frames, file);
    const loc = frame ? `${frame.file}:${frame.line}:${frame.col}` : undefined;
    const name = b[1].trim();
    if (name === "Test suite failed to run") {
      out.push(finding("error", text[0] ?? "test suite failed to run", { location: loc ?? file, test: undefined, detail: text.slice(1, 4) }));
    } else {
      out.push(
        finding("test_failure", text[0] ?? "failed", {
          test: name,
          location: loc,
          detail: text.slice(1).filter((l) => /^(?:Expected|Received|[-+] |Difference|- Expected|\+ Received)/.test(l)),
        }),
      );
    }
    i = j - 1;
  }
  return out;
}

export const jest: Reader = { name: "jest", signals: ["●"], read: readJest };

/**
 * Vitest: the `Failed Tests` and `Failed Suites` sections, where each failure
 * is ` FAIL  file > suite > test`, the error's first line, and ` ❯ file:line:col`
 * places; the run's tree of ✓/× lines is accounted for without findings.
 */
import { type Finding, finding } from "../findings.ts";
import { type Frame, jsFrame, pickFrame } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import {
  HORIZONTAL_LINE_EXTENSION,
  LAST_ASCII,
  UPPER_D,
  UPPER_F,
  UPPER_R,
  UPPER_S,
  UPPER_T,
} from "../chars.ts";

/** ` FAIL  …` at the start of a line. */
const FAIL_START = /^\s?FAIL {2}\S/;

function isFailLine(line: string): boolean {
  return line.includes("FAIL  ") && FAIL_START.test(line);
}

/**
 * ` FAIL  file > suite > test` (a project's name in brackets after it, on some versions): the file,
 * up to the first ` > ` (it may hold spaces: `test dir/a.test.js`), and the test's path after it.
 * Cut by hand: a pattern with a lazy file and optional parts retried at every character.
 */
function failLine(line: string): [string, string, string | undefined] | undefined {
  if (!isFailLine(line)) return undefined;
  let rest = line.slice(line.indexOf("FAIL  ") + 6).trimEnd();
  const bracket = / \[ (.+) \]$/.exec(rest);
  if (bracket) rest = rest.slice(0, bracket.index);
  const sep = rest.indexOf(" > ");
  return sep < 0 ? [line, rest, undefined] : [line, rest.slice(0, sep), rest.slice(sep + 3)];
}
const RULE = /^⎯{3,}/;
const TREE = /^\s*(?:[✓×↓❯]|✔|✖|√)\s/;
const SUMMARY = /^\s*(?:Test Files|Tests|Start at|Duration|RUN)\s/;
const CAUGHT_TITLE = /^⎯+ (?:Unhandled Errors?|Uncaught Exception) ⎯+$/;

/**
 * A ` ❯ file:line:col` or ` ❯ fn file:line:col` place line. The test file's own name is looked for
 * first, as it is printed (it may hold spaces); any other place is read as a frame.
 */
function placeFrame(line: string, testFile: string): Frame | undefined {
  const at = line.indexOf("❯ ");
  if (at >= 0 && /^\s*$/.test(line.slice(0, at))) {
    const own = /^(.*):(\d+):(\d+)$/.exec(line.slice(at + 2));
    if (own && (own[1] === testFile || own[1].endsWith(" " + testFile))) {
      return { file: testFile, line: own[2], col: own[3] };
    }
  }
  return jsFrame(line.replace(/^(\s*❯ )\S+ (\S+:\d+:\d+)$/, "$1$2"));
}

function readVitest(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  // Whether a `⎯⎯ Failed Tests ⎯⎯` (or any ⎯) rule came before: a ` FAIL  file` line naming no test
  // is Vitest's failed suite only inside those sections; elsewhere it is Jest's coloured heading.
  let ruled = false;
  /** The line of the last such rule. */
  let ruledAt = 0;
  for (let i = 0; i < lines.length; i++) {
    const c = shape.lead[i];
    // ⎯ ✓ × ↓ ❯ ✔ ✖ √, FAIL, or the summary's first letters
    if (
      c <= LAST_ASCII && c !== UPPER_T && c !== UPPER_S && c !== UPPER_D && c !== UPPER_R &&
      c !== UPPER_F
    ) continue;
    const line = lines[i];
    const fail = c === UPPER_F && line.includes("FAIL  ");
    if (!fail && (c === HORIZONTAL_LINE_EXTENSION || SUMMARY.test(line) || TREE.test(line))) {
      ctx.explain(i);
      if (c === HORIZONTAL_LINE_EXTENSION) {
        ruled = true;
        ruledAt = i;
      }
      if (CAUGHT_TITLE.test(line)) {
        let j = i + 1;
        while (j < lines.length && !RULE.test(lines[j])) j++;
        const body = lines.slice(i + 1, j).filter((l) => l.trim() !== "");
        const frames = body.map(jsFrame).filter((x): x is Frame => x !== undefined);
        const frame = pickFrame(frames);
        if (body[0]) {
          out.push(
            finding("error", body[0].trim(), {
              location: frame ? `${frame.file}:${frame.line}:${frame.col}` : undefined,
              at: i,
            }),
          );
        }
        ctx.explain(i, j - 1);
        i = j - 1;
      }
      continue;
    }
    if (!fail) continue;
    const f = failLine(line);
    if (!f || (f[2] === undefined && !ruled)) continue;
    let j = i + 1;
    while (j < lines.length && j - i < 120 && !RULE.test(lines[j]) && !isFailLine(lines[j])) j++;
    ctx.explain(i, j - 1);
    const body = lines.slice(i + 1, j);
    const frames = body.map((l) => placeFrame(l, f[1])).filter((x): x is Frame => x !== undefined);
    const frame = pickFrame(frames, f[1]);
    const loc = frame ? `${frame.file}:${frame.line}:${frame.col}` : undefined;
    const text = body.filter((l) => l.trim() !== "" && !/^\s*❯ |^\s+\d*\|/.test(l)).map((l) =>
      l.trim()
    );
    const detail = text.slice(1).filter((l) => /^[-+] /.test(l)).slice(0, 6);
    if (f[2]) {
      out.push(
        finding("test_failure", text[0] ?? "failed", {
          test: `${f[1]} > ${f[2]}`,
          location: loc,
          detail,
          at: i,
        }),
      );
    } else if (text.length > 0 || j < lines.length || ctx.final !== false) {
      // (Cut by the end of a window with more to come, a file's heading alone says nothing yet: the
      // next window reads the block again with its message. ADR 0660.)
      // A suite's heading is read as one only after a rule: its block starts there.
      out.push(
        finding("error", text[0] ?? "test file failed", { location: loc ?? f[1], at: ruledAt }),
      );
    }
    i = j - 1;
  }
  return out;
}

export const vitest: Reader = { name: "vitest", read: readVitest };

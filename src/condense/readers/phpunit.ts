/**
 * PHPUnit's default report (9 and later): after the progress dots, sections
 * headed `There was 1 error:` / `There were 3 failures:` (and warnings, risky
 * tests), each entry `1) Class::testMethod` (with ` with data set "name"
 * (args…)` for a data provider's case), the message and any diff, then the
 * stack as bare `path:line` lines, innermost first — the last is the test's
 * own line. Errors and failures are both failed tests; a warning section's
 * entries are warnings; risky, incomplete and skipped ones are no findings.
 *
 * `--testdox` prints each class's tests as prose under the class's name
 * (` ✘ Discount rounds to nearest`), the failure's lines after it framed by
 * `│`, and repeats the failures under `Summary of non-successful tests:`.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { HEAVY_CHECK, isUpper, SPACE, UPPER_T } from "../chars.ts";

const SECTION =
  /^There (?:was|were) (\d+) (errors?|failures?|warnings?|risky tests?|incomplete tests?|skipped tests?|deprecations?|notices?):$/;
const ENTRY = /^(\d+)\) (\S+::\S+)(.*)$/;
const DATA_SET = /^( with data set (?:"[^"]*"|#\d+))/;
const FRAME = /^(\/?[^\s:][^:]*\.php):(\d+)$/;
const CROSS = 0x2718; // ✘
const TESTDOX_FAIL = /^ ✘ (.+)$/;
const TESTDOX_BAR = /^ {3}│ ?(.*)$/;
/** --testdox's marks: passed, failed, skipped (↩), incomplete (∅), risky (☢). */
const TESTDOX_MARKS = new Set([HEAVY_CHECK, CROSS, 0x21a9, 0x2205, 0x2622]);
const CLASS_HEADING = /^[A-Z][\w\\ ]*$/;

function readPhpunit(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  /** The class a --testdox line belongs to: the last heading at the margin above it. */
  let testdoxClass: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const c = shape.first[i];
    if (c === SPACE && shape.lead[i] === CROSS) {
      const t = TESTDOX_FAIL.exec(lines[i]);
      if (t && TESTDOX_BAR.test(lines[i + 1] ?? "")) {
        i = testdoxEntry(lines, i, t[1], testdoxClass, ctx, out);
      }
      continue;
    }
    if (c !== UPPER_T) {
      // A class's name at the margin, over its tests' marked lines.
      if (
        isUpper(c) && i + 1 < lines.length && shape.first[i + 1] === SPACE &&
        TESTDOX_MARKS.has(shape.lead[i + 1]) && CLASS_HEADING.test(lines[i])
      ) testdoxClass = lines[i];
      continue;
    }
    const s = SECTION.exec(lines[i]);
    if (!s) continue;
    ctx.explain(i);
    ctx.heading?.(i, 0);
    const kind = s[2].startsWith("error") || s[2].startsWith("failure")
      ? "test_failure"
      : s[2].startsWith("warning")
      ? "warning"
      : undefined;
    i = entries(lines, i + 1, Number(s[1]), kind, ctx, out) - 1;
  }
  return out;
}

/** The numbered entries of a section; returns the line after the last. */
function entries(
  lines: string[],
  start: number,
  count: number,
  kind: Finding["kind"] | undefined,
  ctx: ReadContext,
  out: Finding[],
): number {
  let i = start;
  let seen = 0;
  for (; i < lines.length && seen < count; i++) {
    const e = ENTRY.exec(lines[i]);
    if (!e) {
      if (lines[i].trim() === "") continue;
      break;
    }
    seen++;
    const data = DATA_SET.exec(e[3])?.[1] ?? "";
    const test = e[2] + data;
    // The body: up to the blank line after its stack, the `--` between sections, or the next entry.
    let j = i + 1;
    const text: string[] = [];
    const frames: string[] = [];
    for (; j < lines.length && j - i < 200; j++) {
      const l = lines[j];
      if (ENTRY.test(l) || l === "--" || SECTION.test(l)) break;
      const f = FRAME.exec(l);
      if (f) frames.push(`${f[1]}:${f[2]}`);
      else if (frames.length > 0 && l.trim() === "") break;
      else if (l.trim() !== "") text.push(l);
    }
    ctx.explain(i, j - 1);
    if (kind) {
      out.push(
        finding(kind, text[0] ?? "failed", {
          test,
          location: frames[frames.length - 1],
          detail: text.slice(1, 7),
          at: i,
        }),
      );
    }
    i = j - 1;
  }
  while (i < lines.length && (lines[i] === "--" || lines[i].trim() === "")) i++;
  ctx.headingEnds?.(i, 0);
  return i;
}

/** A --testdox failure: its `│` lines hold the message, any diff and the stack. */
function testdoxEntry(
  lines: string[],
  i: number,
  name: string,
  cls: string | undefined,
  ctx: ReadContext,
  out: Finding[],
): number {
  let j = i + 1;
  const text: string[] = [];
  const frames: string[] = [];
  for (; j < lines.length; j++) {
    const b = TESTDOX_BAR.exec(lines[j]);
    if (!b) break;
    const f = FRAME.exec(b[1]);
    if (f) frames.push(`${f[1]}:${f[2]}`);
    else if (b[1].trim() !== "") text.push(b[1]);
  }
  ctx.explain(i, j - 1);
  out.push(
    finding("test_failure", text[0] ?? "failed", {
      test: cls ? `${cls} > ${name}` : name,
      location: frames[frames.length - 1],
      detail: text.slice(1, 7),
      at: i,
    }),
  );
  return j - 1;
}

export const phpunit: Reader = { name: "phpunit", read: readPhpunit };

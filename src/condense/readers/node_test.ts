/**
 * `node --test` with the spec reporter: the `✖ failing tests:` section
 * (`test at file:line:col`, `✖ name (ms)`, the error and its stack), or,
 * where a Node release prints no such section, the ✖ lines of the tree that
 * carry an error beneath them (a suite's ✖ carries none). Names are the
 * suite path joined with " > ".
 */
import { type Finding, finding } from "../findings.ts";
import { firstNonJsSpace, type Frame, FramePicker, indentOf, isBlank, jsFrame } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { assertionEvidence } from "./evidence.ts";
import {
  ASTERISK,
  BLACK_RIGHT_TRIANGLE,
  CLOSE_BRACE,
  HEAVY_CHECK,
  HEAVY_X,
  INFORMATION,
  LOWER_A,
  LOWER_C,
  LOWER_E,
  LOWER_G,
  LOWER_O,
  LOWER_T,
  OPEN_BRACE,
  SMALL_HYPHEN,
  SPACE,
} from "../chars.ts";

const MARK = /^(\s*)(✖|✔|▶|﹣|\*) (.+?)(?: \(([\d.]+m?s)\))?(?: # (.*))?$/;

/** A ✖ marked `# TODO`: a test expected to fail, which the run does not count as failed. */
function isTodo(m: RegExpExecArray): boolean {
  return m[5] !== undefined && /^todo\b/i.test(m[5]);
}
/** The failing-tests section's heading (the whole line: compared, not matched). */
const SECTION_LINE = "✖ failing tests:";
const AT_LINE = /^\s*at /;
/** An error's fields that are not its message: `code:`, `actual:`… and the braces around them. */
const ERROR_FIELD = /^\s+(?:generatedMessage|code|actual|expected|operator):|^\s*[{}]\s*$/;

/** Whether a line (not blank) is an `at` line or an error field: by its first character, then the patterns. */
function isFrameOrField(l: string): boolean {
  const c = firstNonJsSpace(l);
  if (c === LOWER_A) return AT_LINE.test(l) || ERROR_FIELD.test(l);
  if (
    c === LOWER_G || c === LOWER_C || c === LOWER_E || c === LOWER_O || c === OPEN_BRACE ||
    c === CLOSE_BRACE
  ) {
    return ERROR_FIELD.test(l);
  }
  return false;
}
const TEST_AT = /^test at (\S+?):(\d+):(\d+)$/;
/** The error a suite gets from its failed tests: `'2 subtests failed'`. */
const SUBTESTS_FAILED = /^\s+'\d+ subtests? failed'$/;

/** MARK's test, its mark character checked first (most lines of an error block are not marks). */
function isMark(line: string): boolean {
  const c = firstNonJsSpace(line);
  return (c === HEAVY_X || c === HEAVY_CHECK || c === BLACK_RIGHT_TRIANGLE || c === SMALL_HYPHEN ||
    c === ASTERISK) &&
    MARK.test(line);
}

function isTestAt(line: string): boolean {
  return line.startsWith("test at ") && TEST_AT.test(line);
}

/** A failed test in the tree: its full name and the lines of its error. */
interface Failure {
  name: string;
  from: number;
  to: number;
  /** Its name lacks its first parts: the tree began above the lines read. */
  partial: boolean;
  /** The line its name was read from first: its outermost suite's, else its own ✖ line. */
  at: number;
}

/** Lines of an error's text read at most: enough for an object's diff to reach its marked lines. */
const TEXT_LINES = 40;

function readError(
  lines: string[],
  from: number,
  to: number,
  testFile?: string,
): { message: string; detail: string[]; frame?: Frame } {
  const picker = new FramePicker(testFile);
  // The message and at most TEXT_LINES lines of its text are collected; the detail is their evidence.
  const text: string[] = [];
  for (let k = from; k < to; k++) {
    const l = lines[k];
    // Once the frame is picked, an `at …` line needs no parsing: the text leaves it out either way.
    const frame = picker.decided && firstNonJsSpace(l) === LOWER_A ? undefined : jsFrame(l);
    if (frame) {
      picker.add(frame);
      continue;
    }
    if (
      text.length < TEXT_LINES && !isBlank(l) && !isFrameOrField(l)
    ) text.push(l.trim());
  }
  return {
    // An error that is a string (node's own `'test timed out after 200ms'`) is printed quoted.
    message: text[0]?.replace(/^'(.*)'$/, "$1") ?? "failed",
    detail: assertionEvidence(text.slice(1), 5),
    frame: picker.pick(),
  };
}

/** One run's findings (a tree, then perhaps its failing-tests section) from `from`; `next` is where the run ended. */
function readRun(
  lines: string[],
  from: number,
  ctx: ReadContext,
  lead: Uint16Array,
  first: Uint16Array,
): { findings: Finding[]; next: number } {
  const tree: Failure[] = [];
  /** Every failed test and suite the tree showed (with its error beneath or not). */
  const failedNodes: { name: string; partial: boolean; at: number }[] = [];
  const stack: { indent: number; name: string; at: number }[] = [];
  let section = -1;
  for (let i = from; i < lines.length; i++) {
    const c = lead[i];
    // ℹ ✖ ✔ ▶ ﹣ and * start every line of the tree and the summary
    if (
      c !== INFORMATION && c !== HEAVY_X && c !== HEAVY_CHECK && c !== BLACK_RIGHT_TRIANGLE &&
      c !== SMALL_HYPHEN && c !== ASTERISK
    ) {
      continue;
    }
    if (c === HEAVY_CHECK || c === INFORMATION || c === SMALL_HYPHEN) {
      // ✔ passed, ℹ summary, ﹣ skipped: accounted for, nothing more to read
      ctx.explain(i);
      continue;
    }
    const line = lines[i];
    if (line === SECTION_LINE) {
      section = i;
      break;
    }
    const m = MARK.exec(line);
    if (!m) continue;
    // The reporter ends every test's and suite's ✖ with its duration; a ✖ without one is another tool's
    // line (ESLint's closing "✖ 3 problems (0 errors, 3 warnings)" is a summary, not a failed test).
    if (m[2] === "✖" && m[4] === undefined) continue;
    ctx.explain(i);
    const indent = m[1].length;
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    const path = [...stack.map((s) => s.name), m[3]].join(" > ");
    // A tree whose outermost node is indented began above these lines (a window of a long output
    // starting inside it): its names lack their first parts, and the window before, which held the
    // tree's start, named its failures whole.
    const partial = (stack.length > 0 ? stack[0].indent : indent) > 0;
    if (m[2] === "▶") {
      stack.push({ indent, name: m[3], at: i });
      continue;
    }
    if (m[2] !== "✖") continue;
    const at = stack.length > 0 ? stack[0].at : i;
    const todo = isTodo(m);
    failedNodes.push({ name: path, partial, at });
    // A suite whose only error is its subtests' count (`'2 subtests failed'`, as the dot reporter's
    // Failed tests list shows it) failed through its tests, which are findings of their own; the
    // count is one line, and what follows it is not the suite's.
    if (i + 1 < lines.length && SUBTESTS_FAILED.test(lines[i + 1])) {
      ctx.explain(i, i + 1);
      i++;
      continue;
    }
    // A failed test has its error indented beneath it; a failed suite does not.
    let j = i + 1;
    while (
      j < lines.length && j - i < 150 && (isBlank(lines[j]) || indentOf(lines[j]) > indent) &&
      !isMark(lines[j])
    ) j++;
    while (j > i + 1 && isBlank(lines[j - 1])) j--;
    if (j === i + 1) continue;
    ctx.explain(i, j - 1);
    // The error is read only if no failing-tests section follows (which repeats it, and wins).
    if (!todo) tree.push({ name: path, from: i + 1, to: j, partial, at });
    i = j - 1;
  }
  if (section < 0) {
    return {
      findings: tree.filter((t) => !t.partial).map((t) => treeFinding(lines, t)),
      next: lines.length,
    };
  }
  ctx.explain(section);
  const out: Finding[] = [];
  /** The tree's failures the section names (the rest are read from the tree, below). */
  const listed = new Set<string>();
  let i = section + 1;
  for (; i < lines.length; i++) {
    // The first character from the shape, and no read past the last line: charCodeAt on an empty
    // line and an index past the end each sent the optimised code back to the interpreter on every run.
    const c0 = first[i];
    if (c0 !== LOWER_T && c0 !== HEAVY_X) {
      // The section ends at a line of another kind at the margin.
      if (c0 !== SPACE && lines[i] !== "") break;
      continue;
    }
    const at = TEST_AT.exec(lines[i]);
    const k = at ? i + 1 : i;
    const m = MARK.exec(k < lines.length ? lines[k] : "");
    if (!m || m[2] !== "✖" || m[4] === undefined) continue;
    const head = at ? i + 1 : i;
    let j = head + 1;
    while (
      j < lines.length && j - head < 150 && !isTestAt(lines[j]) &&
      !(lines[j] !== "" && first[j] !== SPACE)
    ) j++;
    ctx.explain(i, j - 1);
    const err = readError(lines, head + 1, j, at?.[1]);
    // The spec reporter prints the tree before this section: a test the tree read here does not
    // show, or shows by half, was in lines above these (a window of a long output starting inside
    // the run), and the window that held the tree reported it under its whole name.
    const inTree = failedNodes.find((t) => t.name === m[3] || t.name.endsWith(" > " + m[3]));
    if (!inTree || inTree.partial || isTodo(m)) {
      i = j - 1;
      continue;
    }
    const full = inTree.name;
    listed.add(full);
    const loc = err.frame
      ? `${err.frame.file}:${err.frame.line}:${err.frame.col}`
      : at
      ? `${at[1]}:${at[2]}:${at[3]}`
      : undefined;
    out.push(
      finding("test_failure", err.message, {
        test: full,
        location: loc,
        detail: err.detail,
        // Named by the tree above the section.
        at: inTree.at,
      }),
    );
    i = j - 1;
  }
  // A failure of the tree the section does not name is read from the tree: it belongs to an earlier
  // run in the output (another reporter's, whose tree no section followed), or its entry in the
  // section lies past these lines (a window of a long output that ends inside the section; the
  // window holding that entry does not hold the tree, and leaves it).
  for (const t of tree) if (!t.partial && !listed.has(t.name)) out.push(treeFinding(lines, t));
  return { findings: out, next: i };
}

/** A failure read from the tree: the error indented beneath its line. */
function treeFinding(
  lines: string[],
  t: { name: string; from: number; to: number; at: number },
): Finding {
  const err = readError(lines, t.from, t.to);
  return finding("test_failure", err.message, {
    test: t.name,
    location: err.frame ? `${err.frame.file}:${err.frame.line}:${err.frame.col}` : undefined,
    detail: err.detail,
    at: t.at,
  });
}

function readNodeTest(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const { lead, first } = shapeOf(lines, ctx);
  const out: Finding[] = [];
  let from = 0;
  while (from < lines.length) {
    const run = readRun(lines, from, ctx, lead, first);
    out.push(...run.findings);
    if (run.next <= from) break;
    from = run.next;
  }
  return out;
}

export const nodeTest: Reader = { name: "node-test", read: readNodeTest };

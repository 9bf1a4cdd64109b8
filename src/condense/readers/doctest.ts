/**
 * Python's doctest module (`python -m doctest stats.py`, `doctest.testmod()`,
 * with or without `-v`): each failed example is a block under a rule of
 * asterisks — `File "stats.py", line 7, in stats`, `Failed example:`, the
 * example indented, then `Expected:` and `Got:` (or `Expected nothing`, `Got
 * nothing`) or `Exception raised:` with the traceback indented. A block is
 * one failure of the docstring it names, at the example's line. The closing
 * tally (`2 items had failures:`, `***Test Failed*** 2 failures.`) is read and
 * gives nothing. `exampleOutcome` words a failed example's outcome, for this
 * reader and for pytest's `--doctest-modules` sections.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { ASTERISK, DIGIT_0, DIGIT_9, SPACE } from "../chars.ts";

const RULE = /^\*{20,}$/;
const FILE_LINE = /^File "([^"]+)", line (\d+), in (\S+)$/;
const TALLY =
  /^(?:\d+ items? (?:had failures|passed all tests|had no tests):|\s+\d+ (?:of\s+\d+ in|tests? in) \S+|\*{3}Test Failed\*{3} \d+ failures?\.|\d+ tests? in \d+ items?\.|\d+ passed and \d+ failed\.|Test passed\.)$/;

/** pytest's place of a doctest section: the example's line and the kind of failure. */
export const PLACE = /^(.+?):(\d+): (?:DocTestFailure|UnexpectedException)$/;

/** An indented block's lines under a heading at `from`, without their common four spaces. */
function indented(lines: string[], from: number, to: number): string[] {
  const out: string[] = [];
  for (let k = from; k < to && (lines[k].startsWith("    ") || lines[k] === ""); k++) {
    out.push(lines[k].slice(4));
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

/**
 * How a failed example went, from the lines after it (`Expected:`/`Got:`, `Expected nothing`,
 * `Exception raised:` or pytest's `UNEXPECTED EXCEPTION: …`): a message naming the example and
 * what it gave, and the expected and received lines as detail.
 */
export function exampleOutcome(
  example: string,
  lines: string[],
  from: number,
  to: number,
): { message: string; detail: string[] } | undefined {
  let expected: string[] | undefined;
  let got: string[] | undefined;
  for (let k = from; k < to; k++) {
    const line = lines[k];
    if (line === "Expected:") expected = indented(lines, k + 1, to);
    else if (line === "Expected nothing") expected = [];
    else if (line === "Got:") got = indented(lines, k + 1, to);
    else if (line === "Got nothing") got = [];
    else if (line === "Exception raised:") {
      // The traceback's last line at its own margin is the exception.
      const raised = indented(lines, k + 1, to).filter((l) => l !== "" && !l.startsWith(" "));
      const exception = raised.filter((l) => !l.startsWith("Traceback ")).pop();
      if (exception) return { message: `${example} raised ${exception}`, detail: [] };
    } else if (line.startsWith("UNEXPECTED EXCEPTION: ")) {
      // pytest prints the exception's repr, then its traceback: the traceback's last line reads better.
      let exception = line.slice(22);
      for (let t = k + 1; t < to; t++) {
        const l = lines[t];
        if (l === "" || l.startsWith(" ") || l.startsWith("Traceback ") || PLACE.test(l)) continue;
        exception = l;
      }
      return { message: `${example} raised ${exception}`, detail: [] };
    }
  }
  if (expected === undefined || got === undefined) return undefined;
  const shown = (l: string[]) => l.length === 0 ? "nothing" : l.length === 1 ? l[0] : `${l[0]} …`;
  return {
    message: `${example}: expected ${shown(expected)}, got ${shown(got)}`,
    detail: [
      ...expected.map((l) => `expected: ${l}`),
      ...got.map((l) => `got: ${l}`),
    ],
  };
}

function readDoctest(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const { first } = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c = first[i];
    if (c !== ASTERISK && c !== SPACE && !(c >= DIGIT_0 && c <= DIGIT_9)) continue;
    const line = lines[i];
    if (c !== ASTERISK) {
      // The tally after the last block (its indented `1 of 3 in stats` lines too).
      if (i > 0 && ctx.explained(i - 1) && TALLY.test(line)) ctx.explain(i);
      continue;
    }
    if (TALLY.test(line)) {
      ctx.explain(i);
      continue;
    }
    if (!RULE.test(line)) continue;
    if (TALLY.test(lines[i + 1] ?? "")) {
      ctx.explain(i); // the rule above the tally
      continue;
    }
    const place = FILE_LINE.exec(lines[i + 1] ?? "");
    if (!place || lines[i + 2] !== "Failed example:") continue;
    // A block runs to the next rule (the one above the next block, or above the tally).
    let end = i + 3;
    while (end < lines.length && !RULE.test(lines[end])) end++;
    ctx.explain(i, end - 1);
    const example = indented(lines, i + 3, end).filter((l) => l !== "");
    const shown = (example[0] ?? "").replace(/^>>> /, "");
    const outcome = exampleOutcome(shown, lines, i + 3 + example.length, end);
    out.push(
      finding("test_failure", outcome?.message ?? `${shown}: failed`, {
        test: place[3],
        location: `${place[1]}:${place[2]}`,
        detail: outcome?.detail ?? [],
        at: i,
      }),
    );
    // The rule that ends this block starts the next.
    i = end - 1;
  }
  return out;
}

export const doctest: Reader = { name: "doctest", read: readDoctest };

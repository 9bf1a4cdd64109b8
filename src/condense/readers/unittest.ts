/**
 * Python's unittest: blocks opened by a line of `=` and `FAIL: test (id)` or
 * `ERROR: test (id)`, a traceback, and the exception on its last line. A
 * failing subtest's heading carries its parameters (`FAIL: test (id) (n=2)`):
 * each failing subtest is a failure of its own, named with them.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { EQUALS, LOWER_T, SPACE, UPPER_F, UPPER_O, UPPER_R } from "../chars.ts";

/** unittest's per-test fixture methods, which run around each test under the test's own id. */
const FIXTURE_METHOD = /^(?:setUp|tearDown|asyncSetUp|asyncTearDown|doCleanups)$/;
const HEAD = /^(FAIL|ERROR|UNEXPECTED SUCCESS): (\S+) \(([^)]+)\)(?:\s+\((.*)\))?$/;
/** The line between two exceptions of a chain. */
const CHAIN =
  /^(?:During handling of the above exception|The above exception was the direct cause)/;
const FRAME = /^\s+File "([^"]+)", line (\d+), in (\S+)$/;
const RESULT =
  /^(?:\s*test\w* \(.*\)(?: \.\.\.)? ?(?:ok|FAIL|ERROR|skipped.*|expected failure)?$|Ran \d+ tests? in .*|FAILED \((?:failures|errors|skipped|expected|unexpected)=.*\)|OK(?: \(.*\))?)$/;

function readUnittest(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const { first, lead } = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c = first[i];
    // test…, Ran…, FAILED (…), OK, the ===== rule, and a subtest's indented "  test… (params) ... FAIL" (-v)
    const subtestLine = c === SPACE && lead[i] === LOWER_T;
    if (
      c !== LOWER_T && c !== UPPER_R && c !== UPPER_F && c !== UPPER_O && c !== EQUALS &&
      !subtestLine
    ) continue;
    const line = lines[i];
    // RESULT's four forms start "test", "Ran ", "FAILED (" and "OK": the pattern is tried on no other line.
    if (
      ((c === LOWER_T && line.startsWith("test")) ||
        (subtestLine && line.trimStart().startsWith("test")) ||
        (c === UPPER_R && line.startsWith("Ran ")) ||
        (c === UPPER_F && line.startsWith("FAILED (")) ||
        (c === UPPER_O && line.startsWith("OK"))) &&
      RESULT.test(line)
    ) {
      // The rule of dashes above "Ran N tests" is the summary's.
      const rule = c === UPPER_R && i > 0 && /^-{20,}$/.test(lines[i - 1]);
      ctx.explain(rule ? i - 1 : i, i);
      continue;
    }
    // The rule's fourth character first: startsWith on a line cut out of a window costs far more (ADR 0650).
    if (line.charCodeAt(3) !== EQUALS || !line.startsWith("======")) continue;
    const h = HEAD.exec(lines[i + 1] ?? "");
    if (!h) continue;
    let j = i + 2;
    while (j < lines.length && !lines[j].startsWith("======") && !/^-{20,}$/.test(lines[j] ?? "")) {
      j++;
    }
    // skip the dashed rule under the heading, then read to the next block
    if (/^-{20,}$/.test(lines[j] ?? "")) j++;
    let end = j;
    while (
      end < lines.length && end - j < 200 && !lines[end].startsWith("======") &&
      !/^-{20,}$/.test(lines[end])
    ) end++;
    ctx.explain(i, end - 1);
    const method = h[2];
    // Python 3.11+ gives the full id in the parentheses; older ones the class.
    const base = h[3].endsWith("." + method) ? h[3] : `${h[3]}.${method}`;
    // A subtest is named with its parameters, so each failing one is a finding of its own.
    const id = h[4] !== undefined ? `${base} (${h[4]})` : base;
    const frames: { file: string; line: string; fn: string }[] = [];
    let message = "";
    const body = lines.slice(j, end);
    for (const l of body) {
      const f = FRAME.exec(l);
      if (f) frames.push({ file: f[1], line: f[2], fn: f[3] });
    }
    const tail = body.filter((l) =>
      l.trim() !== "" && !/^\s/.test(l) && !l.startsWith("Traceback")
    );
    // A chain of exceptions (`During handling of the above exception…`) ends with the one the test
    // died of: that is the message, its further lines and the earlier exceptions the detail.
    const chained = tail.findLastIndex((l) => CHAIN.test(l));
    if (chained >= 0) tail.push(...tail.splice(0, chained + 1).filter((l) => !CHAIN.test(l)));
    message = tail[0] ?? h[1];
    const frame = frames.find((f) => f.fn === method) ?? frames[frames.length - 1];
    // A test whose setUp or tearDown raised is reported under the test's own id, once for that and
    // once more if its body failed too: the fixture method named keeps the two apart.
    const fixture = frames.some((f) => f.fn === method)
      ? undefined
      : frames.findLast((f) => FIXTURE_METHOD.test(f.fn))?.fn;
    out.push(
      finding(h[1] === "ERROR" && !frame ? "error" : "test_failure", message, {
        test: fixture ? `${id} (${fixture})` : id,
        location: frame ? `${frame.file}:${frame.line}` : undefined,
        detail: tail.slice(1),
        at: i,
      }),
    );
    i = end - 1;
  }
  return out;
}

export const unittest: Reader = {
  name: "unittest",
  read: readUnittest,
};

/**
 * GoogleTest and ctest.
 *
 * GoogleTest prints `[ RUN      ] Suite.Name`, then for each failed
 * assertion a header `file:line: Failure` (`file(line): error: …` when built
 * with MSVC, `unknown file: Failure` for an exception thrown in the body)
 * followed by the assertion's own lines (`Expected equality of these
 * values:`, `Which is: …`, `Value of: …`, `Actual: …`), and closes the test
 * with `[  FAILED  ] Suite.Name (N ms)` (with `, where GetParam() = …` for a
 * parameterised test). One finding per failed test: its first failure's
 * place, that failure's lines joined as the message (so the expected and
 * actual values travel with it), the later failures as detail. The list
 * after `[  FAILED  ] N tests, listed below:` repeats the names and is only
 * accounted for.
 *
 * ctest prints a status line per test (`1/2 Test #1: name ....***Failed
 * 0.06 sec`, `***Exception: SegFault`, `***Timeout`, `***Not Run`) and at the
 * end `The following tests FAILED:` with `  1 - name (Failed)` lines. A
 * failed ctest test is a finding of its own only when no GoogleTest failure
 * was read from its output (`--output-on-failure` prints it after the status
 * line; `-V` prints it before, each line prefixed `N: ` with the test's
 * number, which this reader reads through). With `--gtest_brief=1` there are
 * no RUN lines: a failure's lines come straight before the timed FAILED line
 * that names its test.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { isDigit, OPEN_BRACKET, SPACE, TAB, UPPER_T } from "../chars.ts";

/** ctest -V's prefix on a test's output: the test's number. */
const VERBOSE_PREFIX = /^(\d+): /;
const RUN = "[ RUN      ] ";
const OK = "[       OK ] ";
const FAILED = "[  FAILED  ] ";
const SKIPPED = "[  SKIPPED ] ";
/** Any of GoogleTest's markers: ten characters between brackets (`[ RUN      ]`, `[==========]`, `[  FAILED  ]`). */
const MARKER = /^\[[ A-Z=-]{10}\]/;
/** `[  FAILED  ] Suite.Name (0 ms)`, `[  FAILED  ] Suite.Name/1, where GetParam() = -2 (0 ms)`. */
const FAILED_TEST = /^\[ {2}FAILED {2}\] (\S+?)(?:, where .*?)?(?: \(\d+ ms\))?$/;
/** A FAILED line that closes a test (with its time), not one of the closing list's. */
const TIMED = / \(\d+ ms\)$/;
/** `file:line: Failure`, `unknown file: Failure`, MSVC's `file(line): error: text`; `Skipped` likewise. */
const FAILURE_HEAD = /^(.+?)(?::(\d+)|\((\d+)\))?:? (?:(Failure|Skipped)|error: ?(.*))$/;
/** `1/2 Test #1: name ......***Failed    0.06 sec` (the dots may be absent after a long name). */
const CTEST_STATUS =
  /^\s*(\d+)\/\d+ +Test +#(\d+): (\S+) \.*\s*(\*\*\*)?([A-Za-z][^]*?)\s+[\d.]+ sec$/;
/** A line of the closing list: `  1 - name (Failed)`, labels after it in newer versions. */
const CTEST_LISTED = /^\s+(\d+) - (\S+) \(([^)]+)\)/;

/** A ctest status that is a failure: failed, crashed, timed out, could not run (not disabled or skipped). */
function ctestFailed(stars: boolean, status: string): boolean {
  if (/^(?:Passed|Skipped|Not Run \(Disabled\))/.test(status)) return false;
  return stars || /^(?:Failed|Timeout|Exception)/.test(status);
}

interface Running {
  name: string;
  /** The ctest test number whose output this is (from a `-V` prefix), if any. */
  ctestNumber?: string;
  failures: { loc?: string; lines: string[] }[];
  /** The line its block starts at: its RUN line, or (without one) its first failure's. */
  at: number;
}

/** The end of a failure's lines: the next GoogleTest marker, failure header or blank line. */
function failureText(lines: string[], from: number, strip: (s: string) => string): number {
  let j = from;
  while (j < lines.length && j - from < 40) {
    const s = strip(lines[j]);
    if (s.trim() === "" || MARKER.test(s) || isFailureHead(s)) break;
    j++;
  }
  return j;
}

function isFailureHead(s: string): boolean {
  return (s.endsWith(": Failure") || s.endsWith(": Skipped") || s.includes("): error: ")) &&
    FAILURE_HEAD.test(s);
}

function readGtest(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const { first } = shapeOf(lines, ctx);
  let running: Running | undefined;
  /** Failures read outside a RUN line, waiting for the FAILED line that names their test. */
  let unnamed: Running["failures"] = [];
  /** The line of the first of `unnamed`. */
  let unnamedAt = 0;
  /** The first line each ctest number's output was seen on (-V). */
  const numberFirst = new Map<string, number>();
  /** Each GoogleTest failure finding: its line, and the ctest test number its output carried (-V). */
  const gtestFound: { at: number; num?: string }[] = [];
  /** Failed ctest tests: number, name, status, line index. */
  const ctestFails: { num: string; name: string; status: string; at: number }[] = [];
  /** Every ctest status line (number and index), and the lines that end a test's output. */
  const statuses: { num: string; at: number }[] = [];
  const boundaries: number[] = [];
  const listed: { num: string; name: string; status: string; at: number }[] = [];
  let prefix: string | undefined;
  const strip = (s: string) => {
    if (prefix === undefined) return s;
    return s.startsWith(prefix) ? s.slice(prefix.length) : s;
  };
  for (let i = 0; i < lines.length; i++) {
    const c = first[i];
    // GoogleTest lines start with "[", a failure header inside a test with anything; ctest's with a
    // digit, a space or tab (status and list lines) or "T" (the list's heading).
    let line = lines[i];
    let ctestNumber: string | undefined;
    if (isDigit(c)) {
      const v = VERBOSE_PREFIX.exec(line);
      if (v) {
        ctestNumber = v[1];
        line = line.slice(v[0].length);
        if (!numberFirst.has(ctestNumber)) numberFirst.set(ctestNumber, i);
      }
    }
    if (line.charCodeAt(0) === OPEN_BRACKET) {
      if (line.startsWith(RUN)) {
        running = { name: line.slice(RUN.length).trim(), ctestNumber, failures: [], at: i };
        prefix = ctestNumber === undefined ? undefined : `${ctestNumber}: `;
        ctx.explain(i);
        continue;
      }
      if (line.startsWith(OK) || line.startsWith(SKIPPED)) {
        running = undefined;
        ctx.explain(i);
        continue;
      }
      if (line.startsWith(FAILED)) {
        ctx.explain(i);
        const m = FAILED_TEST.exec(line);
        // --gtest_brief=1 prints no RUN line: the failures just above a timed FAILED line are its test's.
        if (m && !running && unnamed.length > 0 && TIMED.test(line)) {
          running = { name: m[1], ctestNumber, failures: unnamed, at: unnamedAt };
        }
        unnamed = [];
        // The closing list and its count line repeat what was found; only a test being run is a finding.
        if (m && running && m[1] === running.name) {
          const [head, ...rest] = running.failures;
          out.push(
            finding("test_failure", head ? head.lines.join(" ") : "failed", {
              test: running.name,
              location: head?.loc,
              detail: rest.map((f) => `${f.loc ?? "unknown file"}: ${f.lines.join(" ")}`),
              at: running.at,
            }),
          );
          gtestFound.push({ at: i, num: running.ctestNumber });
        }
        if (m && running && m[1] === running.name) running = undefined;
        continue;
      }
      if (
        line.startsWith("[==========]") || line.startsWith("[----------]") ||
        line.startsWith("[  PASSED  ]")
      ) {
        ctx.explain(i);
      }
      continue;
    }
    if (!running && line.endsWith(": Failure") && FAILURE_HEAD.test(line)) {
      // A failure outside any RUN line (--gtest_brief=1): its test is named by the FAILED line after it.
      const h = FAILURE_HEAD.exec(line)!;
      const end = failureText(lines, i + 1, strip);
      ctx.explain(i, end - 1);
      const file = h[1] === "unknown file" ? undefined : h[1];
      const lineNo = h[2] ?? h[3];
      const text = lines.slice(i + 1, end).map((l) => strip(l).trim()).filter((t) => t !== "");
      if (unnamed.length === 0) unnamedAt = i;
      unnamed.push({ loc: file && lineNo ? `${file}:${lineNo}` : file, lines: text });
      i = end - 1;
      continue;
    }
    if (running && isFailureHead(line)) {
      const h = FAILURE_HEAD.exec(line)!;
      const end = failureText(lines, i + 1, strip);
      ctx.explain(i, end - 1);
      if (h[4] !== "Skipped") {
        const file = h[1] === "unknown file" ? undefined : h[1];
        const lineNo = h[2] ?? h[3];
        const text = [h[5] ?? "", ...lines.slice(i + 1, end).map((l) => strip(l).trim())]
          .filter((t) => t !== "");
        running.failures.push({ loc: file && lineNo ? `${file}:${lineNo}` : file, lines: text });
      }
      i = end - 1;
      continue;
    }
    if (isDigit(c) || c === SPACE) {
      // `100% tests passed, …` starts with its digits; a status line ends in " sec" (tested before a search).
      if (c !== SPACE && line.includes("% tests passed")) boundaries.push(i);
      else if (line.endsWith(" sec") && line.includes(" Test ")) {
        const s = CTEST_STATUS.exec(line);
        if (s) {
          ctx.explain(i);
          statuses.push({ num: s[2], at: i });
          boundaries.push(i);
          if (ctestFailed(s[4] !== undefined, s[5])) {
            ctestFails.push({ num: s[2], name: s[3], status: s[5].trim(), at: i });
          }
        }
      }
      continue;
    }
    if (c === UPPER_T && line === "The following tests FAILED:") {
      ctx.explain(i);
      let j = i + 1;
      for (; j < lines.length; j++) {
        if (first[j] !== TAB && first[j] !== SPACE) break;
        const m = CTEST_LISTED.exec(lines[j]);
        if (!m) break;
        listed.push({ num: m[1], name: m[2], status: m[3], at: i });
      }
      ctx.explain(i, j - 1);
      i = j - 1;
    }
  }
  // ctest's own findings: a failed test whose output gave no GoogleTest failure (the test is named by ctest).
  // Its output is what follows its status line up to the next one (--output-on-failure), or, under -V,
  // the lines carrying its number since its number's previous status line.
  const reported = new Set<string>();
  for (const f of ctestFails) {
    reported.add(f.num);
    const next = boundaries.find((at) => at > f.at) ?? lines.length;
    let since = -1;
    for (const s of statuses) if (s.num === f.num && s.at < f.at) since = s.at;
    const explained = gtestFound.some((g) =>
      g.num === undefined
        ? g.at > f.at && g.at < next
        : g.num === f.num && g.at > since && g.at < f.at
    );
    if (!explained) {
      // Its block: its status line and the output after it, or (-V) its numbered lines before it.
      const at = Math.min(f.at, numberFirst.get(f.num) ?? f.at);
      out.push(finding("test_failure", `ctest: ${f.status}`, { test: f.name, at }));
    }
  }
  for (const l of listed) {
    // The list alone (status lines cut off, or a quiet run): the test failed; when GoogleTest's own
    // failures were read, they say more, and the list adds nothing.
    if (reported.has(l.num) || gtestFound.length > 0) continue;
    out.push(finding("test_failure", `ctest: ${l.status}`, { test: l.name, at: l.at }));
  }
  return out;
}

export const gtest: Reader = { name: "gtest", read: readGtest };

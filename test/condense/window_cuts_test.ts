/**
 * A window of a long output may hold a failure's block without the heading
 * before it, or its heading without the block: the reader then names the
 * failure less fully (a test without its file, by its short name; an error at
 * its file without the line). Such a report is the failure already counted,
 * not another (findings.ts `moreOrLess`, scan.ts).
 */
import { assertEquals } from "../support/assert.ts";
import {
  blockStart,
  type Finding,
  finding,
  findingKey,
  moreOrLess,
} from "../../src/condense/findings.ts";
import { scanText } from "../../src/condense/scan.ts";
import { COUNTED_FORMATS, countedFindings, countedLog } from "../support/counted_logs.ts";

const test = (name: string, file?: string): Finding => ({
  kind: "test_failure",
  test: name,
  ...(file ? { file } : {}),
  message: "failed",
});

Deno.test("reports of one failure named more or less fully meet; different failures do not", () => {
  const full = test("test_calc.py::test_uses_broken");
  assertEquals(moreOrLess(test("test_uses_broken"), full), full);
  const dotted = test("demo.CalcTest.parsesText");
  assertEquals(moreOrLess(dotted, test("CalcTest.parsesText")), dotted);
  const filed = test("sum > adds", "a.test.js");
  assertEquals(moreOrLess(test("sum > adds"), filed), filed);
  // Two files' tests of one name, and two tests whose names only end alike, are two failures.
  assertEquals(
    moreOrLess(test("sum > adds", "a.test.js"), test("sum > adds", "b.test.js")),
    undefined,
  );
  assertEquals(moreOrLess(test("handles empty input"), test("empty input")), undefined);
  assertEquals(moreOrLess(test("TestA/empty"), test("TestB/empty")), undefined);
  // Each naming what the other lacks (a file on one, the suite on the other) is not settled.
  assertEquals(moreOrLess(test("adds", "a.test.js"), test("sum > adds")), undefined);
  const at = (location?: string): Finding => ({
    kind: "error",
    message: "Cannot find module",
    ...(location ? { location } : {}),
  });
  assertEquals(moreOrLess(at("a.js"), at("a.js:2:1")), at("a.js:2:1"));
  assertEquals(moreOrLess(at("./a.js"), at("a.js:2:1")), at("a.js:2:1"));
  assertEquals(moreOrLess(at(), at("a.js:2")), at("a.js:2"));
  assertEquals(moreOrLess(at("a.js:2"), at("b.js:2")), undefined);
  assertEquals(moreOrLess(at("a.js:2"), at("a.js:20")), undefined);
});

Deno.test("a finding's block start is kept beside it: its fields and its JSON are what they were", () => {
  const f = finding("test_failure", "expected 2, got 3", { test: "TestSum", at: 41 });
  assertEquals(blockStart(f), 41);
  assertEquals(Object.keys(f).sort(), ["kind", "message", "test"]);
  assertEquals(
    JSON.stringify(f),
    '{"kind":"test_failure","message":"expected 2, got 3","test":"TestSum"}',
  );
  // A finding made without one has no start: a window keeps it as it read it.
  assertEquals(blockStart(finding("error", "boom")), undefined);
});

/**
 * Logs whose failures a window's end cut in two before each finding knew where its block starts
 * (findings.ts `blockStart`, ADR 0700): a Go parent test reported beside its subtest, ctest's
 * status line without the GoogleTest output after it, JUnit XML beside pytest, mocha's and
 * node:test's suites, pytest's setup and collection errors, Python tracebacks, a Go timeout's
 * panic, CMake's and mypy's wrapped messages.
 */
const CUT_BLOCKS = [
  "cmake/configure_fail.log",
  "crash/py_chained.log",
  "go/round4_count2.log",
  "go/round4_make.log",
  "go/round4_plain.log",
  "go/round4_verbose.log",
  "go/test_fail.log",
  "go/test_fail_verbose.log",
  "go/timeout.log",
  "gtest/ctest_output.log",
  "gtest/variety_ctest_j.log",
  "junit/pytest_cat.log",
  "junit/pytest_with_log.log",
  "mocha/fail.log",
  "mocha/round4_color.log",
  "mocha/variety.log",
  "node_test/hooks_tap.log",
  "node_test/round4_npm.log",
  "node_test/variety_tap.log",
  "pytest/collect_error.log",
  "pytest/segfault.log",
  "pytest/setup_errors.log",
  "pytest/setup_errors_lf.log",
  "pytest/setup_errors_unittest.log",
  "pytest/setup_errors_x.log",
  "pytest/unittest_fail.log",
  "pytest/variety.log",
  "pytest/variety_subtests.log",
  "pytest/variety_unittest.log",
  "python_lint/variety_mypy_pretty.log",
  // A teardown error in a conftest fixture: its section names the bare test, the -q summary after
  // it the whole id; with a short context the summary's window has the section's title carried.
  "round6/pytest_q.log",
];

/**
 * Each log after filler lines, so that a window of 16 KiB ends, in turn, after each of its lines
 * (and with the filler's lines shifted, at three places in a line): scanned in windows it finds
 * what it finds whole.
 */
function sweepCuts(names: string[], shifts: number[], carryLines?: number): void {
  const dir = new URL("../fixtures/condense/", import.meta.url);
  const windowChars = 16 * 1024;
  const filler = "x".repeat(99) + "\n";
  for (const name of names) {
    const log = Deno.readTextFileSync(new URL(name, dir));
    // Enough filler that the first window ends inside the log, then one more line at a time: each
    // of the log's lines is, in turn, where a window ends.
    const lead = Math.max(0, Math.floor((windowChars - log.length) / 100));
    const steps = Math.ceil(log.length / 100) + 2;
    for (let step = 0; step < steps; step++) {
      for (const shift of shifts) {
        const text = "=".repeat(shift) + "\n" + filler.repeat(lead + step) + log;
        const whole = scanText(text).findings.map(findingKey).sort();
        const windows = scanText(text, { windowChars, carryLines }).findings.map(findingKey).sort();
        assertEquals(windows, whole, `${name}, ${lead + step} lines before it, shift ${shift}`);
      }
    }
  }
}

Deno.test("a window cut anywhere in a failing run finds what the whole run finds", () => {
  sweepCuts([
    "pytest/fail.log",
    "jest/fail.log",
    "jest/two_files.log",
    "jest/many_files.log",
    "vitest/fail.log",
    "go/multi_verbose.log",
  ], [0, 37, 71]);
});

Deno.test("a block a window's end cuts is reported once, by the window that reads it from its start", () => {
  sweepCuts(CUT_BLOCKS, [0, 37]);
});

Deno.test("with a short context the next window starts inside the log, and still reads each cut block from its start", () => {
  // 40 lines of context: the next window starts a few dozen lines before the cut, not at the
  // output's start. (node:test's TAP log holds a suite longer than that: a window starting inside
  // it names the suite's own line a failure, a limit of the context's length, not of the cut.)
  sweepCuts(CUT_BLOCKS.filter((name) => name !== "node_test/variety_tap.log"), [0], 40);
});

Deno.test("a block longer than a window's context is reported once, with its head, wherever windows cut it", () => {
  // Each failing test prints 2,500 lines (a captured stdout, a goroutine dump, a stack of frames):
  // more than the 2,000 lines a window takes from the one before, so a window starts inside it.
  for (const format of COUNTED_FORMATS) {
    const log = countedLog(format, 3, { outputLines: 2500 });
    const whole = scanText(log).findings.map(findingKey).sort();
    assertEquals(whole.length, countedFindings(format, 3), `${format}: read whole`);
    for (const shift of [0, 4099, 9001]) {
      const text = "x".repeat(shift) + "\n" + log;
      for (const windowChars of [16 * 1024, 64 * 1024]) {
        const windows = scanText(text, { windowChars }).findings.map(findingKey).sort();
        assertEquals(windows, whole, `${format}, shift ${shift}, windows of ${windowChars}`);
      }
    }
  }
});

Deno.test("a test's output longer than a block is read is still named by its panic, and placed by it in windows", () => {
  // cargo reads a `---- name stdout ----` block up to 400 lines; the panic after 2,500 lines of the
  // test's own output is the failure's message and place, not the output's first line.
  const log = countedLog("cargo", 2, { outputLines: 2500 });
  const expected = [0, 1].map((i) => ({
    test: `orders::tests::total_${i}`,
    message: "assertion `left == right` failed",
    location: `src/orders.rs:${20 + i}:9`,
  }));
  const named = (findings: Finding[]) =>
    findings.map((f) => ({ test: f.test, message: f.message, location: f.location }));
  assertEquals(named(scanText(log).findings), expected, "read whole");
  // Windows of 64 KiB: the window that reads the panic fills in the place of the report made by
  // the one that read the block's head. The message stays that report's (a limit: which of two
  // reports' messages is the better one is the reader's to say, and AVA's first is its best).
  const placed = (findings: Finding[]) =>
    findings.map((f) => ({ test: f.test, location: f.location }));
  assertEquals(
    placed(scanText(log, { windowChars: 64 * 1024 }).findings),
    placed(expected as Finding[]),
    "in windows",
  );
});

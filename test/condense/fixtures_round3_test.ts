/**
 * A third round of real output in forms the fixtures lacked: test binaries
 * that die inside a test, runs stopped by a timeout or SIGINT, shell scripts
 * that stop, ShellCheck's notes, JUnit XML printed into a log, go test and
 * cargo test over several packages that hold tests of one name. Every log was
 * printed by the real tool for the small project beside it
 * (scripts/fixtures/condense.sh, `round3`); exits.tsv has each command and
 * status.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { triageText } from "../../src/condense/triage.ts";
import { readAll } from "../../src/condense/readers/index.ts";
import { brief, expectFindings, FIXTURES, triageFixture } from "./fixture_logs.ts";

const PROJECT = "/home/dev/project";

Deno.test("a GoogleTest binary that dies in a test: the running test is the failure, with the signal the shell names", () => {
  // Run directly, the output just stops: the exit status (139) says how.
  const direct = expectFindings("gtest/crash_segv.log", [
    ["test_failure", undefined, "Stock.ReadsMissingShelf", "did not finish"],
  ]);
  assertEquals(direct[0].detail, ["reading shelf 7"]);
  // From a script, bash reports the death on the script's line: the signal goes into the message.
  expectFindings("gtest/crash_segv_script.log", [
    ["test_failure", undefined, "Stock.ReadsMissingShelf", "died of Segmentation fault"],
  ]);
  // A failed assert() names its place; an exception on another thread its type and message.
  expectFindings("gtest/crash_abort.log", [
    [
      "test_failure",
      `${PROJECT}/abort_test.cpp:7`,
      "Reserve.Zero",
      'Assertion `qty > 0 && "a reservation needs a positive quantity"\' failed.',
    ],
  ]);
  expectFindings("gtest/crash_terminate.log", [
    [
      "test_failure",
      undefined,
      "Worker.DrainsTheQueue",
      "uncaught std::runtime_error: queue closed while draining",
    ],
  ]);
  // Stopped by timeout's SIGTERM or by SIGINT: the test that hung.
  for (const name of ["gtest/crash_timeout.log", "gtest/crash_interrupt.log"]) {
    expectFindings(name, [["test_failure", undefined, "Queue.WaitsForever", "did not finish"]]);
  }
});

Deno.test("a test that never reported is a failure only where the output ends, and never for a run that exited 0", () => {
  const text = Deno.readTextFileSync(join(FIXTURES, "gtest/crash_segv.log"));
  // The same lines as a window of a longer output: more may follow, so nothing is concluded.
  assertEquals(readAll(text, { final: false }).findings, []);
  // The same lines followed by the binary's result: it finished.
  const finished = text + "[       OK ] Stock.ReadsMissingShelf (0 ms)\n";
  assertEquals(triageText(finished, { exitStatus: 1 }).findings, []);
  assertEquals(triageText(text, { exitStatus: 0 }).outcome, "clean");
});

Deno.test("ShellCheck's info and style notes are findings of the mildest kind: a run with only notes failed for them", () => {
  for (const name of ["shellcheck/round3_notes_tty.log", "shellcheck/round3_notes_gcc.log"]) {
    const r = triageFixture(name);
    assertEquals(r.outcome, "failures", r.headline);
    expectFindings(name, [
      ["warning", "notes.sh:4:18", undefined, "note: Quote expansions in this for loop glob"],
      ["warning", "notes.sh:7:8", undefined, "note: Use $(...) notation instead of legacy"],
    ]);
  }
});

Deno.test("scripts traced with -x that stop: bash's error at the script's line, set -e's stop at the last command", () => {
  const notFound = expectFindings("shellcheck/round3_not_found.log", [
    ["error", "package.sh:8", undefined, "packer: command not found"],
  ]);
  assertEquals(notFound[0].detail, ["+ packer --level 9 dist/1.3"]);
  expectFindings("shellcheck/round3_set_e.log", [
    ["error", undefined, undefined, "the script stopped after `test 5 -gt 10`, which failed"],
  ]);
  // A traced script that passes (its last command printed "done") is clean.
  const passed = triageFixture("shellcheck/round3_pass.log");
  assertEquals([passed.outcome, brief(passed.findings)], ["clean", ""]);
});

Deno.test("JUnit XML from deno, pytest, jest-junit and Maven Surefire: each failed testcase named and placed as the runner's own report does", () => {
  const deno = expectFindings("junit/deno.log", [
    ["test_failure", `${PROJECT}/cart_test.ts:8:3`, "total of an empty cart", "strictly equal"],
    ["test_failure", `${PROJECT}/cart_test.ts:12:3`, "total of <two> & more", "strictly equal"],
    ["test_failure", `${PROJECT}/cart_test.ts:22:11`, "groups > inner fails", 'shelf "A"'],
  ]);
  // The values travel in the detail; the group that failed only through its step is no finding.
  assertEquals(deno.find((f) => f.test === "total of an empty cart")?.detail, ["1 !== 0"]);
  const pytest: Parameters<typeof expectFindings>[1] = [
    ["test_failure", "test_cart.py:9", "test_cart.py::test_empty", "assert 1 == 0"],
    ["test_failure", "test_cart.py:14", "test_cart.py::test_totals[items0-3]", "assert 4 == 3"],
    ["test_failure", "test_cart.py:18", "test_cart.py::test_raises", `KeyError: 'missing <sku>`],
  ];
  expectFindings("junit/pytest_cat.log", pytest);
  // The run's own report and its XML after it: one finding per test, not two.
  expectFindings("junit/pytest_with_log.log", pytest);
  expectFindings("junit/surefire.log", [
    ["test_failure", "CalcTest.java:16", "demo.CalcTest.addsLargeNumbers", "expected: <42>"],
    ["test_failure", "CalcTest.java:26", "demo.CalcTest.parsesText", "NumberFormatException"],
  ]);
  // jest-junit names both files' suites "parse": the file each failed in tells them apart, and the
  // message stops where the stack starts (its code frame left out).
  const jest = expectFindings("junit/jest.log", [
    ["test_failure", "api/parse.test.js:4:18", "parse rejects empty input", "toThrow"],
    [
      "test_failure",
      `${PROJECT}/web/parse.test.js:4:25`,
      "parse rejects empty input",
      "toBeUndefined",
    ],
    ["test_failure", `${PROJECT}/web/parse.test.js:7:24`, "parse reads a number", "toBe"],
  ]);
  assertEquals(jest.find((f) => f.location?.endsWith(":7:24"))?.detail, [
    "Expected: 4",
    "Received: NaN",
  ]);
  // A passing run that prints a <failure> tag in its output is clean.
  const passed = triageFixture("junit/deno_pass.log");
  assertEquals([passed.outcome, brief(passed.findings)], ["clean", ""]);
});

Deno.test("JUnit XML: a report on one line, entities and CDATA, a skipped test, an error outside a test's body", () => {
  const xml = [
    '<?xml version="1.0"?><testsuites><testsuite name="unit" tests="3">',
    '<testcase classname="pkg.ShelfTest" name="counts" time="0.1"><skipped/></testcase>',
    '<testcase classname="pkg.ShelfTest" name="addsThenRemoves"><failure message="expected &lt;2&gt; but was &lt;3&gt;" type="AssertionError"><![CDATA[AssertionError: expected <2> but was <3>',
    "\tat org.junit.Assert.fail(Assert.java:89)",
    "\tat pkg.ShelfTest.addsThenRemoves(ShelfTest.java:12)",
    "]]></failure></testcase>",
    '<testcase classname="tests.test_db" name="test_open"><error message="failed on setup with &quot;OSError: locked&quot;">tests/conftest.py:4: OSError</error></testcase>',
    "</testsuite></testsuites>",
    "BUILD FAILED",
  ].join("\n");
  const got = triageText(xml, { exitStatus: 1 }).findings;
  assertEquals(got.map((f) => [f.kind, f.test, f.location, f.message]), [
    [
      "test_failure",
      "pkg.ShelfTest.addsThenRemoves",
      "ShelfTest.java:12",
      "expected <2> but was <3>",
    ],
    [
      "error",
      "tests.test_db.test_open",
      "tests/conftest.py:4",
      'failed on setup with "OSError: locked"',
    ],
  ]);
});

Deno.test("go test over several packages, two holding a failing test of one name (plain, -v, -json): each failure once, told apart by package", () => {
  const want: Parameters<typeof expectFindings>[1] = [
    ["test_failure", "cart_test.go:7", "TestTotal", "Total([1 2]) = 4, want 3"],
    ["test_failure", "cart_test.go:13", "TestEmpty", "Total(nil) = 1, want 0"],
    ["test_failure", "report_test.go:7", "TestTotal", 'Title() = "Daily report"'],
    ["test_failure", `${PROJECT}/stock/stock.go:5`, "TestAdd", "assignment to entry in nil map"],
  ];
  for (const name of ["go/multi.log", "go/multi_verbose.log", "go/multi_json.log"]) {
    const got = expectFindings(name, want);
    const total = got.filter((f) => f.test === "TestTotal").map((f) => f.file).sort();
    assertEquals(total, ["example.com/shop/cart", "example.com/shop/report"], name);
    // A name that failed in one package only keeps its bare identity.
    assertEquals(got.find((f) => f.test === "TestEmpty")?.file, undefined, name);
  }
});

Deno.test("cargo test --no-fail-fast over a workspace whose two crates hold a failing test of one name: both, told apart by crate", () => {
  const got = expectFindings("cargo/workspace.log", [
    ["test_failure", "ledger/src/lib.rs:16:9", "tests::empty_is_zero", "an empty ledger"],
    ["test_failure", "ledger/src/lib.rs:11:9", "tests::sums_entries", "left == right"],
    ["test_failure", "report/src/lib.rs:11:68", "tests::sums_entries", "ParseIntError"],
  ]);
  assertEquals(
    got.filter((f) => f.test === "tests::sums_entries").map((f) => f.file),
    ["ledger", "report"],
  );
  // The passing should_panic test that printed its panic is not a failure.
  assert(!got.some((f) => f.test?.includes("refuses_overdraft")), brief(got));
});

Deno.test("a cargo test binary that dies of SIGSEGV: the signal, and the test when libtest had printed its line", () => {
  expectFindings("cargo/native_segv.log", [
    ["error", undefined, undefined, "test binary native died of SIGSEGV: invalid memory reference"],
  ]);
  expectFindings("cargo/native_segv_one_thread.log", [
    ["test_failure", undefined, "tests::reads_null", "died of SIGSEGV: invalid memory reference"],
  ]);
});

Deno.test("go test -v stopped by SIGINT: the test still running when its package failed", () => {
  expectFindings("go/interrupt_verbose.log", [
    ["test_failure", undefined, "TestWaitsForServer", "test binary of example.com/wait stopped"],
  ]);
  // The same lines, the output cut before the package's line: the end says it.
  const cut = Deno.readTextFileSync(join(FIXTURES, "go/interrupt_verbose.log")).replace(
    /^FAIL\t.*\n/m,
    "",
  );
  assertEquals(
    triageText(cut, { exitStatus: 130 }).findings.map((f) => [f.test, f.message]),
    [["TestWaitsForServer", "did not finish: the output stopped inside it"]],
  );
  // A package that failed through a test of its own: a test started after it is not named.
  const failedFirst = [
    "=== RUN   TestTable",
    "=== RUN   TestTable/a",
    "    table_test.go:9: bad a",
    "--- FAIL: TestTable (0.00s)",
    "    --- FAIL: TestTable/a (0.00s)",
    "=== RUN   TestLater",
    "FAIL\texample.com/table\t0.01s",
  ].join("\n");
  assertEquals(
    triageText(failedFirst, { exitStatus: 1 }).findings.map((f) => f.test),
    ["TestTable/a"],
  );
});

Deno.test("node --test: a test over its timeout and one whose timer threw after it returned (spec and TAP)", () => {
  for (
    const [name, timedOutAt] of [
      ["node_test/timeout_spec.log", "queue.test.mjs:8:1"],
      ["node_test/timeout_tap.log", `${PROJECT}/queue.test.mjs:8:1`],
    ]
  ) {
    expectFindings(name, [
      ["test_failure", timedOutAt, "waits for the worker", "test timed out after 200ms"],
      [
        "test_failure",
        `${PROJECT}/queue.test.mjs:13:28`,
        "crashes the process",
        "worker state is undefined",
      ],
    ]);
  }
  // The timeout's error is a string, printed quoted by the spec reporter: the message is its text.
  assertEquals(
    triageFixture("node_test/timeout_spec.log").findings[0].message,
    "test timed out after 200ms",
  );
});

Deno.test("pytest stopped by SIGINT: the interrupt is the finding, at the place pytest names, with the running test under -v", () => {
  expectFindings("pytest/interrupt.log", [
    ["error", `${PROJECT}/test_sync.py:10`, undefined, "KeyboardInterrupt"],
  ]);
  expectFindings("pytest/interrupt_verbose.log", [
    [
      "error",
      `${PROJECT}/test_sync.py:10`,
      "test_sync.py::test_waits_for_the_server",
      "KeyboardInterrupt",
    ],
  ]);
});

Deno.test("a pytest run whose test crashes the interpreter: faulthandler's fatal error at the test's own frame", () => {
  const at = `${PROJECT}/test_native.py:10`;
  const message = "Fatal Python error: Segmentation fault (in test_reads_null_pointer)";
  expectFindings("pytest/segfault.log", [["error", at, undefined, message]]);
  expectFindings("pytest/segfault_verbose.log", [
    ["error", at, "test_native.py::test_reads_null_pointer", message],
  ]);
});

Deno.test("clang and gcc with colours forced on: the same diagnostics as without", () => {
  expectFindings("gcc/color_clang.log", [
    ["error", "./stock.h:1:25", undefined, "expected ';' after struct"],
    ["error", "stock.c:6:31", undefined, "use of undeclared identifier 'total'"],
    ["warning", "stock.c:12:18", undefined, "format specifies type 'char *'"],
  ]);
  expectFindings("gcc/color_gcc.log", [
    ["error", "stock.c:4:1", undefined, "expected ‘;’, identifier or ‘(’ before ‘int’"],
    ["error", "stock.c:6:31", undefined, "‘total’ undeclared"],
    ["warning", "stock.c:5:7", undefined, "unused variable ‘unused_total’"],
    ["warning", "stock.c:12:12", undefined, "format ‘%s’ expects argument of type ‘char *’"],
  ]);
});

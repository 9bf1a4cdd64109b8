/**
 * Readers against real output in forms the first fixtures do not show: paths
 * and parameter ids with spaces and non-ASCII letters, nested suites, other
 * report styles of the same tool, scripts that die outside any test runner,
 * builds in parallel, and passing runs that print what looks like failure.
 * Every log was printed by the real tool for the small project beside it
 * (scripts/fixtures/condense.sh); exits.tsv has each command and status.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { triageText } from "../../src/condense/triage.ts";
import type { Finding } from "../../src/condense/findings.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/condense/", import.meta.url));

/** The exit status exits.tsv records for a fixture log (`tool/name.log`). */
function exitOf(name: string): number {
  const [dir, file] = name.split("/");
  const rows = Deno.readTextFileSync(join(FIXTURES, dir, "exits.tsv")).split("\n");
  const row = rows.find((r) => r.split("\t")[0] === file.replace(/\.log$/, ""));
  if (!row) throw new Error(`${name} has no row in exits.tsv`);
  return Number(row.split("\t")[1]);
}

function triageFixture(name: string) {
  return triageText(Deno.readTextFileSync(join(FIXTURES, name)), {
    exitStatus: exitOf(name),
    cap: 500,
  });
}

/** [kind, location, test, a piece of the message] — location and test exactly as the tool printed them. */
type Want = [Finding["kind"], string | undefined, string | undefined, string];

function brief(findings: Finding[]): string {
  return findings.map((f) => `${f.kind} ${f.location ?? "-"} ${f.test ?? "-"} | ${f.message}`)
    .join("\n");
}

/** The log's findings are exactly these (in any order), each once. */
function expectFindings(name: string, want: Want[]): Finding[] {
  const got = triageFixture(name).findings;
  assertEquals(got.length, want.length, `${name}: expected ${want.length}, got:\n${brief(got)}`);
  for (const [kind, location, test, piece] of want) {
    const here = got.filter((f) => f.kind === kind && f.location === location && f.test === test);
    assert(
      here.length === 1,
      `${name}: no single ${kind} at ${location} for ${test}; got:\n${brief(got)}`,
    );
    assert(
      here[0].message.includes(piece),
      `${name}: ${kind} at ${location}: "${here[0].message}" lacks "${piece}"`,
    );
  }
  return got;
}

/** The detail of the one finding whose test (or location) is this. */
function detailOf(findings: Finding[], key: string): string[] {
  const f = findings.find((x) => x.test === key || x.location === key);
  assert(f, `no finding for ${key}`);
  return f.detail ?? [];
}

const VARIETY_FILE = "tests/test_orders.py";
const SPACE_TEST = "tests/sub/test_space dir.py::test_keyerror";
const PARAM_TEST = `${VARIETY_FILE}::test_total[na\\xefve basket-items1-6]`;

Deno.test("pytest: ids with spaces and escaped non-ASCII parameters, nested classes, a fixture's error, a strict XPASS", () => {
  const got = expectFindings("pytest/variety.log", [
    ["test_failure", "tests/sub/test_space dir.py:5", SPACE_TEST, "KeyError: 'missing'"],
    ["test_failure", `${VARIETY_FILE}:14`, PARAM_TEST, "assert 5 == 6"],
    [
      "test_failure",
      `${VARIETY_FILE}:21`,
      `${VARIETY_FILE}::TestNested::TestInner::test_dict_compare`,
      "AssertionError",
    ],
    [
      "test_failure",
      `${VARIETY_FILE}:24`,
      `${VARIETY_FILE}::TestNested::test_multiline_message`,
      "ValueError: first line of the problem",
    ],
    ["test_failure", `${VARIETY_FILE}:30`, `${VARIETY_FILE}::test_long_strings`, "AssertionError"],
    ["test_failure", undefined, `${VARIETY_FILE}::test_xpass_strict`, "XPASS(strict)"],
    ["error", `${VARIETY_FILE}:35`, `${VARIETY_FILE}::test_uses_fixture`, "database not reachable"],
    [
      "warning",
      "/home/dev/project/tests/sub/test_ok.py:3",
      "tests/sub/test_ok.py::test_warns",
      "UserWarning",
    ],
  ]);
  // The evidence travels in the finding: the differing items, the message's further lines.
  assert(
    detailOf(got, `${VARIETY_FILE}::TestNested::TestInner::test_dict_compare`).some((l) =>
      l.includes("{'status': 'open'} != {'status': 'closed'}")
    ),
  );
  assertEquals(detailOf(got, `${VARIETY_FILE}::TestNested::test_multiline_message`), [
    "second line with detail",
    "third line",
  ]);
});

Deno.test("pytest --tb=line and --tb=native: the same failures, named, each with its place", () => {
  for (const name of ["pytest/variety_tb_line.log", "pytest/variety_tb_native.log"]) {
    const got = triageFixture(name).findings;
    const failed = got.filter((f) => f.kind === "test_failure");
    assertEquals(failed.length, 6, `${name}:\n${brief(got)}`);
    const space = got.find((f) => f.test === SPACE_TEST);
    assert(
      space?.location?.startsWith("/home/dev/project/tests/sub/test_space dir.py:"),
      brief(got),
    );
    assertEquals(space?.message, "KeyError: 'missing'");
    const param = got.find((f) => f.test === PARAM_TEST);
    assertEquals(param?.location, "/home/dev/project/tests/test_orders.py:14", brief(got));
  }
  // --tb=native: a message over several lines is the exception's first line, the rest detail.
  const native = triageFixture("pytest/variety_tb_native.log").findings;
  const multi = native.find((f) => f.test?.endsWith("::test_multiline_message"));
  assertEquals(multi?.message, "ValueError: first line of the problem");
  assertEquals(multi?.detail, ["second line with detail", "third line"]);
});

Deno.test("pytest 9 runs unittest subtests: each SUBFAILED line is its own failure, at its section's place", () => {
  const file = "test_inventory.py";
  const got = expectFindings("pytest/variety_subtests.log", [
    ["test_failure", `${file}:8`, `${file}::InventoryTest::test_counts (item='apple')`, "5 != 3"],
    ["test_failure", `${file}:8`, `${file}::InventoryTest::test_counts (item='pear')`, "4 != 2"],
    ["test_failure", `${file}:8`, `${file}::InventoryTest::test_counts (item='plum')`, "4 != 5"],
    ["test_failure", `${file}:17`, `${file}::InventoryTest::test_error`, "KeyError"],
    ["test_failure", `${file}:14`, `${file}::InventoryTest::test_list`, "Lists differ"],
    [
      "test_failure",
      `${file}:20`,
      `${file}::InventoryTest::test_message`,
      "the stock was negative",
    ],
    ["test_failure", `${file}:11`, `${file}::InventoryTest::test_multiline`, "!="],
    ["error", `${file}:37`, `${file}::SetupFails::test_a`, "ConnectionError: no database"],
  ]);
  assert(detailOf(got, `${file}::InventoryTest::test_message`).includes("after the second refund"));
});

Deno.test("a passing pytest run with a warning whose text says 'fail' and 'error' is clean", () => {
  const r = triageFixture("pytest/variety_pass.log");
  assertEquals(r.outcome, "clean");
  assertEquals(r.counts, { errors: 0, test_failures: 0, warnings: 1 });
});

const APP = "/home/dev/project/my app";

Deno.test("Python scripts that die: one error each at the innermost frame in the script's own code", () => {
  expectFindings("crash/py_chained.log", [
    ["error", `${APP}/lib/parse.py:11`, undefined, "RuntimeError: config missing"],
  ]);
  expectFindings("crash/py_jsonerr.log", [
    ["error", `${APP}/lib/parse.py:4`, undefined, "JSONDecodeError: Expecting property name"],
  ]);
  expectFindings("crash/py_syntax.log", [
    ["error", `${APP}/syntax.py:1`, undefined, "SyntaxError: invalid syntax"],
  ]);
  expectFindings("crash/py_group.log", [
    ["error", `${APP}/group.py:2`, undefined, "ExceptionGroup: several checks failed"],
  ]);
  expectFindings("crash/py_plain.log", [
    ["error", `${APP}/plain.py:2`, undefined, "Exception: plain exception with no subclass"],
  ]);
  expectFindings("crash/py_no_module.log", [
    ["error", undefined, undefined, "No module named lib.absent"],
  ]);
});

Deno.test("a Python death carries its evidence: the earlier exception of a chain, a group's members, a message's lines", () => {
  const chained = expectFindings("crash/py_chained.log", [
    ["error", `${APP}/lib/parse.py:11`, undefined, "RuntimeError"],
  ]);
  assert(chained[0].detail?.some((l) => l.includes("FileNotFoundError")), brief(chained));
  const group = triageFixture("crash/py_group.log").findings;
  assertEquals(group[0].detail, ["ValueError: negative total", "TypeError: bad id"]);
  const multi = expectFindings("crash/py_multi.log", [
    ["error", `${APP}/multi.py:3`, undefined, "ValueError: negative value"],
  ]);
  assertEquals(multi[0].detail, ["received: -3", "expected: >= 0"]);
});

Deno.test("a script that logged a handled traceback and exited 0 is clean; one that printed Error and exited 3 is unexplained", () => {
  const handled = triageFixture("crash/py_handled.log");
  assert(handled.findings.length === 0 && handled.outcome === "clean", handled.headline);
  const exited = triageFixture("crash/py_sysexit.log");
  assertEquals(exited.outcome, "unexplained");
  assert(exited.evidence.some((l) => l.text.includes("could not open the inventory file")));
});

/** What each compiler reports for the variety project, one list per log. */
const GCC_VARIETY: Want[] = [
  ["error", "src dir/a.c:3:1", undefined, "expected ‘;’, identifier or ‘(’ before ‘int’"],
  ["error", "src dir/a.c:5:16", undefined, "‘missing_factor’ undeclared"],
  ["warning", "src dir/a.c:4:9", undefined, "unused variable ‘unused_value’"],
  ["warning", "src dir/a.c:6:1", undefined, "control reaches end of non-void function"],
  ["warning", "b.c:3:21", undefined, "suggest parentheses around assignment"],
  ["error", "c.cpp:8:19", undefined, "conversion from ‘int’ to non-scalar type"],
  ["error", "c.cpp:3:47", undefined, "no match for ‘operator+’"],
  ["error", undefined, undefined, "multiple definition of value"],
  ["error", "d.c", undefined, "undefined reference to helper_never_defined"],
  ["error", "Makefile:4", undefined, "make: target a.o failed"],
  ["error", "Makefile:8", undefined, "make: target c.o failed"],
  ["error", "Makefile:10", undefined, "make: target link failed"],
];

Deno.test("gcc through make -k, in sequence and with -j4: a source folder with a space in its name, C++ and the linker", () => {
  expectFindings("gcc/variety.log", GCC_VARIETY);
  expectFindings("gcc/variety_j4.log", GCC_VARIETY);
});

Deno.test("clang through make -k: the header's error at the header, the C++ errors with their notes as detail", () => {
  const got = expectFindings("gcc/variety_clang.log", [
    ["error", "src dir/shared.h:1:31", undefined, "expected ';' after struct"],
    ["error", "src dir/a.c:5:16", undefined, "use of undeclared identifier 'missing_factor'"],
    ["warning", "b.c:3:23", undefined, "using the result of an assignment as a condition"],
    ["error", "c.cpp:8:15", undefined, "no viable conversion from 'int' to 'std::string'"],
    ["error", "c.cpp:3:47", undefined, "invalid operands to binary expression"],
    ["error", undefined, undefined, "multiple definition of value"],
    ["error", "d.c", undefined, "undefined reference to helper_never_defined"],
    ["error", "Makefile:4", undefined, "make: target a.o failed"],
    ["error", "Makefile:8", undefined, "make: target c.o failed"],
    ["error", "Makefile:10", undefined, "make: target link failed"],
  ]);
  assert(detailOf(got, "c.cpp:3:47").some((l) => l.includes("in instantiation of")));
});

Deno.test("clang's diagnostics with a Windows path (drive, backslashes, a space) are read as any other", () => {
  const log = [
    "C:\\Users\\dev\\my app\\src\\main.c:5:16: error: use of undeclared identifier 'missing_factor'",
    "    return x * missing_factor;",
    "               ^",
    "C:/src/lib.c:3:13: warning: unused function 'helper' [-Wunused-function]",
    "1 warning and 1 error generated.",
  ].join("\n");
  const got = triageText(log, { exitStatus: 1 }).findings;
  assertEquals(got.map((f) => [f.kind, f.location]), [
    ["error", "C:\\Users\\dev\\my app\\src\\main.c:5:16"],
    ["warning", "C:/src/lib.c:3:13"],
  ]);
});

Deno.test("a passing program that prints 'error:' and 'warning:' text is clean", () => {
  const r = triageFixture("gcc/variety_pass.log");
  assertEquals([r.outcome, r.findings.length], ["clean", 0]);
});

Deno.test("sanitizer reports from a folder with a space: the whole path of the first own frame", () => {
  expectFindings("sanitizer/variety_heap.log", [
    [
      "error",
      "/home/dev/project/my dir/heap.c:3",
      undefined,
      "AddressSanitizer: heap-buffer-overflow",
    ],
  ]);
  // The overflow happens inside libc's strcpy (the interceptor's frame): the caller is the place.
  expectFindings("sanitizer/variety_strcpy.log", [
    [
      "error",
      "/home/dev/project/my dir/cpy.c:3",
      undefined,
      "AddressSanitizer: heap-buffer-overflow",
    ],
  ]);
  expectFindings("sanitizer/variety_uaf.log", [
    ["error", "/home/dev/project/uaf.cpp:7", undefined, "AddressSanitizer: heap-use-after-free"],
  ]);
  expectFindings("sanitizer/variety_tsan.log", [
    ["error", "/home/dev/project/race.c:3", undefined, "ThreadSanitizer: data race"],
  ]);
});

const CART = "Cart > totals — ünïcode";

Deno.test("node --test's spec, tap and dot reporters: the same four failures; a suite failed by its tests is not one", () => {
  const at = "/home/dev/project/test%20dir/cart.test.mjs";
  for (const [name, nested] of [["spec", true], ["tap", true], ["dot", false]] as const) {
    const log = `node_test/variety_${name}.log`;
    const prefix = nested ? `${CART} > ` : "";
    expectFindings(log, [
      [
        "test_failure",
        `${at}:7:14`,
        `${prefix}adds line items`,
        "Expected values to be strictly equal",
      ],
      ["test_failure", `${at}:10:14`, `${prefix}compares objects`, "strictly deep-equal"],
      ["test_failure", `${at}:17:9`, "throws a multi-line error", "first line"],
      ["test_failure", `${at}:21:24`, "async rejection", "bad input: expected number"],
    ]);
  }
  // The values that differ travel in the detail, not only the diff's first lines.
  const spec = triageFixture("node_test/variety_spec.log").findings;
  assertEquals(detailOf(spec, `${CART} > compares objects`), [
    "+ actual - expected",
    "+     'b'",
    "-     'c'",
  ]);
});

Deno.test("deno test's pretty, dot and tap reporters from a folder with a space: each failure at its failing line", () => {
  const at = "/home/dev/project/src dir/cart_test.ts";
  for (const name of ["pretty", "dot", "tap"]) {
    const got = triageFixture(`deno/variety_${name}.log`).findings;
    assertEquals(
      got.map((f) => f.location),
      [`${at}:6:10`, `${at}:12:13`, `${at}:23:24`],
      `${name}:\n${brief(got)}`,
    );
    assert(got.every((f) => f.kind === "test_failure"), brief(got));
    // The step's parents ("1 test step failed.") are not failures of their own.
    assert(got.some((f) => f.test?.endsWith("inner fails")), brief(got));
    const diff = detailOf(got, "total — ünïcode name");
    assert(diff.includes("+     'b'") && diff.includes("-     'c'"), diff.join("\n"));
  }
});

Deno.test("node:test files run by deno test: the failures at the test file's frames, not Deno's node shim", () => {
  const at = "/home/dev/project/test dir/cart.test.mjs";
  expectFindings("deno/variety_node_test.log", [
    ["test_failure", `${at}:7:14`, `${CART} > adds line items`, "strictly equal"],
    ["test_failure", `${at}:10:14`, `${CART} > compares objects`, "strictly deep-equal"],
    ["test_failure", `${at}:17:9`, "throws a multi-line error", "first line"],
    ["test_failure", `${at}:21:24`, "async rejection", "bad input"],
  ]);
});

Deno.test("uncaught errors in Node and Deno: at the program's own frame, also when thrown inside the runtime's library", () => {
  expectFindings("crash/js_fs_error.log", [
    ["error", "/home/dev/project/fs_error.mjs:2:38", undefined, "Error: ENOENT"],
  ]);
  expectFindings("crash/js_undefined_read.log", [
    [
      "error",
      "/home/dev/project/undefined_read.mjs:2:38",
      undefined,
      "TypeError: Cannot read properties",
    ],
  ]);
  expectFindings("crash/js_timer_throw.log", [
    ["error", "/home/dev/project/timer_throw.cjs:1:26", undefined, "RangeError: limit exceeded"],
  ]);
  expectFindings("crash/js_reject.log", [
    ["error", "/home/dev/project/reject.mjs:1:31", undefined, "could not connect to db"],
  ]);
  expectFindings("deno/variety_uncaught.log", [
    ["error", "/home/dev/project/crash.ts:1:41", undefined, "Uncaught (in promise) SyntaxError"],
  ]);
});

Deno.test("passing runs that print 'FAILED:', 'Error:' and stack-like lines are clean", () => {
  for (const name of ["deno/variety_pass.log", "crash/js_prints_error.log"]) {
    const r = triageFixture(name);
    assertEquals([r.outcome, brief(r.findings)], ["clean", ""], name);
  }
  // ninja's own FAILED line is still read in ninja's output.
  const ninja =
    "[1/2] Building C object a.o\nFAILED: a.o\ncc -c a.c\nninja: build stopped: subcommand failed.\n";
  assertEquals(triageText(ninja, { exitStatus: 1 }).findings.map((f) => f.message), [
    "ninja: target a.o failed",
  ]);
});

Deno.test("pylint's parseable format gives what its default format gives, without the column", () => {
  const plain = triageFixture("python_lint/variety_pylint.log").findings;
  const parseable = triageFixture("python_lint/variety_pylint_parseable.log").findings;
  assertEquals(plain.length, 12);
  assertEquals(
    parseable.map((f) => [f.kind, f.location, f.message]),
    plain.map((f) => [f.kind, f.location!.replace(/:\d+$/, ""), f.message]),
  );
  assert(
    parseable.some((f) => f.kind === "error" && f.message.includes("E0602 undefined-variable")),
  );
});

Deno.test("mypy --pretty's wrapped message is read whole, as plain mypy prints it", () => {
  const want: Want[] = [
    ["error", "pkg dir/app.py:7", undefined, 'Unsupported operand types for + ("int" and "str")'],
    [
      "error",
      "pkg dir/app.py:18",
      undefined,
      'Incompatible types in assignment (expression has type "str", variable has type "int")',
    ],
  ];
  expectFindings("python_lint/variety_mypy.log", want);
  expectFindings("python_lint/variety_mypy_pretty.log", want);
});

Deno.test("flake8 and black --check --diff from a folder with a space; the linters over a clean file are clean", () => {
  const flake8 = triageFixture("python_lint/variety_flake8.log").findings;
  assertEquals(flake8.length, 7);
  assert(flake8.every((f) => f.kind === "error" && f.location?.startsWith("pkg dir/app.py:")));
  expectFindings("python_lint/variety_black_diff.log", [
    ["error", "pkg dir/app.py", undefined, "would be reformatted"],
  ]);
  const clean = triageFixture("python_lint/variety_clean.log");
  assertEquals([clean.outcome, clean.findings.length], ["clean", 0]);
});

const PRICE = "/home/dev/project/price_test.cpp";
/** What GoogleTest reports for the variety project, with or without RUN lines. */
const GTEST_VARIETY: Want[] = [
  ["test_failure", `${PRICE}:7`, "Price.Simple", "Which is: 6.001"],
  ["test_failure", `${PRICE}:8`, "Price.Near", "which exceeds 1e-4"],
  ["test_failure", `${PRICE}:11`, "Price.Strings", 'As Text: "naïve café"'],
  ["test_failure", `${PRICE}:13`, "Price.Truth", "a unit costs less than one"],
  ["test_failure", `${PRICE}:28`, "Price.Scoped", "iteration 1"],
  ["test_failure", `${PRICE}:23`, "Typed/0.Zero", "Which is: 1"],
  ["test_failure", `${PRICE}:23`, "Typed/1.Zero", "Which is: 1"],
  ["test_failure", `${PRICE}:17`, "Small/Qty.Positive/0", "actual: 1.001 vs 5"],
];

Deno.test("GoogleTest with --gtest_brief=1 (no RUN lines) gives what the full output gives", () => {
  expectFindings("gtest/variety_direct.log", GTEST_VARIETY);
  expectFindings("gtest/variety_brief.log", GTEST_VARIETY);
});

Deno.test("ctest -j and -V: GoogleTest's failures once each, and ctest's own for a crash, a timeout and a failing script", () => {
  const ctestOwn: Want[] = [
    ["test_failure", undefined, "crash_test", "SegFault"],
    ["test_failure", undefined, "slow_script", "Timeout"],
    ["test_failure", undefined, "plain_fail", "Failed"],
  ];
  expectFindings("gtest/variety_ctest_j.log", [...GTEST_VARIETY, ...ctestOwn]);
  expectFindings("gtest/variety_ctest_verbose.log", [...GTEST_VARIETY, ...ctestOwn]);
});

Deno.test("cargo test -q and --nocapture: nested modules, a non-ASCII name, an integration test and a doc test, each with its panic", () => {
  const want: Want[] = [
    [
      "test_failure",
      "src/lib.rs:25:13",
      "tests::nested::compares_orders",
      "orders differ for id 1",
    ],
    ["test_failure", "src/lib.rs:34:9", "tests::größe", "unicode test name"],
    ["test_failure", "src/lib.rs:11:15", "tests::parses_text", "not a number"],
    [
      "test_failure",
      "tests/integration.rs:3:5",
      "integration_adds",
      "assertion `left != right` failed",
    ],
    [
      "test_failure",
      "src/lib.rs:5:1",
      "src/lib.rs - add (line 3)",
      "assertion `left == right` failed",
    ],
  ];
  expectFindings("cargo/variety_quiet.log", want);
  // --nocapture: the doc test's panic is printed on its executable's thread 'main', under the test's line.
  const got = expectFindings("cargo/variety_nocapture.log", want);
  assertEquals(detailOf(got, "src/lib.rs - add (line 3)"), ["left: 4", "right: 5"]);
  assert(
    detailOf(got, "tests::nested::compares_orders").includes(
      'right: Order { id: 1, lines: ["a", "c"] }',
    ),
  );
});

Deno.test("prove with and without -v, and -j2: each failed Test::More test with its values, a subtest's group not again, a script's death", () => {
  for (const name of ["variety_prove", "variety_prove_j2", "variety_prove_verbose"]) {
    const inner = name === "variety_prove_verbose" ? "nested group > inner fails" : "inner fails";
    const got = expectFindings(`perl/${name}.log`, [
      ["test_failure", "t/cart.t:5", "total of two", "failed"],
      ["test_failure", "t/cart.t:6", "deep list", "failed"],
      ["test_failure", "t/cart.t:7", "ascii café", "failed"],
      ["test_failure", "t/cart.t:11", inner, "failed"],
      ["test_failure", "t/cart.t:18", "numeric compare", "failed"],
      ["error", "t/dies.t", undefined, "negative quantity: -1"],
    ]);
    assertEquals(detailOf(got, "total of two"), ["got: '4'", "expected: '3'"], name);
    assertEquals(detailOf(got, "numeric compare"), ["got: 3", "expected: 2"], name);
  }
});

Deno.test("a passing prove run whose diag says 'error:' and whose note says 'FAILED test' is clean", () => {
  const r = triageFixture("perl/variety_pass.log");
  assertEquals([r.outcome, r.findings.length], ["clean", 0]);
});

Deno.test("minitest, plain and --verbose: a spec's test with spaces in its name, an error at its backtrace's place, skips not failures", () => {
  const file = "test dir/cart_test.rb";
  for (const name of ["variety_minitest", "variety_minitest_verbose"]) {
    const got = expectFindings(`ruby/${name}.log`, [
      ["test_failure", `${file}:36`, "Cart spec#test_0001_computes ünïcode totals", "Expected: 1"],
      ["test_failure", `${file}:21`, "CartTest#test_message", "the stock was negative"],
      ["test_failure", `${file}:17`, "CartTest#test_raises", "NoMethodError: undefined method"],
      ["test_failure", `${file}:9`, "CartTest#test_total", "Expected: 3"],
      ["test_failure", `${file}:13`, "CartTest#test_hash_diff", "--- expected"],
    ]);
    assertEquals(detailOf(got, "CartTest#test_total"), ["Actual: 4"], name);
  }
});

Deno.test("go test -race: the raced test is placed at the race in the project's code; go vet's findings", () => {
  const got = expectFindings("go/variety_race.log", [
    ["test_failure", "vet_test.go:15", "TestHelper", "got 1, want 2"],
    ["test_failure", "/home/dev/project/vet.go:16", "TestRace", "race detected"],
    ["test_failure", "vet_test.go:28", "TestTable/a_b", 'case "a b" failed'],
    ["test_failure", "vet_test.go:28", "TestTable/ç/d", 'case "ç/d" failed'],
  ]);
  assert(detailOf(got, "TestRace").some((l) => l.startsWith("Previous write at ")));
  expectFindings("go/variety_vet.log", [
    ["error", "./vet.go:9:9", undefined, "format %s has arg n of wrong type int"],
    ["error", "./vet.go:12:14", undefined, "passes lock by value"],
    ["error", "./vet.go:12:46", undefined, "return copies lock value"],
  ]);
});

Deno.test("tsc --pretty with a folder whose name holds a space", () => {
  expectFindings("tsc/variety_pretty.log", [
    ["error", "src dir/cart.ts:3:49", undefined, "TS2339: Property 'quantity' does not exist"],
    ["error", "src dir/cart.ts:5:7", undefined, "TS2322: Type 'string' is not assignable"],
    ["error", "src dir/cart.ts:6:38", undefined, "TS2551: Property 'toFixed' does not exist"],
  ]);
});

const JS_FILE = "test dir/cart.test.js";

Deno.test("Jest and Vitest (default and verbose) from a folder with a space: each failure at its line in the test file", () => {
  const places = [`${JS_FILE}:5:25`, `${JS_FILE}:5:25`, `${JS_FILE}:8:43`, `${JS_FILE}:12:30`];
  const jest = expectFindings("jest/variety.log", [
    ["test_failure", places[0], "Cart › totals — ünïcode › total([1,2]) is 3", "toBe"],
    ["test_failure", places[1], "Cart › totals — ünïcode › total([5]) is 5", "toBe"],
    ["test_failure", places[2], "Cart › totals — ünïcode › compares objects", "toEqual"],
    ["test_failure", places[3], "Cart › throws", "TypeError: bad input"],
  ]);
  assert(detailOf(jest, "Cart › totals — ünïcode › total([1,2]) is 3").includes("Received: 4"));
  for (const name of ["vitest/variety.log", "vitest/variety_verbose.log"]) {
    const prefix = `${JS_FILE} > Cart > `;
    expectFindings(name, [
      [
        "test_failure",
        places[0],
        `${prefix}totals — ünïcode > total([1,2]) is 3`,
        "expected 4 to be 3",
      ],
      [
        "test_failure",
        places[1],
        `${prefix}totals — ünïcode > total([5]) is 5`,
        "expected 6 to be 5",
      ],
      [
        "test_failure",
        places[2],
        `${prefix}totals — ünïcode > compares objects`,
        "to deeply equal",
      ],
      ["test_failure", places[3], `${prefix}throws`, "TypeError: bad input"],
    ]);
  }
});

Deno.test("Mocha's spec and TAP reporters: the same failures, placed, the TAP one with its message and diff", () => {
  const at = "test dir/mocha.spec.js";
  for (const name of ["mocha/variety.log", "mocha/variety_tap.log"]) {
    expectFindings(name, [
      ["test_failure", `${at}:10:49`, "Cart async rejects", "db down"],
      ["test_failure", `${at}:5:49`, "Cart totals — ünïcode total of 1,2", "strictly equal"],
      ["test_failure", `${at}:5:49`, "Cart totals — ünïcode total of 5", "strictly equal"],
      [
        "test_failure",
        `${at}:7:49`,
        "Cart totals — ünïcode compares objects",
        "strictly deep-equal",
      ],
    ]);
  }
  const tap = triageFixture("mocha/variety_tap.log").findings;
  const diff = detailOf(tap, "Cart totals — ünïcode compares objects");
  assert(diff.includes("+     'b'") && diff.includes("-     'c'"), diff.join("\n"));
});

Deno.test("Jest over two files holding tests of the same names: each file's failure is its own finding", () => {
  for (const name of ["jest/two_files.log", "jest/two_files_verbose.log"]) {
    const got = expectFindings(name, [
      ["test_failure", "api/parse.test.js:4:18", "parse › rejects empty input", "toThrow"],
      ["test_failure", "web/parse.test.js:4:25", "parse › rejects empty input", "toBeUndefined"],
      ["test_failure", "web/parse.test.js:7:24", "parse › reads a number", "toBe"],
    ]);
    assertEquals(got.map((f) => f.file), [
      "api/parse.test.js",
      "web/parse.test.js",
      "web/parse.test.js",
    ]);
  }
});

const ACCOUNTS = "tests/test_accounts.py";

Deno.test("pytest errors outside a test's body: collection, a fixture's setup and teardown; a test that fails and then errors is both", () => {
  expectFindings("pytest/setup_errors.log", [
    ["error", "tests/test_broken_import.py:1", undefined, "No module named 'accounts'"],
    ["error", "tests/conftest.py:6", `${ACCOUNTS}::test_balance`, "ConnectionError"],
    ["error", "tests/conftest.py:12", `${ACCOUNTS}::test_login`, "session could not be closed"],
    ["error", "tests/conftest.py:12", `${ACCOUNTS}::test_rename`, "session could not be closed"],
    ["test_failure", `${ACCOUNTS}:13`, `${ACCOUNTS}::test_rename`, "assert 'ADA' == 'ADA!'"],
    ["test_failure", `${ACCOUNTS}:22`, `${ACCOUNTS}::TestLimits::test_daily`, "KeyError"],
  ]);
  // -x stops at the collection error: the one error, and the run is not called clean.
  const stopped = triageFixture("pytest/setup_errors_x.log");
  assertEquals(stopped.outcome, "failures");
  expectFindings("pytest/setup_errors_x.log", [
    ["error", "tests/test_broken_import.py:1", undefined, "No module named 'accounts'"],
  ]);
  // -q --lf reruns the failures: the same failure and errors of that file, from the quiet form.
  expectFindings("pytest/setup_errors_lf.log", [
    ["error", "tests/conftest.py:6", `${ACCOUNTS}::test_balance`, "ConnectionError"],
    ["error", "tests/conftest.py:12", `${ACCOUNTS}::test_login`, "session could not be closed"],
    ["error", "tests/conftest.py:12", `${ACCOUNTS}::test_rename`, "session could not be closed"],
    ["test_failure", `${ACCOUNTS}:13`, `${ACCOUNTS}::test_rename`, "assert 'ADA' == 'ADA!'"],
    ["test_failure", `${ACCOUNTS}:22`, `${ACCOUNTS}::TestLimits::test_daily`, "KeyError"],
  ]);
});

Deno.test("unittest errors in setUpClass and tearDown: each reported error is a finding, a fixture method's named", () => {
  const at = "/home/dev/project/test_unit_setup.py";
  const id = "test_unit_setup.ClientTest";
  expectFindings("pytest/setup_errors_unittest.log", [
    ["test_failure", `${at}:18`, `${id}.test_add (tearDown)`, "cleanup left 2 open files"],
    ["test_failure", `${at}:25`, `${id}.test_remove`, "IndexError: pop from empty list"],
    ["test_failure", `${at}:18`, `${id}.test_remove (tearDown)`, "cleanup left 2 open files"],
    ["test_failure", `${at}:7`, "test_unit_setup.ServerTest.setUpClass", "port 8080"],
  ]);
});

Deno.test("go test, build and vet on a module whose imported package does not compile: the package's errors, once each", () => {
  for (const name of ["go/dep_fail_test.log", "go/dep_fail_build.log", "go/dep_fail_vet.log"]) {
    expectFindings(name, [
      ["error", "internal/money/money.go:8:17", undefined, "undefined: undefinedFee"],
      ["error", "internal/money/money.go:13:9", undefined, "undefined: fmt"],
    ]);
  }
});

Deno.test("make -j2 with gcc's messages from two broken files: every error and warning at its own file", () => {
  const got = triageFixture("gcc/parallel.log").findings;
  // make's two failed targets share their rule's place; each is named.
  const targets = got.filter((f) => f.location === "Makefile:11").map((f) => f.message).sort();
  assertEquals(targets, [
    "make: target src/beta.o failed (Error 1)",
    "make: target src/gamma.o failed (Error 1)",
  ]);
  const compiler = got.filter((f) => f.location !== "Makefile:11");
  assertEquals(compiler.length, 8, brief(got));
  for (
    const [kind, location, piece] of [
      ["error", "src/beta.c:4:3", "expected ‘,’ or ‘;’ before ‘return’"],
      ["error", "src/gamma.c:3:11", "has no member named ‘z’"],
      ["error", "src/gamma.c:3:17", "‘missing_offset’ undeclared"],
      ["warning", "src/beta.c:3:10", "unused variable ‘n’"],
      ["warning", "src/beta.c:5:1", "control reaches end"],
      ["warning", "src/alpha.c:3:7", "unused variable ‘unused_alpha’"],
      ["warning", "src/delta.c:3:7", "unused variable ‘unused_delta’"],
      ["warning", "src/gamma.c:4:1", "control reaches end"],
    ]
  ) {
    const here = compiler.filter((f) => f.kind === kind && f.location === location);
    assert(here.length === 1 && here[0].message.includes(piece), `${location}:\n${brief(got)}`);
  }
});

Deno.test("node --test with a failing before hook: the suite's error is the finding, its cancelled tests are not (spec and TAP)", () => {
  const at = "/home/dev/project/hooks.test.mjs";
  for (const name of ["node_test/hooks_spec.log", "node_test/hooks_tap.log"]) {
    expectFindings(name, [
      ["test_failure", `${at}:12:14`, "store > when connected > adds an item", "deep-equal"],
      ["test_failure", `${at}:20:13`, "store > when offline", "cache directory is not writable"],
      ["test_failure", `${at}:35:12`, "report > totals", "one and one make three"],
    ]);
  }
});

Deno.test("cargo build errors with notes and help lines: each error at its place, the help in its detail", () => {
  const got = expectFindings("cargo/help_notes.log", [
    ["error", "src/main.rs:25:23", undefined, "E0308: mismatched types"],
    ["error", "src/main.rs:11:20", undefined, "E0515: cannot return reference"],
    ["error", "src/main.rs:19:5", undefined, "E0382: borrow of moved value"],
  ]);
  assert(detailOf(got, "src/main.rs:19:5").some((l) => l.startsWith("help: consider cloning")));
});

Deno.test("deno test whose first step fails and leaves the next failing: each step at its line, the group not counted", () => {
  const at = "/home/dev/project/store_test.ts";
  expectFindings("deno/hooks.log", [
    ["test_failure", `${at}:8:11`, "store > opens the database", "database file is locked"],
    ["test_failure", `${at}:11:5`, "store > reads a value", "expected 1, got undefined"],
    ["test_failure", `${at}:18:5`, "report totals", "expected 4, got 3"],
  ]);
});

Deno.test("prove -r over nested folders, with and without -v: each failed test at its file, a script that died", () => {
  for (const name of ["perl/recursive.log", "perl/recursive_verbose.log"]) {
    expectFindings(name, [
      ["test_failure", "t/unit/math.t:6", "divides whole numbers", "failed"],
      ["test_failure", "t/unit/text.t:6", "starts with world", "failed"],
      ["error", "t/integration/db.t", undefined, "lost the connection to the test database"],
    ]);
  }
});

Deno.test("a failed run whose only lines are shellcheck notes, or a bash -x trace, is explained: the notes, the traced command's complaint", () => {
  // ShellCheck fails a run for its notes: they are the run's findings (the mildest kind).
  const notes = triageFixture("shellcheck/trace_gcc.log");
  assertEquals(notes.outcome, "failures");
  expectFindings("shellcheck/trace_gcc.log", [
    ["warning", "release.sh:6:10", undefined, "note: Double quote to prevent globbing"],
  ]);
  // set -e stopped the script at its last traced command: its complaint is the failure.
  const traced = expectFindings("shellcheck/trace_bash_x.log", [
    ["error", undefined, undefined, "cp: cannot stat 'missing-notes.txt'"],
  ]);
  assertEquals(traced[0].detail, ["+ cp missing-notes.txt dist/1.2/"]);
});

Deno.test("Jest over 22 files, two failing with one test name: two findings, though the closing summary repeats both", () => {
  expectFindings("jest/many_files.log", [
    ["test_failure", "unit_05.test.js:1:33", "works", "toBe"],
    ["test_failure", "unit_17.test.js:1:35", "works", "toBe"],
  ]);
});

/**
 * Every reader against the real output of the real tool (test/fixtures/condense,
 * produced by scripts/fixtures/condense.sh; swift's by hand, see its README).
 * Each failing log must give exactly the failures its small project was
 * written to have, each once; each passing log must give none, though they
 * all print "error" in harmless text.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readAll } from "../../src/condense/readers/index.ts";
import { triageText } from "../../src/condense/triage.ts";
import { type Finding, findingKey } from "../../src/condense/findings.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/condense/", import.meta.url));

function read(name: string): Finding[] {
  return readAll(Deno.readTextFileSync(join(FIXTURES, name))).findings;
}

/** [kind, location, test, a piece of the message] — location and test exactly as the tool printed them. */
type Want = [Finding["kind"], string | undefined, string | undefined, string];

function expectFindings(name: string, want: Want[]): void {
  const got = read(name);
  const brief = got.map((f) => `${f.kind} ${f.location ?? "-"} ${f.test ?? "-"} ${f.message}`).join(
    "\n",
  );
  assertEquals(
    got.length,
    want.length,
    `${name}: expected ${want.length} findings, got:\n${brief}`,
  );
  for (const [kind, location, test, piece] of want) {
    const here = got.filter((f) => f.kind === kind && f.location === location && f.test === test);
    assert(here.length > 0, `${name}: no ${kind} at ${location} for ${test}; got:\n${brief}`);
    assert(
      here.some((f) => f.message.includes(piece)),
      `${name}: ${kind} at ${location}: message "${
        here.map((f) => f.message).join(" / ")
      }" lacks "${piece}"`,
    );
  }
}

const PASSING = [
  "gcc/pass.log",
  "cargo/pass.log",
  "cargo/should_panic_pass.log",
  "pytest/pass.log",
  "pytest/unittest_pass.log",
  "go/pass.log",
  "tsc/pass.log",
  "eslint/pass.log",
  "jest/pass.log",
  "vitest/pass.log",
  "mocha/pass.log",
  "node_test/pass_spec.log",
  "node_test/pass_tap.log",
  "deno/pass.log",
  "maven/pass.log",
  "ruby/rspec_pass.log",
  "ruby/minitest_pass.log",
  "shellcheck/pass.log",
  "swift/xctest_pass.log",
  "swift/swift_testing_pass.log",
  "gtest/gtest_pass.log",
];

Deno.test("a passing run yields no findings, whatever harmless 'error' text it prints", () => {
  for (const name of PASSING) {
    const text = Deno.readTextFileSync(join(FIXTURES, name));
    const findings = readAll(text).findings;
    assertEquals(findings, [], `${name} gave findings`);
  }
});

Deno.test("a should_panic test's printed panic is no failure: the runner said ok (real cargo test --nocapture)", () => {
  const text = Deno.readTextFileSync(join(FIXTURES, "cargo/should_panic_pass.log"));
  assert(/panicked at src\/lib\.rs/.test(text), "the fixture shows the expected panics");
  assertEquals(triageText(text).outcome, "clean");
  assertEquals(triageText(text).findings, []);
  // The same panic in a test the runner failed is that test's failure, at the panic's place.
  const failed = text.replace(
    "test tests::refuses_zero - should panic ... ok",
    "test tests::refuses_zero - should panic ... FAILED",
  );
  assertEquals(
    readAll(failed).findings.map((f) => [f.kind, f.test, f.location, f.message]),
    [[
      "test_failure",
      "tests::refuses_zero",
      "src/lib.rs:3:9",
      "divide by zero: 1 / 0",
    ]],
  );
});

Deno.test("ESLint: the closing ✖ summary is no failed test; warnings alone are clean; --max-warnings is the error", () => {
  const warnings = triageText(
    Deno.readTextFileSync(join(FIXTURES, "eslint/warnings.log")),
    { exitStatus: 0 },
  );
  assertEquals(warnings.outcome, "clean");
  assertEquals(warnings.counts, { errors: 0, test_failures: 0, warnings: 3 });
  const over = triageText(Deno.readTextFileSync(join(FIXTURES, "eslint/max_warnings.log")), {
    exitStatus: 1,
  });
  assertEquals(over.outcome, "failures");
  assertEquals(over.counts, { errors: 1, test_failures: 0, warnings: 3 });
  assertEquals(over.findings[0].message, "more warnings than --max-warnings 0 allows");
  // A summary with an indented line under it (the shape a node --test failure has) is still a summary.
  const summary = [
    "src/total.js",
    "  4:9  warning  'spare' is defined but never used  no-unused-vars",
    "",
    "✖ 1 problem (0 errors, 1 warning)",
    "  0 errors and 1 warning potentially fixable with the `--fix` option.",
    "",
  ].join("\n");
  assertEquals(readAll(summary).findings.map((f) => f.kind), ["warning"]);
});

Deno.test("the passing fixtures do print 'error' (so the test above means something)", () => {
  const withError = PASSING.filter((n) => /error/i.test(Deno.readTextFileSync(join(FIXTURES, n))));
  assert(withError.length >= 15, `only ${withError.length} passing fixtures mention error`);
});

Deno.test("gcc through make: errors, warnings, the header's error, make's Error 1", () => {
  expectFindings("gcc/fail.log", [
    ["error", "util.h:3:45", undefined, "‘undefined_factor’ undeclared"],
    ["error", "main.c:8:12", undefined, "‘missing_value’ undeclared"],
    ["warning", "main.c:6:17", undefined, "makes integer from pointer"],
    ["warning", "main.c:5:9", undefined, "unused variable ‘unused’"],
    ["warning", "util.h:3:63", undefined, "control reaches end"],
    ["error", "Makefile:4", undefined, "main.o"],
  ]);
  const first = read("gcc/fail.log")[0];
  assert(first.detail?.some((d) => d.includes("^~~~")), "the caret line is detail");
});

Deno.test("gcc: linker's undefined reference and a C++ overload error with its notes folded in", () => {
  expectFindings("gcc/link.log", [
    ["error", "link.c", undefined, "undefined reference to helper"],
    ["error", "Makefile:6", undefined, "target link failed (Error 1)"],
  ]);
  expectFindings("gcc/cxx_template.log", [
    ["error", "tmpl.cpp:6:21", undefined, "no matching function for call"],
    ["error", "Makefile:8", undefined, "tmpl"],
  ]);
});

Deno.test("gcc: a long noisy build keeps its one error among 120 warnings", () => {
  const got = read("gcc/noisy.log");
  const errors = got.filter((f) => f.kind === "error");
  assertEquals(errors.map((f) => f.location), ["unit_77.c:1:27", "Makefile:4"]);
  assert(errors[1].message.includes("unit_77.o"), errors[1].message);
  assertEquals(got.filter((f) => f.kind === "warning").length, 120);
});

Deno.test("rustc via cargo build: each error with its place, in both message formats", () => {
  expectFindings("cargo/build_fail.log", [
    ["error", "src/lib.rs:8:25", undefined, "E0425: cannot find value `nme`"],
    ["error", "src/lib.rs:3:18", undefined, "E0308: mismatched types"],
  ]);
  expectFindings("cargo/build_fail_short.log", [
    ["error", "src/lib.rs:8:25", undefined, "E0425"],
    ["error", "src/lib.rs:3:18", undefined, "E0308"],
  ]);
});

Deno.test("cargo test (also with --nocapture, where panics print inline): one finding per failing test with the panic's place and left/right", () => {
  for (
    const name of [
      "cargo/test_fail.log",
      "cargo/test_fail_color.log",
      "cargo/test_fail_nocapture.log",
    ]
  ) {
    expectFindings(name, [
      [
        "test_failure",
        "src/lib.rs:20:9",
        "tests::adds_large_numbers",
        "assertion `left == right` failed",
      ],
      [
        "test_failure",
        "src/lib.rs:37:9",
        "tests::compares_strings",
        "assertion `left != right` failed",
      ],
      ["test_failure", "src/lib.rs:31:40", "tests::parses_level", "called `Result::unwrap()`"],
    ]);
    const large = read(name).find((f) => f.test === "tests::adds_large_numbers")!;
    assertEquals(large.detail, ["left: 43", "right: 42"]);
  }
});

Deno.test("pytest: failures and the fixture error, summary and sections merged, in every traceback style", () => {
  const want: Want[] = [
    ["test_failure", "test_calc.py:10", "test_calc.py::test_divide_rounding", "assert 3.5 == 3"],
    ["test_failure", "test_calc.py:14", "test_calc.py::test_divide_by_zero", "ZeroDivisionError"],
    [
      "test_failure",
      "test_calc.py:24",
      "test_calc.py::TestParse::test_parse_list",
      "assert [1, 2] == [1, 2, 3]",
    ],
    [
      "test_failure",
      "test_calc.py:28",
      "test_calc.py::TestParse::test_parse_param[2-3]",
      "assert 2 == 3",
    ],
    ["error", "test_calc.py:33", "test_calc.py::test_uses_broken", "fixture could not start"],
  ];
  expectFindings("pytest/fail.log", want);
  expectFindings("pytest/fail_verbose.log", want);
  // --tb=line prints no titled sections: each failure's lines and place, in the summary's order. Its one
  // place is the innermost (calc.py for the division); the fixture error's section has none.
  expectFindings("pytest/fail_line.log", [
    ["test_failure", "/home/dev/project/test_calc.py:10", want[0][2], want[0][3]],
    ["test_failure", "/home/dev/project/calc.py:2", want[1][2], want[1][3]],
    ["test_failure", "/home/dev/project/test_calc.py:24", want[2][2], want[2][3]],
    ["test_failure", "/home/dev/project/test_calc.py:28", want[3][2], want[3][3]],
    ["error", undefined, want[4][2], want[4][3]],
  ]);
});

Deno.test("pytest: collection errors name the module and the exception", () => {
  expectFindings("pytest/collect_error.log", [
    ["error", "test_broken.py:1", undefined, "ModuleNotFoundError"],
    ["error", "/home/dev/project/test_syntax.py:1", undefined, "SyntaxError: invalid syntax"],
  ]);
});

Deno.test("pytest: a long noisy run (400 tests, logs, warnings) gives its one failure and its warnings summary", () => {
  const warned = [0, 50, 100, 150, 200, 250, 300, 350];
  expectFindings("pytest/noisy.log", [
    ["test_failure", "test_noisy.py:14", "test_noisy.py::test_many[313]", "item 313 was rejected"],
    ...warned.map((n): Want => [
      "warning",
      "/home/dev/project/test_noisy.py:13",
      `test_noisy.py::test_many[${n}]`,
      `DeprecationWarning: deprecated option used by item ${n}`,
    ]),
  ]);
});

Deno.test("unittest: FAIL and ERROR blocks with the test's own frame", () => {
  expectFindings("pytest/unittest_fail.log", [
    [
      "test_failure",
      "/home/dev/project/test_unit.py:7",
      "test_unit.CalcTest.test_divide",
      "AssertionError: 3.0 != 4",
    ],
    [
      "test_failure",
      "/home/dev/project/test_unit.py:10",
      "test_unit.CalcTest.test_parse",
      "ValueError",
    ],
  ]);
});

Deno.test("go: build and vet diagnostics, test failures with subtests and a panic", () => {
  const build: Want[] = [
    ["error", "./calc.go:6:21", undefined, "cannot use a + b"],
    ["error", "./calc.go:7:9", undefined, "cannot use total"],
    ["error", "./calc.go:11:27", undefined, "undefined: undefinedValue"],
  ];
  expectFindings("go/build_fail.log", build);
  expectFindings("go/test_compile_fail.log", build);
  expectFindings("go/vet_fail.log", [[
    "error",
    "./calc.go:20:2",
    undefined,
    "fmt.Printf format %s",
  ]]);
  const tests: Want[] = [
    ["test_failure", "calc_test.go:13", "TestAddLarge", "Add(20, 22) = 43, want 42"],
    ["test_failure", "calc_test.go:30", "TestTable/two", 'Parse("2") = 2, want 3'],
    [
      "test_failure",
      "/home/dev/project/calc_test.go:38",
      "TestPanics",
      "panic: assignment to entry in nil map",
    ],
  ];
  expectFindings("go/test_fail.log", tests);
  expectFindings("go/test_fail_verbose.log", tests);
});

Deno.test("tsc: plain and --pretty output give the same five errors", () => {
  const want: Want[] = [
    ["error", "src/app.ts:4:28", undefined, "TS2367"],
    ["error", "src/app.ts:7:7", undefined, "TS2322"],
    ["error", "src/app.ts:8:22", undefined, "TS2532"],
    ["error", "src/util.ts:1:23", undefined, "TS7006"],
    ["error", "src/util.ts:2:31", undefined, "TS2304: Cannot find name 'missing'"],
  ];
  expectFindings("tsc/fail.log", want);
  expectFindings("tsc/fail_pretty.log", want);
});

Deno.test("eslint: stylish and unix formatters, errors and the warning, with rule names", () => {
  for (const name of ["eslint/fail_stylish.log", "eslint/fail_unix.log"]) {
    expectFindings(name, [
      ["error", "/home/dev/project/helper.js:1:37", undefined, "no-unused-vars"],
      ["error", "/home/dev/project/helper.js:2:3", undefined, "no-debugger"],
      ["error", "/home/dev/project/server.js:1:7", undefined, "'unusedHelper' is assigned"],
      ["error", "/home/dev/project/server.js:4:22", undefined, "eqeqeq"],
      ["warning", "/home/dev/project/server.js:5:5", undefined, "no-console"],
      ["error", "/home/dev/project/server.js:7:10", undefined, "'undefinedThing' is not defined"],
    ]);
  }
});

Deno.test("jest: failing tests by full name, the suite that failed to run as an error; colour changes nothing", () => {
  for (const name of ["jest/fail.log", "jest/fail_color.log"]) {
    expectFindings(name, [
      ["test_failure", "sum.test.js:8:25", "sum › adds large numbers", "toBe"],
      ["test_failure", "sum.test.js:12:50", "sum › objects › builds a record", "toEqual"],
      ["test_failure", "sum.test.js:22:10", "parses text", "not a number: abc"],
      ["error", "broken.test.js:1:21", undefined, "Cannot find module './does-not-exist'"],
    ]);
  }
});

Deno.test("vitest: Failed Tests and Failed Suites, once each (the ✓/× tree repeats them)", () => {
  expectFindings("vitest/fail.log", [
    [
      "test_failure",
      "sum.test.js:9:25",
      "sum.test.js > sum > adds large numbers",
      "expected 43 to be 42",
    ],
    [
      "test_failure",
      "sum.test.js:13:50",
      "sum.test.js > sum > objects > builds a record",
      "deeply equal",
    ],
    ["test_failure", "sum.test.js:23:10", "sum.test.js > parses text", "not a number: abc"],
    ["error", "broken.test.js:2:1", undefined, "Cannot find module"],
  ]);
});

Deno.test("mocha: numbered failures with multi-line titles, a failing hook included", () => {
  expectFindings("mocha/fail.log", [
    ["test_failure", "test/sum.test.js:27:22", "parses text", "not a number: abc"],
    ["test_failure", "test/sum.test.js:9:12", "sum adds large numbers", "strictly equal"],
    ["test_failure", "test/sum.test.js:13:14", "sum objects builds a record", "deep-equal"],
    [
      "test_failure",
      "test/sum.test.js:17:32",
      'sum hooks "before all" hook for "is skipped by the hook"',
      "setup failed",
    ],
  ]);
});

Deno.test("node --test: spec and TAP reporters give the same three failures, suites not counted", () => {
  const want: Want[] = [
    [
      "test_failure",
      "/home/dev/project/sum.test.js:10:12",
      "sum > adds large numbers",
      "strictly equal",
    ],
    [
      "test_failure",
      "/home/dev/project/sum.test.js:14:14",
      "sum > objects > builds a record",
      "deep-equal",
    ],
    ["test_failure", "/home/dev/project/sum.test.js:24:22", "parses text", "not a number: abc"],
  ];
  expectFindings("node_test/fail_spec.log", want);
  expectFindings("node_test/fail_tap.log", want);
});

Deno.test("deno test: ERRORS and FAILURES are the same failures; steps are named under their test", () => {
  expectFindings("deno/test_fail.log", [
    [
      "test_failure",
      "/home/dev/project/calc_test.ts:16:3",
      "adds large numbers",
      "actual 43, expected 42",
    ],
    [
      "test_failure",
      "/home/dev/project/calc_test.ts:26:5",
      "steps > second step fails",
      "actual [1,2]",
    ],
  ]);
});

Deno.test("deno check: TS errors at the file:// place, related information as detail", () => {
  expectFindings("deno/check_fail.log", [
    ["error", "/home/dev/project/main.ts:4:17", undefined, "TS2339: Property 'hostname'"],
    ["error", "/home/dev/project/main.ts:7:7", undefined, "TS2322"],
    ["error", "/home/dev/project/main.ts:8:15", undefined, "TS2322"],
  ]);
});

Deno.test("javac and Maven's compiler: each error once though Maven prints it twice", () => {
  expectFindings("maven/javac_fail.log", [
    ["error", "src/main/java/demo/Calc.java:7", undefined, "incompatible types"],
    ["error", "src/main/java/demo/Calc.java:8", undefined, "incompatible types"],
    ["error", "src/main/java/demo/Calc.java:12", undefined, "cannot find symbol"],
  ]);
  expectFindings("maven/compile_fail.log", [
    [
      "error",
      "/home/dev/project/src/main/java/demo/Calc.java:7:26",
      undefined,
      "incompatible types",
    ],
    [
      "error",
      "/home/dev/project/src/main/java/demo/Calc.java:8:16",
      undefined,
      "incompatible types",
    ],
    [
      "error",
      "/home/dev/project/src/main/java/demo/Calc.java:12:21",
      undefined,
      "cannot find symbol",
    ],
  ]);
});

Deno.test("Surefire: one finding per test though the block and the summary both report it", () => {
  expectFindings("maven/test_fail.log", [
    [
      "test_failure",
      "CalcTest.java:16",
      "demo.CalcTest.addsLargeNumbers",
      "expected: <42> but was: <43>",
    ],
    ["test_failure", "CalcTest.java:26", "demo.CalcTest.parsesText", "NumberFormatException"],
  ]);
});

Deno.test("RSpec and minitest: failures and errors with the spec's own line", () => {
  expectFindings("ruby/rspec_fail.log", [
    ["test_failure", "./spec/calc_spec.rb:19", "Calc parses text", "ArgumentError"],
    ["test_failure", "./spec/calc_spec.rb:10", "Calc.add adds large numbers", "expected: 42"],
  ]);
  expectFindings("ruby/minitest_fail.log", [
    ["test_failure", "calc_test.rb:18", "CalcTest#test_parses", "ArgumentError"],
    ["test_failure", "calc_test.rb:10", "CalcTest#test_adds_large", "Expected: 42"],
  ]);
});

Deno.test("shellcheck: tty and gcc formats give the same warnings, its info notes as notes", () => {
  const want: Want[] = [
    ["warning", "deploy.sh:3:12", undefined, "note: Double quote to prevent globbing"],
    ["warning", "deploy.sh:7:6", undefined, "note: Double quote to prevent globbing"],
    ["warning", "deploy.sh:9:10", undefined, "note: Double quote to prevent globbing"],
    ["warning", "deploy.sh:7:14", undefined, "SC3014"],
    ["warning", "deploy.sh:8:3", undefined, "SC2164"],
    ["warning", "deploy.sh:9:10", undefined, "SC2115"],
    ["warning", "deploy.sh:11:7", undefined, "SC2154"],
    ["warning", "deploy.sh:11:7", undefined, "SC3054"],
  ];
  expectFindings("shellcheck/fail_tty.log", want);
  expectFindings("shellcheck/fail_gcc.log", want);
});

Deno.test("swift (hand-written fixtures): build errors, XCTest on Linux and macOS, swift-testing", () => {
  expectFindings("swift/build_fail.log", [
    [
      "error",
      "/home/dev/project/Sources/Calc/Calc.swift:4:16",
      undefined,
      "cannot convert return expression",
    ],
    ["warning", "/home/dev/project/Sources/Calc/Calc.swift:8:9", undefined, "never used"],
    ["error", "/home/dev/project/Sources/Calc/Calc.swift:9:16", undefined, "cannot find 'txt'"],
  ]);
  expectFindings("swift/xctest_linux_fail.log", [
    [
      "test_failure",
      "/home/dev/project/Tests/CalcTests/CalcTests.swift:12",
      "CalcTests.testAddsLargeNumbers",
      "XCTAssertEqual failed",
    ],
    [
      "test_failure",
      "/home/dev/project/Tests/CalcTests/CalcTests.swift:24",
      "CalcTests.testParsesText",
      "XCTAssertNotNil failed",
    ],
  ]);
  expectFindings("swift/xctest_macos_fail.log", [
    [
      "test_failure",
      "/Users/dev/project/Tests/CalcTests/CalcTests.swift:12",
      "CalcTests.CalcTests.testAddsLargeNumbers",
      "XCTAssertEqual",
    ],
    ["test_failure", undefined, "CalcTests.CalcTests.testCrashes", "failed"],
  ]);
  expectFindings("swift/swift_testing_fail.log", [
    ["test_failure", "CalcTests.swift:10:5", "addsLargeNumbers()", "Expectation failed"],
    ["test_failure", "CalcTests.swift:20:5", "parsesText()", "Caught error"],
  ]);
  expectFindings("swift/swift_testing_macos_fail.log", [
    ["test_failure", "CalcTests.swift:10:5", "addsLargeNumbers()", "Expectation failed"],
  ]);
});

Deno.test("all the logs one after another (as a CI log of several steps): exactly the union of each log's findings", () => {
  const names: string[] = [];
  for (const dir of [...Deno.readDirSync(FIXTURES)].sort((a, b) => a.name.localeCompare(b.name))) {
    if (!dir.isDirectory) continue;
    for (
      const f of [...Deno.readDirSync(join(FIXTURES, dir.name))].sort((a, b) =>
        a.name.localeCompare(b.name)
      )
    ) {
      if (f.name.endsWith(".log")) names.push(`${dir.name}/${f.name}`);
    }
  }
  assert(names.length >= 50, `only ${names.length} logs`);
  // The same test failing in two logs (spec and TAP reporters of one run) is one finding: compare identities.
  // Each log is read as a part of the longer output (not its end): what a log's end alone says (a
  // test that never reported, a script's last command) does not hold where another log follows.
  const each = new Set(
    names.flatMap((n) =>
      readAll(Deno.readTextFileSync(join(FIXTURES, n)), { final: false }).findings.map(findingKey)
    ),
  );
  const together = readAll(names.map((n) => Deno.readTextFileSync(join(FIXTURES, n))).join("\n"))
    .findings.map(findingKey);
  assertEquals(new Set(together), each);
  assertEquals(together.length, each.size);
});

Deno.test("a program that died: Python traceback, uncaught Node.js exception, Java exception, Rust panic", () => {
  expectFindings("crash/python.log", [
    [
      "error",
      "/home/dev/project/config.py:6",
      undefined,
      "json.decoder.JSONDecodeError: Expecting property name",
    ],
  ]);
  expectFindings("crash/node.log", [[
    "error",
    "/home/dev/project/boom.js:6:27",
    undefined,
    "TypeError: no port in",
  ]]);
  expectFindings("crash/java.log", [[
    "error",
    "Boom.java:5",
    undefined,
    "java.lang.ArrayIndexOutOfBoundsException: Index 5",
  ]]);
  expectFindings("crash/rust.log", [["error", "boom.rs:2:25", undefined, "port must be a number"]]);
});

Deno.test("long noisy runs of cargo test and go test -v: the one failure among 300 tests that print 'error' text", () => {
  expectFindings("cargo/noisy.log", [
    ["test_failure", "src/lib.rs:437:72", "tests::item_217", "item 217 was rejected"],
    ["warning", "src/lib.rs:1:36", undefined, "unused variable"],
  ]);
  expectFindings("go/noisy.log", [[
    "test_failure",
    "noisy_test.go:1520",
    "TestItem217",
    "item 217 was rejected",
  ]]);
});

Deno.test("a long noisy jest run: 200 tests logging 'error' text to the console, one failure", () => {
  expectFindings("jest/noisy.log", [["test_failure", "noisy.test.js:118:99", "item 117", "toBe"]]);
});

Deno.test("Node's uncaught error in an ES module: the file:/// place and the frame in the project", () => {
  expectFindings("crash/node_esm.log", [[
    "error",
    "/home/dev/project/app.mjs:3:31",
    undefined,
    "TypeError: Cannot read properties of undefined (reading 'toFixed')",
  ]]);
});

Deno.test("sanitizers (gcc 12): one error per report at the first frame in the project; one per leak; UBSan's line", () => {
  expectFindings("sanitizer/asan.log", [[
    "error",
    "/home/dev/project/asan.c:2",
    undefined,
    "AddressSanitizer: heap-buffer-overflow",
  ]]);
  assertEquals(read("sanitizer/asan.log")[0].detail, ["WRITE of size 4"]);
  expectFindings("sanitizer/lsan.log", [[
    "error",
    "/home/dev/project/leak.c:3",
    undefined,
    "LeakSanitizer: direct leak of 7 byte(s)",
  ]]);
  expectFindings("sanitizer/ubsan.log", [[
    "error",
    "ub.c:3:34",
    undefined,
    "runtime error: signed integer overflow",
  ]]);
  // The whole report is accounted for: nothing of it is left for the model.
  for (const name of ["sanitizer/asan.log", "sanitizer/lsan.log"]) {
    const r = triageText(Deno.readTextFileSync(join(FIXTURES, name)), { exitStatus: 1 });
    assertEquals(r.unexplained, [], name);
  }
});

Deno.test("sanitizer reports as the format defines them: several leaks, a ThreadSanitizer race, frames without source", () => {
  const text = [
    "==4242==ERROR: LeakSanitizer: detected memory leaks",
    "",
    "Direct leak of 32 byte(s) in 2 object(s) allocated from:",
    "    #0 0x7f00aa in malloc (/usr/lib/x86_64-linux-gnu/libasan.so.8+0xdb9cf)",
    "    #1 0x5500bb in make_basket /src/shop/basket.c:14:9",
    "",
    "Indirect leak of 8 byte(s) in 1 object(s) allocated from:",
    "    #0 0x7f00aa in __interceptor_calloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:77",
    "    #1 0x5500cc in add_item /src/shop/item.c:30",
    "",
    "SUMMARY: AddressSanitizer: 40 byte(s) leaked in 3 allocation(s).",
    "WARNING: ThreadSanitizer: data race (pid=77)",
    "  Write of size 4 at 0x7b04 by thread T1:",
    "    #0 bump /src/shop/counter.c:8:11 (shop+0x12a9)",
    "    #1 main /src/shop/main.c:20:3 (shop+0x1300) (BuildId: 4f2a)",
    "SUMMARY: ThreadSanitizer: data race /src/shop/counter.c:8:11 in bump",
  ].join("\n");
  assertEquals(readAll(text).findings.map((f) => [f.location, f.message]), [
    ["/src/shop/basket.c:14:9", "LeakSanitizer: direct leak of 32 byte(s)"],
    ["/src/shop/item.c:30", "LeakSanitizer: indirect leak of 8 byte(s)"],
    ["/src/shop/counter.c:8:11", "ThreadSanitizer: data race"],
  ]);
});

Deno.test("prove -v (Perl, Test::More): each failed test with its place and got/expected from the diagnostics", () => {
  expectFindings("perl/prove_verbose.log", [
    ["test_failure", "t/balance.t:7", "handles refunds", "failed"],
    ["test_failure", "t/balance.t:8", "empty ledger is zero", "failed"],
  ]);
  assertEquals(read("perl/prove_verbose.log")[0].detail, ["got: '6'", "expected: '7'"]);
  // Diagnostics after their not-ok lines (stdout and stderr in the other order), and an unnamed test.
  const text = [
    "1..2",
    "not ok 1 - rounds half up",
    "not ok 2",
    "#   Failed test 'rounds half up'",
    "#   at t/round.t line 12.",
    "#     '2.4'",
    "#         >=",
    "#     '2.5'",
    "#   Failed test at t/round.t line 15.",
    "# Looks like you failed 2 tests of 2.",
  ].join("\n");
  assertEquals(readAll(text).findings.map((f) => [f.test, f.location, f.detail]), [
    ["rounds half up", "t/round.t:12", ["'2.4'", ">=", "'2.5'"]],
    [undefined, "t/round.t:15", undefined],
  ]);
});

Deno.test("Python linters (flake8 5, mypy 1.0, pylint 2.16): each message at its place; pylint's letter is its kind", () => {
  expectFindings("python_lint/flake8.log", [
    ["error", "inventory.py:1:1", undefined, "'os' imported but unused (F401)"],
    ["error", "inventory.py:2:1", undefined, "'sys' imported but unused (F401)"],
    ["error", "inventory.py:15:5", undefined, "never used (F841)"],
  ]);
  expectFindings("python_lint/mypy.log", [
    ["error", "inventory.py:6", undefined, "Incompatible types in assignment"],
    ["error", "inventory.py:19", undefined, 'Argument 3 to "restock"'],
  ]);
  const pylint = read("python_lint/pylint.log");
  assertEquals(pylint.length, 6);
  assert(pylint.every((f) => f.kind === "warning"), "C and W messages are warnings");
  assertEquals(pylint[3].message, "Unused variable 'name' (W0612 unused-variable)");
  // pylint failed (its status says warnings were found) and every line was read: the warnings are why.
  const r = triageText(Deno.readTextFileSync(join(FIXTURES, "python_lint/pylint.log")), {
    exitStatus: 20,
  });
  assertEquals([r.outcome, r.unexplained.length], ["failures", 0]);
  // An error category, ruff's fixable mark, and a line that is neither.
  const text = [
    "app/models.py:12:4: E1101: Instance of 'Cart' has no 'totl' member (no-member)",
    "app/views.py:3:8: F401 [*] `json` imported but unused",
    "app/views.py:9: note: this is mypy's, not a lint code",
  ].join("\n");
  assertEquals(readAll(text).findings.map((f) => [f.kind, f.location, f.message]), [
    ["error", "app/models.py:12:4", "Instance of 'Cart' has no 'totl' member (E1101 no-member)"],
    ["error", "app/views.py:3:8", "`json` imported but unused (F401)"],
  ]);
});

Deno.test("warnings explain a failed run only when every line was read", () => {
  const warningsOnly = "src/a.py:1:0: C0114: Missing module docstring (missing-module-docstring)\n";
  assertEquals(triageText(warningsOnly, { exitStatus: 16 }).outcome, "failures");
  const withUnread = warningsOnly + "Segmentation fault (core dumped)\n";
  const r = triageText(withUnread, { exitStatus: 139 });
  assertEquals(r.outcome, "unexplained");
  assertEquals(r.evidence.map((e) => e.line), [1, 2]);
});

Deno.test("CMake (3.25): a configure error at its CMakeLists line, its first paragraph the message, the rest detail", () => {
  expectFindings("cmake/configure_fail.log", [[
    "error",
    "CMakeLists.txt:3",
    undefined,
    'provided by "NoSuchLibrary", but CMake did not find one.',
  ]]);
  const [f] = read("cmake/configure_fail.log");
  assert(f.detail!.includes("NoSuchLibraryConfig.cmake"), String(f.detail));
  // The other heads the format has: a warning for developers, an error with no place, the generate step's.
  const text = [
    "CMake Warning (dev) at cmake/deps.cmake:12 (message):",
    "  Policy CMP0135 is not set.",
    "This warning is for project developers.  Use -Wno-dev to suppress it.",
    "",
    'CMake Error: The source directory "/src/nowhere" does not exist.',
    "CMake Error in src/CMakeLists.txt:",
    '  Target "shop" links to target "Missing::lib" but the target was not found.',
    "-- Generating done",
  ].join("\n");
  assertEquals(readAll(text).findings.map((f) => [f.kind, f.location, f.message]), [
    ["warning", "cmake/deps.cmake:12", "Policy CMP0135 is not set."],
    ["error", undefined, 'The source directory "/src/nowhere" does not exist.'],
    [
      "error",
      "src/CMakeLists.txt",
      'Target "shop" links to target "Missing::lib" but the target was not found.',
    ],
  ]);
});

Deno.test("gcc -fdiagnostics-format=json (gcc 12): each error and warning at its caret, notes as detail", () => {
  expectFindings("gcc/json.log", [[
    "error",
    "json_bad.c:1:31",
    undefined,
    "undeclared (first use in this function)",
  ]]);
  assertEquals(read("gcc/json.log")[0].detail, [
    "json_bad.c:1:31: note: each undeclared identifier is reported only once for each function it appears in",
  ]);
  const cut = '[{"kind": "error", "message": "never closed"';
  assertEquals(readAll(cut).findings, []);
});

Deno.test("unittest subtests (Python 3.11, -v): every failing subtest, named with its parameters", () => {
  expectFindings("pytest/unittest_subtests.log", [
    [
      "test_failure",
      "/home/dev/project/test_prices.py:12",
      "test_prices.PriceTest.test_rates (amount=50, rate=0.1)",
      "AssertionError: 55 != 56",
    ],
    [
      "test_failure",
      "/home/dev/project/test_prices.py:12",
      "test_prices.PriceTest.test_rates (amount=10, rate=0.5)",
      "AssertionError: 15 != 16",
    ],
  ]);
  const r = triageText(Deno.readTextFileSync(join(FIXTURES, "pytest/unittest_subtests.log")), {
    exitStatus: 1,
  });
  assertEquals(r.unexplained, [], "the -v lines of subtests and the summary's rule are read");
});

Deno.test("go test timeouts (Go 1.19): the test that was running, at the first frame in the project", () => {
  for (const name of ["go/timeout.log", "go/timeout_v.log"]) {
    expectFindings(name, [[
      "test_failure",
      "/home/dev/project/queue.go:8",
      "TestDrainEmpty",
      "panic: test timed out after 2s",
    ]]);
  }
  // Go 1.20 and later name the running tests under the panic; a library frame is never the place.
  const text = [
    "panic: test timed out after 5m0s",
    "running tests:",
    "\tTestReplay (5m0s)",
    "",
    "goroutine 33 [select]:",
    "net/http.(*persistConn).roundTrip(0xc000190000)",
    "\t/usr/local/go/src/net/http/transport.go:2652 +0x979",
    "example.com/replay.fetch(...)",
    "\t/src/replay/fetch.go:41 +0x1d",
    "FAIL\texample.com/replay\t300.015s",
  ].join("\n");
  assertEquals(readAll(text).findings.map((f) => [f.test, f.location, f.message]), [
    ["TestReplay", "/src/replay/fetch.go:41", "panic: test timed out after 5m0s"],
  ]);
});

Deno.test("pytest --tb=native (pytest 9): the traceback's frame in the test file and the exception line", () => {
  expectFindings("pytest/tb_native.log", [
    [
      "test_failure",
      "/home/dev/project/test_calc.py:10",
      "test_calc.py::test_divide_rounding",
      "assert 3.5 == 3",
    ],
    [
      "test_failure",
      "/home/dev/project/test_calc.py:14",
      "test_calc.py::test_divide_by_zero",
      "ZeroDivisionError: division by zero",
    ],
    [
      "test_failure",
      "/home/dev/project/test_calc.py:24",
      "test_calc.py::TestParse::test_parse_list",
      "assert [1, 2] == [1, 2, 3]",
    ],
    [
      "test_failure",
      "/home/dev/project/test_calc.py:28",
      "test_calc.py::TestParse::test_parse_param[2-3]",
      "AssertionError: assert 2 == 3",
    ],
    [
      "error",
      "/home/dev/project/test_calc.py:33",
      "test_calc.py::test_uses_broken",
      "RuntimeError: fixture could not start",
    ],
  ]);
  for (const f of [...read("pytest/fail_line.log"), ...read("pytest/tb_native.log")]) {
    assert(!f.message.endsWith("..."), `a cut summary message was kept: ${f.message}`);
  }
});

Deno.test("GNU ld's multiple definitions (gcc 12): one error per symbol, at the source file when the linker names one", () => {
  expectFindings("gcc/multiple_definition.log", [
    ["error", undefined, undefined, "multiple definition of shared"],
    ["error", "b.c", undefined, "multiple definition of helper"],
  ]);
  assert(
    read("gcc/multiple_definition.log")[1].detail![0].startsWith("first defined here: "),
    "where it was first defined is detail",
  );
});

Deno.test("MSVC and clang-cl diagnostics: file(line,col): error CODE: message", () => {
  const text = [
    "src\\main.cpp(12,5): error C2065: 'total': undeclared identifier",
    "src\\util.h(3): warning C4996: 'strcpy': This function or variable may be unsafe.",
    "C:\\build\\shop\\cart.cpp(40,1): fatal error C1004: unexpected end-of-file found",
    "Build started (1 project)", // no diagnostic
  ].join("\n");
  assertEquals(readAll(text).findings.map((f) => [f.kind, f.location, f.message]), [
    ["error", "src\\main.cpp:12:5", "C2065: 'total': undeclared identifier"],
    ["warning", "src\\util.h:3", "C4996: 'strcpy': This function or variable may be unsafe."],
    ["error", "C:\\build\\shop\\cart.cpp:40:1", "C1004: unexpected end-of-file found"],
  ]);
});

Deno.test("formatters as checks (Prettier 3, Black 23): each file not formatted, and each one that cannot be parsed", () => {
  expectFindings("formatters/prettier_check.log", [
    ["error", "broken.js", undefined, "SyntaxError: Unexpected token (1:7)"],
    ["error", "messy.js", undefined, "not formatted (prettier --check)"],
  ]);
  assertEquals(read("formatters/prettier_check.log")[0].detail?.[0], "> 1 | const = ;");
  expectFindings("formatters/black_check.log", [
    ["error", "/home/dev/project/broken.py", undefined, "cannot format: Cannot parse: 1:4"],
    ["error", "/home/dev/project/messy.py", undefined, "would be reformatted (black --check)"],
  ]);
  for (const name of ["formatters/prettier_check.log", "formatters/black_check.log"]) {
    const r = triageText(Deno.readTextFileSync(join(FIXTURES, name)), { exitStatus: 1 });
    assertEquals(r.unexplained, [], `${name}: every line is the formatter's`);
  }
  // A passing check says so and gives nothing.
  assertEquals(
    readAll("Checking formatting...\nAll matched files use Prettier code style!\n").findings,
    [],
  );
  assertEquals(readAll("All done! ✨ 🍰 ✨\n3 files would be left unchanged.\n").findings, []);
});

Deno.test("pytest's warnings summary (pytest 9): each warning at its place, with the test that raised it; the run stays clean", () => {
  expectFindings("pytest/warnings.log", [[
    "warning",
    "/home/dev/project/test_warn.py:5",
    "test_warn.py::test_uses_old_api",
    "DeprecationWarning: old_api is deprecated; use new_api",
  ]]);
  const r = triageText(Deno.readTextFileSync(join(FIXTURES, "pytest/warnings.log")), {
    exitStatus: 0,
  });
  assertEquals([r.outcome, r.counts.warnings], ["clean", 1]);
});

const LEDGER_TEST = "/home/dev/project/test/ledger_test.cpp";
const GTEST_LEDGER: Want[] = [
  [
    "test_failure",
    `${LEDGER_TEST}:13`,
    "LedgerTest.WithdrawBeyondBalanceIsRefused",
    "Actual: true",
  ],
  ["test_failure", `${LEDGER_TEST}:25`, "FormatTest.CentsKeepTwoDigits", 'Which is: "1.5"'],
  ["test_failure", `${LEDGER_TEST}:31`, "Amounts/AmountTest.NonNegative/1", "actual: -2 vs 0"],
];
const GTEST_PARSE: Want[] = [
  [
    "test_failure",
    "/home/dev/project/test/parse_test.cpp:14",
    "ParseTest.NearlyEqual",
    "exceeds 0.01",
  ],
  ["test_failure", undefined, "ParseTest.UnexpectedThrow", 'description "empty amount" thrown'],
];

Deno.test("GoogleTest (1.12): one failure per failed test at its first assertion, the values in the message", () => {
  expectFindings("gtest/gtest_fail.log", GTEST_LEDGER);
  expectFindings("gtest/gtest_throw.log", GTEST_PARSE);
  // The second failed assertion of a test is its detail, with the values it printed.
  const [withdraw] = read("gtest/gtest_fail.log");
  assertEquals(withdraw.detail, [
    `${LEDGER_TEST}:14: Expected equality of these values: l.balance Which is: -30 50`,
  ]);
  assertEquals(
    triageText(Deno.readTextFileSync(join(FIXTURES, "gtest/gtest_pass.log"))).outcome,
    "clean",
  );
});

Deno.test("ctest: a failed test is named by ctest only when its GoogleTest failures were not printed", () => {
  expectFindings("gtest/ctest.log", [
    ["test_failure", undefined, "ledger_test", "Failed"],
    ["test_failure", undefined, "parse_test", "Failed"],
  ]);
  // --output-on-failure prints each test's output after its status line; -V before it, prefixed "N: ".
  expectFindings("gtest/ctest_output.log", [...GTEST_LEDGER, ...GTEST_PARSE]);
  expectFindings("gtest/ctest_verbose.log", [...GTEST_LEDGER, ...GTEST_PARSE]);
});

Deno.test("GoogleTest read from its format, not the fixture: MSVC's form, a typed test, a skip, ctest's other statuses", () => {
  const text = [
    "[ RUN      ] Sizes/0.Fits",
    String.raw`C:\src\sizes_test.cpp(12): error: Expected equality of these values:`,
    "  sizeof(TypeParam)",
    "    Which is: 8",
    "  4",
    "[  FAILED  ] Sizes/0.Fits, where TypeParam = long (0 ms)",
    "[ RUN      ] Net.Skips",
    "net_test.cc:5: Skipped",
    "no network here",
    "[  SKIPPED ] Net.Skips (0 ms)",
    "3/5 Test  #3: net_suite_with_a_rather_long_name_here ***Exception: SegFault  0.21 sec",
    "4/5 Test  #4: slow_suite .......................***Timeout  10.01 sec",
    "5/5 Test  #5: off_suite ........................***Not Run (Disabled)   0.00 sec",
    "2/5 Test  #2: quick_suite ......................   Passed    0.01 sec",
  ].join("\n");
  const got = readAll(text).findings;
  assertEquals(got.map((f) => [f.test, f.location, f.message]), [
    [
      "Sizes/0.Fits",
      String.raw`C:\src\sizes_test.cpp:12`,
      "Expected equality of these values: sizeof(TypeParam) Which is: 8 4",
    ],
    ["net_suite_with_a_rather_long_name_here", undefined, "ctest: Exception: SegFault"],
    ["slow_suite", undefined, "ctest: Timeout"],
  ]);
});

Deno.test("SARIF (clang 19 -fdiagnostics-format=sarif): each error and warning at its place, clang's notes as detail", () => {
  expectFindings("sarif/clang_fail.log", [
    ["error", "/home/dev/project/stock.c:5:6", undefined, "conflicting types for 'restock'"],
    [
      "error",
      "/home/dev/project/stock.c:11:18",
      undefined,
      "undeclared identifier 'missing_bonus'",
    ],
  ]);
  assertEquals(read("sarif/clang_fail.log")[0].detail, [
    "/home/dev/project/stock.c:3:5: note: previous declaration is here",
  ]);
  expectFindings("sarif/clang_warn.log", [
    [
      "warning",
      "/home/dev/project/warn.c:3:7",
      undefined,
      "result of an assignment as a condition",
    ],
    ["warning", "/home/dev/project/warn.c:2:7", undefined, "unused variable 'spare'"],
  ]);
  assertEquals(read("sarif/clang_pass.log"), []);
});

Deno.test("SARIF read from its format: a document spread over lines (gcc 13's shape, relatedLocations as notes)", () => {
  const doc = {
    $schema:
      "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: { driver: { name: "GNU C17" } },
      results: [
        {
          ruleId: "-Wunused-variable",
          level: "warning",
          message: { text: "unused variable ‘spare’" },
          locations: [{
            physicalLocation: {
              artifactLocation: { uri: "src/shelf%20count.c", uriBaseId: "PWD" },
              region: { startLine: 2, startColumn: 7, endColumn: 12 },
            },
          }],
        },
        {
          ruleId: "error",
          level: "error",
          message: { text: "conflicting types for ‘restock’" },
          locations: [{
            physicalLocation: {
              artifactLocation: { uri: "file:///C:/src/shop/stock.c" },
              region: { startLine: 5, startColumn: 6 },
            },
          }],
          relatedLocations: [{
            physicalLocation: {
              artifactLocation: { uri: "file:///C:/src/shop/stock.c" },
              region: { startLine: 3, startColumn: 5 },
            },
            message: { text: "previous declaration of ‘restock’ with type ‘int(int)’" },
          }],
        },
        { level: "note", message: { text: "notes are the detail of the result before them" } },
      ],
    }],
  };
  const text = ["make: entering", JSON.stringify(doc, null, 2), "make: *** [all] Error 1"].join(
    "\n",
  );
  const got = readAll(text).findings.filter((f) => !f.message.startsWith("make"));
  assertEquals(got.map((f) => [f.kind, f.location, f.message, f.detail]), [
    ["warning", "src/shelf%20count.c:2:7", "unused variable ‘spare’", undefined],
    ["error", "C:/src/shop/stock.c:5:6", "conflicting types for ‘restock’", [
      "C:/src/shop/stock.c:3:5: previous declaration of ‘restock’ with type ‘int(int)’",
      "note: notes are the detail of the result before them",
    ]],
  ]);
  // A document cut short is left alone, not half-read.
  const cut = JSON.stringify(doc, null, 2).split("\n").slice(0, 20).join("\n");
  assertEquals(readAll(cut).findings, []);
});

Deno.test("a Perl script that died (perl 5.36): croak, a run-time error, a compile error, a missing module", () => {
  expectFindings("perl/die_croak.log", [
    ["error", "report.pl:13", undefined, "cannot take a ratio over zero items"],
  ]);
  // Perl's warning before the death has the same shape; it is known by its words.
  expectFindings("perl/die_runtime.log", [[
    "error",
    "divide.pl:8",
    undefined,
    "Illegal division by zero",
  ]]);
  expectFindings("perl/die_syntax.log", [[
    "error",
    "syntax.pl:4",
    undefined,
    'syntax error, near "print"',
  ]]);
  expectFindings("perl/die_missing_module.log", [
    ["error", "needs.pl:2", undefined, "Can't locate Shop/Missing.pm in @INC"],
  ]);
  assert(!read("perl/die_missing_module.log")[0].message.includes("@INC contains"));
});

Deno.test("Perl's death read from its format: after reading a file, with a confess stack; a run that exited 0 did not die", () => {
  const died = [
    'Argument "x" isn\'t numeric in addition (+) at lib/Cart.pm line 38, <$fh> line 3.',
    "Use of uninitialized value $qty in multiplication (*) at lib/Cart.pm line 40, <$fh> line 3.",
    "bad price 'x' at lib/Cart.pm line 41, <$fh> line 3.",
    '\tCart::price("x") called at bin/cart.pl line 9',
    "processed 2 rows",
  ].join("\n");
  assertEquals(readAll(died).findings.map((f) => [f.location, f.message]), [
    ["lib/Cart.pm:41", "bad price 'x'"],
  ]);
  const warned =
    "Use of uninitialized value $qty in multiplication (*) at lib/Cart.pm line 40.\ndone\n";
  assertEquals(triageText(warned, { exitStatus: 0 }).outcome, "clean");
});

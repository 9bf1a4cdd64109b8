/**
 * A fourth round of real output in forms the fixtures lacked: test names with
 * spaces, slashes, brackets and non-ASCII letters, nested suites, parametrised
 * tests, snapshots and timeouts, colours forced on, quiet and verbose modes,
 * runners started through npm, npx and make, a run and its rerun in one log,
 * and passing runs that print words shaped like failures. Every log was
 * printed by the real tool for the small project beside it
 * (scripts/fixtures/condense.sh, `round4_*`); exits.tsv has each command and
 * status.
 */
import { assertEquals } from "../support/assert.ts";
import { brief, expectFindings, triageFixture, type Want } from "./fixture_logs.ts";

const PROJECT = "/home/dev/project";

/** A passing log: clean, with exactly these findings (none, or the warnings the tool printed). */
function expectClean(name: string, want: Want[] = []): void {
  const r = triageFixture(name);
  assertEquals(r.outcome, "clean", `${name}: ${r.headline}\n${brief(r.findings)}`);
  expectFindings(name, want);
}

Deno.test("go subtests named with spaces, slashes and non-ASCII letters, a nested panic, a long message: plain, -v, -count=2 and through make", () => {
  const label: Want[] = [
    ["test_failure", "shelf_test.go:20", "TestLabel/ünïcode_name", 'want "E3"'],
    ["test_failure", "shelf_test.go:20", "TestLabel/keeps_dash", 'want "C_4"'],
  ];
  const panic: Want = [
    "test_failure",
    `${PROJECT}/shelf.go:13`,
    "TestSlots/widths/negative_width",
    "panic: negative width",
  ];
  const long: Want = ["test_failure", "shelf_test.go:28", "TestLongMessage", "unexpected layout"];
  for (const name of ["go/round4_plain.log", "go/round4_verbose.log"]) {
    expectFindings(name, [...label, long, panic]);
  }
  // -count=2: the panic ends the binary in its first pass; each failure is one finding.
  expectFindings("go/round4_count2.log", [...label, panic]);
  // make runs go vet, then go test: the failed goal is named beside the tests.
  expectFindings("go/round4_make.log", [
    ...label,
    long,
    panic,
    ["error", "Makefile:5", undefined, "make: target test failed"],
  ]);
  // A passing -v run whose tests log "--- FAIL:", "panic:" and recover from a panic.
  expectClean("go/round4_pass.log");
});

Deno.test("pytest ids with spaces, brackets and non-ASCII letters, nested classes, strict xfail: coloured, -v -rA, and a run with its --lf rerun", () => {
  const want: Want[] = [
    [
      "test_failure",
      "test_orders.py:16",
      "test_orders.py::test_price[\\xfcn\\xefcode \\u20ac]",
      "2.01 == 2.02",
    ],
    ["test_failure", "test_orders.py:21", "test_orders.py::test_codes[a b]", "'a b' is not"],
    ["test_failure", "test_orders.py:21", "test_orders.py::test_codes[x/y]", "'x/y' is not"],
    ["test_failure", "test_orders.py:21", "test_orders.py::test_codes[z::w]", "'z::w' is not"],
    [
      "test_failure",
      "test_orders.py:27",
      "test_orders.py::TestOrders::TestNested::test_deep",
      "== {'a': 1",
    ],
    ["test_failure", undefined, "test_orders.py::TestOrders::test_strict_xfail", "XPASS(strict)"],
    [
      "test_failure",
      "test_orders.py:44",
      "test_orders.py::test_long_message",
      "must be upper case",
    ],
    ["warning", `${PROJECT}/test_orders.py:48`, "test_orders.py::test_warns", "DeprecationWarning"],
  ];
  // -rA lists a skip as `SKIPPED [1] test_orders.py:29: error: skipped on purpose`: the reason is
  // the author's text, not a diagnostic at that place.
  for (const name of ["color", "verbose_ra", "rerun"]) {
    expectFindings(`pytest/round4_${name}.log`, want);
  }
  // Passing runs that log ERROR, print FAILED and a traceback's first line, with an xfail and a skip
  // whose reasons hold such words: only the warning pytest summarised.
  const warning: Want = [
    "warning",
    `${PROJECT}/test_ok.py:30`,
    "test_ok.py::test_warning_summary",
    "UserWarning: Error: deprecated call",
  ];
  expectClean("pytest/round4_pass.log", [warning]);
  expectClean("pytest/round4_pass_color.log", [warning]);
});

Deno.test("Jest through npm and npx, coloured and verbose: test.each under nested describes, a snapshot, a timeout; its console blocks are no failures", () => {
  const want: Want[] = [
    [
      "test_failure",
      "price.test.js:10:32",
      "price › with discounts › nested › price(2, 1.005) is 2.02",
      "toBe",
    ],
    ["test_failure", "price.test.js:16:18", "price › ünïcode name — a long message", "toEqual"],
    ["test_failure", "price.test.js:21:3", "price › times out", "Exceeded timeout of 200 ms"],
    ["test_failure", "price.test.js:28:53", "label › matches the snapshot", "toMatchSnapshot"],
  ];
  for (const name of ["npm", "npx_color", "verbose"]) {
    const got = expectFindings(`jest/round4_${name}.log`, want);
    // Coloured, the FAIL label keeps a space before it: the file is still the test's.
    for (const f of got) assertEquals(f.file, "./price.test.js", `${name}: ${brief([f])}`);
    assertEquals(
      got.find((f) => f.test === "price › with discounts › nested › price(2, 1.005) is 2.02")
        ?.detail,
      [
        "Expected: 2.02",
        "Received: 2.01",
      ],
    );
  }
  // console.error("Error: …") and console.warn("● not a failure") in a passing run.
  expectClean("jest/round4_pass.log");
});

Deno.test("Vitest through npm and npx, coloured and verbose: test.each, nested suites, an inline snapshot, a timeout; a passing run's logged errors", () => {
  const want: Want[] = [
    [
      "test_failure",
      "price.test.js:12:32",
      "price.test.js > price > with discounts > price(2, 1.005) is 2.02",
      "expected 2.01 to be 2.02",
    ],
    [
      "test_failure",
      "price.test.js:18:18",
      "price.test.js > price > ünïcode name — a long message",
      "to deeply equal",
    ],
    [
      "test_failure",
      "price.test.js:23:3",
      "price.test.js > price > times out",
      "Test timed out in 200ms",
    ],
    [
      "test_failure",
      "price.test.js:28:53",
      "price.test.js > label > matches the inline snapshot",
      "mismatched",
    ],
  ];
  for (const name of ["npm", "color", "verbose"]) expectFindings(`vitest/round4_${name}.log`, want);
  expectClean("vitest/round4_pass.log");
});

Deno.test("cargo test coloured, quiet and with --nocapture: nested modules, a non-ASCII name, an integration test; a should_panic test's panic is no failure", () => {
  const want: Want[] = [
    [
      "test_failure",
      "src/lib.rs:20:13",
      "tests::nested::wide_shelf_holds_four_slots",
      "long message",
    ],
    ["test_failure", "src/lib.rs:25:13", "tests::nested::ünïcode_label", "left == right"],
    ["test_failure", "tests/api.rs:5:5", "label_keeps_digits", 'label was "A1"'],
  ];
  for (const name of ["color", "quiet", "nocapture"]) {
    const got = expectFindings(`cargo/round4_${name}.log`, want);
    assertEquals(got.find((f) => f.test === "tests::nested::ünïcode_label")?.detail?.length, 2);
  }
  expectClean("cargo/round4_pass.log");
});

Deno.test("a CI job as one log: make running flake8 then unittest -v with subtests (with -k and without), and unittest alone", () => {
  const tests: Want[] = [
    [
      "test_failure",
      `${PROJECT}/test_orders.py:13`,
      "test_orders.PriceTest.test_label_ünïcode",
      "'É' != 'E'",
    ],
    [
      "test_failure",
      `${PROJECT}/test_orders.py:10`,
      "test_orders.PriceTest.test_prices (qty=2, unit=1.005)",
      "2.01 != 2.02",
    ],
    [
      "test_failure",
      `${PROJECT}/test_orders.py:10`,
      "test_orders.PriceTest.test_prices (qty=3, unit=0.1)",
      "0.3 != 0.4",
    ],
  ];
  const lint: Want[] = [
    ["error", "orders/price.py:1:1", undefined, "'os' imported but unused"],
    ["error", "Makefile:3", undefined, "make: target lint failed"],
  ];
  // A test that prints "FAIL: …" and "ERROR: …" after its own `...` is not a failure.
  expectFindings("python_lint/round4_make_k.log", [
    ...tests,
    ...lint,
    ["error", "Makefile:5", undefined, "make: target test failed"],
  ]);
  expectFindings("python_lint/round4_make.log", lint);
  expectFindings("python_lint/round4_unittest.log", tests);
});

Deno.test("deno test through deno task, plain and coloured: nested steps named in full, a long message; a passing run's logged failure words", () => {
  const want: Want[] = [
    [
      "test_failure",
      `${PROJECT}/shelf_test.ts:8:3`,
      "slots — ünïcode name with spaces",
      "deep-equal",
    ],
    [
      "test_failure",
      `${PROJECT}/shelf_test.ts:14:7`,
      "nested steps > outer step > inner › deepest",
      "deep-equal",
    ],
    [
      "test_failure",
      `${PROJECT}/shelf_test.ts:25:9`,
      "throws a long message",
      "the layout failed: slot slot",
    ],
  ];
  for (const name of ["task", "task_color"]) expectFindings(`deno/round4_${name}.log`, want);
  expectClean("deno/round4_pass.log");
});

Deno.test("mocha through npm and npx, coloured: nested describes, a timeout placed at the file Mocha names, a skip", () => {
  for (const name of ["npm", "color"]) {
    expectFindings(`mocha/round4_${name}.log`, [
      ["test_failure", "test/shelf.spec.js:15:12", "shelf deep equality", "deep-equal"],
      [
        "test_failure",
        `${PROJECT}/test/shelf.spec.js`,
        "shelf times out",
        "Timeout of 100ms exceeded",
      ],
      [
        "test_failure",
        "test/shelf.spec.js:9:16",
        "shelf slots › nested — ünïcode slots(12) is 5",
        "strictly equal",
      ],
    ]);
  }
});

Deno.test("prove with and without -v over nested subtests, TODO and SKIP; a passing script's diag and note", () => {
  const flat: Want[] = [
    ["test_failure", "t/shelf.t:7", "slots of a wide shelf — ünïcode", "failed"],
    ["test_failure", "t/shelf.t:8", "two shelves", "failed"],
  ];
  // -v prints the subtests' names as TAP; without it only Test::More's diagnostics name the test.
  expectFindings("perl/round4_verbose.log", [
    ...flat,
    ["test_failure", "t/shelf.t:12", "nested > deeper > zero width", "failed"],
  ]);
  expectFindings("perl/round4_plain.log", [
    ...flat,
    ["test_failure", "t/shelf.t:12", "zero width", "failed"],
  ]);
  expectClean("perl/round4_pass.log");
});

Deno.test("recursive make: the compiler's error in the subfolder, its warnings, and the goal that failed", () => {
  expectFindings("gcc/round4_recursive.log", [
    ["error", "shelf.c:3:23", undefined, "‘missing’ undeclared"],
    ["warning", "shelf.c:2:7", undefined, "unused variable"],
    ["warning", "shelf.c:4:1", undefined, "control reaches end"],
    ["error", "Makefile:2", undefined, "make: target shelf.o failed"],
  ]);
});

Deno.test("node --test through npm (TAP) and coloured spec: nested describes, a timeout, skip and todo; a test that prints `not ok 1 - …`", () => {
  const want = (timeoutAt: string): Want[] => [
    [
      "test_failure",
      `${PROJECT}/test/shelf.test.mjs:10:16`,
      "shelf > slots › nested — ünïcode > slots(12) is 5",
      "strictly equal",
    ],
    ["test_failure", `${PROJECT}/test/shelf.test.mjs:16:12`, "shelf > deep equality", "deep-equal"],
    ["test_failure", timeoutAt, "shelf > times out", "timed out after 100ms"],
  ];
  // The TAP stream places the timeout by its YAML `location` (absolute), the spec reporter by the
  // test's own line.
  expectFindings("node_test/round4_npm.log", want(`${PROJECT}/test/shelf.test.mjs:19:3`));
  // Under the spec reporter the printed `not ok 1 - only printed` has no TAP around it.
  expectFindings("node_test/round4_color.log", want("test/shelf.test.mjs:19:3"));
});

Deno.test("ESLint through npm and npx with colours, on a file whose name holds a space and non-ASCII letters; tsc through npx, plain and --pretty", () => {
  const file = `${PROJECT}/src/ünïcode shelf.js`;
  for (const name of ["npm", "color"]) {
    expectFindings(`eslint/round4_${name}.log`, [
      ["error", `${file}:2:9`, undefined, "'unused' is assigned"],
      ["error", `${file}:3:13`, undefined, "eqeqeq"],
      ["warning", `${file}:4:3`, undefined, "no-console"],
    ]);
  }
  for (const name of ["npx", "color"]) {
    expectFindings(`tsc/round4_${name}.log`, [
      ["error", "src/shelf.ts:7:18", undefined, "TS2322"],
      ["error", "src/shelf.ts:11:16", undefined, "TS2339"],
      ["error", "src/shelf.ts:15:27", undefined, "TS2322"],
    ]);
  }
});

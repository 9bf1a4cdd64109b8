/**
 * A sixth round of real output, written blind: the logs were printed by the
 * real tools for the small projects under test/fixtures/condense/round6/project
 * (scripts/fixtures/condense.sh, `round6`; exits.tsv has each command and
 * status), and what each log should give was written here from the log before
 * triage read it. Shapes the earlier rounds lack: go test -json over table
 * tests whose names hold slashes and spaces, -race and -failfast; a cargo
 * workspace with a failing doc test and RUST_BACKTRACE=1's backtraces, a
 * borrow error with several spans, clippy's warnings on a passing check;
 * pytest with bracketed parametrize ids, a strict xfail that passed, fixture
 * errors at setup and teardown, a chained exception under -rA, -x and each
 * --tb style, collection errors, --doctest-modules; unittest -v with a
 * chained exception; the doctest module; a Maven reactor with parameterised
 * JUnit 5 tests and a "Caused by:" chain; javac through Maven -q; jest --ci
 * with a snapshot and test.each; mocha's spec, tap and dot reporters; node
 * --test spec and tap with a TODO test that failed; ESLint's compact, unix
 * and stylish formatters; tsc plain and pretty; make -j2 -k over two failing
 * C files; deno test and deno check; minitest; prove; a Python script's and
 * a Java program's chained deaths; a `set -e` script that stops without a
 * word; and passing runs of each whose names and lines carry failure words.
 */
import { assertEquals } from "../support/assert.ts";
import { OUTCOME_EXIT } from "../../src/condense/triage.ts";
import { brief, expectFindings, triageFixture, type Want } from "./fixture_logs.ts";

const GO_SHAPES: Want[] = [
  ["test_failure", "shapes_test.go:24", "TestArea/unit_square", "Area(1, 1) = 2, want 1"],
  ["test_failure", "shapes_test.go:24", "TestArea/wide/flat", "Area(4, 2) = 6, want 8"],
  ["test_failure", "shapes_test.go:33", "TestLabel/polygons/pentagon", 'Label(5) = "unknown"'],
];
const GO_PANIC: Want = [
  "test_failure",
  "/home/dev/project/ledger/ledger_test.go:30",
  "TestIndexPanics",
  "index out of range [3] with length 0",
];

const MONEY = "crates/money/src/lib.rs";
const SPLIT: Want = [
  "test_failure",
  `${MONEY}:25:9`,
  "tests::split_keeps_every_cent",
  "shares were [33, 33, 33]",
];
const DOC: Want = [
  "test_failure",
  `${MONEY}:6:1`,
  `${MONEY} - with_fee (line 5)`,
  "`left == right`",
];

const INV = "tests/test_inventory.py";
/** The pytest project's six failures, each with the place its traceback gives. */
const PYTEST: Want[] = [
  ["test_failure", `${INV}:12`, `${INV}::test_price_with_tax[odd[cents]]`, "assert 1069 == 1070"],
  [
    "test_failure",
    `${INV}:16`,
    `${INV}::test_parse_sku_without_number`,
    "ValueError: invalid literal",
  ],
  [
    "test_failure",
    `${INV}:20`,
    `${INV}::test_load_missing`,
    "RuntimeError: inventory file missing",
  ],
  ["test_failure", undefined, `${INV}::test_rounding_known_bug`, "XPASS(strict)"],
  ["error", "tests/conftest.py:6", `${INV}::test_uses_database`, "ConnectionError"],
  [
    "error",
    "tests/conftest.py:14",
    `${INV}::test_reads_scratch`,
    "could not remove the scratch file",
  ],
];

const PRICING = "shop.core.PricingTest";
const MAVEN_CORE: Want[] = [
  [
    "test_failure",
    "PricingTest.java:14",
    `${PRICING}.discounts(long, int, long)[1]`,
    "expected: <900> but was: <0>",
  ],
  [
    "test_failure",
    "PricingTest.java:14",
    `${PRICING}.discounts(long, int, long)[2]`,
    "expected: <100> but was: <-800>",
  ],
  ["test_failure", "PricingTest.java:20", `${PRICING}.parseRejectsWords`, "bad price: ten"],
];

const SPEC = "test/format.spec.js";
const MOCHA: Want[] = [
  ["test_failure", `${SPEC}:6:12`, "formatPrice pads cents to two digits", "strictly equal"],
  ["test_failure", `${SPEC}:16:12`, "parseQuantity parses deep structures", "deep-equal"],
  ["test_failure", `${SPEC}:20:5`, "parseQuantity throws on words", "not a quantity: many"],
];

const NODE_FILE = "/home/dev/project/test/node_format.test.js";
const NODE: Want[] = [
  ["test_failure", `${NODE_FILE}:7:12`, "formatPrice > two decimals", "strictly equal"],
  ["test_failure", `${NODE_FILE}:15:3`, "parseQuantity rejects words", "not a quantity: lots"],
];

const SRC = "/home/dev/project/src";
const ESLINT: Want[] = [
  ["error", `${SRC}/error pages/404.js:5:5`, undefined, "no-duplicate-case"],
  ["warning", `${SRC}/orders.js:1:7`, undefined, "'unusedHelper' is assigned"],
  ["error", `${SRC}/orders.js:6:15`, undefined, "eqeqeq"],
  ["warning", `${SRC}/orders.js:7:5`, undefined, "'sum' is assigned"],
  ["warning", `${SRC}/orders.js:9:3`, undefined, "no-console"],
  ["error", `${SRC}/orders.js:10:10`, undefined, "'summ' is not defined"],
  ["error", `${SRC}/util.js:2:7`, undefined, "no-cond-assign"],
  ["error", `${SRC}/util.js:2:7`, undefined, "no-constant-condition"],
];

const TSC: Want[] = [
  ["error", "src/cart.ts:7:49", undefined, "TS2339"],
  ["error", "src/cart.ts:11:10", undefined, "TS18048"],
  ["error", "src/cart.ts:14:35", undefined, "TS2322"],
  ["error", "src/errors.ts:8:26", undefined, "TS2554"],
];

const PERL_FLAT: Want[] = [
  ["test_failure", "t/basket.t:7", "total adds items", "failed"],
  ["test_failure", "t/basket.t:8", "empty basket is zero", "failed"],
  ["test_failure", "t/basket.t:9", "sorted names", "failed"],
];

/** What each failing log gives, written from the log. */
export const ROUND6: Record<string, Want[]> = {
  go_verbose: [...GO_SHAPES, GO_PANIC],
  go_json: [...GO_SHAPES, GO_PANIC],
  go_failfast: [GO_SHAPES[0]],
  go_race: [
    [
      "test_failure",
      "/home/dev/project/ledger/ledger_test.go:21",
      "TestConcurrentDeposits",
      "race detected",
    ],
    GO_PANIC,
  ],
  cargo_workspace: [
    SPLIT,
    [
      "test_failure",
      "crates/stock/src/lib.rs:15:9",
      "tests::take_reports_shortage",
      "message was: only 2 left",
    ],
    [
      "test_failure",
      "crates/stock/tests/restock.rs:5:11",
      "restock_after_failure",
      'restock failed: "only 0 left"',
    ],
    DOC,
  ],
  cargo_backtrace: [SPLIT, DOC],
  cargo_build: [
    ["error", "src/lib.rs:14:9", undefined, "mismatched types"],
    ["error", "src/lib.rs:8:9", undefined, "cannot borrow `self.items` as mutable"],
  ],
  pytest_q: PYTEST,
  pytest_ra_short: PYTEST,
  pytest_tb_no: PYTEST.map(([kind, , test, piece]) => [kind, undefined, test, piece]),
  pytest_tb_long_x: [PYTEST[0]],
  pytest_collect: [
    ["error", "tests/test_broken.py:1", undefined, "No module named 'inventory_missing'"],
    ["error", "/home/dev/project/tests/test_syntax.py:1", undefined, "SyntaxError: invalid syntax"],
  ],
  pytest_doctest: [
    ["test_failure", "/home/dev/project/stats.py:7", "stats.py::stats", "median([4, 1, 3, 2])"],
    ["test_failure", "/home/dev/project/stats.py:25", "stats.py::stats.ratio", "ZeroDivisionError"],
  ],
  unittest_v: [
    [
      "test_failure",
      "/home/dev/project/test_stats.py:19",
      "test_stats.StatsTest.test_mean_of_empty",
      "ZeroDivisionError",
    ],
    [
      "test_failure",
      "/home/dev/project/test_stats.py:22",
      "test_stats.StatsTest.test_median_even",
      "3 != 2.5",
    ],
    [
      "test_failure",
      "/home/dev/project/test_stats.py:29",
      "test_stats.StatsTest.test_port_missing",
      "ValueError: port missing",
    ],
  ],
  doctest: [
    ["test_failure", "/home/dev/project/stats.py:7", "stats", "median([4, 1, 3, 2])"],
    ["test_failure", "/home/dev/project/stats.py:25", "stats.ratio", "ZeroDivisionError"],
  ],
  py_chained: [["error", "/home/dev/project/migrate.py:20", undefined, "FileNotFoundError"]],
  maven_reactor: MAVEN_CORE,
  maven_fae: [
    ...MAVEN_CORE,
    [
      "test_failure",
      "HandlerTest.java:15",
      "shop.api.HandlerTest.createdOnPost",
      "expected: <201> but was: <200>",
    ],
  ],
  maven_compile: [[
    "error",
    "/home/dev/project/src/main/java/shop/Cart.java:9:28",
    undefined,
    "';' expected",
  ]],
  java_caused_by: [[
    "error",
    "Report.java:12",
    undefined,
    "IllegalArgumentException: region missing from sales",
  ]],
  jest_snapshot: [
    [
      "test_failure",
      "__tests__/receipt.test.js:5:82",
      "receipt › matches the stored layout",
      "toMatchSnapshot",
    ],
    [
      "test_failure",
      "__tests__/receipt.test.js:12:32",
      "receipt › formatPrice(100) is $1.00",
      "toBe",
    ],
    [
      "test_failure",
      "__tests__/receipt.test.js:12:32",
      "receipt › formatPrice(5) is $0.05",
      "toBe",
    ],
    [
      "test_failure",
      "__tests__/receipt.test.js:22:66",
      "parseQuantity › accepts padded numbers",
      "resolves",
    ],
  ],
  mocha_spec: MOCHA,
  mocha_tap: MOCHA,
  mocha_dot: MOCHA,
  node_spec: NODE,
  node_tap: NODE,
  eslint_compact: ESLINT,
  eslint_unix: ESLINT,
  eslint_stylish: ESLINT,
  tsc_plain: TSC,
  tsc_pretty: TSC,
  make_j2: [
    ["error", "src/parser.c:9:20", undefined, "‘undeclared_offset’ undeclared"],
    ["error", "src/render.c:12:10", undefined, "no member named ‘height’"],
    ["warning", "src/tokens.h:8:16", undefined, "implicit declaration of function ‘strlen’"],
    ["warning", "src/tokens.h:8:16", undefined, "incompatible implicit declaration"],
    ["warning", "src/parser.c:10:1", undefined, "control reaches end"],
    ["warning", "src/render.c:13:16", undefined, "‘render_title’"],
    ["warning", "src/render.c:11:13", undefined, "unused variable ‘error_count’"],
    ["warning", "src/render.c:7:12", undefined, "‘unused_helper’ defined but not used"],
    ["error", "Makefile:5", undefined, "parser.o"],
    ["error", "Makefile:5", undefined, "render.o"],
  ],
  deno_test: [
    [
      "test_failure",
      "/home/dev/project/cart_test.ts:10:3",
      "total of an empty cart",
      "empty total: 1 !== 0",
    ],
    [
      "test_failure",
      "/home/dev/project/cart_test.ts:18:5",
      "parse > words throw a clear error",
      "not a number: four",
    ],
  ],
  deno_check: [
    ["error", "/home/dev/project/typo.ts:3:7", undefined, "TS2322"],
    ["error", "/home/dev/project/typo.ts:4:32", undefined, "TS2552"],
  ],
  minitest: [
    ["test_failure", "wallet_test.rb:6", "WalletTest#test_to_s_shows_cents", 'Expected: "$12.34"'],
    ["test_failure", "wallet_test.rb:18", "WalletTest#test_lists", "wallet history"],
    ["test_failure", "wallet_test.rb:10", "WalletTest#test_spend_too_much_raises", "ArgumentError"],
  ],
  prove: [...PERL_FLAT, ["test_failure", "t/basket.t:12", "ten percent off", "failed"]],
  prove_verbose: [...PERL_FLAT, [
    "test_failure",
    "t/basket.t:12",
    "discounts > ten percent off",
    "failed",
  ]],
};

const QUEUE: Want[] = [
  ["test_failure", "queue_test.go:33", "TestLength", "len = 1, want 2"],
  ["test_failure", "queue_test.go:15", "TestOrder", "Pop() = 2, want 1"],
];
const UNUSED_GO: Want = [
  "error",
  "broken/broken_test.go:9:6",
  undefined,
  "unused declared but not used",
];
const ORDERS = "tests/test_orders.py";
const HOOKS = "/home/dev/project/test/hooks.spec.js";
const SUITE = "/home/dev/project/test/suite.test.js";
const LINT = "/home/dev/project/lint";

/** The second batch, written from its logs before triage read them. */
export const ROUND6_MORE: Record<string, Want[]> = {
  more_go: [UNUSED_GO, ["error", undefined, undefined, "example.com/more/exits"], ...QUEUE],
  more_go_verbose: [UNUSED_GO, ["test_failure", undefined, "TestExitsEarly", ""], ...QUEUE],
  more_werror: [
    ["error", "main.c:5:13", undefined, "unused variable ‘errors’"],
    ["error", "main.c:7:23", undefined, "directive writing 5 bytes"],
    ["error", "Makefile:5", undefined, "main.o"],
  ],
  more_clang_notes: [
    ["error", "inventory.cpp:14:21", undefined, "no member named 'quantity'"],
    ["error", "inventory.cpp:21:11", undefined, "no matching member function for call to 'insert'"],
  ],
  more_cargo_test_build: [["error", "tests/api.rs:4:21", undefined, "mismatched types"]],
  more_cargo_should_panic: [
    ["test_failure", "src/lib.rs:20:18", "tests::panics_with_other_message", "index out of bounds"],
    ["test_failure", "src/lib.rs:12:8", "tests::rejects_out_of_range", "did not panic as expected"],
  ],
  more_pytest: [
    ["test_failure", `${ORDERS}:10`, `${ORDERS}::TestOrders::test_refund_raises`, "DID NOT RAISE"],
    [
      "test_failure",
      `${ORDERS}:16`,
      `${ORDERS}::TestOrders::test_qty_positive[negative-qty::edge]`,
      "quantity -1 must be positive",
    ],
    ["test_failure", `${ORDERS}:19`, `${ORDERS}::TestOrders::test_dicts`, "assert {'a': 1"],
    [
      "test_failure",
      `${ORDERS}:24`,
      `${ORDERS}::test_deprecated_call`,
      "DeprecationWarning: old API",
    ],
  ],
  more_py_syntax: [[
    "error",
    "/home/dev/project/bad_syntax.py:2",
    undefined,
    "SyntaxError: '(' was never closed",
  ]],
  more_maven_nested: [
    ["test_failure", "AddressTest.java:15", "shop.AddressTest.labelHasZip", "label (2 failures)"],
    [
      "test_failure",
      "AddressTest.java:25",
      "shop.AddressTest$WhenEmpty.labelIsBlank",
      "expected: <> but was: <, >",
    ],
  ],
  more_java_clinit: [["error", "Boot.java:2", undefined, 'For input string: "eighty"']],
  more_ruby_crash: [["error", "crash.rb:7", undefined, "key not found: :amount (KeyError)"]],
  more_bash_unbound: [["error", "release.sh:6", undefined, "RELEASE_TAG: unbound variable"]],
  more_bash_not_found: [["error", "setup.sh:3", undefined, "terraformx: command not found"]],
  more_jest_coverage: [["error", undefined, undefined, 'does not meet "global" threshold']],
  more_jest_syntax: [
    ["error", "__tests__/broken/syntax.test.js:3:23", undefined, "SyntaxError"],
  ],
  more_mocha_hooks: [
    ["test_failure", HOOKS, "checkout waits for the payment gateway", "Timeout of 50ms exceeded"],
    [
      "test_failure",
      "test/hooks.spec.js:6:54",
      'checkout "before each" hook for "uses the db"',
      "db fixture unavailable",
    ],
  ],
  more_node_dot: [
    // The dot reporter lists the failed tests by their own names only.
    ["test_failure", `${SUITE}:12:14`, "adds items", "deep-equal"],
    ["test_failure", `${SUITE}:15:7`, "rejects negatives", "Missing expected rejection"],
  ],
  more_eslint_parse: [
    ["error", `${LINT}/fine.js:2:1`, undefined, "no-unused-vars"],
    ["error", `${LINT}/fine.js:2:1`, undefined, "no-useless-assignment"],
    ["error", `${LINT}/parse.js:2:3`, undefined, "Parsing error: Unexpected keyword 'return'"],
  ],
};

const ABS = "/home/dev/project";
const [ODD, SKU, MISSING, XPASS, DATABASE, SCRATCH] = PYTEST;

/** The first batch's projects under other reporters and flags. */
export const ROUND6_FLAGS: Record<string, Want[]> = {
  more_pytest_tb_line: [
    ["test_failure", `${ABS}/${INV}:12`, ODD[2], "assert 1069 == 1070"],
    ["test_failure", `${ABS}/inventory.py:10`, SKU[2], "ValueError"],
    ["test_failure", `${ABS}/inventory.py:18`, MISSING[2], "RuntimeError"],
    XPASS,
    ["error", undefined, DATABASE[2], "ConnectionError"],
    ["error", undefined, SCRATCH[2], "could not remove the scratch file"],
  ],
  more_pytest_native: [
    ["test_failure", `${ABS}/${INV}:12`, ODD[2], "assert 1069 == 1070"],
    ["test_failure", `${ABS}/${INV}:16`, SKU[2], "ValueError"],
    ["test_failure", `${ABS}/${INV}:20`, MISSING[2], "RuntimeError"],
    XPASS,
    ["error", `${ABS}/tests/conftest.py:6`, DATABASE[2], "ConnectionError"],
    ["error", `${ABS}/tests/conftest.py:14`, SCRATCH[2], "could not remove the scratch file"],
  ],
  more_go_json_race: [
    [
      "test_failure",
      "/home/dev/project/ledger/ledger_test.go:21",
      "TestConcurrentDeposits",
      "race detected",
    ],
    GO_PANIC,
  ],
  more_mocha_list: MOCHA,
  more_mocha_min: MOCHA,
  more_unittest_buffer: ROUND6.unittest_v,
  more_cargo_quiet: ROUND6.cargo_workspace,
  more_deno_dot: ROUND6.deno_test,
  more_deno_tap: ROUND6.deno_test,
  more_jest_verbose: ROUND6.jest_snapshot,
  more_node_tap_nested: [
    ["test_failure", `${SUITE}:12:14`, "inventory > restock > adds items", "deep-equal"],
    [
      "test_failure",
      `${SUITE}:15:7`,
      "inventory > restock > rejects negatives",
      "Missing expected rejection",
    ],
  ],
};

/** Passing runs: the warnings each should give (most none), and a clean outcome. */
export const ROUND6_PASSING: Record<string, Want[]> = {
  go_pass: [],
  go_pass_json: [],
  cargo_pass: [],
  cargo_clippy: [
    ["warning", "src/lib.rs:6:1", undefined, "missing `# Errors` section"],
    ["warning", "src/lib.rs:7:27", undefined, "variables can be used directly"],
  ],
  pytest_pass: [
    [
      "warning",
      "/home/dev/project/tests/test_errors.py:24",
      "tests/test_errors.py::test_warns",
      "DeprecationWarning",
    ],
  ],
  unittest_pass: [],
  set_e_pass: [],
  jest_pass: [],
  mocha_pass: [],
  node_pass: [],
  make_pass: [["warning", "errors.c:3:25", undefined, "unused parameter ‘unused’"]],
  prove_pass: [],
};

for (const [name, want] of Object.entries({ ...ROUND6, ...ROUND6_MORE, ...ROUND6_FLAGS })) {
  Deno.test(`round 6, ${name}: the failures written down from the log, and a failed headline`, () => {
    expectFindings(`round6/${name}.log`, want);
    const r = triageFixture(`round6/${name}.log`);
    assertEquals(r.outcome, "failures", `${name}: ${r.headline}`);
    assertEquals(OUTCOME_EXIT[r.outcome], 1, `${name}: ${r.headline}`);
  });
}

for (const [name, want] of Object.entries(ROUND6_PASSING)) {
  Deno.test(`round 6, ${name}: a passing run gives its warnings and nothing invented`, () => {
    expectFindings(`round6/${name}.log`, want);
    const r = triageFixture(`round6/${name}.log`);
    assertEquals(r.outcome, "clean", `${name}: ${r.headline}\n${brief(r.findings)}`);
    assertEquals(OUTCOME_EXIT[r.outcome], 0, `${name}: ${r.headline}`);
  });
}

Deno.test("round 6, prove: Test::More's got and expected travel with the failure as detail (the message is the diagnostic's word)", () => {
  for (const name of ["prove", "prove_verbose"]) {
    const got = triageFixture(`round6/${name}.log`).findings;
    const total = got.find((f) => f.test === "total adds items");
    assertEquals(total?.detail, ["got: '4'", "expected: '3'"], `${name}: ${brief(got)}`);
    const inner = got.find((f) => f.test?.endsWith("ten percent off"));
    assertEquals(inner?.detail, ["got: '9.9'", "expected: '9'"], `${name}: ${brief(got)}`);
  }
});

Deno.test("round 6, doctest: the failed example and what it gave, from the doctest module and from pytest --doctest-modules", () => {
  for (const name of ["doctest", "pytest_doctest"]) {
    const got = triageFixture(`round6/${name}.log`).findings;
    const median = got.find((f) => f.message.startsWith("median("));
    assertEquals(median?.message, "median([4, 1, 3, 2]): expected 2.5, got 3", brief(got));
    const ratio = got.find((f) => f.message.startsWith("ratio("));
    assertEquals(
      ratio?.message,
      "ratio(1, 0) raised ZeroDivisionError: division by zero",
      brief(got),
    );
  }
});

Deno.test("round 6, a `set -e` script that stops at a silent grep: failed, and no reader says why", () => {
  const r = triageFixture("round6/set_e.log");
  assertEquals(r.findings.length, 0, brief(r.findings));
  assertEquals(r.outcome, "unexplained", r.headline);
  assertEquals(OUTCOME_EXIT[r.outcome], 2, r.headline);
});

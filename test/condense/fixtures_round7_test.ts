/**
 * A seventh round of real output, written blind: the logs were printed by the
 * real tools for the small projects under test/fixtures/condense/round7/project
 * (scripts/fixtures/condense.sh, `round7`; exits.tsv has each command and
 * status), and what each log should give was written here from the log before
 * triage read it. Every tool in it is one no reader knew before the round:
 * PHPUnit 9 (plain and --testdox, a data set and an exception); ExUnit under
 * mix test (plain and --trace) and a mix compile error; bats (TAP and its
 * pretty formatter, with its BW01 warning); busted (its default output and
 * -o TAP); shunit2; jasmine; ava (its own reporter and --tap); node-tap run as
 * a plain node script (nested subtests with YAML diagnostics); uvu; esbuild's
 * unresolved import and syntax error; Biome's, oxlint's, stylelint's and
 * markdownlint's reports; and a passing run of each whose names carry failure
 * words.
 */
import { assertEquals } from "../support/assert.ts";
import { OUTCOME_EXIT } from "../../src/condense/triage.ts";
import { brief, expectFindings, triageFixture, type Want } from "./fixture_logs.ts";

const CART = "/home/dev/project/tests/CartTest.php";
const PHPUNIT: Want[] = [
  [
    "test_failure",
    `${CART}:41`,
    "CartTest::testNegativeQuantity",
    "InvalidArgumentException: quantity must be positive, got -1",
  ],
  [
    "test_failure",
    `${CART}:27`,
    "CartTest::testDiscountRoundsToNearest",
    "Failed asserting that 299 is identical to 300.",
  ],
  ["test_failure", `${CART}:35`, "CartTest::testSkusInOrder", "two arrays are equal"],
  [
    "test_failure",
    `${CART}:51`,
    'CartTest::testPriceTimesQty with data set "three"',
    "Failed asserting that 300 is identical to 301.",
  ],
];
/** --testdox names each test in prose under its class's. */
const TESTDOX: Want[] = [
  ["test_failure", `${CART}:41`, "Cart > Negative quantity", "InvalidArgumentException"],
  ["test_failure", `${CART}:27`, "Cart > Discount rounds to nearest", "299 is identical to 300"],
  ["test_failure", `${CART}:35`, "Cart > Skus in order", "two arrays are equal"],
  [
    "test_failure",
    `${CART}:51`,
    'Cart > Price times qty with data set "three"',
    "300 is identical to 301",
  ],
];

const WALLET = "test/wallet_test.exs";
const EXUNIT: Want[] = [
  [
    "test_failure",
    `${WALLET}:10`,
    "test deposit adds to the balance (WalletTest)",
    "Assertion with == failed",
  ],
  [
    "test_failure",
    `${WALLET}:14`,
    "test withdraw more than the balance (WalletTest)",
    "insufficient funds: 10 < 20",
  ],
  [
    "test_failure",
    `${WALLET}:19`,
    "test fee/1 rounds up a part cent (WalletTest)",
    "Assertion with == failed",
  ],
  [
    "test_failure",
    `${WALLET}:23`,
    "test fee/1 zero deposit is rejected (WalletTest)",
    "Expected exception ArgumentError but got FunctionClauseError",
  ],
  [
    "test_failure",
    `${WALLET}:29`,
    "test log keeps every deposit (WalletTest)",
    "Assertion with == failed",
  ],
];

const SLUG = "test/slugify.bats";
const BATS: Want[] = [
  ["test_failure", `${SLUG}:21`, "drops punctuation", '[ "$output" = "hi-there" ]'],
  ["test_failure", `${SLUG}:26`, "collapses double spaces", '[ "$result" = "a-b" ]'],
  ["test_failure", `${SLUG}:31`, "needs a tool that is missing", '[ "$status" -eq 0 ]'],
  ["warning", `${SLUG}:30`, undefined, "BW01"],
];

/**
 * busted names the place of each test (`file @ line`); the message starts with the place it was
 * raised at. A failure is at its assertion's line in the spec (as every runner's here is); an
 * error raised in the code under test (`./stack.lua:15`) at the test's own line.
 */
const STACK = "spec/stack_spec.lua";
const BUSTED: Want[] = [
  ["test_failure", `${STACK}:13`, "stack peeks at the top", "Expected objects to be equal"],
  [
    "test_failure",
    `${STACK}:28`,
    "stack pop keeps the items table",
    "Expected objects to be the same",
  ],
  ["test_failure", `${STACK}:33`, "stack is truthy", "size should be positive"],
  [
    "test_failure",
    `${STACK}:17`,
    "stack pop returns pushed values in reverse",
    "pop from an empty stack",
  ],
];

const SPEC = "/home/dev/project/spec/price.spec.js";
const JASMINE: Want[] = [
  ["test_failure", `${SPEC}:5:30`, "formatPrice formats whole dollars", "Expected '$3.0' to be"],
  [
    "test_failure",
    `${SPEC}:14:30`,
    "formatPrice small amounts pads a single cent",
    "Expected '$0.5' to equal",
  ],
  [
    "test_failure",
    `${SPEC}:25:12`,
    "parseQuantity rejects words with an error",
    "TypeError: not a quantity: seven",
  ],
  ["test_failure", `${SPEC}:31:18`, "fetchRate knows the dollar", "Error: no rate for USD"],
];

const AVA_FILE = "/home/dev/project/test/price.test.js";
const AVA: Want[] = [
  ["test_failure", "test/price.test.js:5:5", "formats whole dollars", "Difference"],
  ["test_failure", `${AVA_FILE}:13:32`, "parses a list of quantities", "not a quantity: x3"],
  ["test_failure", "test/price.test.js:21:5", "rejects a negative price", "Function returned"],
  ["test_failure", `${AVA_FILE}:17:14`, "knows the dollar", "no rate for USD"],
];
/** ava --tap: the YAML's `at` names ava's own code for a failed assertion (no place of the project's). */
const AVA_TAP: Want[] = [
  ["test_failure", undefined, "formats whole dollars", "t.is()"],
  [
    "test_failure",
    "/home/dev/project/src/price.js:11:30",
    "parses a list of quantities",
    "Error thrown in test",
  ],
  ["test_failure", undefined, "rejects a negative price", "t.throws()"],
  [
    "test_failure",
    "/home/dev/project/src/price.js:16:29",
    "knows the dollar",
    "Rejected promise returned by test",
  ],
];

const NODE_TAP: Want[] = [
  ["test_failure", "test/price.tap.js:5:5", "formatPrice > whole dollars", ""],
  ["test_failure", "test/price.tap.js:11:5", "parseQuantity > words throw a range error", ""],
  // Written first as the YAML's `at` (src/price.js:16:29); corrected to the frame in the test file,
  // the place every JavaScript runner's failure takes here (mocha's, jest's, node's).
  ["test_failure", "test/price.tap.js:15:17", "fetchRate > no rate for USD", "no rate for USD"],
];

const UVU_FILE = "/home/dev/project/uvu/price.test.js";
const UVU: Want[] = [
  [
    "test_failure",
    `${UVU_FILE}:6:10`,
    "formats whole dollars",
    "Expected values to be strictly equal",
  ],
  ["test_failure", `${UVU_FILE}:18:19`, "knows the dollar", "no rate for USD"],
];

/** What each failing log gives, written from the log. */
export const ROUND7: Record<string, Want[]> = {
  phpunit: PHPUNIT,
  phpunit_testdox: TESTDOX,
  exunit: EXUNIT,
  exunit_trace: EXUNIT,
  mix_compile: [
    ["error", "lib/ledger.ex:8", undefined, "undefined function totl/1"],
    ["warning", "lib/ledger.ex:3", undefined, 'variable "unused" is unused'],
  ],
  bats: BATS,
  bats_pretty: BATS,
  busted: BUSTED,
  busted_tap: BUSTED,
  shunit2: [
    ["test_failure", undefined, "testKeepsPatch", "expected:<1.3.7> but was:<1.3.0>"],
    ["test_failure", undefined, "testTrue", "version file exists"],
  ],
  jasmine: JASMINE,
  ava: AVA,
  ava_tap: AVA_TAP,
  node_tap: NODE_TAP,
  uvu: UVU,
  esbuild_bundle: [
    ["warning", "src/app.js:19:9", undefined, "This case clause will never be evaluated"],
    ["error", "src/app.js:2:30", undefined, 'Could not resolve "./helpers.js"'],
  ],
  esbuild_syntax: [["error", "src/broken.ts:3:12", undefined, 'Unexpected ";"']],
  biome: [
    ["warning", "src/app.js:2:8", undefined, "This import is unused."],
    ["warning", "src/app.js:5:7", undefined, "This variable unused is unused."],
    ["error", "src/app.js:9:5", undefined, "unexpected use of the debugger statement"],
    ["error", "src/app.js:19:10", undefined, "Duplicate case label."],
    ["error", "src/broken.ts:3:13", undefined, "Expected an expression"],
  ],
  oxlint: [
    ["error", "src/broken.ts:3:13", undefined, "Unexpected token"],
    ["warning", "src/app.js:2:10", undefined, "'missingHelper' is imported but never used"],
    ["warning", "src/app.js:5:7", undefined, "'unused' is declared but never used"],
    ["warning", "src/app.js:9:5", undefined, "`debugger` statement is not allowed"],
    ["warning", "src/app.js:17:10", undefined, "Duplicate case label"],
  ],
  stylelint: [
    ["error", "styles/site.css:3:3", undefined, 'Unknown property "colr"'],
    ["error", "styles/site.css:7:3", undefined, 'Duplicate property "margin"'],
    ["error", "styles/site.css:7:12", undefined, "Disallowed unit"],
    ["error", "styles/site.css:12:10", undefined, 'Unknown value "10pixels"'],
  ],
  markdownlint: [
    ["error", "docs/README.md:1", undefined, "MD022"],
    ["error", "docs/README.md:2", undefined, "[Expected: 1; Actual: 0; Above]"],
    ["error", "docs/README.md:2", undefined, "[Expected: 1; Actual: 0; Below]"],
    ["error", "docs/README.md:4", undefined, "MD031"],
    ["error", "docs/README.md:4", undefined, "MD040"],
    ["error", "docs/README.md:6", undefined, "MD031"],
    ["error", "docs/README.md:7:27", undefined, "MD009"],
    ["error", "docs/README.md:8:1", undefined, "MD018"],
  ],
};

/** Passing runs: nothing to report, and a clean outcome. */
export const ROUND7_PASSING: Record<string, Want[]> = {
  phpunit_pass: [],
  exunit_pass: [],
  bats_pass: [],
  busted_pass: [],
  shunit2_pass: [],
  jasmine_pass: [],
  ava_pass: [],
  node_tap_pass: [],
  uvu_pass: [],
  esbuild_pass: [],
  biome_pass: [],
  oxlint_pass: [],
  stylelint_pass: [],
  markdownlint_pass: [],
};

for (const [name, want] of Object.entries(ROUND7)) {
  Deno.test(`round 7, ${name}: the failures written down from the log, and a failed headline`, () => {
    expectFindings(`round7/${name}.log`, want);
    const r = triageFixture(`round7/${name}.log`);
    assertEquals(r.outcome, "failures", `${name}: ${r.headline}`);
    assertEquals(OUTCOME_EXIT[r.outcome], 1, `${name}: ${r.headline}`);
  });
}

for (const [name, want] of Object.entries(ROUND7_PASSING)) {
  Deno.test(`round 7, ${name}: a passing run gives nothing invented`, () => {
    expectFindings(`round7/${name}.log`, want);
    const r = triageFixture(`round7/${name}.log`);
    assertEquals(r.outcome, "clean", `${name}: ${r.headline}\n${brief(r.findings)}`);
    assertEquals(OUTCOME_EXIT[r.outcome], 0, `${name}: ${r.headline}`);
  });
}

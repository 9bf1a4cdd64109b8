/**
 * A fifth round of real output: the wrappers logs arrive in. Monorepo runners
 * that label every line with the package and task (pnpm -r, turbo, lerna
 * --stream, concurrently) or head each package's block (lerna, npm -ws), two
 * services' runs labelled as docker compose labels them and pods' as kubectl
 * logs --prefix does, make -j2, pytest-xdist, CI annotations beside the
 * tool's lines (GitHub workflow commands, a job's raw GitHub and GitLab log,
 * Azure logging commands, Vitest's github-actions reporter), and passing runs
 * of each whose packages and tasks are named with failure words. Every log
 * was printed by the real tools for the small projects beside it
 * (scripts/fixtures/condense.sh, `round5`); exits.tsv has each command and
 * status.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import {
  brief,
  exitOf,
  expectFindings,
  FIXTURES,
  triageFixture,
  type Want,
} from "./fixture_logs.ts";
import { triageText } from "../../src/condense/triage.ts";
import { labelledStreams } from "../../src/condense/streams.ts";

const CART = "/home/dev/project/packages/cart/test/cart.test.js";

/** The monorepo's four failed tests: two node --test failures in cart, two pytest ones in ledger. */
const MONOREPO: Want[] = [
  ["test_failure", `${CART}:10:10`, "discount keeps cents", "strictly equal"],
  ["test_failure", `${CART}:14:10`, "empty cart totals zero", "strictly equal"],
  [
    "test_failure",
    "test/test_ledger.py:13",
    "test/test_ledger.py::test_overdrawn_below_limit",
    "assert False is True",
  ],
  [
    "test_failure",
    "test/test_ledger.py:17",
    "test/test_ledger.py::test_missing_amount_key",
    "KeyError",
  ],
];

/** A passing log: clean, and no finding at all. */
function expectClean(name: string): void {
  const r = triageFixture(name);
  assertEquals(r.outcome, "clean", `${name}: ${r.headline}\n${brief(r.findings)}`);
  assertEquals(r.findings.length, 0, `${name}:\n${brief(r.findings)}`);
}

Deno.test("monorepo runners that label every line (pnpm -r, pnpm --parallel, turbo coloured or in a GitHub job's log, concurrently): each package's failures, read as its own stream", () => {
  for (
    const name of [
      "pnpm_recursive",
      "pnpm_parallel",
      "turbo",
      "turbo_color",
      "github_turbo",
      "concurrently_index",
    ]
  ) {
    const got = expectFindings(`wrappers/${name}.log`, MONOREPO);
    // The values travel with the failure, read from the package's own lines.
    const discount = got.find((f) => f.test === "discount keeps cents");
    assert(discount?.detail?.includes("9.04 !== 9.045"), `${name}: ${JSON.stringify(discount)}`);
  }
});

Deno.test("container logs: docker compose's padded `name | ` and kubectl logs --prefix's `[pod/x/c] `", () => {
  expectFindings("wrappers/compose.log", MONOREPO);
  expectFindings("wrappers/kubectl.log", MONOREPO);
});

Deno.test("lerna --stream labels each chunk it receives: a line the chunk boundary split loses its place, not its failure", () => {
  // lerna (nx) printed pytest's `test/test_ledger.py:13: AssertionError` as two labelled lines.
  const [cartDiscount, cartEmpty, overdrawn, missing] = MONOREPO;
  expectFindings("wrappers/lerna_stream.log", [
    cartDiscount,
    cartEmpty,
    ["test_failure", undefined, overdrawn[2], "assert False is True"],
    missing,
  ]);
});

Deno.test("runners that head each package's block (lerna, npm -ws) and make -j2 over two test goals", () => {
  expectFindings("wrappers/lerna.log", MONOREPO);
  expectFindings("wrappers/npm_workspaces.log", MONOREPO);
  expectFindings("wrappers/make_j2.log", [
    ...MONOREPO,
    ["error", "Makefile:5", undefined, "target test-cart failed"],
    ["error", "Makefile:7", undefined, "target test-ledger failed"],
  ]);
});

Deno.test("concurrently with named tasks, plain and coloured: the lint task's syntax error (and the lint script's death) beside the test task's failures", () => {
  const [, , overdrawn, missing] = MONOREPO;
  for (const name of ["concurrently_names", "concurrently_color"]) {
    expectFindings(`wrappers/${name}.log`, [
      ["error", "/home/dev/project/packages/cart/legacy.js:6", undefined, "SyntaxError"],
      ["error", "/home/dev/project/packages/cart/lint.js:4:3", undefined, "Command failed"],
      overdrawn,
      missing,
    ]);
  }
});

Deno.test("concurrently: a task that printed one line beside one that printed many is read under its label", () => {
  const [, , overdrawn, missing] = MONOREPO;
  expectFindings("wrappers/concurrently_short.log", [
    ["error", "ledger.py:1:1", undefined, "'os' imported but unused (F401)"],
    overdrawn,
    missing,
  ]);
  // A plain `word:` is no wrapper's kind: beside lerna's labels, a tool's own `TypeError: …` stays whole.
  const streams = labelledStreams([
    "cart: > cart@1.0.0 test",
    "cart:   indented",
    "cart: ✔ passes (1.2ms)",
    "cart: ",
    "TypeError: x is not a function",
  ]);
  assertEquals(streams?.[0].lines, ["TypeError: x is not a function"]);
});

Deno.test("pytest-xdist, plain and -v (`[gw0] [ 33%] FAILED …`): each failure once", () => {
  const [, , overdrawn, missing] = MONOREPO;
  expectFindings("wrappers/xdist.log", [overdrawn, missing]);
  expectFindings("wrappers/xdist_verbose.log", [overdrawn, missing]);
});

Deno.test("CI annotations are findings: GitHub workflow commands, the runner's ##[error] line, Azure's logissue", () => {
  const unused: Want = ["error", "ledger.py:1:1", undefined, "'os' imported but unused (F401)"];
  // A tool's output formatted as annotations, as a CI step prints it.
  expectFindings("wrappers/github_flake8.log", [unused]);
  expectFindings("wrappers/azure_flake8.log", [unused]);
  // The job's raw log: the runner shows the command as `##[error]message`, its timestamps in front;
  // the flake8 line inside is read as flake8's; `Process completed with exit code 1.` is no finding.
  expectFindings("wrappers/github_job.log", [unused]);
  const [, , overdrawn, missing] = MONOREPO;
  expectFindings("wrappers/github_job_tests.log", [overdrawn, missing]);
  // GitLab's section markers and `ERROR: Job failed: exit code 1`: the tool's findings only.
  expectFindings("wrappers/gitlab_job.log", [overdrawn, missing]);
});

Deno.test("a passing job's log with the runner's own warnings, groups and annotations' other commands: clean", () => {
  const log = [
    "2026-12-02T10:00:00.0000000Z ##[group]Run actions/setup-node@v3",
    "2026-12-02T10:00:00.1000000Z ##[endgroup]",
    "2026-12-02T10:00:01.0000000Z ##[warning]Node.js 16 actions are deprecated. Please update the following actions to use Node.js 20: actions/setup-node@v3.",
    "2026-12-02T10:00:01.1000000Z ::group::Install",
    "2026-12-02T10:00:01.2000000Z ::endgroup::",
    "2026-12-02T10:00:01.3000000Z ::notice file=a.py,line=1::formatted",
    "2026-12-02T10:00:01.4000000Z ::warning::Cache not found for input keys: node-cache-Linux",
    "##vso[task.setvariable variable=ok]true",
  ].join("\n");
  const r = triageText(log, { exitStatus: 0 });
  assertEquals([r.outcome, r.findings.length], ["clean", 0], brief(r.findings));
  // A warning at a place is the code's: a finding.
  const placed = triageText("::warning file=a.py,line=3,title=W605::invalid escape sequence", {
    exitStatus: 0,
  });
  assertEquals(placed.findings.map((f) => [f.kind, f.location, f.message]), [[
    "warning",
    "a.py:3",
    "invalid escape sequence (W605)",
  ]]);
});

Deno.test("an annotation repeating the tool's own report is not counted again (Vitest's github-actions reporter)", () => {
  const got = expectFindings("wrappers/vitest_github.log", [
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
    ["test_failure", "price.test.js:23:3", "price.test.js > price > times out", "timed out"],
    [
      "test_failure",
      "price.test.js:28:53",
      "price.test.js > label > matches the inline snapshot",
      "mismatched",
    ],
  ]);
  assert(got.every((f) => f.kind === "test_failure"), brief(got));
  // The annotations alone still say what failed, and where (escapes undone, the diff as detail).
  const alone = Deno.readTextFileSync(join(FIXTURES, "wrappers/vitest_github.log")).split("\n")
    .filter((l) => l.startsWith("::error ")).join("\n");
  const read = triageText(alone, { exitStatus: 1 }).findings;
  assertEquals(read.length, 4, brief(read));
  const first = read.find((f) => f.location === "/home/dev/project/price.test.js:12:32");
  assertEquals(first?.message, "AssertionError: expected 2.01 to be 2.02 // Object.is equality");
  assert(first?.detail?.includes("+ 2.01"), JSON.stringify(first));
});

Deno.test("passing runs of each wrapper, packages and tasks named with failure words: clean, no finding", () => {
  for (
    const name of [
      "pass_pnpm",
      "pass_pnpm_parallel",
      "pass_turbo",
      "pass_lerna_stream",
      "pass_turbo_color",
      "pass_concurrently",
      "pass_compose",
      "pass_kubectl",
      "pass_github_job",
      "pass_gitlab_job",
      "pass_xdist",
    ]
  ) {
    assertEquals(exitOf(`wrappers/${name}.log`), 0);
    expectClean(`wrappers/${name}.log`);
  }
});

/** The lines of two labels of a log taken apart and dealt out one by one, each label's in its order. */
function dealtOut(text: string, labels: [string, string]): string {
  const lines = text.split("\n");
  const [a, b] = labels.map((label) => lines.filter((l) => l.startsWith(label)));
  const rest = lines.filter((l) => !labels.some((label) => l.startsWith(label)));
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) out.push(a[i]);
    if (i < b.length) out.push(b[i]);
  }
  return [...out, ...rest].join("\n");
}

Deno.test("two packages' lines interleaved line by line: the same failures, no block run into the other's", () => {
  for (
    const [name, labels] of [
      ["pnpm_parallel", ["packages/cart test:", "packages/ledger test:"]],
      ["compose", ["shop-cart-1 ", "shop-ledger-1 "]],
      ["turbo", ["cart:test:", "ledger:test:"]],
    ] as [string, [string, string]][]
  ) {
    const text = dealtOut(Deno.readTextFileSync(join(FIXTURES, `wrappers/${name}.log`)), labels);
    const got = triageText(text, { exitStatus: 1, cap: 500 }).findings;
    assertEquals(got.length, 4, `${name}:\n${brief(got)}`);
    for (const [kind, location, test] of MONOREPO) {
      assert(
        got.some((f) => f.kind === kind && f.location === location && f.test === test),
        `${name}: no ${test} at ${location}:\n${brief(got)}`,
      );
    }
  }
});

Deno.test("one test name failing in two packages is two failures, each named with its package", () => {
  const text = [
    "packages/a test: ✖ rounds totals (1.2ms)",
    "packages/a test:   AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
    "packages/a test:   ",
    "packages/a test:   1 !== 2",
    "packages/a test:   ",
    "packages/a test:       at TestContext.<anonymous> (file:///w/packages/a/test/t.test.js:4:10)",
    "packages/b test: ✖ rounds totals (1.0ms)",
    "packages/b test:   AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
    "packages/b test:   ",
    "packages/b test:   3 !== 4",
    "packages/b test:   ",
    "packages/b test:       at TestContext.<anonymous> (file:///w/packages/b/test/t.test.js:9:10)",
  ].join("\n");
  const got = triageText(text, { exitStatus: 1 }).findings;
  assertEquals(got.map((f) => f.file).sort(), ["packages/a test", "packages/b test"], brief(got));
});

Deno.test("labels are a wrapper's, not a tool's own words: levels, places, program names, GoogleTest's rules", () => {
  // A tool's own prefixes repeat too; none of these is a stream.
  const own = [
    [
      "[INFO] Building shop",
      "[INFO] ",
      "[INFO] BUILD FAILURE",
      "[ERROR] x",
      "[ERROR] y",
      "[ERROR] z",
    ],
    ["[----------] 2 tests from A", "[----------] ", "[----------] 2 tests from B"],
    [
      "make: *** [Makefile:5: a] Error 1",
      "make: *** Waiting for jobs",
      "make: Target 'all' not remade",
    ],
    ["/usr/bin/ld: a.o: in function `main':", "/usr/bin/ld: b.o: x", "/usr/bin/ld: c.o: y"],
    ["error: first", "error:   indented", "error: ", "warning: a", "warning: b", "warning: c"],
    ["a.py:3: note", "a.py:3:   x", "a.py:3: "],
    // A summary repeated over several runs: padded, but every value a number.
    ["Tests:       3 failed, 5 total", "Tests:       2 passed, 2 total", "Tests:       1 failed"],
    ["[XPASS(strict)] known to fail", "[XPASS(strict)] a", "[XPASS(strict)] b"],
    ["stdout | a.test.js > logs", "stdout | a.test.js > more", "stdout | b.test.js > x"],
    ["Details:", "Details:", "Details:"],
    ["12 | let x = 1;", "12 |     y", "12 | "],
  ];
  for (const lines of own) assertEquals(labelledStreams(lines), undefined, lines.join(" / "));
  // A wrapper's labels: the tool's lines in their order, the label and one space taken off.
  const streams = labelledStreams([
    "Scope: 2 of 3 workspace projects",
    "web-1     | GET /",
    "[lint] a.js:1:1: x",
    "web-1     |   indented",
    "[lint] ",
    "web-1     | ",
    "[lint] b.js:2:2: y",
  ]);
  assert(streams);
  assertEquals(streams.map((s) => [s.label, s.lines, s.at]), [
    ["", ["Scope: 2 of 3 workspace projects"], [0]],
    ["web-1", ["GET /", "  indented", ""], [1, 3, 5]],
    ["lint", ["a.js:1:1: x", "", "b.js:2:2: y"], [2, 4, 6]],
  ]);
});

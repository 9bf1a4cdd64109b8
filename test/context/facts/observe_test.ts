/**
 * A command's run as facts: where it ran, the branch git reports in its
 * several forms, and a test command's result read by triage's readers; a
 * later run of the same command replaces the earlier result in the book.
 */
import { assertEquals, assertMatch } from "../../support/assert.ts";
import {
  branchFromGit,
  isTestCommand,
  observe,
  testResult,
} from "../../../src/context/facts/observe.ts";
import { FactBook } from "../../../src/context/facts/book.ts";
import { resolveKinds } from "../../../src/context/facts/kinds.ts";

Deno.test("the branch from git's outputs, and nothing from a command that does not report it", () => {
  const cases: [string, string, string | undefined][] = [
    [
      "git status",
      "On branch feature/login\nYour branch is up to date with 'origin/feature/login'.\n",
      "feature/login",
    ],
    ["git status", "HEAD detached at 1a2b3c4\nnothing to commit\n", "(detached at 1a2b3c4)"],
    ["git status -sb", "## main...origin/main [ahead 2]\n M src/a.ts\n", "main"],
    ["git status --porcelain -b", "## release-1.2\n", "release-1.2"],
    ["git status -sb", "## No commits yet on trunk\n", "trunk"],
    ["git branch", "  main\n* fix/the-bug\n  old\n", "fix/the-bug"],
    ["git branch --show-current", "topic\n", "topic"],
    ["cd repo && git rev-parse --abbrev-ref HEAD", "develop\n", "develop"],
    ["git symbolic-ref --short HEAD", "main\n", "main"],
    ["git switch -c spike", "Switched to a new branch 'spike'\n", "spike"],
    ["git checkout main", "Switched to branch 'main'\nYour branch is up to date.\n", "main"],
    ["git log --oneline -3", "1a2b3c4 On branch fixes\n", undefined],
    ["echo 'On branch x'", "On branch x\n", undefined],
    ["git rev-parse HEAD", "1a2b3c4d5e\n", undefined],
  ];
  for (const [command, output, branch] of cases) {
    assertEquals(branchFromGit(command, output), branch, command);
  }
});

Deno.test("test commands are known by their program and subcommand, wherever they run", () => {
  for (
    const yes of [
      "deno test -A",
      "cd repo && cargo test --all 2>&1 | tail -20",
      "CI=1 npm test",
      "npm run test -- --watch=false",
      "python3 -m pytest -q tests/",
      "./node_modules/.bin/jest --ci",
      "vendor/bin/phpunit",
      "make check",
      "go test ./...",
    ]
  ) assertEquals(isTestCommand(yes), true, yes);
  for (
    const no of [
      "deno run main.ts",
      "cargo build",
      "npm install",
      "echo pytest",
      "git status",
      "make",
    ]
  ) {
    assertEquals(isTestCommand(no), false, no);
  }
});

Deno.test("a test run's result comes from triage's readers", () => {
  assertEquals(
    testResult("deno test -A", 0, "ok | 12 passed | 0 failed (2s)\n"),
    "passed (exit 0)",
  );
  const pytest = [
    "============================= test session starts ==============================",
    "collected 3 items",
    "",
    "tests/test_ledger.py .F.                                                 [100%]",
    "",
    "=================================== FAILURES ===================================",
    "_________________________________ test_settle __________________________________",
    "    def test_settle():",
    ">       assert settle(3) == 4",
    "E       assert 3 == 4",
    "tests/test_ledger.py:7: AssertionError",
    "=========================== short test summary info ============================",
    "FAILED tests/test_ledger.py::test_settle - assert 3 == 4",
    "========================= 1 failed, 2 passed in 0.05s ==========================",
  ].join("\n");
  assertMatch(testResult("pytest", 1, pytest), /^failed: 1 failed test.* \(exit 1\)$/);
  assertEquals(
    testResult("make test", 2, "something odd\n"),
    "failed (exit 2), no reader found why",
  );
  assertEquals(
    testResult("go test ./...", null, ""),
    "failed (ended by a signal), no reader found why",
  );
});

Deno.test("observations go into the book as the tool's; a later run of the same command replaces the result", () => {
  const book = new FactBook({ kinds: resolveKinds() });
  const run = (
    command: string,
    exitStatus: number,
    output: string,
    turn: number,
    entry: number,
  ) => {
    for (
      const fact of observe({
        tool: "run_command",
        command,
        cwd: "/srv/app",
        exitStatus,
        output,
        turn,
        entry,
      })
    ) {
      book.record(fact);
    }
  };
  run("git status", 0, "On branch main\n", 1, 2);
  run(
    "cd /srv/app && deno test -A 2>&1 | tail -5",
    1,
    "FAILED | 3 passed | 1 failed\n\nerror: Test failed\n",
    2,
    5,
  );
  run("deno test -A", 0, "ok | 4 passed | 0 failed\n", 3, 9);
  assertEquals(
    book.lines(),
    [
      "c4 tests deno test -A = passed (exit 0) (from tool run_command, turn 3, entry 9)",
      // The same directory again is the same fact: not a new version for every command.
      "c1 workdir = /srv/app (from tool run_command, turn 1, entry 2)",
      "c2 branch = main (from tool run_command, turn 1, entry 2)",
    ].sort((a, b) => order(a) - order(b)),
  );
  assertEquals(book.history("c4").map((v) => v.state), ["superseded", "current"]);
});

/** The book shows kinds in their order: tests, workdir, branch. */
function order(line: string): number {
  return ["tests", "workdir", "branch"].findIndex((k) => line.split(" ")[1] === k);
}

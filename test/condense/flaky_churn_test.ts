/**
 * flaky_tests over real runs (a script through the real gate, runner and
 * sandbox, failing one test every other run) and hot_paths over a real git
 * history.
 */
import { assertEquals, assertMatch } from "../support/assert.ts";
import { join } from "node:path";
import { compareRuns } from "../../src/condense/flaky.ts";
import { CHURN_LOG_ARGS, hotPaths } from "../../src/condense/churn.ts";
import { runRepeatedly } from "../../src/condense/run_command.ts";
import { AuditLog } from "../../src/audit/writer.ts";
import { homePaths } from "../../src/config/home.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { tempDir } from "../support/wisp.ts";

// A test binary's output in libtest's format: `steady` always fails, `timing` on every other run.
const SCRIPT = `n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count
echo "running 3 tests"
echo "test tests::fine ... ok"
echo "test tests::steady ... FAILED"
if [ $((n % 2)) -eq 1 ]; then echo "test tests::timing ... FAILED"; else echo "test tests::timing ... ok"; fi
echo
echo "failures:"
echo
echo "---- tests::steady stdout ----"
echo "thread 'tests::steady' panicked at src/lib.rs:9:5:"
echo "always broken"
if [ $((n % 2)) -eq 1 ]; then
  echo "---- tests::timing stdout ----"
  echo "thread 'tests::timing' panicked at src/lib.rs:20:9:"
  echo "deadline exceeded"
fi
echo
echo "test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s"
exit 101
`;

Deno.test("flaky_tests: a test failing in some runs is flaky, one failing in all is failing", async () => {
  const home = await tempDir();
  const work = await tempDir();
  const paths = homePaths(home);
  const audit = new AuditLog({ path: paths.auditLog, enabled: true, maxBytes: 1 << 20, keep: 1 });
  try {
    Deno.writeTextFileSync(join(work, "t.sh"), SCRIPT);
    const runs = await runRepeatedly("sh t.sh", 4, {
      config: defaultConfig(),
      paths,
      audit,
      cwd: work,
      root: work,
      yes: true,
    });
    const report = compareRuns(runs);
    assertEquals(report.exitStatuses, [101, 101, 101, 101]);
    assertEquals(report.flaky.map((v) => [v.test, v.failedRuns, v.location]), [["tests::timing", [
      1,
      3,
    ], "src/lib.rs:20:9"]]);
    assertEquals(report.failing.map((v) => v.test), ["tests::steady"]);
    assertMatch(report.text, /^4 runs \(exit 101, 101, 101, 101\): 1 flaky, 1 failing every time/);
    const outcomes = Deno.readTextFileSync(paths.auditLog).split("\n").filter((l) =>
      l.includes('"command.outcome"')
    );
    assertEquals(outcomes.length, 4);
  } finally {
    audit.close();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

// A verbose go test run longer than the capture limit, its one failure (on odd runs) in the middle.
const LONG_SCRIPT = `n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count
passing() { awk -v from=$1 'BEGIN { for (i = from; i < from + 25000; i++) printf "=== RUN   TestCase%d\\n--- PASS: TestCase%d (0.00s)\\n", i, i }'; }
passing 0
if [ $((n % 2)) -eq 1 ]; then
  printf '=== RUN   TestMiddle\\n    middle_test.go:12: got 3, want 4\\n--- FAIL: TestMiddle (0.00s)\\n'
fi
passing 25000
if [ $((n % 2)) -eq 1 ]; then printf 'FAIL\\n'; exit 1; fi
printf 'ok\\texample.com/shop\\t0.5s\\n'
`;

Deno.test("flaky_tests reads every byte of each run: a failure in the middle of a long output counts", async () => {
  const home = await tempDir();
  const work = await tempDir();
  const paths = homePaths(home);
  const audit = new AuditLog({ path: paths.auditLog, enabled: true, maxBytes: 1 << 20, keep: 1 });
  try {
    Deno.writeTextFileSync(join(work, "t.sh"), LONG_SCRIPT);
    const runs = await runRepeatedly("sh t.sh", 2, {
      config: defaultConfig(),
      paths,
      audit,
      cwd: work,
      root: work,
      yes: true,
    });
    assertEquals(runs.map((r) => r.exitStatus), [1, 0]);
    // The kept text lost the middle; the readers did not.
    assertEquals(runs[0].droppedBytes > 0, true);
    assertEquals(runs[0].text.includes("TestMiddle"), false);
    const report = compareRuns(runs);
    assertEquals(report.flaky.map((v) => [v.test, v.failedRuns, v.location]), [[
      "TestMiddle",
      [1],
      "middle_test.go:12",
    ]]);
    assertEquals(report.unexplainedRuns, []);
  } finally {
    audit.close();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("flaky_tests: a failed run no reader explains is counted, not guessed at", () => {
  const r = compareRuns([{ exitStatus: 0, text: "all good\n" }, {
    exitStatus: 139,
    text: "Segmentation fault\n",
  }]);
  assertEquals(r.unexplainedRuns, [2]);
  assertEquals(r.flaky, []);
});

Deno.test("hot_paths: files by commits and lines over a real history, renames followed", async () => {
  const dir = await tempDir();
  const git = (...args: string[]) => {
    const r = new Deno.Command("git", {
      args: ["-c", "user.email=a@example.com", "-c", "user.name=Ann", ...args],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).outputSync();
    if (!r.success) throw new Error(new TextDecoder().decode(r.stderr));
    return new TextDecoder().decode(r.stdout);
  };
  try {
    git("init", "-q");
    for (let i = 0; i < 3; i++) {
      Deno.writeTextFileSync(join(dir, "core.ts"), `export const v = ${i};\n`.repeat(i + 1));
      if (i === 0) Deno.writeTextFileSync(join(dir, "readme.md"), "hi\n");
      git("add", "-A");
      git("commit", "-q", "-m", `change ${i}`);
    }
    git("mv", "readme.md", "README.md");
    git("commit", "-q", "-m", "rename");
    const log = git(...CHURN_LOG_ARGS);
    const r = hotPaths(log);
    assertEquals(r.commits, 4);
    assertEquals(r.paths[0], { path: "core.ts", commits: 3, added: 6, removed: 3, authors: 1 });
    assertEquals(r.paths.map((p) => p.path).sort(), ["README.md", "core.ts", "readme.md"].sort());
    assertMatch(
      r.text,
      /^4 commits, 3 files changed; the most changed:\n {2}core\.ts: 3 commits, \+6 −3, 1 author/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

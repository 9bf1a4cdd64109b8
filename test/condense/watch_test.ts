/**
 * wisp watch: the pure rules, and the real CLI in a subprocess — reruns on a
 * change but not on ignored paths, --every, the notification when the outcome
 * turns, and Ctrl-C (after the run; twice: at once).
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { join } from "node:path";
import {
  afterRun,
  changeFilter,
  notificationFor,
  runLine,
  type RunRecord,
  shouldTriage,
  turned,
} from "../../src/condense/watch.ts";
import { runWisp, tempDir, wispCommand } from "../support/wisp.ts";
import { exists, GENEROUS_MS, waitUntil, within } from "../support/wait.ts";

Deno.test("changeFilter: build output, dependencies, VCS and editor scratch files never count; .gitignore is honoured", () => {
  const f = changeFilter("*.log\ngenerated/\n");
  for (const p of ["src/a.ts", "README.md", "Sources/App/main.swift"]) assert(f.counts(p), p);
  for (
    const p of [
      ".git/index",
      "node_modules/x/y.js",
      "target/debug/app",
      ".build/x",
      "a/__pycache__/m.pyc",
      "dist/app.js",
      ".venv/bin/python",
      "src/.main.ts.swp",
      "src/4913",
      "src/.#main.ts",
      "src/main.ts~",
      "build.log",
      "generated/api.ts",
      "../outside.ts",
    ]
  ) assert(!f.counts(p), p);
});

Deno.test("after a run: --max-runs first, then a Ctrl-C, then a change seen during it, then an interval tick", () => {
  const idle = { runs: 2, interrupts: 0, pendingChange: false, pendingEvery: false };
  assertEquals(afterRun(idle), "wait");
  assertEquals(afterRun({ ...idle, maxRuns: 3 }), "wait");
  assertEquals(
    afterRun({ ...idle, maxRuns: 2, interrupts: 1, pendingChange: true }),
    "max-runs-reached",
  );
  assertEquals(afterRun({ ...idle, interrupts: 1, pendingChange: true }), "interrupted");
  assertEquals(afterRun({ ...idle, pendingChange: true, pendingEvery: true }), "rerun-on-change");
  assertEquals(afterRun({ ...idle, pendingEvery: true }), "rerun-on-interval");
});

Deno.test("the run line, turns and when to triage", () => {
  const at = new Date(2026, 10, 30, 22, 15, 34);
  const fail: RunRecord = { n: 1, reason: "start", pass: false, exitStatus: 1, seconds: 0.42, at };
  const pass: RunRecord = { n: 2, reason: "change", pass: true, exitStatus: 0, seconds: 1.3, at };
  assertEquals(runLine(fail), "[22:15:34] run 1 (start): fail, exit 1, 0.4 s");
  assertEquals(runLine(pass, fail), "[22:15:34] run 2 (change): pass, exit 0, 1.3 s; was fail");
  assertEquals(
    runLine({ ...pass, n: 3, reason: "every" }, pass),
    "[22:15:34] run 3 (every): pass, exit 0, 1.3 s",
  );
  assert(!turned(undefined, fail) && turned(fail, pass) && !turned(pass, { ...pass, n: 3 }));
  assert(
    shouldTriage(undefined, fail) && shouldTriage(pass, { ...fail, n: 3 }) &&
      !shouldTriage(fail, { ...fail, n: 2 }),
  );
  assertEquals(notificationFor("make test", pass).title, "wisp watch: passing again");
  assertMatch(
    notificationFor("make test", fail, "exit 1; 2 errors").message,
    /^make test: run 1 failed — exit 1; 2 errors$/,
  );
});

interface Watching {
  lines: string[];
  stderr: () => string;
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  child: Deno.ChildProcess;
  done: Promise<Deno.CommandStatus>;
}

function startWatch(args: string[], cwd: string, home: string): Watching {
  const [cmd, ...rest] = wispCommand();
  const child = new Deno.Command(cmd, {
    args: [...rest, "watch", ...args],
    cwd,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      WISP_HOME: home,
      NO_COLOR: "1",
      TERM: "dumb",
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: string[] = [];
  let err = "";
  const decoder = new TextDecoder();
  (async () => {
    let buf = "";
    for await (const chunk of child.stdout) {
      buf += decoder.decode(chunk, { stream: true });
      const parts = buf.split("\n");
      buf = parts.pop()!;
      lines.push(...parts);
    }
  })();
  (async () => {
    for await (const chunk of child.stderr) err += decoder.decode(chunk, { stream: true });
  })();
  return {
    lines,
    stderr: () => err,
    child,
    done: child.status,
    async waitFor(pattern: RegExp, ms = GENEROUS_MS) {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        const hit = lines.find((l) => pattern.test(l)) ?? (pattern.test(err) ? err : undefined);
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(
        `no ${pattern} within ${ms} ms; stdout:\n${lines.join("\n")}\nstderr:\n${err}`,
      );
    },
  };
}

Deno.test("a change reruns the command; ignored paths do not; the turn is notified and audited", async () => {
  const home = await tempDir();
  const work = await tempDir();
  try {
    Deno.writeTextFileSync(
      join(work, "check.sh"),
      "test -f ok.txt || { echo 'src/a.c:1:2: error: ok.txt is missing' >&2; exit 1; }\n",
    );
    const w = startWatch(
      ["-y", "--no-model", "--max-runs", "2", "--settle", "100", "--", "sh", "check.sh"],
      work,
      home,
    );
    await w.waitFor(/run 1 \(start\): fail, exit 1/);
    await w.waitFor(/error src\/a\.c:1:2: ok\.txt is missing/);
    Deno.mkdirSync(join(work, "node_modules"));
    Deno.writeTextFileSync(join(work, "node_modules", "x.js"), "x");
    Deno.writeTextFileSync(join(work, ".check.sh.swp"), "x");
    await new Promise((r) => setTimeout(r, 800));
    assertEquals(
      w.lines.filter((l) => / run \d/.test(l)).length,
      1,
      "an ignored path started a run",
    );
    Deno.writeTextFileSync(join(work, "ok.txt"), "yes");
    await w.waitFor(/run 2 \(change\): pass, exit 0, .*; was fail$/);
    assertEquals((await w.done).code, 0);
    const events = Deno.readTextFileSync(join(home, "logs", "audit.jsonl")).trim().split("\n").map((
      l,
    ) => JSON.parse(l));
    assertEquals(
      events.filter((e) => e.kind === "watch.run").map((e) => [e.run, e.reason, e.pass]),
      [[1, "start", false], [2, "change", true]],
    );
    const note = events.find((e) => e.kind === "notification");
    assertEquals([note?.source, note?.title], ["watch", "wisp watch: passing again"]);
    assert(events.filter((e) => e.kind === "command.outcome").every((e) => e.origin === "watch"));
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("a failing run is triaged from every byte: its one failure in the middle of a long output is found", async () => {
  const home = await tempDir();
  const work = await tempDir();
  try {
    // About 2.5 MB of passing go tests around one failure: more than the capture keeps of the middle.
    Deno.writeTextFileSync(
      join(work, "check.sh"),
      [
        "passing() { awk -v from=$1 'BEGIN { for (i = from; i < from + 25000; i++) printf \"=== RUN   TestCase%d\\n--- PASS: TestCase%d (0.00s)\\n\", i, i }'; }",
        "passing 0",
        "printf '=== RUN   TestMiddle\\n    middle_test.go:12: got 3, want 4\\n--- FAIL: TestMiddle (0.00s)\\n'",
        "passing 25000",
        "printf 'FAIL\\n'",
        "exit 1",
        "",
      ].join("\n"),
    );
    const w = startWatch(
      ["-y", "--no-model", "--max-runs", "1", "--", "sh", "check.sh"],
      work,
      home,
    );
    await w.waitFor(/run 1 \(start\): fail, exit 1/);
    await w.waitFor(/TestMiddle.*middle_test\.go:12|middle_test\.go:12.*TestMiddle/);
    // The last run failed: watch exits 1.
    assertEquals((await w.done).code, 1);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("--no-files --every: runs on the interval; --no-files alone is a usage error", async () => {
  const home = await tempDir();
  const work = await tempDir();
  try {
    const bad = await runWisp(["watch", "--no-files", "true"], { home, cwd: work });
    assertEquals(bad.code, 64);
    const r = await runWisp([
      "watch",
      "-y",
      "--no-files",
      "--every",
      "1",
      "--max-runs",
      "2",
      "--",
      "true",
    ], { home, cwd: work });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /run 1 \(start\): pass, exit 0.*\n.*run 2 \(every\): pass, exit 0/);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("Ctrl-C stops after the current run; a second Ctrl-C stops it at once", async () => {
  const home = await tempDir();
  const work = await tempDir();
  try {
    // The run marks its start, and its end if it is not stopped.
    const w = startWatch(
      ["-y", "--no-model", "--", "sh", "-c", "touch started; sleep 30; touch late"],
      work,
      home,
    );
    await w.waitFor(/watching /);
    await waitUntil(() => exists(join(work, "started")), "the run's start");
    w.child.kill("SIGINT");
    await w.waitFor(/stopping after this run/);
    w.child.kill("SIGINT");
    const status = await within(w.done, "wisp watch's exit");
    assertEquals(status.code, 0);
    assert(!exists(join(work, "late")), "the second Ctrl-C waited for the run to end");
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

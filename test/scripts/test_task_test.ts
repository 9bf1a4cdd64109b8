/**
 * `deno task test` itself: the guard on the person's own wisp home, how test
 * files are found and their closing lines read, and, run for real on two
 * scratch test files, that each file's result is printed the moment it
 * finishes, that a quiet stretch names what is still running, and that a
 * test writing into the real home fails the run, naming what it changed.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { describeChanges, realHomes, snapshot } from "../../scripts/home_guard.ts";
import {
  closingCounts,
  slowestFiles,
  splitArgs,
  startOrder,
  testFiles,
} from "../../scripts/test_files.ts";
import { PROJECT_ROOT, tempDir } from "../support/wisp.ts";

Deno.test("the home guard names what was created, changed, rewritten, re-moded and removed", async () => {
  const base = await tempDir();
  try {
    const home = join(base, ".wisp");
    assertEquals(await snapshot(home), null);
    Deno.mkdirSync(join(home, "logs"), { recursive: true });
    Deno.writeTextFileSync(join(home, "config.json"), "{}\n");
    Deno.writeTextFileSync(join(home, "logs", "audit.jsonl"), "a\n");
    Deno.writeTextFileSync(join(home, "approvals.json"), "[]\n");
    Deno.writeTextFileSync(join(home, "same.txt"), "x");
    const before = await snapshot(home);
    assertEquals(describeChanges(home, null, before), [`${home} was created`]);
    assertEquals(describeChanges(home, before, await snapshot(home)), []);

    Deno.writeTextFileSync(join(home, "logs", "audit.jsonl"), "b\n"); // same size, other bytes
    Deno.chmodSync(join(home, "config.json"), 0o600);
    Deno.removeSync(join(home, "approvals.json"));
    Deno.writeTextFileSync(join(home, "pending.json"), "{}");
    Deno.utimeSync(join(home, "same.txt"), new Date(), new Date(Date.now() + 5000));
    const after = await snapshot(home);
    assertEquals(describeChanges(home, before, after).sort(), [
      `${home}/approvals.json was removed`,
      `${home}/config.json mode 644 → 600`,
      `${home}/logs/audit.jsonl changed`,
      `${home}/pending.json was created`,
      `${home}/same.txt rewritten`,
    ]);
    Deno.removeSync(home, { recursive: true });
    assertEquals(describeChanges(home, after, await snapshot(home)), [`${home} was removed`]);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("the homes watched: ~/.wisp, and $WISP_HOME when the caller set one", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assertEquals(realHomes(env({ HOME: "/home/a" })), ["/home/a/.wisp"]);
  assertEquals(realHomes(env({ HOME: "/home/a", WISP_HOME: "/srv/w" })), [
    "/home/a/.wisp",
    "/srv/w",
  ]);
  assertEquals(realHomes(env({ HOME: "/home/a", WISP_HOME: "/home/a/.wisp" })), ["/home/a/.wisp"]);
});

Deno.test("test files: deno's name pattern, the config's excludes, a file named outright", async () => {
  const root = await tempDir();
  try {
    for (const path of ["a/x_test.ts", "a/y.test.js", "a/test.ts", "a/helper.ts", "a/latest.ts"]) {
      Deno.mkdirSync(join(root, path, ".."), { recursive: true });
      Deno.writeTextFileSync(join(root, path), "");
    }
    Deno.mkdirSync(join(root, "a/fixtures"));
    Deno.writeTextFileSync(join(root, "a/fixtures/z_test.ts"), "");
    assertEquals(testFiles(root, ["a"], [join(root, "a/fixtures/")]), [
      "./a/test.ts",
      "./a/x_test.ts",
      "./a/y.test.js",
    ]);
    assertEquals(testFiles(root, ["a/helper.ts"], []), ["./a/helper.ts"]);
    assertEquals(splitArgs(["--filter", "test/", "test/exec/", "--fail-fast"]), {
      paths: ["test/exec/"],
      flags: ["--filter", "test/", "--fail-fast"],
    });
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("a file's closing line is read through colours and steps; none is undefined", () => {
  assertEquals(
    closingCounts("x ... ok\n\n\x1b[0m\x1b[32mok\x1b[0m | 12 passed (3 steps) | 0 failed (5s)\n"),
    { passed: 12, failed: 0 },
  );
  assertEquals(closingCounts("FAILED | 4 passed | 1 failed | 2 ignored (1s)"), {
    passed: 4,
    failed: 1,
  });
  assertEquals(closingCounts("error: Module not found"), undefined);
});

Deno.test("the closing report names the slowest files, slowest first, out of how many", () => {
  const times = [
    { file: "./test/a_test.ts", ms: 900 },
    { file: "./test/b_e2e_test.ts", ms: 65_000 },
    { file: "./test/c_test.ts", ms: 12_400 },
    { file: "./test/d_test.ts", ms: 12_400 },
  ];
  assertEquals(slowestFiles(times, 3), [
    "the 3 slowest of 4 files:",
    "  1m05s  ./test/b_e2e_test.ts",
    "    12s  ./test/c_test.ts",
    "    12s  ./test/d_test.ts",
  ]);
  assertEquals(slowestFiles([], 25), []);
});

Deno.test("files start slowest first by their last times; without one an end-to-end file goes early", () => {
  const files = ["./a_test.ts", "./b_e2e_test.ts", "./c_test.ts", "./d_test.ts", "./e_e2e_test.ts"];
  // No times at all (a fresh machine): end-to-end files first, each kind in name order.
  assertEquals(startOrder(files, {}), [
    "./b_e2e_test.ts",
    "./e_e2e_test.ts",
    "./a_test.ts",
    "./c_test.ts",
    "./d_test.ts",
  ]);
  // Times known for some: the slowest first; an untimed end-to-end file ranks
  // with the slowest tenth of the timed ones, an untimed other file last.
  const last = { "./a_test.ts": 30_000, "./c_test.ts": 2_000, "./b_e2e_test.ts": 500 };
  assertEquals(startOrder(files, last), [
    "./a_test.ts",
    "./e_e2e_test.ts",
    "./c_test.ts",
    "./b_e2e_test.ts",
    "./d_test.ts",
  ]);
});

async function denoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdin: "null" })
    .output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

/** Reads `stream` line by line into `lines`, resolving waiters as lines arrive. */
function lineReader(stream: ReadableStream<Uint8Array>) {
  let text = "";
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const done = (async () => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      for (const w of [...waiters]) {
        if (w.pattern.test(text)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
    }
  })();
  return {
    text: () => text,
    done,
    /** Resolves once the output matches `pattern`; rejects after `ms` (a generous deadline). */
    waitFor(pattern: RegExp, ms = 120_000): Promise<void> {
      if (pattern.test(text)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${pattern} in:\n${text}`)), ms);
        waiters.push({ pattern, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
  };
}

Deno.test("the task prints each file's result as it finishes, says what runs in a quiet stretch, and fails on a change to the real home", async () => {
  const dir = await tempDir();
  const fakeHome = await tempDir();
  try {
    const release = join(dir, "release");
    // The slow file waits for the test's go-ahead, given only after the fast
    // file's result and a still-running line were printed.
    Deno.writeTextFileSync(
      join(dir, "a_slow_test.ts"),
      `Deno.test("slow", async () => {
  while (true) {
    try { Deno.statSync(${JSON.stringify(release)}); break; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
});
`,
    );
    Deno.writeTextFileSync(
      join(dir, "b_fast_test.ts"),
      `Deno.test("fast, and it writes into the real home", () => {
  Deno.mkdirSync(Deno.env.get("HOME") + "/.wisp/logs", { recursive: true });
  Deno.writeTextFileSync(Deno.env.get("HOME") + "/.wisp/logs/audit.jsonl", "leak\\n");
});
`,
    );
    const env: Record<string, string> = {
      ...Deno.env.toObject(),
      HOME: fakeHome,
      DENO_DIR: await denoDir(), // deno's cache is found from HOME otherwise
      WISP_TEST_QUIET_MS: "1000",
      DENO_JOBS: "2",
    };
    delete env.WISP_HOME;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(PROJECT_ROOT, "scripts", "test.ts"), dir],
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const out = lineReader(child.stdout);
    try {
      await out.waitFor(/ok {2}\S*b_fast_test\.ts {2}1 passed, 0 failed/);
      await out.waitFor(/… still running: \S*a_slow_test\.ts \(\d+s\)/);
      assert(!/a_slow_test\.ts {2}1 passed/.test(out.text()), "the slow file has not finished");
    } finally {
      Deno.writeTextFileSync(release, "");
    }
    const status = await child.status;
    await out.done;
    const text = out.text();
    assertEquals(status.code, 1, text);
    assertMatch(text, /ok {2}\S*a_slow_test\.ts {2}1 passed, 0 failed/);
    assertStringIncludes(text, "the suite changed the real wisp home");
    assertStringIncludes(text, `${fakeHome}/.wisp was created`);
    assertMatch(text, /\ntests: 2 passed, 0 failed\n$/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
    Deno.removeSync(fakeHome, { recursive: true });
  }
});

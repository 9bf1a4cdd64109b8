import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { runWisp, tempDir, wispCommand } from "../support/wisp.ts";

const COMMENTED = `// my wisp settings
{
    // the model
    "model": "ollama:granite4.1:8b",
    /* block comment */
    "approval": { "timeoutSeconds": 300 }, // why: slow reader
}
`;

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("config show prints defaults and paths as JSON, and never creates the home", async () => {
  const home = `${await tempDir()}/home`;
  const run = await runWisp(["config"], { home });
  assertEquals(run.code, 0, run.stderr);
  const shown = JSON.parse(run.stdout);
  assertEquals(shown.approval.threshold, "moderate");
  assertEquals(shown.configFile, { path: `${home}/config.json`, exists: false });
  assertEquals(shown.paths.auditLog, `${home}/logs/audit.jsonl`);
  assertEquals(exists(home), false);
  assertEquals((await runWisp(["config", "show"], { home })).stdout, run.stdout);
});

Deno.test("config get says whether a value is set or the default", async () => {
  const home = await tempDir();
  let run = await runWisp(["config", "get", "approval.threshold"], { home });
  assertEquals(run.stdout, "moderate\tthe default\n");
  Deno.writeTextFileSync(`${home}/config.json`, COMMENTED);
  run = await runWisp(["config", "get", "approval.timeoutSeconds"], { home });
  assertEquals(run.stdout, "300\tset in config.json\n");
  run = await runWisp(["config", "get", "no.such.key"], { home });
  assertEquals(run.code, 64);
  assertStringIncludes(run.stderr, "unknown setting 'no.such.key'");
});

Deno.test("config set on a commented JSONC file keeps every comment, writes 0600, audits the change", async () => {
  const root = await tempDir();
  const home = `${root}/home`;
  Deno.mkdirSync(home, { mode: 0o700 });
  Deno.writeTextFileSync(`${home}/config.json`, COMMENTED);
  const run = await runWisp(["config", "set", "approval.threshold", "never"], { home });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stderr, "note: with the threshold at never");
  const text = Deno.readTextFileSync(`${home}/config.json`);
  for (
    const comment of [
      "// my wisp settings",
      "// the model",
      "/* block comment */",
      "// why: slow reader",
    ]
  ) {
    assertStringIncludes(text, comment);
  }
  assertEquals((Deno.statSync(`${home}/config.json`).mode ?? 0) & 0o777, 0o600);
  const audit = Deno.readTextFileSync(`${home}/logs/audit.jsonl`).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assertEquals(audit.length, 1);
  assertEquals(audit[0].kind, "config.change");
  assertEquals(audit[0].key, "approval.threshold");
  assertEquals(audit[0].from, "moderate");
  assertEquals(audit[0].to, "never");
  assertEquals(audit[0].weakens, true);
  // And it took effect.
  assertEquals(
    (await runWisp(["config", "get", "approval.threshold"], { home })).stdout,
    "never\tset in config.json\n",
  );
  const unset = await runWisp(["config", "unset", "approval.threshold"], { home });
  assertEquals(unset.code, 0);
  assertEquals(
    (await runWisp(["config", "get", "approval.threshold"], { home })).stdout,
    "moderate\tthe default\n",
  );
});

Deno.test("config set creates the home 0700 when it does not exist", async () => {
  const home = `${await tempDir()}/fresh`;
  const run = await runWisp(["config", "set", "model", "ollama:granite4.1:8b"], { home });
  assertEquals(run.code, 0, run.stderr);
  assertEquals((Deno.statSync(home).mode ?? 0) & 0o777, 0o700);
  assertEquals(
    JSON.parse(Deno.readTextFileSync(`${home}/config.json`)).model,
    "ollama:granite4.1:8b",
  );
});

Deno.test("a refused change writes nothing", async () => {
  const home = await tempDir();
  Deno.writeTextFileSync(`${home}/config.json`, COMMENTED);
  const run = await runWisp(["config", "set", "approval.threshold", "sometimes"], { home });
  assertEquals(run.code, 64);
  assertEquals(run.stderr.trim().split("\n").length, 1);
  assertStringIncludes(run.stderr, "must be one of safe, moderate, dangerous, never");
  assertEquals(Deno.readTextFileSync(`${home}/config.json`), COMMENTED);
  assertEquals(exists(`${home}/logs`), false);
});

Deno.test("an unreadable config.json refuses the change with exit 1 and loses nothing", async () => {
  const home = await tempDir();
  Deno.mkdirSync(`${home}/config.json`); // a directory where the file should be
  const run = await runWisp(["config", "set", "model", "ollama:x"], { home });
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "is a directory");
  assert(Deno.statSync(`${home}/config.json`).isDirectory);
});

Deno.test("a malformed config gives exit 64 and names the field, without a stack trace", async () => {
  const home = await tempDir();
  Deno.writeTextFileSync(`${home}/config.json`, '{ "approval": { "threshold": "loud" } }');
  for (
    const args of [["config"], ["config", "get", "model"], ["config", "set", "model", "ollama:x"]]
  ) {
    const run = await runWisp(args, { home });
    assertEquals(run.code, 64, `wisp ${args.join(" ")}`);
    assertStringIncludes(run.stderr, "approval.threshold must be one of");
    assertEquals(run.stderr.trim().split("\n").length, 1);
    assertEquals(run.stderr.includes("    at "), false);
  }
  Deno.writeTextFileSync(`${home}/config.json`, '{ "model": "x", ');
  const run = await runWisp(["config"], { home });
  assertEquals(run.code, 64);
  assertMatch(run.stderr, /config\.json is not valid JSON at line 1/);
});

Deno.test("config list names every settable key with its value or (default); TSV when piped", async () => {
  const home = await tempDir();
  Deno.writeTextFileSync(`${home}/config.json`, '{ "approval": { "threshold": "dangerous" } }');
  const run = await runWisp(["config", "list"], { home });
  assertEquals(run.code, 0);
  const rows = run.stdout.trim().split("\n").map((l) => l.split("\t"));
  assert(rows.every((r) => r.length === 3), "every row has three fields");
  const byKey = new Map(rows.map((r) => [r[0], r]));
  assertEquals(byKey.get("approval.threshold")?.[1], "dangerous");
  assertEquals(byKey.get("approval.timeoutSeconds")?.[1], "(default)");
  assert(byKey.has("commandPolicy.sandbox.allowOutsideSandbox"));
});

Deno.test("config set killed with SIGKILL at random moments never leaves a corrupt or partial file", async () => {
  const home = await tempDir();
  Deno.writeTextFileSync(`${home}/config.json`, COMMENTED);
  const [cmd, ...prefix] = wispCommand();
  const values = new Set(["5", "6", "7", "300"]);
  let killedMidway = 0;
  for (let round = 0; round < 50; round++) {
    // Four at a time, each killed after a random delay within start-up and the write.
    await Promise.all([0, 1, 2, 3].map(async (k) => {
      const value = String(5 + ((round + k) % 3));
      const child = new Deno.Command(cmd, {
        args: [...prefix, "config", "set", "approval.timeoutSeconds", value],
        env: { WISP_HOME: home, PATH: Deno.env.get("PATH") ?? "", HOME: home },
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      await new Promise((r) => setTimeout(r, Math.random() * 160));
      try {
        child.kill("SIGKILL");
        killedMidway++;
      } catch { /* it had finished */ }
      await child.status;
    }));
    const text = Deno.readTextFileSync(`${home}/config.json`);
    const run = await import("../../src/config/load.ts").then((m) =>
      m.validateConfig(m.parseConfigText(text, "c"), "c")
    );
    assert(
      values.has(String(run.approval.timeoutSeconds)),
      `unexpected value ${run.approval.timeoutSeconds}`,
    );
    assertStringIncludes(text, "// my wisp settings");
  }
  assert(killedMidway > 100, `only ${killedMidway} of 200 runs were killed before they finished`);
});

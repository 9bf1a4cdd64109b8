import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { runWisp, tempDir, wispCommand } from "../support/wisp.ts";
import { AuditLog } from "../../src/audit/writer.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function seed(home: string, maxBytes = 1 << 20) {
  return new AuditLog({ path: `${home}/logs/audit.jsonl`, enabled: true, maxBytes, keep: 20 });
}

Deno.test("logs: one-line summaries oldest first, --last, --kind (repeatable), --session, --json", async () => {
  const home = await tempDir();
  const a = seed(home);
  a.record("prompt", { text: "first" });
  a.record("policy.decision", { command: "git push", decision: "deny", reason: "not allowed" });
  a.close();
  const b = seed(home);
  b.record("command.outcome", { command: "ls -la", exitStatus: 0, origin: "model" });
  b.record("prompt", { text: "last" });
  b.close();

  let run = await runWisp(["logs"], { home });
  assertEquals(run.code, 0);
  const lines = run.stdout.trim().split("\n");
  assertEquals(lines.length, 4);
  assertMatch(
    lines[0],
    new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  ${a.session}  prompt  first`),
  );
  assertStringIncludes(lines[1], "git push");
  assertStringIncludes(lines[1], "decision=deny");

  run = await runWisp(["logs", "--last", "1"], { home });
  assertStringIncludes(run.stdout, "last");
  assertEquals(run.stdout.trim().split("\n").length, 1);

  run = await runWisp(["logs", "--kind", "policy.decision", "--kind", "command.outcome"], { home });
  assertEquals(run.stdout.trim().split("\n").length, 2);

  run = await runWisp(["logs", "--session", b.session.slice(0, 4), "--json"], { home });
  const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assertEquals(events.map((e) => e.kind), ["command.outcome", "prompt"]);
});

Deno.test("logs never creates the home, and says a torn line was skipped", async () => {
  const root = await tempDir();
  let run = await runWisp(["logs"], { home: `${root}/none` });
  assertEquals(run.code, 0);
  assertEquals(exists(`${root}/none`), false);
  const home = `${root}/h`;
  const log = seed(home);
  log.record("prompt", { text: "ok" });
  Deno.writeTextFileSync(`${home}/logs/audit.jsonl`, '{"torn": tru\n', { append: true });
  log.close();
  run = await runWisp(["logs"], { home });
  assertEquals(run.code, 0);
  assertEquals(run.stdout.trim().split("\n").length, 1);
  assertStringIncludes(
    run.stderr,
    "skipped 1 line that is not a whole audit event (audit.jsonl line 2)",
  );
});

Deno.test("logs --follow keeps printing across rotation until interrupted", async () => {
  const home = await tempDir();
  const log = seed(home, 2048);
  log.record("prompt", { text: "old" });
  const [cmd, ...args] = wispCommand();
  const child = new Deno.Command(cmd, {
    args: [...args, "logs", "--follow", "--kind", "prompt"],
    env: { WISP_HOME: home, PATH: Deno.env.get("PATH") ?? "", HOME: home, NO_COLOR: "1" },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const readUntil = async (needle: string) => {
    const deadline = Date.now() + 60_000; // generous: it only turns a hang into a failure
    while (!seen.includes(needle) && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
    }
  };
  await readUntil("old");
  for (let i = 0; i < 60; i++) {
    log.record("prompt", { text: `new${i} ${"p".repeat(60)}` });
    log.record("command.typed", { command: "ignored by the filter" });
  }
  log.close();
  await readUntil("new59");
  child.kill("SIGINT");
  const status = await child.status;
  assert(exists(`${home}/logs/audit.jsonl.2`), "the log rotated at least twice");
  for (let i = 0; i < 60; i++) assertStringIncludes(seen, `new${i} `);
  assertEquals(seen.includes("ignored by the filter"), false);
  assertEquals(status.code, 0);
  await reader.cancel().catch(() => {});
  await child.stderr.cancel();
});

Deno.test("doctor: the install findings are ok here; the home is created 0700", async () => {
  const home = `${await tempDir()}/home`;
  const run = await runWisp(["doctor"], { home });
  const lines = run.stdout.trim().split("\n");
  for (const name of ["os", "sandbox", "sandbox probe", "config", "home", "permission fence"]) {
    assert(
      lines.some((l) => l.startsWith(`ok   ${name}: `)),
      `no ok ${name} finding in\n${run.stdout}`,
    );
  }
  // The default model is Apple's on-device one, which Linux does not have:
  // that finding is not ok, says what to do, and makes doctor exit 1.
  assertMatch(run.stdout, /^not ok model: .*Ollama/m);
  assertEquals(run.code, 1);
  assertEquals((Deno.statSync(home).mode ?? 0) & 0o777, 0o700);
});

Deno.test("doctor: with a model server that answers, every finding is ok and it exits 0", async () => {
  // Doctor asks the model for one word; the server answers it.
  const ollama = startFakeOllama({
    models: [{ name: "granite4.1:8b" }],
    replies: [{ text: "ready" }],
  });
  try {
    const home = await tempDir();
    Deno.writeTextFileSync(
      `${home}/config.json`,
      JSON.stringify({ model: "ollama:granite4.1:8b", ollama: { host: ollama.url } }),
    );
    const run = await runWisp(["doctor"], { home });
    assertEquals(run.code, 0, run.stdout + run.stderr);
    for (const line of run.stdout.trim().split("\n")) assertMatch(line, /^ok {3}[a-z ]+: \S/);
    assertMatch(run.stdout, /^ok {3}model: /m);
  } finally {
    await ollama.close();
  }
});

Deno.test("doctor: a malformed config is not ok, says what is wrong, and exits 1", async () => {
  const home = await tempDir();
  Deno.writeTextFileSync(`${home}/config.json`, '{ "commandPolicy": { "deny": ["(oops"] } }');
  const run = await runWisp(["doctor"], { home });
  assertEquals(run.code, 1);
  assertMatch(
    run.stdout,
    /^not ok config: .*commandPolicy\.deny\.0 is not a valid regular expression/m,
  );
});

Deno.test("doctor: run without the permission fence says so", async () => {
  const home = await tempDir();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../main.ts", import.meta.url).pathname, "doctor"],
    env: { WISP_HOME: home, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 1);
  assertMatch(
    new TextDecoder().decode(out.stdout),
    /^not ok permission fence: not in force: any program may be started/m,
  );
});

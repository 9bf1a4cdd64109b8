/**
 * run_command through a session's real gate and runner: the working
 * directory, the timeout ladder (the call's, the thread's, the default,
 * the cap), outsideSandbox with the sandbox off, and the refusal words.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema } from "../../src/config/schema.ts";
import { Session } from "../../src/session/session.ts";
import { refusalText } from "../../src/tools/run_command.ts";

async function withSession(
  config: Record<string, unknown>,
  body: (session: Session, project: string) => Promise<void>,
  options: { unsafe?: boolean } = {},
): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-runcmd-" }));
  const project = join(dir, "project");
  await Deno.mkdir(join(project, "sub"), { recursive: true });
  const session = Session.open({
    face: "test",
    paths: homePaths(join(dir, "home")),
    config: configSchema.parse(config),
    root: project,
    yes: true,
    unsafe: options.unsafe,
  });
  try {
    await body(session, project);
  } finally {
    session.close();
    await Deno.remove(dir, { recursive: true });
  }
}

async function call(
  session: Session,
  args: Record<string, unknown>,
  turn: { commandTimeoutSeconds?: number } = {},
) {
  const t = session.beginTurn({ budgetBytes: 8192, ...turn });
  const result = await session.registry.call("run_command", args, t.context);
  const outcome = t.audit.events.find((e) => e.kind === "command.outcome");
  return { result, outcome };
}

Deno.test("workingDirectory: relative to the working directory; a missing one is an error that runs nothing", async () => {
  await withSession({}, async (session, project) => {
    const { result } = await call(session, { command: "pwd", workingDirectory: "sub" });
    assertEquals(result.text, `exit status: 0\nstdout:\n${join(project, "sub")}`);
    const missing = await call(session, { command: "pwd", workingDirectory: "nowhere" });
    assertEquals(missing.result.text, "error: the working directory nowhere does not exist");
    assertEquals(missing.outcome, undefined);
  });
});

Deno.test("the call's timeoutSeconds comes first, and the result says the command was killed", async () => {
  await withSession({ commandTimeoutSeconds: 60 }, async (session) => {
    const { result, outcome } = await call(session, { command: "sleep 20", timeoutSeconds: 1 });
    // Killed at the limit (the result says so), not before it; how close to
    // it is the runner's test (test/exec/runner_test.ts).
    const took = Number(outcome?.durationMs);
    assert(took >= 900, `killed after ${took} ms`);
    assertMatch(result.text, /timed out: the command was killed after 1 s/);
    assertEquals(result.ok, false);
    assertEquals(outcome?.timeoutSource, "call");
    assertEquals(outcome?.timeoutSeconds, 1);
  });
});

Deno.test("the thread's limit applies when the call gives none; the operator's cap bounds both", async () => {
  await withSession({ commandTimeoutSeconds: 60, commandTimeoutCapSeconds: 1 }, async (session) => {
    const { result, outcome } = await call(session, { command: "sleep 20", timeoutSeconds: 30 });
    assertMatch(result.text, /timed out: the command was killed after 1 s, the most allowed/);
    assertEquals(outcome?.timeoutClamped, true);
  });
  await withSession({ commandTimeoutSeconds: 60 }, async (session) => {
    const { outcome } = await call(session, { command: "true" }, { commandTimeoutSeconds: 7 });
    assertEquals(outcome?.timeoutSource, "thread");
    assertEquals(outcome?.timeoutSeconds, 7);
  });
});

Deno.test("with the sandbox off, outsideSandbox changes nothing and asks nothing", async () => {
  await withSession({}, async (session) => {
    const { result, outcome } = await call(session, { command: "echo hi", outsideSandbox: true });
    assertMatch(result.text, /^exit status: 0\nstdout:\nhi\n/);
    assertMatch(result.text, /sandbox: outsideSandbox changed nothing: the sandbox is off here/);
    assertEquals(outcome?.sandbox, "off");
  }, { unsafe: true });
});

Deno.test("turned off in config, outsideSandbox is the policy's refusal", async () => {
  await withSession(
    { commandPolicy: { sandbox: { allowOutsideSandbox: false } } },
    async (session) => {
      const { result } = await call(session, { command: "echo hi", outsideSandbox: true });
      assertMatch(
        result.text,
        /^error: command denied by policy: running outside the sandbox is turned off here/,
      );
    },
  );
});

Deno.test("refusals read as the model is taught, whatever the gate's prefix", () => {
  assertEquals(
    refusalText("error: command denied by policy: sudo"),
    "error: command denied by policy: sudo",
  );
  assertEquals(refusalText("command not approved: no one"), "error: command not approved: no one");
  assertEquals(
    refusalText("the person said no"),
    "error: command not approved: the person said no",
  );
  assertEquals(refusalText(undefined), "error: command not approved: the gate refused it");
});

Deno.test("run_command's limits are rendered from the live options", async () => {
  const { runCommandTool } = await import("../../src/tools/run_command.ts");
  const defaults = runCommandTool.limits(configSchema.parse({})).join("\n");
  assertMatch(
    defaults,
    /at most 120 s unless timeoutSeconds asks otherwise, and never longer than 3600 s/,
  );
  assertMatch(defaults, /approval at moderate and above/);
  const changed = runCommandTool.limits(configSchema.parse({
    commandTimeoutSeconds: 30,
    commandTimeoutCapSeconds: 0,
    approval: { threshold: "dangerous" },
    commandPolicy: { sandbox: { enabled: false, allowOutsideSandbox: false } },
  })).join("\n");
  assertMatch(changed, /at most 30 s unless timeoutSeconds asks otherwise;/);
  assertMatch(changed, /approval at dangerous and above/);
  assertMatch(changed, /The sandbox is off/);
  assertMatch(changed, /Running outside the sandbox is turned off/);
});

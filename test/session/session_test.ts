/**
 * The session with the real gate and the real runner (bwrap): tool choice,
 * refusals in the model's words, approvals asked through a host before any
 * command runs, and a stop that ends a running command.
 */
import { ConversationContext } from "../../src/context/context.ts";
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertRejects } from "../support/assert.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema } from "../../src/config/schema.ts";
import { Session } from "../../src/session/session.ts";
import { runTurn } from "../../src/agent/turn.ts";
import { callsFromEvents } from "../../src/audit/calls.ts";
import { ranLine } from "../../src/agent/receipts.ts";
import { ScriptedBackend, textReply, toolCallEvent } from "../../src/models/scripted.ts";
import type { ApprovalAnswer, ApprovalHost, ApprovalRequest } from "../../src/gate/gate.ts";
import { UsageError } from "../../src/util/errors.ts";
import { exists, waitUntil } from "../support/wait.ts";

interface Fixture {
  dir: string;
  project: string;
  open(options?: { yes?: boolean; host?: ApprovalHost; config?: Record<string, unknown> }): Session;
  remove(): Promise<void>;
}

async function fixture(): Promise<Fixture> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-session-" }));
  const project = join(dir, "project");
  await Deno.mkdir(project);
  return {
    dir,
    project,
    open: (options = {}) =>
      Session.open({
        face: "test",
        paths: homePaths(join(dir, "home")),
        config: configSchema.parse(options.config ?? {}),
        root: project,
        yes: options.yes,
        host: options.host,
      }),
    remove: () => Deno.remove(dir, { recursive: true }),
  };
}

async function turn(
  session: Session,
  script: ConstructorParameters<typeof ScriptedBackend>[0],
  signal?: AbortSignal,
) {
  const backend = new ScriptedBackend(script);
  const t = session.beginTurn({ budgetBytes: 8192, signal });
  const tools = session.tools();
  const outcome = await runTurn({
    backend,
    transcript: new ConversationContext({ instructions: "test", window: 32768 }),
    prompt: "go",
    tools,
    registry: session.registry,
    context: t.context,
    signal,
  });
  const results = (backend.requests[1]?.messages ?? []).filter((m) => m.role === "tool").map((m) =>
    m.content
  );
  return {
    outcome,
    results,
    calls: callsFromEvents(t.audit.events),
    events: t.audit.events,
    backend,
  };
}

Deno.test("a session offers the built-ins with run_command, exactly a named list, or none", async () => {
  const f = await fixture();
  const session = f.open();
  try {
    const names = session.tools().map((t) => t.name);
    assertEquals(names.slice(0, 2), ["current_date", "run_command"]);
    assertEquals(session.tools({ only: ["read_file", "run_command"] }).map((t) => t.name), [
      "run_command",
      "read_file",
    ]);
    assertEquals(session.tools({ noTools: true }), []);
    try {
      session.tools({ only: ["rm_rf"] });
      throw new Error("an unknown tool must be refused");
    } catch (error) {
      assert(error instanceof UsageError);
    }
  } finally {
    session.close();
    await f.remove();
  }
});

Deno.test("the policy's refusal comes back as error: command denied by policy, counted as denied", async () => {
  const f = await fixture();
  const session = f.open({ yes: true });
  try {
    const { results, calls } = await turn(session, [[
      toolCallEvent("run_command", { command: "sudo rm -rf /tmp/x" }),
    ], textReply("No.")]);
    assertMatch(results[0], /^error: command denied by policy: /);
    assertEquals(ranLine(calls, "", []), "ran: run_command (1 denied)");
  } finally {
    session.close();
    await f.remove();
  }
});

Deno.test("--yes does not answer for a command outside the sandbox", async () => {
  const f = await fixture();
  const session = f.open({ yes: true });
  try {
    const { results } = await turn(session, [
      [toolCallEvent("run_command", { command: "touch x", outsideSandbox: true })],
      textReply("No."),
    ]);
    assertMatch(
      results[0],
      /^error: command not approved: running outside the sandbox is asked of a person every time/,
    );
    await assertRejects(() => Deno.stat(join(f.project, "x")));
  } finally {
    session.close();
    await f.remove();
  }
});

Deno.test("every command's approval is asked before the first one runs", async () => {
  const f = await fixture();
  const asked: ApprovalRequest[] = [];
  const ranBeforeAsking: boolean[] = [];
  const host: ApprovalHost = {
    approve(request): Promise<ApprovalAnswer> {
      asked.push(request);
      try {
        Deno.statSync(join(f.project, "first.txt"));
        ranBeforeAsking.push(true);
      } catch {
        ranBeforeAsking.push(false);
      }
      return Promise.resolve(request.command.startsWith("mkdir") ? "no" : "once");
    },
  };
  const session = f.open({ host });
  try {
    const { results, events } = await turn(session, [
      [
        toolCallEvent("run_command", { command: "touch first.txt" }),
        toolCallEvent("run_command", { command: "mkdir second" }),
        toolCallEvent("run_command", { command: "cp first.txt third.txt" }),
      ],
      textReply("Done."),
    ]);
    assertEquals(asked.map((r) => r.command), [
      "touch first.txt",
      "mkdir second",
      "cp first.txt third.txt",
    ]);
    assertEquals(
      ranBeforeAsking,
      [false, false, false],
      "no command ran while questions were still to be asked",
    );
    assertEquals(events.filter((e) => e.kind === "command.outcome").length, 2);
    assertMatch(results[0], /^exit status: 0/);
    assertMatch(results[1], /^error: command not approved: the person refused mkdir second/);
    assertMatch(results[2], /^exit status: 0/);
    await Deno.stat(join(f.project, "first.txt"));
    await Deno.stat(join(f.project, "third.txt"));
    await assertRejects(() => Deno.stat(join(f.project, "second")));
  } finally {
    session.close();
    await f.remove();
  }
});

Deno.test("stopping the turn stops the command it runs", async () => {
  const f = await fixture();
  const session = f.open({ yes: true });
  try {
    const controller = new AbortController();
    // Stopped once the command has started (its mark), not after a fixed pause: on a slow
    // machine the pause could end before the sandbox has even started it.
    const stop = () => controller.abort();
    void waitUntil(() => exists(join(f.project, "started")), "the command's start").then(
      stop,
      stop,
    );
    const { outcome, events } = await turn(session, [
      [toolCallEvent("run_command", {
        command: "touch started; sleep 30; echo late > late.txt",
      })],
      textReply("never"),
    ], controller.signal);
    assertEquals(outcome.stopped, true);
    const result = events.find((e) => e.kind === "tool.result");
    assertMatch(String(result?.text), /stopped: the person stopped the command/);
    assert(events.some((e) => e.kind === "turn.stopped"));
    await assertRejects(() => Deno.stat(join(f.project, "late.txt")));
  } finally {
    session.close();
    await f.remove();
  }
});

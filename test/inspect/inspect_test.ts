/**
 * inspect as the model calls it, through a session's registry: each view,
 * the same config object `wisp config show` prints, the audit lines `wisp
 * logs` prints, the turn's calls with their outcomes, the budget with its
 * held-back note, and a repeated call marked.
 */
import { ConversationContext } from "../../src/context/context.ts";
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertNotMatch } from "../support/assert.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema } from "../../src/config/schema.ts";
import { Session } from "../../src/session/session.ts";
import { runWisp } from "../support/wisp.ts";
import { jsonView, renderCalls } from "../../src/tools/inspect.ts";

async function withSession(
  body: (session: Session, dir: string) => Promise<void>,
  config: Record<string, unknown> = {},
): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-inspect-" }));
  await Deno.mkdir(join(dir, "project"));
  const session = Session.open({
    face: "test",
    paths: homePaths(join(dir, "home")),
    config: configSchema.parse(config),
    root: join(dir, "project"),
    yes: true,
  });
  try {
    await body(session, dir);
  } finally {
    session.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("config: the object wisp config show prints, pretty as it prints it", async () => {
  await withSession(async (session, dir) => {
    const home = join(dir, "home");
    await Deno.writeTextFile(join(home, "config.json"), JSON.stringify({ shownOutputLines: 7 }));
    const config = configSchema.parse({ shownOutputLines: 7 });
    const s2 = Session.open({
      face: "test",
      paths: homePaths(home),
      config,
      root: join(dir, "project"),
    });
    try {
      const turn = s2.beginTurn({ budgetBytes: 64 * 1024 });
      const result = await s2.registry.call("inspect", { what: "config" }, turn.context);
      assertEquals(result.ok, true);
      const cli = await runWisp(["config", "show"], { home });
      assertEquals(cli.code, 0, cli.stderr);
      assertEquals(JSON.parse(result.text), JSON.parse(cli.stdout));
      // Under 4 KiB it is pretty, as wisp config show prints it.
      assertEquals(result.text, cli.stdout.trimEnd());
    } finally {
      s2.close();
    }
    void session;
  });
});

Deno.test("a config view past 4 KiB pretty comes compact, on one line, nothing cut", () => {
  const big = {
    models: Object.fromEntries([...Array(200)].map((_, i) => [`m${i}`, { think: true }])),
  };
  const text = jsonView(big);
  assertEquals(text, JSON.stringify(big));
  assertEquals(jsonView({ a: 1 }), '{\n  "a": 1\n}');
});

Deno.test("status: this session, the turn, the face and the version", async () => {
  await withSession(async (session) => {
    session.beginTurn({ budgetBytes: 8192 });
    const turn = session.beginTurn({ budgetBytes: 8192 });
    const result = await session.registry.call("inspect", { what: "status" }, turn.context);
    const status = JSON.parse(result.text);
    assertEquals(status.session, session.id);
    assertEquals(status.entryPoint, "test");
    assertEquals(status.turn, 2);
    assertEquals(status.sessionApprovals, 0);
    assertEquals(status.auditFile, session.paths.auditLog);
    assertEquals(status.processes, []);
    assertMatch(status.version, /^\d+\.\d+\.\d+/);
  });
});

Deno.test("audit: the lines wisp logs prints, last and kind applied; an unknown kind names the kinds", async () => {
  await withSession(async (session, dir) => {
    const turn = session.beginTurn({ budgetBytes: 16384 });
    for (const word of ["one", "two", "three"]) {
      await session.registry.call("run_command", { command: `echo ${word}` }, turn.context);
    }
    const t2 = session.beginTurn({ budgetBytes: 16384 });
    const result = await session.registry.call(
      "inspect",
      { what: "audit", last: 2, kind: "command.outcome" },
      t2.context,
    );
    const cli = await runWisp(["logs", "--last", "2", "--kind", "command.outcome"], {
      home: join(dir, "home"),
    });
    assertEquals(cli.code, 0, cli.stderr);
    assertEquals(result.text, cli.stdout.trimEnd());
    assertEquals(result.text.split("\n").length, 2);
    assertMatch(result.text, /echo two/);
    assertMatch(result.text, /echo three/);
    const bad = await session.registry.call("inspect", { what: "audit", kind: "nope" }, t2.context);
    assertMatch(bad.text, /^error: unknown kind 'nope'; the kinds are session\.start, /);
    const none = await session.registry.call(
      "inspect",
      { what: "audit", kind: "triage" },
      t2.context,
    );
    assertEquals(none.text, "no matching audit events");
    const wrong = await session.registry.call("inspect", { what: "everything" }, t2.context);
    assertMatch(
      wrong.text,
      /^error: bad arguments for inspect: what must be one of config, status, approvals, audit, calls/,
    );
  });
});

Deno.test("calls: the turn's calls numbered with their outcomes; none yet says so", async () => {
  await withSession(async (session) => {
    const turn = session.beginTurn({ budgetBytes: 16384 });
    const empty = await session.registry.call("inspect", { what: "calls" }, turn.context);
    assertEquals(empty.text, "no tool calls in turn 1");
    await session.registry.call("run_command", { command: "exit 4" }, turn.context);
    await session.registry.call("run_command", { command: "rm -rf /" }, turn.context);
    await session.registry.call("read_file", { path: "missing.txt" }, turn.context);
    await session.registry.call("current_date", {}, turn.context);
    const result = await session.registry.call("inspect", { what: "calls" }, turn.context);
    const [marker, ...lines] = result.text.split("\n");
    // The first inspect of calls was the same call: the second is marked.
    assertMatch(marker, /^\[repeated call: /);
    assertEquals(lines[0], "turn 1: 5 tool calls");
    assertEquals(lines[1], '1. inspect {"what":"calls"} → ok, 23 bytes');
    assertEquals(lines[2], '2. run_command {"command":"exit 4"} → exit status 4');
    assertEquals(lines[3], '3. run_command {"command":"rm -rf /"} → denied by policy; did not run');
    assertMatch(lines[4], /^4\. read_file \{"path":"missing.txt"\} → error: /);
    assertMatch(lines[5], /^5\. current_date \{\} → ok, \d+ bytes$/);
    assertEquals(lines.length, 6);
  });
});

Deno.test("the same call again in one turn is marked; in a new turn it is not", async () => {
  await withSession(async (session) => {
    const turn = session.beginTurn({ budgetBytes: 16384 });
    const first = await session.registry.call("inspect", { what: "approvals" }, turn.context);
    assertEquals(first.text, "[]");
    const again = await session.registry.call("inspect", { what: "approvals" }, turn.context);
    assertMatch(
      again.text,
      /^\[repeated call: inspect \{"what":"approvals"\} was already made in this turn/,
    );
    assertMatch(again.text, /\n\[\]$/);
    const other = await session.registry.call("inspect", { what: "status" }, turn.context);
    assertNotMatch(other.text, /repeated call/);
    const next = session.beginTurn({ budgetBytes: 16384 });
    const fresh = await session.registry.call("inspect", { what: "approvals" }, next.context);
    assertEquals(fresh.text, "[]");
  });
});

Deno.test("a view past the budget shows its first and last lines and names the kept whole", async () => {
  await withSession(async (session) => {
    const turn = session.beginTurn({ budgetBytes: 16384 });
    for (let i = 0; i < 60; i++) {
      await session.registry.call("current_date", {}, turn.context);
    }
    const small = session.beginTurn({ budgetBytes: 4096 });
    const result = await session.registry.call(
      "inspect",
      { what: "audit", last: 500 },
      small.context,
    );
    assert(new TextEncoder().encode(result.text).length <= 4096);
    assertMatch(result.text, /held back: output lines \d+–\d+ .*kept as output /);
    assert(result.outputId, "the whole view was not kept");
  });
});

Deno.test("calls renders shortened arguments and timed-out commands", () => {
  const text = renderCalls([
    {
      id: "1",
      tool: "run_command",
      arguments: { command: "sleep 100" },
      outcome: "failed",
      text: "exit status: -15\ntimed out: the command was killed after 1 s",
      exitStatus: -15,
    },
    { id: "2", tool: "grep", arguments: { pattern: "x".repeat(300) }, outcome: "ok", text: "a" },
  ], 3);
  const lines = text.split("\n");
  assertEquals(lines[1], '1. run_command {"command":"sleep 100"} → exit status -15, timed out');
  assert(lines[2].length < 160 && lines[2].includes("…"));
});

Deno.test("calls: a call of the same response still running has no result yet, and later ones are not started", async () => {
  const { runTurn } = await import("../../src/agent/turn.ts");
  const { ScriptedBackend, textReply, toolCallEvent } = await import(
    "../../src/models/scripted.ts"
  );
  await withSession(async (session, dir) => {
    const project = join(dir, "project");
    for (const name of ["a", "b", "c", "d"]) {
      await Deno.writeTextFile(join(project, `${name}.txt`), `${name}\n`);
    }
    const backend = new ScriptedBackend([
      [
        toolCallEvent("read_file", { path: "a.txt" }),
        toolCallEvent("inspect", { what: "calls" }),
        toolCallEvent("read_file", { path: "b.txt" }),
        toolCallEvent("read_file", { path: "c.txt" }),
        toolCallEvent("read_file", { path: "d.txt" }),
      ],
      textReply("ok"),
    ]);
    const turn = session.beginTurn({ budgetBytes: 64 * 1024 });
    await runTurn({
      backend,
      transcript: new ConversationContext({ instructions: "test", window: 32768 }),
      prompt: "go",
      tools: session.tools(),
      registry: session.registry,
      context: turn.context,
    });
    const view = backend.requests[1].messages.filter((m) => m.role === "tool")[1].content;
    assertNotMatch(view, /did not finish/);
    assertEquals(
      view,
      [
        "turn 1: 4 tool calls",
        '1. read_file {"path":"a.txt"} → no result yet: it runs beside this call',
        '2. read_file {"path":"b.txt"} → not started yet (later in this response)',
        '3. read_file {"path":"c.txt"} → not started yet (later in this response)',
        '4. read_file {"path":"d.txt"} → not started yet (later in this response)',
      ].join("\n"),
    );
  });
});

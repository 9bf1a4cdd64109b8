/**
 * The process tool as the model calls it — through a session's registry, its
 * real gate and the real sandboxed runner: start returns an id at once, poll
 * hands over new output and the exit status only once it has ended, stop ends
 * the whole tree, the lifetime holds, the gate refuses what it would refuse
 * run_command, and a real server on a real port is gone when the session
 * closes.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertNotMatch } from "../support/assert.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema } from "../../src/config/schema.ts";
import { Session } from "../../src/session/session.ts";
import type { AuditEvent } from "../../src/audit/catalogue.ts";
import { processesWith } from "../exec/support.ts";
import { waitUntil, within } from "../support/wait.ts";

async function withSession(
  body: (session: Session, project: string) => Promise<void>,
  config: Record<string, unknown> = {},
): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-bg-" }));
  const project = join(dir, "project");
  await Deno.mkdir(project, { recursive: true });
  const session = Session.open({
    face: "test",
    paths: homePaths(join(dir, "home")),
    config: configSchema.parse(config),
    root: project,
    yes: true,
  });
  try {
    await body(session, project);
  } finally {
    session.close();
    await session.processes.settled();
    await Deno.remove(dir, { recursive: true });
  }
}

async function call(session: Session, args: Record<string, unknown>, budgetBytes = 16 * 1024) {
  const t = session.beginTurn({ budgetBytes });
  return await session.registry.call("process", args, t.context);
}

Deno.test("start returns an id at once; polls hand over new output; the exit status only once it has ended", async () => {
  await withSession(async (session, project) => {
    // The command goes on only once the test has seen start return: a start
    // that waited for the command would never return.
    const start = await within(
      call(session, {
        action: "start",
        command:
          "echo first; while [ ! -e go ]; do sleep 0.05; done; echo second; echo oops >&2; exit 3",
      }),
      "start's return while its command still runs",
    );
    assertMatch(start.text, /^started process p1 in the background: echo first/);
    assertEquals(start.ok, true);

    const early = await call(session, { action: "poll", id: "p1", waitSeconds: 30 });
    assertMatch(early.text, /^process p1: running for \d+ s \(lifetime 1800 s\)\n/);
    assertMatch(early.text, /stdout: 6 bytes new\nfirst/);
    assertNotMatch(early.text, /exit status/);
    Deno.writeTextFileSync(join(project, "go"), "");

    const polls: string[] = [];
    while (polls.length < 20 && !/exited/.test(polls.at(-1) ?? "")) {
      polls.push((await call(session, { action: "poll", id: "p1", waitSeconds: 2 })).text);
    }
    const last = polls.at(-1)!;
    assertMatch(last, /^process p1: exited after \d+ s\nexit status: 3\n/);
    for (const text of polls.slice(0, -1)) assertNotMatch(text, /exit status/);
    const seen = polls.join("\n");
    assertEquals(seen.match(/\nsecond\n/g)?.length, 1, seen);
    assertNotMatch(seen, /\nfirst/, "output already polled came again");
    assertEquals(seen.match(/\noops/g)?.length, 1, seen);
    assertNotMatch(seen, /wisp-exit/);
    const after = await call(session, { action: "poll", id: "p1" });
    assertMatch(after.text, /stdout: nothing new\nstderr: nothing new$/);
    const list = await call(session, { action: "list" });
    assertMatch(list.text, /^p1\texited 3\t\d+ s\techo first/);
  });
});

Deno.test("a flood between two polls: the newest output within the budget, the dropped bytes counted", async () => {
  await withSession(async (session) => {
    // The whole flood lands before the one poll: no earlier poll may take part of it.
    const done = `/tmp/wisp-flood-${crypto.randomUUID().slice(0, 8)}`;
    await call(session, {
      action: "start",
      command:
        `i=0; while [ $i -lt 4000 ]; do echo line-$i-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; i=$((i+1)); done; touch ${done}`,
    });
    let text = "";
    try {
      await waitUntil(() => {
        try {
          Deno.statSync(done);
          return true;
        } catch {
          return false;
        }
      }, "the flood's end");
      await waitUntil(async () => {
        const listed = (await call(session, { action: "list" })).text;
        return /exited/.test(listed);
      }, "the process's exit");
      text = (await call(session, { action: "poll", id: "p1" }, 4096)).text;
    } finally {
      Deno.removeSync(done);
    }
    assertMatch(text, /exit status: 0/);
    assert(new TextEncoder().encode(text).length <= 4096, `poll of ${text.length} bytes`);
    assertMatch(text, /stdout: \d+ KiB new, the first [\d,]+ bytes dropped/);
    assertMatch(text, /line-3999-x+\n/);
  });
});

Deno.test("stop ends the process and everything it started; a second stop says it had ended", async () => {
  await withSession(async (session) => {
    const marker = `wisp-bg-stop-${crypto.randomUUID().slice(0, 8)}`;
    await call(session, {
      action: "start",
      command: `sh -c 'sleep 60; echo ${marker}' & sleep 60`,
    });
    await waitUntil(() => processesWith(marker).length > 0, "the child's start");
    const stopped = await call(session, { action: "stop", id: "p1" });
    assertMatch(stopped.text, /^process p1: stopped after \d+ s/);
    assertEquals(processesWith(marker), []);
    const again = await call(session, { action: "stop", id: "p1" });
    assertMatch(again.text, /\(it had already ended\)$/);
    const unknown = await call(session, { action: "poll", id: "p9" });
    assertEquals(
      unknown.text,
      "error: there is no background process p9 (known: p1); process action list shows them",
    );
  });
});

Deno.test("the lifetime holds: a process past it is stopped", async () => {
  await withSession(async (session) => {
    await call(session, { action: "start", command: "sleep 30", lifetimeSeconds: 1 });
    // A poll returns as soon as there is news: 30 s is a deadline, not a bound.
    const text = (await call(session, { action: "poll", id: "p1", waitSeconds: 30 })).text;
    assertMatch(text, /^process p1: stopped at its lifetime of 1 s after \d+ s/);
  });
  // The operator's cap bounds what the model asks for.
  await withSession(async (session) => {
    const start = await call(session, {
      action: "start",
      command: "sleep 30",
      lifetimeSeconds: 600,
    });
    assertMatch(start.text, /it runs for at most 1 s \(the most allowed\)/);
  }, { commandTimeoutCapSeconds: 1 });
});

Deno.test("start passes the gate: the policy's refusal starts nothing", async () => {
  await withSession(async (session) => {
    const events: AuditEvent[] = [];
    const off = session.audit.onEvent((e) => events.push(e));
    const refused = await call(session, { action: "start", command: "rm -rf /" });
    off();
    assertMatch(refused.text, /^error: command denied by policy: /);
    assertEquals(session.processes.list().length, 0);
    assertEquals(events.find((e) => e.kind === "policy.decision")?.command, "rm -rf /");
    const missing = await call(session, { action: "start" });
    assertMatch(missing.text, /^error: start needs a command/);
  });
});

Deno.test("a server the model started on a real port is gone when the session closes", async () => {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const marker = `http.server ${port}`;
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-bg-server-" }));
  const project = join(dir, "project");
  await Deno.mkdir(project);
  await Deno.writeTextFile(join(project, "hello.txt"), "hello from the sandbox\n");
  const session = Session.open({
    face: "test",
    paths: homePaths(join(dir, "home")),
    config: configSchema.parse({}),
    root: project,
    yes: true,
  });
  try {
    const start = await call(session, {
      action: "start",
      command: `python3 -u -m http.server ${port} --bind 127.0.0.1`,
    });
    assertEquals(start.ok, true, start.text);
    const up = await call(session, { action: "poll", id: "p1", waitSeconds: 30 });
    assertMatch(up.text, /Serving HTTP/);
    const response = await fetch(`http://127.0.0.1:${port}/hello.txt`);
    assertEquals(await response.text(), "hello from the sandbox\n");
    assert(processesWith(marker).length > 0);
    const status = await session.registry.call(
      "inspect",
      { what: "status" },
      session.beginTurn({ budgetBytes: 16384 }).context,
    );
    assertMatch(status.text, /"id": "p1"/);
    assertMatch(status.text, /"state": "running"/);
  } finally {
    session.close();
  }
  await session.processes.settled();
  let refused = false;
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    conn.close();
  } catch (error) {
    refused = error instanceof Deno.errors.ConnectionRefused;
  }
  assert(refused, "the server still answers after the session closed");
  // Its socket is closed at once; the process itself may take a moment to be reaped.
  await waitUntil(() => processesWith(marker).length === 0, "the server process's end");
  await Deno.remove(dir, { recursive: true });
});

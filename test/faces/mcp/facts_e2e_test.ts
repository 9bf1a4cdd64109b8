/**
 * Facts over MCP, end to end: a real `wisp mcp` server, the SDK's client
 * asking with set_fact_scope to keep a thread's fact, and the person
 * answering out of band with `wisp facts keep|drop ID` from a terminal of
 * their own (tmux, not started by the client). The server sees the answer:
 * the fact is in facts.json, in wisp://facts, marked permanent in its
 * thread, and offered to a later thread. A drop is not asked again; a
 * request outlives its server and the terminal applies the answer itself;
 * the calling agent cannot answer, with or without a terminal.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { runWisp } from "../../support/wisp.ts";
import {
  connect,
  mcpScratch,
  ollamaConfig,
  pendingIds,
  structured,
  textOf,
  waitFor,
  wispAtTerminal as wispInClientsTerminal,
} from "./support.ts";
import { wispInTmux } from "./tmux.ts";

type Json = Record<string, unknown>;

async function readJson(
  c: { client: { readResource(p: { uri: string }): Promise<unknown> } },
  uri: string,
): Promise<Json> {
  const result = await c.client.readResource({ uri }) as { contents: { text: string }[] };
  return JSON.parse(result.contents[0].text);
}

async function setUp(extra: Json = {}) {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, extra));
  const c = await connect(s, { env: { WISP_MCP_CLIENT: "claude-code" } });
  return {
    ollama,
    s,
    c,
    /** One respond turn on `thread` (opening it), with the caller's task. */
    async turn(thread: string, task?: string) {
      ollama.reply({ text: "Noted." });
      const result = await c.client.callTool({
        name: "respond",
        arguments: {
          prompt: "Say noted.",
          thread_id: thread,
          tools: [],
          ...(task ? { task } : {}),
        },
      });
      assert(!(result as { isError?: boolean }).isError, textOf(result));
    },
    async scope(args: Json) {
      return await c.client.callTool({ name: "set_fact_scope", arguments: args });
    },
    async tearDown() {
      await c.close();
      await ollama.close();
      await s.remove();
    },
  };
}

Deno.test("a fact the caller asks to keep waits for the person; wisp facts keep at a terminal answers it and the server keeps it", async () => {
  const t = await setUp();
  try {
    await t.turn("git", "ship release 0.16");
    const asked = await t.scope({
      thread_id: "git",
      subject: "entity",
      name: "release codename",
      value: "BLUE HERON",
      scope: "permanent",
    });
    const r = structured(asked);
    assertEquals(r.scope, "pending", textOf(asked));
    const id = r.pending_id as string;
    assertMatch(id, /^[0-9a-f]{8}$/);
    assertEquals(r.fact, "c2");
    assertStringIncludes(textOf(asked), `wisp facts keep ${id}`);
    assertEquals(pendingIds(t.s.pending), [id]);

    const facts = await readJson(t.c, "wisp://threads/git/facts");
    assertEquals(facts.lines, [
      "c1 task = ship release 0.16 (caller, stated, turn 1)",
      "c2 entity release codename = BLUE HERON (caller, stated, turn 1)",
    ]);

    // Listed for the person, piped: id, seconds, client/thread, fact, who, subject, name, value.
    const listed = await runWisp(["facts", "pending"], { home: t.s.home });
    assertEquals(listed.code, 0, listed.stderr);
    const fields = listed.stdout.trimEnd().split("\t");
    assertEquals(fields[0], id);
    assertMatch(fields[1], /^\d+$/);
    assertEquals(fields.slice(2), [
      "claude-code/git",
      "c2",
      "caller",
      "entity",
      "release codename",
      "BLUE HERON",
    ]);

    // Not from a pipe, and not through the approvals command.
    const piped = await runWisp(["facts", "keep", id], { home: t.s.home });
    assertEquals(piped.code, 1);
    assertMatch(piped.stderr, /answers only from a terminal/);
    const wrongCommand = await wispInTmux(t.s.home, ["approvals", "approve", id]);
    assertEquals(wrongCommand.code, 64, wrongCommand.output);
    assertStringIncludes(wrongCommand.output, `answer it with wisp facts keep|drop ${id}`);
    assertEquals(pendingIds(t.s.pending), [id], "still waiting");

    const kept = await wispInTmux(t.s.home, ["facts", "keep", id]);
    assertEquals(kept.code, 0, kept.output);
    assertStringIncludes(
      kept.output,
      "kept as a permanent fact: release codename = BLUE HERON (thread git)",
    );
    assert(!/\n\s+at /.test(kept.output), "no stack trace");

    // The server saw it: in facts.json, in wisp://facts, permanent in its thread.
    const permanent = await readJson(t.c, "wisp://facts");
    const rows = permanent.facts as Json[];
    assertEquals(rows.map((f) => [f.subject, f.name, f.value]), [[
      "entity",
      "release codename",
      "BLUE HERON",
    ]]);
    assertEquals(permanent.pending, []);
    assertEquals(Deno.statSync(join(t.s.home, "facts.json")).mode! & 0o777, 0o600);
    const versions = (await readJson(t.c, "wisp://threads/git/facts")).versions as Json[];
    assertEquals(versions.find((v) => v.id === "c2")!.scope, "permanent");
    assertEquals(pendingIds(t.s.pending), []);
    const again = structured(await t.scope({ thread_id: "git", fact: "c2", scope: "permanent" }));
    assertEquals(again.scope, "permanent");

    const events = t.s.events();
    const pendingEvent = events.find((e) => e.kind === "fact.pending");
    assertEquals(pendingEvent?.pendingId, id);
    const keptEvent = events.find((e) => e.kind === "fact.kept");
    assertEquals(keptEvent?.by, "terminal");
    assertEquals(keptEvent?.fact, "entity release codename = BLUE HERON");
    assert(
      events.some((e) => e.kind === "fact.recorded" && e.factId === "c2" && e.thread === "git"),
    );
    const notice = events.find((e) => e.kind === "notification" && e.source === "fact");
    assertEquals(notice?.title, "wisp: keep as a permanent fact?");
    assertEquals(notice?.message, `release codename = BLUE HERON — wisp facts keep ${id}`);

    // Kept for later conversations: `wisp facts list`, and a new thread is offered it.
    const list = await runWisp(["facts", "list"], { home: t.s.home });
    assertEquals(list.code, 0, list.stderr);
    assertEquals(list.stdout.split("\t").slice(1, 4), ["entity", "release codename", "BLUE HERON"]);
    await t.turn("docs");
    const offered = (await readJson(t.c, "wisp://threads/docs/facts")).lines as string[];
    assertEquals(offered.length, 1);
    assertMatch(
      offered[0],
      /^c1 entity release codename = BLUE HERON \(yours, kept \d+ \w+ \d{4}\)$/,
    );
  } finally {
    await t.tearDown();
  }
});

Deno.test("a dropped fact stays in its thread and is not asked again; a request outlives its server and keep applies it", async () => {
  const t = await setUp();
  let closed = false;
  try {
    await t.turn("work");
    const first = structured(
      await t.scope({
        thread_id: "work",
        subject: "preference",
        name: "test runner",
        value: "deno test -A",
        scope: "permanent",
      }),
    );
    const dropped = await wispInTmux(t.s.home, ["facts", "drop", first.pending_id as string]);
    assertEquals(dropped.code, 0, dropped.output);
    assertStringIncludes(
      dropped.output,
      "not kept: test runner = deno test -A stays in thread work only",
    );
    await waitFor(() => t.s.events().find((e) => e.kind === "fact.dropped"), "fact.dropped");
    const askedAgain = structured(
      await t.scope({ thread_id: "work", fact: first.fact as string, scope: "permanent" }),
    );
    assertEquals(askedAgain.scope, "thread");
    assertMatch(askedAgain.message as string, /chose not to keep/);
    assertEquals(pendingIds(t.s.pending), [], "nothing new is filed");

    // Withdrawn by the caller: scope thread.
    const second = structured(
      await t.scope({
        thread_id: "work",
        subject: "entity",
        name: "staging host",
        value: "stage-3.internal",
        scope: "permanent",
      }),
    );
    const withdrawn = structured(
      await t.scope({ thread_id: "work", fact: second.fact as string, scope: "thread" }),
    );
    assertEquals(withdrawn.scope, "thread");
    assertEquals(pendingIds(t.s.pending), []);

    // Filed again, then the server stops: the request stays for the person.
    const third = structured(
      await t.scope({ thread_id: "work", fact: second.fact as string, scope: "permanent" }),
    );
    const id = third.pending_id as string;
    await t.c.close();
    closed = true;
    const pending = await runWisp(["facts", "pending"], { home: t.s.home });
    assertEquals(pending.stdout.split("\t")[0], id, pending.stdout);
    const kept = await wispInTmux(t.s.home, ["facts", "keep", id]);
    assertEquals(kept.code, 0, kept.output);
    assertStringIncludes(
      kept.output,
      "staging host = stage-3.internal (thread work); its server had stopped, so wisp kept it itself",
    );
    const file = JSON.parse(Deno.readTextFileSync(join(t.s.home, "facts.json")));
    assertEquals(file.facts.map((f: Json) => f.value), ["stage-3.internal"]);
    assertEquals(pendingIds(t.s.pending), []);
    assert(t.s.events().some((e) => e.kind === "fact.kept" && e.pendingId === id));
  } finally {
    if (!closed) await t.c.close();
    await t.ollama.close();
    await t.s.remove();
  }
});

Deno.test("the calling agent cannot keep a fact: a terminal it started is refused, and nothing is kept", async () => {
  const t = await setUp();
  try {
    await t.turn("git");
    const r = structured(
      await t.scope({
        thread_id: "git",
        subject: "entity",
        name: "deploy key",
        value: "ed25519",
        scope: "permanent",
      }),
    );
    const id = r.pending_id as string;
    // `script` gives a terminal, but the test is the MCP client that started the server.
    const forged = await wispInClientsTerminal(t.s.home, ["facts", "keep", id]);
    assertEquals(forged.code, 1, forged.output);
    assertMatch(
      forged.output,
      /the answer was refused: the answering process was started by the MCP client/,
    );
    assertEquals(pendingIds(t.s.pending), [id], "it still waits");
    const refusal = t.s.events().find((e) => e.kind === "fact.answer_refused");
    assertEquals(refusal?.pendingId, id);
    assertMatch(String(refusal?.reason), /started by the MCP client/);
    let exists = true;
    try {
      Deno.statSync(join(t.s.home, "facts.json"));
    } catch {
      exists = false;
    }
    assert(!exists, "nothing was kept");
  } finally {
    await t.tearDown();
  }
});

Deno.test("set_fact_scope's mistakes are one sentence; with facts off, a thread's facts cannot be read", async () => {
  const t = await setUp();
  try {
    await t.turn("git");
    const unknown = await t.scope({ thread_id: "nope", fact: "c1", scope: "permanent" });
    assert((unknown as { isError?: boolean }).isError);
    assertMatch(textOf(unknown), /^error: there is no open thread nope; /);
    const kind = await t.scope({
      thread_id: "git",
      subject: "colour",
      name: "sky",
      value: "blue",
      scope: "permanent",
    });
    assertMatch(textOf(kind), /^error: there is no fact kind "colour"; the kinds are task, /);
    const ephemeral = await t.scope({
      thread_id: "git",
      subject: "answer",
      name: "which",
      value: "a",
      scope: "permanent",
    });
    assertMatch(textOf(ephemeral), /lasts only its turn; it cannot be kept/);
    const missing = await t.scope({ thread_id: "git", fact: "c9", scope: "permanent" });
    assertMatch(
      textOf(missing),
      /^error: thread git has no fact c9; wisp:\/\/threads\/git\/facts lists them$/,
    );
  } finally {
    await t.tearDown();
  }
  const off = await setUp({ facts: { enabled: false } });
  try {
    await off.turn("git");
    const refused = await off.scope({
      thread_id: "git",
      subject: "entity",
      name: "a",
      value: "b",
      scope: "permanent",
    });
    assertMatch(textOf(refused), /facts\.enabled is false/);
    let error = "";
    try {
      await off.c.client.readResource({ uri: "wisp://threads/git/facts" });
    } catch (e) {
      error = (e as Error).message;
    }
    assertMatch(error, /facts\.enabled is false in the config/);
  } finally {
    await off.tearDown();
  }
});

Deno.test("what a thread's commands show becomes its facts, the tool's, and can be asked to be kept", async () => {
  const t = await setUp();
  try {
    const git = (...args: string[]) =>
      new Deno.Command("git", { args, cwd: t.s.project, stdout: "null", stderr: "null" })
        .outputSync();
    assert(git("init", "-q", "-b", "trunk").success, "git init");
    t.ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "git branch --show-current" } }],
    });
    t.ollama.reply({ text: "On trunk." });
    const result = await t.c.client.callTool({
      name: "respond",
      arguments: { prompt: "Which branch?", thread_id: "repo", tools: ["run_command"] },
    });
    assertEquals((structured(result).calls as Json[])[0].exitStatus, 0, textOf(result));
    const lines = (await readJson(t.c, "wisp://threads/repo/facts")).lines as string[];
    assertEquals(lines, [
      `c1 workdir = ${t.s.project} (from tool run_command, turn 1)`,
      "c2 branch = trunk (from tool run_command, turn 1)",
    ]);
    const asked = structured(await t.scope({ thread_id: "repo", fact: "c2", scope: "permanent" }));
    assertEquals(asked.scope, "pending");
    const listed = await runWisp(["facts", "pending"], { home: t.s.home });
    assertEquals(listed.stdout.trimEnd().split("\t").slice(3), [
      "c2",
      "tool",
      "branch",
      "",
      "trunk",
    ]);
  } finally {
    await t.tearDown();
  }
});

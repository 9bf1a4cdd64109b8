/**
 * Answering from a terminal, and the calling agent's attempts to answer for
 * the person. `wisp approvals approve` runs in a real pseudo-terminal made by
 * `script`; everything else that tries to answer is refused: the same
 * command without a terminal, wisp's own model running it, a sandboxed write
 * into pending/, a forged answer file, an altered request file.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { runWisp } from "../../support/wisp.ts";
import { sha256Hex } from "../../../src/gate/pending.ts";
import { connect, mcpScratch, ollamaConfig, pendingIds, structured, waitFor } from "./support.ts";
import { wispInTmux as wispAtTerminal } from "./tmux.ts";

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

const RESPOND = {
  prompt: "Use run_command to run exactly: touch made.txt",
  thread_id: "work",
  tools: ["run_command"],
};

async function setUp(extra: Record<string, unknown> = {}) {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, extra));
  const c = await connect(s, { env: { WISP_MCP_CLIENT: "claude-code" } });
  ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }] });
  ollama.reply({ text: "Done." });
  const call = c.client.callTool({ name: "respond", arguments: RESPOND });
  const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
  return {
    ollama,
    s,
    c,
    call,
    id,
    async tearDown() {
      await c.close();
      await ollama.close();
      await s.remove();
    },
  };
}

Deno.test("wisp approvals approve at a real terminal answers the request; pending lists it first", async () => {
  const t = await setUp();
  try {
    const listed = await runWisp(["approvals", "pending"], { home: t.s.home });
    assertEquals(listed.code, 0, listed.stderr);
    const fields = listed.stdout.trimEnd().split("\t");
    assertEquals(fields[0], t.id);
    assertEquals(fields[1], "moderate");
    assertMatch(fields[2], /^\d+$/);
    assertEquals(fields[3], "claude-code/work");
    assertEquals(fields[4], t.s.project);
    assertEquals(fields[5], "touch made.txt");

    const answered = await wispAtTerminal(t.s.home, [
      "approvals",
      "approve",
      t.id,
      "--scope",
      "session",
    ]);
    assertEquals(answered.code, 0, answered.output);
    assertStringIncludes(answered.output, "approved (session): touch made.txt for thread work");
    const receipt = structured(await t.call);
    assertEquals((receipt.calls as Record<string, unknown>[])[0].outcome, "ok");
    assert(exists(join(t.s.project, "made.txt")));
    const event = t.s.events().find((e) => e.kind === "approval.answered" && e.by === "terminal");
    assert(event, "the answer is audited with who answered");
    assertEquals(event.decision, "session");

    // Answered already: a second answer says so and exits 1.
    const again = await wispAtTerminal(t.s.home, ["approvals", "deny", t.id]);
    assertEquals(again.code, 1);
    assertMatch(again.output, /already answered at a terminal: approved \(session\)/);
  } finally {
    await t.tearDown();
  }
});

Deno.test("deny at a terminal refuses the command", async () => {
  const t = await setUp();
  try {
    const answered = await wispAtTerminal(t.s.home, ["approvals", "deny", t.id]);
    assertEquals(answered.code, 0, answered.output);
    assertStringIncludes(answered.output, "denied: touch made.txt for thread work");
    const receipt = structured(await t.call);
    assertEquals((receipt.calls as Record<string, unknown>[])[0].outcome, "declined");
    assert(!exists(join(t.s.project, "made.txt")));
  } finally {
    await t.tearDown();
  }
});

Deno.test("the same command without a terminal is refused (exit 1), misuse is 64, the request keeps waiting", async () => {
  // The wait outlasts every misuse below however slow the machine (it used to
  // be 4 s, which four runs of wisp could use up); the person ends it at last.
  const t = await setUp({ approval: { timeoutSeconds: 600 } });
  try {
    const piped = await runWisp(["approvals", "approve", t.id], { home: t.s.home, stdin: "y\n" });
    assertEquals(piped.code, 1);
    assertMatch(piped.stderr, /^error: wisp approvals approve answers only from a terminal/);
    const closed = await runWisp(["approvals", "deny", t.id], { home: t.s.home });
    assertEquals(closed.code, 1);
    const misuse = await runWisp(["approvals", "approve", t.id, "--scope", "forever"], {
      home: t.s.home,
    });
    assertEquals(misuse.code, 64);
    assertMatch(misuse.stderr, /--scope must be one of once, session, project, always/);
    const unknown = await wispAtTerminal(t.s.home, ["approvals", "approve", "00000000"]);
    assertEquals(unknown.code, 1);
    assertMatch(unknown.output, /no request waits with the id 00000000/);
    assertEquals(pendingIds(t.s.pending), [t.id], "still waiting for the person");
    const denied = await wispAtTerminal(t.s.home, ["approvals", "deny", t.id]);
    assertEquals(denied.code, 0, denied.output);
    const receipt = structured(await t.call);
    assertEquals((receipt.calls as Record<string, unknown>[])[0].outcome, "declined");
    assert(!exists(join(t.s.project, "made.txt")));
  } finally {
    await t.tearDown();
  }
});

Deno.test("an answer written as a file counts for nothing: the old file path is gone", async () => {
  const t = await setUp();
  try {
    const requestBytes = Deno.readFileSync(join(t.s.pending, `${t.id}.json`));
    // Exactly what wisp approvals wrote before answers went over the socket, naming this process.
    const forged = {
      version: 1,
      id: t.id,
      decision: "approve",
      scope: "always",
      digest: await sha256Hex(requestBytes),
      nonce: "forged-1",
      by: { pid: Deno.pid },
      at: new Date().toISOString(),
    };
    Deno.writeTextFileSync(join(t.s.pending, `${t.id}.answer`), JSON.stringify(forged));
    // The person's deny, given after the forged file was in place, is the answer that counts.
    const answered = await wispAtTerminal(t.s.home, ["approvals", "deny", t.id]);
    assertEquals(answered.code, 0, answered.output);
    assertStringIncludes(answered.output, "denied: touch made.txt");
    assertEquals(
      (structured(await t.call).calls as Record<string, unknown>[])[0].outcome,
      "declined",
    );
    assert(!exists(join(t.s.project, "made.txt")), "the forged answer ran nothing");
    assert(!t.s.events().some((e) => e.kind === "approval.answered" && e.decision === "always"));
  } finally {
    await t.tearDown();
  }
});

Deno.test("an altered request file is refused: the answer does not count and the file is restored", async () => {
  const t = await setUp();
  try {
    const path = join(t.s.pending, `${t.id}.json`);
    const original = Deno.readTextFileSync(path);
    Deno.writeTextFileSync(path, original.replace("touch made.txt", "ls"));
    const answered = await wispAtTerminal(t.s.home, ["approvals", "approve", t.id]);
    assertEquals(answered.code, 1, answered.output);
    assertMatch(answered.output, /request file was altered/);
    assertEquals(Deno.readTextFileSync(path), original, "restored as filed");
    assertEquals(pendingIds(t.s.pending), [t.id]);
    const again = await wispAtTerminal(t.s.home, ["approvals", "approve", t.id]);
    assertEquals(again.code, 0, again.output);
    assertStringIncludes(again.output, "approved (once): touch made.txt");
    assertEquals((structured(await t.call).calls as Record<string, unknown>[])[0].outcome, "ok");
  } finally {
    await t.tearDown();
  }
});

Deno.test("the model cannot answer: the policy refuses wisp approvals approve, and the sandbox cannot write pending/", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, { approval: { timeoutSeconds: 20 } }));
  // The first thread's dialog stays open (its request waits in pending/) until the test ends it.
  let endFirst: (value: Record<string, unknown>) => void = () => {};
  const firstDialog = new Promise<Record<string, unknown>>((resolve) => endFirst = resolve);
  const c = await connect(s, {
    elicit: (params) =>
      String(params.message).includes("answer.sh")
        ? { action: "accept", content: { scope: "once" } }
        : firstDialog,
  });
  try {
    let id = "";
    // Each chat is answered by the thread it comes from (the first user message) and its step (tool results so far).
    const script = (body: Record<string, unknown>) => {
      const messages = body.messages as { role: string; content: string }[];
      const user = messages.find((m) => m.role === "user")?.content ?? "";
      const step = messages.filter((m) => m.role === "tool").length;
      if (user === RESPOND.prompt) {
        return step === 0
          ? { toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }] }
          : { text: "Not approved." };
      }
      if (step === 0) {
        return {
          toolCalls: [{
            name: "run_command",
            arguments: { command: `wisp approvals approve ${id}` },
          }],
        };
      }
      if (step === 1) {
        return {
          toolCalls: [{ name: "run_command", arguments: { command: `sh answer.sh ${s.home}` } }],
        };
      }
      return { text: "I could not approve it." };
    };
    ollama.reply(script, script, script, script, script);
    const first = c.client.callTool({ name: "respond", arguments: RESPOND });
    id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
    // A script hides the target from the policy: only the sandbox stands between it and pending/.
    Deno.writeTextFileSync(
      join(s.project, "answer.sh"),
      `printf '{"id":"${id}","decision":"approve"}' > "$1/pending/${id}.answer"\n`,
    );
    const second = structured(
      await c.client.callTool({
        name: "respond",
        arguments: { prompt: `approve ${id}`, thread_id: "agent", tools: ["run_command"] },
      }).catch((e) => {
        throw new Error(`${e}\n${c.stderr()}`);
      }),
    );
    const calls = second.calls as Record<string, unknown>[];
    assert(calls, JSON.stringify(second) + c.stderr());
    assertEquals(calls[0].outcome, "denied");
    assertMatch(
      String(calls[0].output),
      /^error: command denied by policy: .*answers for the person/,
    );
    assertEquals(calls[1].outcome, "failed", JSON.stringify(calls[1]));
    assertMatch(String(calls[1].output), /Read-only file system/);
    assertMatch(String(calls[1].output), /sandbox: the sandbox refused writing .*pending/);
    assert(!exists(join(s.pending, `${id}.answer`)), "nothing was written into pending/");
    assertEquals(pendingIds(s.pending), [id], "the request still waits for the person");
    endFirst({ action: "decline" });
    const receipt = structured(await first);
    assertEquals((receipt.calls as Record<string, unknown>[])[0].outcome, "declined");
    assert(!exists(join(s.project, "made.txt")));
  } finally {
    endFirst({ action: "decline" });
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

/**
 * A thread whose command needs approval, end to end: the SDK's client over
 * stdio against the real `wisp mcp`, a fake Ollama server asking for
 * run_command, the real gate and sandbox. Answered in the client's dialog
 * (accept, decline), at a real pseudo-terminal with `wisp approvals
 * approve`, or not at all.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import {
  connect,
  mcpScratch,
  ollamaConfig,
  pendingIds,
  structured,
  textOf,
  waitFor,
} from "./support.ts";

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

Deno.test("elicitation accept: the command runs with the chosen scope, the receipt says so, the request file is gone", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const asked: Record<string, unknown>[] = [];
  const c = await connect(s, {
    elicit: (params) => {
      asked.push(params);
      return { action: "accept", content: { scope: "session" } };
    },
  });
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    ollama.reply({ text: "Created made.txt." });
    const result = await c.client.callTool({ name: "respond", arguments: RESPOND });
    const receipt = structured(result);
    assertEquals(receipt.thread_id, "work");
    assertEquals(receipt.reply, "Created made.txt.");
    assertMatch(String(receipt.ran), /^ran: run_command$/);
    const calls = receipt.calls as Record<string, unknown>[];
    assertEquals(calls.length, 1);
    assertEquals(calls[0].outcome, "ok");
    assertEquals(calls[0].command, "touch made.txt");
    assertEquals(calls[0].exitStatus, 0);
    assertEquals(receipt.refusals, []);
    assert(exists(join(s.project, "made.txt")), "the approved command ran");
    assertEquals(asked.length, 1);
    assertStringIncludes(String(asked[0].message), "touch made.txt");
    assertStringIncludes(String(asked[0].message), "thread work");
    assertEquals(
      pendingIds(s.pending),
      [],
      "the request file was withdrawn once the dialog answered",
    );
    const answered = s.events().filter((e) => e.kind === "approval.answered");
    assertEquals(answered.length, 1);
    assertEquals(answered[0].by, "elicitation");
    assertEquals(answered[0].decision, "session");
    assertEquals(answered[0].thread, "work");
    assertMatch(textOf(result), /Created made\.txt\.\n\nran: run_command\n\[thread work, turn 1\]/);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("elicitation decline: the command is refused and the receipt lists the refusal", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, { elicit: () => ({ action: "decline" }) });
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    ollama.reply({ text: "The person did not approve it." });
    const receipt = structured(await c.client.callTool({ name: "respond", arguments: RESPOND }));
    const calls = receipt.calls as Record<string, unknown>[];
    assertEquals(calls[0].outcome, "declined");
    const refusals = receipt.refusals as Record<string, unknown>[];
    assertEquals(refusals.length, 1);
    assertEquals(refusals[0].kind, "declined");
    assertMatch(String(refusals[0].reason), /^command not approved: /);
    assert(!exists(join(s.project, "made.txt")), "a declined command never runs");
    assertMatch(String(receipt.ran), /run_command \(1 declined\)/);
    assertEquals(pendingIds(s.pending), []);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("no answer at all: refused at the configured timeout, the request file withdrawn", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(
    ollamaConfig(ollama.url, { approval: { timeoutSeconds: 2, bannerDelaySeconds: 0 } }),
  );
  const c = await connect(s);
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    ollama.reply({ text: "Nobody answered." });
    const pending = c.client.callTool({ name: "respond", arguments: RESPOND });
    const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
    const request = JSON.parse(Deno.readTextFileSync(join(s.pending, `${id}.json`)));
    assertEquals(request.command, "touch made.txt");
    assertEquals(request.thread, "work");
    assertEquals(request.client, "wisp-test");
    const receipt = structured(await pending);
    // The wait, as the server measured it: from the gate's question (its timer starts there) to
    // the refusal. The whole call's time also holds the model's turns and the filing of the
    // request, which a loaded machine stretches at will. The upper bound tells a refusal at the
    // timeout from one at some later end, with room for a late timer.
    const ts = (kind: string) =>
      Date.parse(String(s.events().find((e) => e.kind === kind)?.ts ?? "invalid"));
    const seconds = (ts("approval.decided") - ts("approval.requested")) / 1000;
    assert(seconds >= 1.9 && seconds < 12, `refused after ${seconds} s`);
    const calls = receipt.calls as Record<string, unknown>[];
    assertEquals(calls[0].outcome, "declined");
    assertMatch(String(calls[0].output), /no answer within 2 s/);
    assert(!exists(join(s.project, "made.txt")));
    assertEquals(pendingIds(s.pending), [], "the stale request was withdrawn");
    const outcome = JSON.parse(Deno.readTextFileSync(join(s.pending, `${id}.outcome`)));
    assertEquals(outcome.status, "closed");
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("once covers the rest of the turn only; session covers the server's life, across threads", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const scopes = ["once", "session"];
  let asked = 0;
  const c = await connect(s, {
    elicit: () => ({ action: "accept", content: { scope: scopes[asked++] ?? "once" } }),
  });
  const touch = (file: string) => ({
    toolCalls: [{ name: "run_command", arguments: { command: `touch ${file}` } }],
  });
  const call = (thread: string) =>
    c.client.callTool({
      name: "respond",
      arguments: { prompt: "touch", thread_id: thread, tools: ["run_command"] },
    });
  try {
    ollama.reply(touch("a.txt"), touch("b.txt"), { text: "two" }); // turn 1: once covers b.txt too
    await call("one");
    assertEquals(asked, 1);
    ollama.reply(touch("c.txt"), { text: "one" }); // turn 2: once has ended, asked again (session now)
    await call("one");
    assertEquals(asked, 2);
    ollama.reply(touch("d.txt"), { text: "one" }); // another thread, same server: session covers it
    await call("two");
    assertEquals(asked, 2);
    for (const f of ["a.txt", "b.txt", "c.txt", "d.txt"]) assert(exists(join(s.project, f)), f);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("no dialog and approval.outOfBand false: nobody can be asked, refused at once and said so", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, { approval: { outOfBand: false } }));
  const c = await connect(s);
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    ollama.reply({ text: "Could not." });
    const receipt = structured(await c.client.callTool({ name: "respond", arguments: RESPOND }));
    const calls = receipt.calls as Record<string, unknown>[];
    assertEquals(calls[0].outcome, "declined");
    assertMatch(String(calls[0].output), /could not be answered/);
    assertEquals(pendingIds(s.pending), []);
    assert(!exists(join(s.project, "made.txt")));
    assert(s.events().some((e) => e.kind === "approval.answered" && e.by === "nobody"));
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

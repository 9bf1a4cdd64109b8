/**
 * `wisp chat --json` with approve-mcp, keep-facts and answer-questions in
 * its hello, over pipes, against a real `wisp mcp` server started by the
 * test: what waits there arrives as approval and choice lines with source
 * mcp; an answer goes through the chat's answering path and is refused with
 * a note naming the terminal command (the server takes no answer from a
 * chat a program drives), so the request still waits; when it stops
 * waiting a withdrawn line follows.
 */
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import {
  connect,
  mcpScratch,
  ollamaConfig,
  pendingIds,
  structured,
  waitFor,
} from "../mcp/support.ts";
import { type Line, startChat } from "./support.ts";

const EFFECTS = ["approve", "approve-mcp", "keep-facts", "answer-questions"];

Deno.test("chat --json: a command waiting in wisp mcp is an approval line with source mcp; its answer is refused with a note, and a withdrawn line follows when its server stops", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, { approval: { timeoutSeconds: 300 } }));
  const c = await connect(s, { env: { WISP_MCP_CLIENT: "claude-code" } });
  ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }] });
  ollama.reply({ text: "Done." });
  const call = c.client.callTool({
    name: "respond",
    arguments: { prompt: "touch it", thread_id: "work", tools: ["run_command"] },
  });
  call.catch(() => {});
  const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
  const chat = startChat([], { home: s.home, cwd: s.project });
  let closed = false;
  try {
    await chat.send({ type: "hello", effects: EFFECTS, client: "test" });
    const approval = await chat.next(
      (l) => l.type === "approval" && l.id === id,
      "the approval line for the waiting command",
    );
    assertEquals(approval.source, "mcp");
    assertEquals(approval.kind, "command");
    assertEquals(approval.command, "touch made.txt");
    assertEquals(approval.client, "claude-code");
    assertEquals(approval.thread, "work");
    assertEquals(approval.level, "moderate");
    assertEquals(approval.cwd, s.project);
    assert((approval.options as string[]).includes("no"), JSON.stringify(approval));
    const from = chat.lines.length;
    await chat.send({ type: "answer", id, decision: "once" });
    const refusal = await chat.next(
      (l) => l.type === "note" && l.kind === "approval",
      "the refusal note",
      from,
    );
    assertStringIncludes(refusal.text as string, `wisp chat --json cannot answer ${id}`);
    assertStringIncludes(refusal.text as string, `run wisp approvals approve ${id} in a terminal`);
    assertEquals(refusal.tone, "warn");
    assertEquals(pendingIds(s.pending), [id], "the request still waits");
    // The server stops: the request no longer waits, and the front end is told.
    await c.close();
    closed = true;
    const withdrawn = await chat.next(
      (l) => l.type === "withdrawn" && l.id === id,
      "the withdrawn line",
    );
    assertStringIncludes(withdrawn.reason as string, "server stopped");
    assertEquals(
      chat.lines.filter((l: Line) => l.type === "approval" && l.id === id).length,
      1,
      "one approval line for the request",
    );
    await chat.send("/quit");
    const over = await chat.close();
    assertEquals(over.code, 0, over.stderr);
  } finally {
    await chat.close();
    if (!closed) await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("chat --json: a question waiting in wisp mcp is a choice line of kind question with source mcp; a hello without answer-questions gets none", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(
    ollamaConfig(ollama.url, {
      tools: { ask: true },
      inquiry: { timeoutSeconds: 300, parkAfterSeconds: 300 },
    }),
  );
  const c = await connect(s);
  ollama.reply(
    {
      toolCalls: [{
        name: "ask",
        arguments: { question: "Which config?", options: ["~/.wisp", "./wisp.json"] },
      }],
    },
    { text: "Fine." },
  );
  const call = c.client.callTool({
    name: "respond",
    arguments: { prompt: "replace the config", thread_id: "cfg", tools: ["ask"] },
  });
  call.catch(() => {});
  const id = await waitFor(() => pendingIds(s.pending)[0], "the question file");
  const chat = startChat([], { home: s.home, cwd: s.project });
  const without = startChat([], { home: s.home, cwd: s.project });
  try {
    await chat.send({ type: "hello", effects: EFFECTS });
    await without.send({ type: "hello", effects: ["approve", "approve-mcp"] });
    const choice = await chat.next((l) => l.type === "choice" && l.id === id, "the question");
    assertEquals(choice.kind, "question");
    assertEquals(choice.source, "mcp");
    assertStringIncludes(choice.title as string, "Which config?");
    assertEquals(
      (choice.options as { value: string }[]).map((o) => o.value),
      ["~/.wisp", "./wisp.json"],
    );
    const from = chat.lines.length;
    await chat.send({ type: "choose", id, value: "~/.wisp" });
    const refusal = await chat.next(
      (l) => l.type === "note" && l.kind === "approval",
      "the refusal note",
      from,
    );
    assertStringIncludes(refusal.text as string, `run wisp questions answer ${id} in a terminal`);
    assertEquals(pendingIds(s.pending), [id], "the question still waits");
    // The chat without answer-questions: after a round trip that lists, no line for the question.
    await without.send("/history");
    await without.next((l) => l.type === "status", "a status after /history");
    await without.send("/quit");
    const overWithout = await without.close();
    assertEquals(overWithout.code, 0, overWithout.stderr);
    assert(!without.lines.some((l) => l.id === id), JSON.stringify(without.lines));
    await chat.send("/quit");
    assertEquals((await chat.close()).code, 0);
  } finally {
    await chat.close();
    await without.close();
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("chat --json: a fact a caller asks to keep is an approval line of kind fact; keep is refused with a note naming wisp facts keep", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, { env: { WISP_MCP_CLIENT: "claude-code" } });
  const chat = startChat([], { home: s.home, cwd: s.project });
  try {
    ollama.reply({ text: "Noted." });
    await c.client.callTool({
      name: "respond",
      arguments: { prompt: "Say noted.", thread_id: "git", tools: [] },
    });
    const asked = structured(
      await c.client.callTool({
        name: "set_fact_scope",
        arguments: {
          thread_id: "git",
          subject: "entity",
          name: "release codename",
          value: "BLUE HERON",
          scope: "permanent",
        },
      }),
    );
    const id = asked.pending_id as string;
    await chat.send({ type: "hello", effects: EFFECTS });
    const fact = await chat.next((l) => l.type === "approval" && l.id === id, "the fact line");
    assertEquals(fact.kind, "fact");
    assertEquals(fact.source, "mcp");
    assertEquals(fact.thread, "git");
    assertEquals(fact.client, "claude-code");
    assertStringIncludes(fact.command as string, "BLUE HERON");
    assertEquals(fact.options, ["keep", "drop"]);
    const from = chat.lines.length;
    await chat.send({ type: "answer", id, decision: "keep" });
    const refusal = await chat.next(
      (l) => l.type === "note" && l.kind === "approval",
      "the refusal note",
      from,
    );
    assertStringIncludes(refusal.text as string, `run wisp facts keep ${id} in a terminal`);
    assertEquals(pendingIds(s.pending), [id], "the fact still waits");
    await chat.send("/quit");
    assertEquals((await chat.close()).code, 0);
  } finally {
    await chat.close();
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

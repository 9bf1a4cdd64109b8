/**
 * The models tool under `wisp mcp`: reachable only through respond, its
 * change asked in the client's dialog as a model action (once or not at
 * all), and the change recorded with the approval. The SDK's client over
 * stdio against the real server, a fake Ollama asking for the call.
 */
import { assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { connect, mcpScratch, ollamaConfig, structured, textOf, waitFor } from "./support.ts";

Deno.test("mcp: a model action asked through respond goes to the client's dialog, once or not at all", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }, { name: "llama3.2:3b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const asked: Record<string, unknown>[] = [];
  const c = await connect(s, {
    elicit: (params) => {
      asked.push(params);
      return { action: "accept", content: { scope: "once" } };
    },
  });
  try {
    // Not an MCP tool of its own.
    const listed = await c.client.listTools();
    assertEquals(listed.tools.some((t) => t.name === "models"), false);

    ollama.reply({
      toolCalls: [{
        name: "models",
        arguments: { action: "disable", name: "ollama:llama3.2:3b" },
      }],
    });
    ollama.reply({ text: "Disabled it." });
    const result = await c.client.callTool({
      name: "respond",
      arguments: { prompt: "disable llama3.2", thread_id: "m", tools: ["models"] },
    });
    const receipt = structured(result) as { calls: { tool: string; outcome: string }[] };
    assertEquals(receipt.calls.map((x) => [x.tool, x.outcome]), [["models", "ok"]]);
    assertEquals(asked.length, 1);
    const message = String(asked[0].message);
    assertMatch(message, /^wisp: approve a change to the models wisp can run\? \(moderate\)\n/);
    assertStringIncludes(message, "models disable ollama:llama3.2:3b");
    assertStringIncludes(message, 'config.json: models.disabled becomes ["ollama:llama3.2:3b"]');
    assertStringIncludes(message, "Approved once or not at all.");
    const schema = asked[0].requestedSchema as {
      properties: { scope: { enum: string[] } };
    };
    assertEquals(schema.properties.scope.enum, ["once"]);

    const config = JSON.parse(Deno.readTextFileSync(`${s.home}/config.json`));
    assertEquals(config.models.disabled, ["ollama:llama3.2:3b"]);
    const decided = s.events().find((e) => e.kind === "approval.decided")!;
    const change = s.events().find((e) => e.kind === "config.change")!;
    assertEquals(change.source, "tool");
    assertEquals(change.approval, decided.approvalId);
    assertEquals(change.thread, "m");
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("mcp: a pull a thread asked for runs in the background, and its note reaches the thread's next respond", async () => {
  const ollama = startFakeOllama({
    models: [{ name: "granite4.1:8b" }],
    pulls: {
      "qwen3:4b": {
        layers: [{ digest: "sha256:" + "a".repeat(64), total: 1_000_000 }],
        model: { name: "qwen3:4b" },
      },
    },
  });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, { elicit: () => ({ action: "accept", content: { scope: "once" } }) });
  try {
    ollama.reply({
      toolCalls: [{ name: "models", arguments: { action: "pull", name: "ollama:qwen3:4b" } }],
    });
    ollama.reply({ text: "The pull is running." });
    const first = await c.client.callTool({
      name: "respond",
      arguments: { prompt: "pull qwen3:4b", thread_id: "p", tools: ["models"] },
    });
    const firstReceipt = structured(first) as { calls: { output?: string }[]; notices?: string[] };
    assertMatch(
      String(firstReceipt.calls[0].output),
      /^approved \(approval [0-9a-f]{8}\): the pull of ollama:qwen3:4b runs beside the conversation/,
    );
    assertEquals(firstReceipt.notices, undefined);

    const pulled = await waitFor(
      () => s.events().find((e) => e.kind === "model.pull" && e.outcome === "pulled"),
      "the pull's end in the audit",
    );
    assertEquals(pulled.thread, "p");
    const note = String(pulled.note);
    assertMatch(
      note,
      /^\[wisp: the pull of ollama:qwen3:4b you asked for \(approval [0-9a-f]{8}\) finished/,
    );

    ollama.reply({ text: "It finished." });
    const second = await c.client.callTool({
      name: "respond",
      arguments: { prompt: "how did it go?", thread_id: "p" },
    });
    const receipt = structured(second) as { notices?: string[]; reply: string };
    assertEquals(receipt.notices, [note]);
    assertEquals(receipt.reply, "It finished.");
    assertStringIncludes(textOf(second), note);
    // The model read the note with its next turn, before the prompt.
    const lastChat = ollama.chats().at(-1) as { messages: { role: string; content: string }[] };
    const user = lastChat.messages.filter((m) => m.role === "user").at(-1)!;
    assertEquals(user.content, `${note}\n\nhow did it go?`);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

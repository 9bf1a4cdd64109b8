/**
 * The models tool under `wisp mcp`: reachable only through respond, its
 * change asked in the client's dialog as a model action (once or not at
 * all), and the change recorded with the approval. The SDK's client over
 * stdio against the real server, a fake Ollama asking for the call.
 */
import { assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { connect, mcpScratch, ollamaConfig, structured } from "./support.ts";

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

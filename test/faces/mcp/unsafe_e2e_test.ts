/**
 * `wisp mcp --unsafe` through the real server: its warning says what the
 * flag does (the sandbox off, the policy's deny list on), and the deny list
 * does still refuse a denied line (docs/adr/0163).
 */
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { connect, mcpScratch, ollamaConfig, structured, waitFor } from "./support.ts";

Deno.test("--unsafe warns that the sandbox is off and the deny list still applies, and it does", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, { args: ["--unsafe"] });
  try {
    const warning = await waitFor(
      () => c.stderr().split("\n").find((l) => l.includes("--unsafe")),
      "the --unsafe warning",
    );
    assertMatch(warning, /without the sandbox/);
    assertMatch(warning, /the policy's deny list still applies/);
    assert(!/policy (is|are) off/.test(warning), warning);

    ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "sudo true" } }] });
    ollama.reply({ text: "done" });
    const receipt = structured(
      await c.client.callTool({ name: "respond", arguments: { prompt: "try" } }),
    );
    const refusals = receipt.refusals as Record<string, unknown>[];
    assertEquals(refusals.length, 1, JSON.stringify(receipt.calls));
    assertEquals(refusals[0].kind, "denied");
    assertEquals(s.events().some((e) => e.kind === "command.outcome"), false);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

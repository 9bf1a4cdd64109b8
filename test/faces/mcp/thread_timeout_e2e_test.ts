/**
 * A thread's commandTimeoutSeconds through the real `wisp mcp` and the real
 * runner: 0 means no limit of the thread's own, so the configured default
 * does not apply, and the operator's cap still does.
 */
import { assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { connect, mcpScratch, ollamaConfig, structured } from "./support.ts";

function outcomes(events: Record<string, unknown>[]): Record<string, unknown>[] {
  return events.filter((e) => e.kind === "command.outcome");
}

Deno.test("a thread's commandTimeoutSeconds 0 is no limit up to the operator's cap, not the default", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  // A default (1 s) shorter than the cap (4 s): under the default the first
  // command would be killed; with no limit it finishes.
  const s = await mcpScratch(
    ollamaConfig(ollama.url, { commandTimeoutSeconds: 1, commandTimeoutCapSeconds: 4 }),
  );
  const c = await connect(s);
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "sleep 2; echo finished" } }],
    });
    ollama.reply({ text: "done" });
    const first = structured(
      await c.client.callTool({
        name: "respond",
        arguments: { prompt: "wait", thread_id: "t", commandTimeoutSeconds: 0 },
      }),
    );
    const calls = first.calls as Record<string, unknown>[];
    assertEquals(calls[0].exitStatus, 0, String(calls[0].output));
    assertMatch(String(calls[0].output), /finished/);
    const [ran] = outcomes(s.events());
    assertEquals(ran.timedOut, false);
    assertEquals(ran.timeoutSource, "thread");

    // The cap still holds: a command longer than it is killed at the cap.
    ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "sleep 60" } }] });
    ollama.reply({ text: "done" });
    const second = structured(
      await c.client.callTool({ name: "respond", arguments: { prompt: "wait", thread_id: "t" } }),
    );
    const long = (second.calls as Record<string, unknown>[])[0];
    assertMatch(String(long.output), /timed out: the command was killed after 4 s/);
    const capped = outcomes(s.events())[1];
    assertEquals(capped.timedOut, true);
    assertEquals(capped.timeoutSeconds, 4);
    assertEquals(capped.timeoutClamped, true);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

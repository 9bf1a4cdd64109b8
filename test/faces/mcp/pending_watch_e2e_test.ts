/**
 * `wisp approvals pending --watch` open in a real terminal (tmux) while a
 * real `wisp mcp` runs: when a request starts waiting, the open view prints
 * a line naming it and the command that answers it; when it is answered
 * from another terminal, a line saying how it ended.
 */
import { assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { runWisp } from "../../support/wisp.ts";
import { type OpenPane, openWispInTmux, wispInTmux } from "./tmux.ts";
import { connect, mcpScratch, ollamaConfig, pendingIds, structured, waitFor } from "./support.ts";

/** Wait (with a generous deadline) until the pane shows `pattern`. */
async function untilShown(pane: OpenPane, pattern: RegExp, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!pattern.test(await pane.screen())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}:\n${await pane.screen()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

Deno.test("an open `wisp approvals pending --watch` prints a line when a request starts waiting", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, { name: "watch-test" });
  const pane = await openWispInTmux(s.home, ["approvals", "pending", "--watch"]);
  try {
    await untilShown(pane, /Ctrl-C ends/, "the watching view");
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    ollama.reply({ text: "Done." });
    const call = c.client.callTool({
      name: "respond",
      arguments: { prompt: "touch", thread_id: "w", tools: ["run_command"] },
    });
    const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
    const waiting = new RegExp(
      `· ${id} waiting \\(moderate, watch-test/w, in [^)]+\\): touch made\\.txt — wisp approvals approve ${id}`,
    );
    await untilShown(pane, waiting, "the waiting line");

    const answered = await wispInTmux(s.home, ["approvals", "approve", id]);
    assertEquals(answered.code, 0, answered.output);
    const receipt = structured(await call) as { calls: { outcome: string }[] };
    assertEquals(receipt.calls[0].outcome, "ok");
    const gone = new RegExp(`· ${id} no longer waiting: approved \\(once\\) from a terminal`);
    await untilShown(pane, gone, "the line saying it ended");
    assertMatch(await pane.screen(), waiting, "the waiting line stays on screen");
  } finally {
    await pane.close();
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("--watch and --json together are a usage error", async () => {
  const r = await runWisp(["approvals", "pending", "--watch", "--json"]);
  assertEquals(r.code, 64);
  assertEquals(r.stderr, "error: choose one of --json and --watch\n");
});

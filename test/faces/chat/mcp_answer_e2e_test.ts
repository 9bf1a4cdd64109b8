/**
 * /approvals from a plain chat at a real terminal (a tmux pane of its own,
 * which does not descend from the MCP client): the request waiting in a
 * `wisp mcp` server started by the test is listed and approved, through the
 * same checks as `wisp approvals approve`, and audited via chat.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { waitUntil } from "../../support/wait.ts";
import { exists } from "../../support/wait.ts";
import {
  connect,
  mcpScratch,
  ollamaConfig,
  pendingIds,
  structured,
  waitFor,
} from "../mcp/support.ts";
import { openWispInTmux } from "../mcp/tmux.ts";

Deno.test("a plain chat at a terminal lists a request waiting in wisp mcp and approves it with /approvals approve ID", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, { env: { WISP_MCP_CLIENT: "claude-code" } });
  ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }] });
  ollama.reply({ text: "Done." });
  const call = c.client.callTool({
    name: "respond",
    arguments: {
      prompt: "Use run_command to run exactly: touch made.txt",
      thread_id: "work",
      tools: ["run_command"],
    },
  });
  const pane = await openWispInTmux(s.home, ["chat", "--plain"]);
  try {
    const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
    await waitUntil(async () => (await pane.screen()).includes("/help for commands"), "the chat");
    await pane.keys("/approvals pending", "Enter");
    await waitUntil(
      async () =>
        (await pane.screen()).includes(`⚠ ${id} waiting in wisp mcp (claude-code, thread work)`),
      "the pending list",
    );
    await pane.keys(`/approvals approve ${id} session`, "Enter");
    const receipt = structured(await call);
    assertEquals((receipt.calls as Record<string, unknown>[])[0].outcome, "ok");
    assert(exists(join(s.project, "made.txt")), "the approved command ran");
    await waitUntil(
      () => s.events().find((e) => e.kind === "approval.answered" && e.via === "chat"),
      "the chat's own approval.answered",
    );
    const server = s.events().find((e) => e.kind === "approval.answered" && e.by === "terminal");
    assertEquals(server?.decision, "session");
  } finally {
    await pane.close();
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

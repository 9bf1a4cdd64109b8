/**
 * A request waiting for approval announces itself to the client of the call
 * it waits in: notifications/progress on the call's progress token, an MCP
 * log message (honouring logging/setLevel), and the notification route,
 * while the request waits for `wisp approvals approve`.
 */
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import {
  CallToolResultSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { wispInTmux as wispAtTerminal } from "./tmux.ts";
import { connect, mcpScratch, ollamaConfig, pendingIds, structured, waitFor } from "./support.ts";

Deno.test("a waiting approval sends progress on the call's token, a log message and a notification", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  // A client without a dialog: only the terminal can answer, so it must be told.
  const c = await connect(s);
  const progress: { progress: number; message?: string }[] = [];
  const logged: { level: string; logger?: string; data: unknown }[] = [];
  c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logged.push(n.params);
  });
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    ollama.reply({ text: "Done." });
    const call = c.client.callTool(
      { name: "respond", arguments: { prompt: "touch", thread_id: "a", tools: ["run_command"] } },
      CallToolResultSchema,
      { onprogress: (p) => progress.push(p) },
    );
    const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
    await waitFor(() => progress[0], "the progress notification");
    assertEquals(progress[0].progress, 1);
    assertMatch(
      String(progress[0].message),
      new RegExp(`touch made\\.txt .*wisp approvals approve ${id}`),
    );
    const log = await waitFor(() => logged[0], "the log message");
    assertEquals(log.level, "warning");
    assertEquals(log.logger, "wisp");
    assertEquals(log.data, progress[0].message);
    const banner = await waitFor(
      () => s.events().find((e) => e.kind === "notification" && e.source === "approval"),
      "the notification",
    );
    assertEquals(banner.id, id);
    const answered = await wispAtTerminal(s.home, ["approvals", "approve", id]);
    assertEquals(answered.code, 0, answered.output);
    const receipt = structured(await call) as { calls: { outcome: string }[] };
    assertEquals(receipt.calls[0].outcome, "ok");
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("a client that set its logging level above warning gets no log message", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, { approval: { outOfBand: false } }));
  let asked = 0;
  const logged: unknown[] = [];
  const c = await connect(s, {
    elicit: () => {
      asked++;
      return { action: "accept", content: { scope: "once" } };
    },
  });
  c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logged.push(n.params);
  });
  try {
    await c.client.setLoggingLevel("error");
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    ollama.reply({ text: "Done." });
    const result = await c.client.callTool({
      name: "respond",
      arguments: { prompt: "touch", thread_id: "b", tools: ["run_command"] },
    });
    assertEquals(asked, 1);
    assertEquals((structured(result) as { calls: { outcome: string }[] }).calls[0].outcome, "ok");
    // A ping after the call: every notification sent before its reply has been read.
    await c.client.ping();
    assertEquals(logged, []);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

/**
 * wisp's diagnostics as MCP log messages (notifications/message, logger
 * `wisp`): the same lines WISP_LOG mirrors to stderr, at the level the
 * client set with logging/setLevel (warning until it sets one), through the
 * SDK's client against the real server. With WISP_LOG unset the server's
 * stderr stays silent while the client still gets its messages.
 */
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { assert, assertEquals } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { connect, mcpScratch, ollamaConfig, structured } from "./support.ts";

Deno.test("MCP log messages follow the client's level; stderr follows WISP_LOG", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, { env: { WISP_LOG: "" } });
  const logged: { level: string; logger?: string; data: unknown }[] = [];
  c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logged.push(n.params);
  });
  const runEcho = async (thread: string) => {
    ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "echo hi" } }] });
    ollama.reply({ text: "Done." });
    const result = await c.client.callTool({
      name: "respond",
      arguments: { prompt: "say hi", thread_id: thread, tools: ["run_command"] },
    });
    assertEquals((structured(result) as { calls: { outcome: string }[] }).calls[0].outcome, "ok");
    // A ping after the call: every notification sent before its reply has been read.
    await c.client.ping();
  };
  try {
    assertEquals(c.client.getServerCapabilities()?.logging, {});
    await runEcho("a");
    assertEquals(logged, [], "before setLevel only warnings and errors go, and there were none");

    logged.length = 0;
    await c.client.setLoggingLevel("debug");
    await runEcho("b");
    const lines = logged.filter((m) => m.level === "debug").map((m) => String(m.data));
    assert(logged.every((m) => m.logger === "wisp"), JSON.stringify(logged));
    assert(lines.some((l) => /^gate "echo hi": .*allowed by/.test(l)), lines.join("\n"));
    assert(lines.some((l) => l.startsWith("launcher: ")), lines.join("\n"));
    assert(
      lines.some((l) => /^model request http:\/\/127\.0\.0\.1:\d+\//.test(l)),
      lines.join("\n"),
    );

    logged.length = 0;
    await c.client.setLoggingLevel("error");
    await runEcho("c");
    assertEquals(logged, [], "a run without errors has nothing at level error");

    assert(!/wisp mcp: /.test(c.stderr()), `WISP_LOG unset, yet stderr says:\n${c.stderr()}`);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

/**
 * The default that cannot run here (system, on Linux) gives way to a local
 * model under `wisp mcp` too, and the server says so to the client of the
 * call that opened the thread: an MCP log message and progress on the call's
 * token, model.fallback in the thread's audit, the receipt naming the model
 * that ran. A caller's own model is never replaced.
 */
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import {
  CallToolResultSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { connect, mcpScratch, structured } from "./support.ts";

/** A loopback URL nothing listens on (a port just freed), so no stray server is listed. */
function nothingListens(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}/v1`;
}

const STAND_IN =
  /^thread (\w+): system cannot run here \(.+\); using ollama:granite4\.1:8b, the first model a running local server offers/;

Deno.test({
  name: "mcp: a thread on the default that cannot run here is told which model stands in",
  // On macOS the default is Apple's model, which may run there.
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
    // No model configured: the default, system.
    const s = await mcpScratch({
      ollama: { host: ollama.url },
      llamacpp: { baseURL: nothingListens() },
      lmstudio: { baseURL: nothingListens() },
      notifications: { enabled: false },
    });
    const c = await connect(s);
    const logged: { level: string; data: unknown }[] = [];
    c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logged.push(n.params);
    });
    try {
      await c.client.setLoggingLevel("warning");
      ollama.reply({ text: "first" });
      const progress: { message?: string }[] = [];
      const first = await c.client.callTool(
        { name: "respond", arguments: { prompt: "hi", thread_id: "one", tools: [] } },
        CallToolResultSchema,
        { onprogress: (p) => progress.push(p) },
      );
      const receipt = structured(first) as { model: string; reply: string };
      assertEquals(receipt.model, "ollama:granite4.1:8b");
      assertEquals(receipt.reply, "first");
      // Every notification sent before the reply has been read once a ping returns.
      await c.client.ping();
      const told = logged.filter((l) => STAND_IN.test(String(l.data)));
      assertEquals(told.length, 1, JSON.stringify(logged));
      assertEquals(told[0].level, "warning");
      assertEquals(String(told[0].data).match(STAND_IN)![1], "one");
      assertEquals(progress.length, 1);
      assertEquals(progress[0].message, told[0].data);

      const fallback = s.events().filter((e) => e.kind === "model.fallback");
      assertEquals(fallback.length, 1);
      assertEquals(fallback[0].from, "system");
      assertEquals(fallback[0].to, "ollama:granite4.1:8b");
      assertEquals(fallback[0].thread, "one");
      assertMatch(String(fallback[0].reason), /^system cannot run here/);

      // The thread's second turn runs on the model it opened with, and is not told again.
      ollama.reply({ text: "second" });
      const again = await c.client.callTool({
        name: "respond",
        arguments: { prompt: "again", thread_id: "one" },
      });
      assertEquals((structured(again) as { model: string }).model, "ollama:granite4.1:8b");
      await c.client.ping();
      assertEquals(logged.filter((l) => STAND_IN.test(String(l.data))).length, 1);

      // Another thread is a conversation of its own, opened on the stand-in: it is told too.
      ollama.reply({ text: "other" });
      await c.client.callTool({
        name: "respond",
        arguments: { prompt: "hi", thread_id: "two", tools: [] },
      });
      await c.client.ping();
      const threads = logged.filter((l) => STAND_IN.test(String(l.data))).map((l) =>
        String(l.data).match(STAND_IN)![1]
      );
      assertEquals(threads, ["one", "two"]);

      // A caller that names system gets system or a refusal, never another model.
      const explicit = await c.client.callTool({
        name: "respond",
        arguments: { prompt: "hi", thread_id: "three", model: "system", tools: [] },
      });
      assertEquals(explicit.isError, true);
      const text = (explicit.content as { type: string; text: string }[])[0].text;
      assertMatch(text, /system is unavailable/);
      assertEquals(s.events().filter((e) => e.kind === "model.fallback").length, 2);
    } finally {
      await c.close();
      await ollama.close();
      await s.remove();
    }
  },
});

Deno.test("mcp: a configured model that runs is not announced", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch({
    model: "ollama:granite4.1:8b",
    ollama: { host: ollama.url },
    notifications: { enabled: false },
  });
  const c = await connect(s);
  const logged: unknown[] = [];
  c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logged.push(n.params.data);
  });
  try {
    await c.client.setLoggingLevel("warning");
    ollama.reply({ text: "hello" });
    const result = await c.client.callTool({
      name: "respond",
      arguments: { prompt: "hi", thread_id: "one", tools: [] },
    });
    assertEquals((structured(result) as { model: string }).model, "ollama:granite4.1:8b");
    await c.client.ping();
    assertEquals(logged, []);
    assertEquals(s.events().filter((e) => e.kind === "model.fallback"), []);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

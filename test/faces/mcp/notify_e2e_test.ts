/**
 * The model's notify tool under the real `wisp mcp`: the server's one
 * notifier posts from its own process (here Linux's notify-send route, a
 * stand-in program on PATH that records its argv), the respond receipt lists
 * what the turn posted, and each call is audited as `notification`.
 */
import { join } from "node:path";
import { assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { connect, mcpScratch, ollamaConfig, structured } from "./support.ts";

Deno.test({
  name: "a thread's notify call posts through the server's notifier and is in the receipt",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
    const s = await mcpScratch(
      ollamaConfig(ollama.url, { notifications: { enabled: true, perMinute: 1 } }),
    );
    const bin = join(s.base, "bin");
    const record = join(s.base, "posted.txt");
    await Deno.mkdir(bin);
    await Deno.writeTextFile(
      join(bin, "notify-send"),
      `#!/bin/sh\nprintf '%s\\n' "$@" >> '${record}'\n`,
      { mode: 0o755 },
    );
    const c = await connect(s, {
      env: { PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`, DISPLAY: ":99" },
    });
    try {
      ollama.reply({
        toolCalls: [
          { name: "notify", arguments: { title: "Build", message: "The tests pass" } },
          { name: "notify", arguments: { title: "Build", message: "Over the limit" } },
        ],
      });
      ollama.reply({ text: "done" });
      const receipt = structured(
        await c.client.callTool({ name: "respond", arguments: { prompt: "notify me" } }),
      );
      const posted = await Deno.readTextFile(record);
      assertEquals(posted, "--app-name=wisp\n--\nBuild\nThe tests pass\n");
      const notes = receipt.notifications as Record<string, unknown>[];
      assertEquals(notes.length, 2, JSON.stringify(receipt));
      assertEquals(notes[0], {
        source: "model",
        title: "Build",
        message: "The tests pass",
        route: "notify-send",
        posted: true,
      });
      assertEquals(notes[1].posted, false);
      const events = s.events().filter((e) => e.kind === "notification");
      assertEquals(events.length, 2);
      assertMatch(String(events[1].reason), /limit of 1 notifications a minute/);
    } finally {
      await c.close();
      await ollama.close();
      await s.remove();
    }
  },
});

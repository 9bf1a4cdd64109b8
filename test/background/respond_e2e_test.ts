/**
 * End to end, through the real CLI under the binary's permission set: the
 * model (a fake Ollama speaking the real wire format) starts a web server in
 * the background with the process tool and polls it; the server answers
 * while the session lives, and once `wisp` has exited nothing listens on the
 * port and no process of it is left.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { processesWith } from "../exec/support.ts";
import { waitUntil } from "../support/wait.ts";
import { ollamaConfig, scratch, toolMessages } from "../faces/respond/support.ts";

async function portAnswers(port: number): Promise<boolean> {
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

Deno.test("a background server the model started is gone when wisp respond ends", async () => {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const command = `python3 -u -m http.server ${port} --bind 127.0.0.1`;
    ollama.reply(
      { toolCalls: [{ name: "process", arguments: { action: "start", command } }] },
      {
        toolCalls: [{ name: "process", arguments: { action: "poll", id: "p1", waitSeconds: 30 } }],
      },
      { toolCalls: [{ name: "process", arguments: { action: "list" } }] },
      { text: "The server is running." },
    );
    const run = await s.wisp(["--yes", "start a web server"]);
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout.trim(), "The server is running.");
    const chats = ollama.chats();
    const polled = toolMessages(chats[2]).at(-1)?.content ?? "";
    assertMatch(polled, new RegExp(`Serving HTTP on 127\\.0\\.0\\.1 port ${port}`));
    const listed = toolMessages(chats[3]).at(-1)?.content ?? "";
    assertMatch(listed, /^p1\trunning\t/);
    // wisp has exited: the server goes with it. The kernel tears the
    // sandbox's PID namespace down after wisp's SIGKILL to its launcher, which
    // takes a moment: wait for it, with a generous deadline.
    await waitUntil(
      async () => !await portAnswers(port) && processesWith(`http.server ${port}`).length === 0,
      "the server's end after wisp exited",
    );
    const started = s.events().find((e) => e.kind === "tool.call" && e.tool === "process");
    assert(started, "the process call was not audited");
  } finally {
    await ollama.close();
    await s.remove();
  }
});

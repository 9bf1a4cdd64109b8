/**
 * A request waiting in a `wisp mcp` server started by the test is noted by a
 * plain `wisp chat` in a real terminal (tmux) before its prompt, and
 * approved there with `/approvals approve ID`: the server takes the answer
 * (the kernel names a plain chat reading a terminal), runs the command, and
 * audits the answer via chat.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import {
  connect,
  mcpScratch,
  ollamaConfig,
  pendingIds,
  structured,
  waitFor,
} from "../mcp/support.ts";
import { Terminal, tmuxAvailable } from "../../support/tmux.ts";

Deno.test({
  name:
    "plain chat: a request waiting in wisp mcp is noted and approved with /approvals approve ID",
  ignore: !tmuxAvailable(),
  fn: async () => {
    const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
    const s = await mcpScratch(ollamaConfig(ollama.url, { approval: { timeoutSeconds: 300 } }));
    const c = await connect(s);
    const terminal = new Terminal();
    try {
      ollama.reply(
        { toolCalls: [{ name: "run_command", arguments: { command: "touch from-mcp.txt" } }] },
        { text: "Done." },
      );
      const call = c.client.callTool({
        name: "respond",
        arguments: { prompt: "touch it", thread_id: "work", tools: ["run_command"] },
      });
      const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");

      await terminal.wisp("chat", s.home, ["chat", "--plain"], undefined, s.project);
      const noted = await terminal.waitFor("chat", "answer with /approvals approve ID");
      assertStringIncludes(noted, `⚠ ${id} waiting in wisp mcp (`);
      assertStringIncludes(noted, "thread work): run touch from-mcp.txt in ");
      await terminal.keys("chat", `/approvals approve ${id}`, "Enter");
      const answered = await terminal.waitFor("chat", "approved (once): touch from-mcp.txt");
      assertStringIncludes(answered, "for thread work");

      const result = structured(await call);
      assertEquals((result.calls as Record<string, unknown>[])[0].outcome, "ok");
      assert(Deno.statSync(join(s.project, "from-mcp.txt")).isFile);
      const viaChat = s.events().filter((e) => e.kind === "approval.answered" && e.via === "chat");
      // The server's record (source terminal, via chat) and the chat's own.
      assert(
        viaChat.some((e) => e.source === "terminal" && e.decision === "once"),
        JSON.stringify(viaChat),
      );
      assert(viaChat.some((e) => e.pendingId === id), JSON.stringify(viaChat));

      // Answered here, it is not noted again as gone.
      await terminal.keys("chat", "Enter");
      await terminal.keys("chat", "/quit", "Enter");
      const screen = await terminal.waitFor("chat", "EXIT=");
      assert(!screen.includes(`${id} no longer waiting`), screen);
      assertStringIncludes(screen, "EXIT=0");
    } finally {
      await terminal.close();
      await c.close();
      await ollama.close();
      await s.remove();
    }
  },
});

Deno.test({
  name:
    "plain chat: a question waiting in wisp mcp is noted and answered with /questions answer ID at its own prompt",
  ignore: !tmuxAvailable(),
  fn: async () => {
    const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
    const s = await mcpScratch(
      ollamaConfig(ollama.url, {
        tools: { ask: true },
        inquiry: { timeoutSeconds: 300, parkAfterSeconds: 300 },
      }),
    );
    const c = await connect(s);
    const terminal = new Terminal();
    try {
      ollama.reply(
        {
          toolCalls: [{
            name: "ask",
            arguments: { question: "Which config?", options: ["~/.wisp", "./wisp.json"] },
          }],
        },
        { text: "Fine." },
      );
      const call = c.client.callTool({
        name: "respond",
        arguments: { prompt: "replace the config", thread_id: "cfg", tools: ["ask"] },
      });
      const id = await waitFor(() => pendingIds(s.pending)[0], "the question file");
      await terminal.wisp("chat", s.home, ["chat", "--plain"], undefined, s.project);
      const noted = await terminal.waitFor("chat", "answer with /questions answer ID");
      assertStringIncludes(
        noted,
        `? ${id} waiting in wisp mcp (`,
      );
      assertStringIncludes(
        noted,
        "thread cfg): the model asks: Which config? (~/.wisp | ./wisp.json)",
      );
      await terminal.keys("chat", `/questions answer ${id}`, "Enter");
      await terminal.waitFor("chat", "press Enter to decline");
      await terminal.keys("chat", "1", "Enter");
      await terminal.waitFor("chat", "answered: Which config?");
      structured(await call);
      const sent = (ollama.chats()[1].messages as { role: string; content: string }[])
        .filter((m) => m.role === "tool");
      assertEquals(sent.at(-1)?.content, "chose: ~/.wisp");
      assert(
        s.events().some((e) => e.kind === "inquiry.answered" && e.via === "chat"),
        "audited via chat",
      );
      await terminal.keys("chat", "/quit", "Enter");
      assertStringIncludes(await terminal.waitFor("chat", "EXIT="), "EXIT=0");
    } finally {
      await terminal.close();
      await c.close();
      await ollama.close();
      await s.remove();
    }
  },
});

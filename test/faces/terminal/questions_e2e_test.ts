/**
 * The ask tool under `wisp mcp`: the question waits in the pending folder
 * like an approval; `wisp questions` lists it; `wisp questions answer ID` in
 * a real terminal (tmux) shows it and reads the answer at its own prompt,
 * and the model reads `chose: …` in the same turn (answered before
 * inquiry.parkAfterSeconds, set long here so a slow machine does not park
 * it; parked_question_e2e_test.ts has the parked turn); a piped `wisp questions
 * answer` cannot answer, and `wisp approvals approve` on a question is a
 * usage error pointing at wisp questions.
 */
import { assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
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
import { runWisp } from "../../support/wisp.ts";
import { toolMessages } from "../respond/support.ts";

Deno.test({
  name:
    "wisp questions: a question the model asks under wisp mcp is listed and answered at a terminal",
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
            arguments: {
              question: "Which config did you mean?",
              options: ["~/.wisp", "./wisp.json"],
            },
          }],
        },
        { text: "Using ./wisp.json." },
      );
      const call = c.client.callTool({
        name: "respond",
        arguments: { prompt: "replace the config", thread_id: "cfg", tools: ["ask"] },
      });
      const id = await waitFor(() => pendingIds(s.pending)[0], "the question file");

      const listed = await runWisp(["questions"], { home: s.home });
      assertEquals(listed.code, 0, listed.stderr);
      const [row] = listed.stdout.trim().split("\n").map((l) => l.split("\t"));
      assertEquals(row[0], id);
      assertMatch(row[2], /\/cfg$/);
      assertEquals(row[3], "~/.wisp|./wisp.json");
      assertEquals(row[4], "Which config did you mean?");

      // Not from a pipe, and not as an approval.
      const piped = await runWisp(["questions", "answer", id], { home: s.home, stdin: "2\n" });
      assertEquals(piped.code, 1, piped.stderr);
      assertStringIncludes(piped.stderr, "only from a terminal");
      await terminal.wisp("approve", s.home, ["approvals", "approve", id]);
      assertStringIncludes(await terminal.waitFor("approve", "EXIT="), "EXIT=64");
      assertStringIncludes(await terminal.waitFor("approve", "EXIT="), "wisp questions answer");

      await terminal.wisp("answer", s.home, ["questions", "answer", id]);
      const shown = await terminal.waitFor("answer", "press Enter to decline");
      assertStringIncludes(shown, "? the model asks (");
      assertStringIncludes(shown, "3  none of these");
      await terminal.keys("answer", "2", "Enter");
      const answered = await terminal.waitFor("answer", "EXIT=");
      assertStringIncludes(answered, "answered: Which config did you mean?");
      assertStringIncludes(answered, "EXIT=0");

      const result = structured(await call);
      assertStringIncludes(
        String(result.reply ?? result.text ?? JSON.stringify(result)),
        "Using ./wisp.json.",
      );
      assertEquals(toolMessages(ollama.chats()[1]).at(-1)?.content, "chose: ./wisp.json");
      const events = s.events();
      const answeredEvent = events.find((e) =>
        e.kind === "inquiry.answered" && e.decision === "answered"
      );
      assertEquals(answeredEvent?.via, "terminal");
    } finally {
      await terminal.close();
      await c.close();
      await ollama.close();
      await s.remove();
    }
  },
});

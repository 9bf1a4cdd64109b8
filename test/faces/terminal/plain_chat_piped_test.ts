/**
 * A piped standard input never answers for the person in the plain chat:
 * an approval is refused unasked (a "y" line after it is a message, not an
 * answer), and a question the model asks is declined.
 */
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { ollamaConfig, scratch, toolMessages } from "../respond/support.ts";

Deno.test("plain chat with piped stdin: an approval is refused unasked and a question declined", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply(
    { toolCalls: [{ name: "run_command", arguments: { command: "touch piped" } }] },
    { text: "It was refused." },
    { text: "A plain reply to y." },
    { toolCalls: [{ name: "ask", arguments: { question: "Which one?", options: ["a", "b"] } }] },
    { text: "You did not say." },
    { text: "A plain reply to 1." },
  );
  const s = await scratch({ ...ollamaConfig(ollama.url), tools: { ask: true } });
  try {
    const run = await s.wisp(["chat", "--plain"], {
      stdin: "make the file\ny\nask me\n1\n/quit\n",
    });
    assertEquals(run.code, 0, run.stderr);
    let exists = true;
    try {
      Deno.statSync(`${s.project}/piped`);
    } catch {
      exists = false;
    }
    assert(!exists, "a piped line approved a command");
    assertStringIncludes(run.stderr, "⚠ refused: touch piped");
    assert(!run.stderr.includes("[y]once"), "no dialog is drawn for a pipe");
    // The "y" went to the model as a message.
    const sent = ollama.chats().map((c) =>
      (c.messages as { role: string; content: string }[]).filter((m) => m.role === "user").at(-1)
        ?.content
    );
    assert(sent.includes("y"), JSON.stringify(sent));
    // So did the "1" after the question: it was declined before, never answered by a pipe.
    assert(sent.includes("1"), JSON.stringify(sent));
    assertStringIncludes(run.stderr, "declined: standard input is not a terminal");
    const answered = ollama.chats()[4];
    assertStringIncludes(toolMessages(answered).at(-1)?.content ?? "", "declined to answer");
    assertStringIncludes(run.stdout, "You did not say.");
  } finally {
    await s.remove();
    await ollama.close();
  }
});

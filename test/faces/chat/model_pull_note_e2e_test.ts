/**
 * A pull the models tool starts in a running `wisp chat --json`: its
 * approval is a line of kind model naming the pull, and once approved the
 * pull runs beside the conversation and its end arrives as a note of kind
 * model while the chat waits at its prompt (the chat engine's note path),
 * and the model is told of it with its next turn; against a fake Ollama
 * that serves the pull.
 */
import { assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { ollamaConfig, scratch } from "../respond/support.ts";
import { startChat } from "./support.ts";

Deno.test("chat --json: a model pull is asked as a model action, and the note of its end reaches the chat", async () => {
  const ollama = startFakeOllama({
    models: [{ name: "granite4.1:8b" }],
    pulls: {
      "qwen3:4b": {
        layers: [{ digest: "sha256:" + "b".repeat(64), total: 2_000_000 }],
        model: { name: "qwen3:4b" },
      },
    },
  });
  ollama.reply(
    { toolCalls: [{ name: "models", arguments: { action: "pull", name: "ollama:qwen3:4b" } }] },
    { text: "The pull runs." },
  );
  const s = await scratch(ollamaConfig(ollama.url));
  const chat = startChat(["--tool", "models"], { home: s.home, cwd: s.project });
  try {
    await chat.next((l) => l.type === "status", "the first status");
    await chat.send({ type: "message", text: "pull qwen3:4b" });
    const approval = await chat.next((l) => l.type === "approval", "the approval line");
    assertEquals(approval.kind, "model");
    assertEquals(approval.source, "chat");
    assertEquals(approval.command, "models pull ollama:qwen3:4b");
    assertMatch(
      approval.words as string,
      /^pull model ollama:qwen3:4b \(downloads it through the Ollama server at /,
    );
    assertEquals(approval.options, ["once", "no"]);
    await chat.send({ type: "answer", id: approval.id, decision: "once" });
    const note = await chat.next(
      (l) => l.type === "note" && l.kind === "model",
      "the note of the pull's end",
    );
    assertMatch(
      note.text as string,
      /^\[wisp: the pull of ollama:qwen3:4b you asked for \(approval [0-9a-f]{8}\) finished: 2(\.0)? MB in Ollama; it is ollama:qwen3:4b\./,
    );
    assertEquals(note.tone, "plain");
    assertEquals(
      chat.lines.filter((l) => l.type === "note" && l.kind === "model").length,
      1,
      "one note for one pull",
    );
    // The model is told with its next turn, before the prompt.
    ollama.reply({ text: "It finished." });
    const from = chat.lines.length;
    await chat.send({ type: "message", text: "did it finish?" });
    await chat.next((l) => l.type === "turn" && l.phase === "end", "the next turn's end", from);
    const last = ollama.chats().at(-1) as { messages: { role: string; content: string }[] };
    const contents = last.messages.map((m) => m.content);
    const told = contents.findIndex((c) => c.includes(note.text as string));
    const asked = contents.findIndex((c) => c.includes("did it finish?"));
    assertEquals(told >= 0 && told < asked, true, JSON.stringify(last.messages));
    await chat.send("/quit");
    assertEquals((await chat.exited()).code, 0);
  } finally {
    await chat.close();
    await s.remove();
    await ollama.close();
  }
});

/**
 * End to end through `wisp respond` and a fake Ollama speaking the real wire
 * format: with approval.classifier model, the session's gate asks the model
 * routing.tasks.classifier names about the command the conversation's model
 * wants to run, and its verdict decides whether anyone would be asked.
 */
import { assertEquals, assertMatch } from "../support/assert.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { ollamaConfig, scratch, toolMessages } from "../faces/respond/support.ts";

Deno.test("respond: the model classifier on its routed model raises a command, and respond refuses it", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }, { name: "tiny:1b" }] });
  const s = await scratch({
    ...ollamaConfig(ollama.url),
    approval: { classifier: "model", threshold: "dangerous" },
    routing: { tasks: { classifier: "ollama:tiny:1b" } },
  });
  try {
    ollama.reply(
      { toolCalls: [{ name: "run_command", arguments: { command: "vaultctl rotate --all" } }] },
      { text: '{"level":"dangerous","reason":"it replaces every key in the vault"}' },
      { text: "It was not run." },
    );
    const run = await s.wisp(["rotate the keys"]);
    assertEquals(run.code, 0, run.stderr);
    const chats = ollama.chats();
    assertEquals(chats.map((c) => c.model), ["granite4.1:8b", "tiny:1b", "granite4.1:8b"]);
    assertEquals(chats[1].tools, undefined, "the classifier is offered no tools");
    const result = toolMessages(chats[2]).at(-1)?.content ?? "";
    assertMatch(result, /command not approved: .*dangerous/);
    const verdict = s.events().find((e) => e.kind === "classifier.verdict");
    assertEquals(
      [verdict?.level, verdict?.by, verdict?.source],
      ["dangerous", "model", "ollama:tiny:1b"],
    );
    assertEquals(s.events().some((e) => e.kind === "command.outcome"), false, "nothing ran");
  } finally {
    await ollama.close();
    await s.remove();
  }
});

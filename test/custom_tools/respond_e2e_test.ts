/**
 * End to end through `wisp respond` and a fake Ollama speaking the real wire
 * format: the model is offered the custom tool with its JSON Schema, calls
 * it, and wisp runs the substituted line in the sandbox, audited with the
 * custom tool's origin.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { ollamaConfig, scratch, toolMessages } from "../faces/respond/support.ts";

Deno.test("the model is offered a custom tool, calls it, and the quoted line runs", async () => {
  const ollama = startFakeOllama();
  const s = await scratch({
    ...ollamaConfig(ollama.url),
    tools: {
      custom: [{
        name: "word_count",
        description: "Counts the words in a file.",
        arguments: { path: { type: "string", description: "The file" } },
        command: "wc -w < {path}",
      }],
    },
  });
  try {
    await Deno.writeTextFile(join(s.project, "it's here.txt"), "one two three\n");
    ollama.reply(
      { toolCalls: [{ name: "word_count", arguments: { path: "it's here.txt" } }] },
      { text: "Three words." },
    );
    const run = await s.wisp(["--yes", "count the words"]);
    assertEquals(run.code, 0, run.stderr);
    const chats = ollama.chats();
    const offered = (chats[0].tools as { function: { name: string; parameters: unknown } }[])
      .find((t) => t.function.name === "word_count");
    assert(offered, "the custom tool was not offered");
    assertEquals(
      (offered.function.parameters as { required: string[] }).required,
      ["path"],
    );
    const result = toolMessages(chats[1]).at(-1)?.content ?? "";
    assertMatch(result, /^exit status: 0\nstdout:\n3\b/);
    const outcome = s.events().find((e) => e.kind === "command.outcome");
    assertEquals(outcome?.command, `wc -w < 'it'\\''s here.txt'`);
    assertEquals(outcome?.origin, "custom_tool");
    assertEquals(outcome?.sandbox, "confined");
  } finally {
    await ollama.close();
    await s.remove();
  }
});

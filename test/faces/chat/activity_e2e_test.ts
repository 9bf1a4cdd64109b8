/**
 * The working line a real `wisp chat --json` reports while a model's calls
 * run: a command as the command itself (`running seq 1 3`), another tool as
 * `working: read_file README.md` — never the tool's name before the command.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { ollamaConfig, scratch } from "../respond/support.ts";
import { startChat } from "./support.ts";

Deno.test("chat --json: the activity line names the command a model runs, and another tool with its argument", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply(
    { toolCalls: [{ name: "run_command", arguments: { command: "seq 1 3" } }] },
    { toolCalls: [{ name: "read_file", arguments: { path: "README.md" } }] },
    { text: "Counted and read." },
  );
  const s = await scratch(ollamaConfig(ollama.url));
  await Deno.writeTextFile(join(s.project, "README.md"), "# a project\n");
  const chat = startChat([], { home: s.home, cwd: s.project, env: { HOME: s.home } });
  try {
    await chat.next((l) => l.type === "status", "the first status");
    await chat.send({ type: "message", text: "count, then read the readme" });
    const end = await chat.next((l) => l.type === "turn" && l.phase === "end", "the turn's end");
    assertEquals(end.outcome, "replied");
    const said = chat.lines
      .filter((l) => l.type === "activity" && l.activity !== null)
      .map((l) => (l.activity as { text: string }).text);
    assert(said.includes("running seq 1 3"), said.join("\n"));
    assert(said.includes("working: read_file README.md"), said.join("\n"));
    assert(!said.some((text) => text.includes("run_command")), said.join("\n"));
    await chat.send("/quit");
    assertEquals((await chat.exited()).code, 0);
  } finally {
    await chat.close();
    await s.remove();
    await ollama.close();
  }
});

/**
 * `wisp chat --json` end to end: a real wisp process, a scratch home, the
 * fake Ollama server, JSON Lines over pipes.
 */
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { ollamaConfig, scratch } from "../respond/support.ts";

/** Every stdout line parsed as JSON; throws on the first line that is not. */
function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout.split("\n").filter((l) => l !== "").map((line) => {
    try {
      return JSON.parse(line);
    } catch {
      throw new Error(`stdout has a line that is not JSON: ${line}`);
    }
  });
}

Deno.test("printf 'What is the date?\\n/quit\\n' | wisp chat --json prints only JSON lines, the reply among them", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply({ text: ["It is ", "the second of December."], usage: { input: 40, output: 7 } });
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const run = await s.wisp(["chat", "--json"], { stdin: "What is the date?\n/quit\n" });
    assertEquals(run.code, 0, run.stderr);
    const lines = jsonLines(run.stdout);
    assert(lines.every((l) => typeof l.type === "string"), "every line has a type");
    const types = lines.map((l) => l.type);
    // The banner and the help line first, then status, then the turn.
    assertEquals(lines[0].type, "note");
    assertEquals(lines[0].kind, "banner");
    assertStringIncludes(String(lines[0].text), "ollama:granite4.1:8b");
    assertEquals(lines[1].kind, "help");
    assert(types.indexOf("status") < types.indexOf("turn"), types.join(","));
    const reply = lines.filter((l) => l.type === "delta" && !l.thinking).map((l) => l.text).join(
      "",
    );
    assertEquals(reply, "It is the second of December.");
    const turns = lines.filter((l) => l.type === "turn");
    assertEquals(turns.map((t) => t.phase), ["start", "end"]);
    assertEquals(turns[1].outcome, "replied");
    // One id from start to end: the turn's audit id, which its events carry.
    assertEquals(turns[0].id, turns[1].id);
    const prompt = lines.find((l) =>
      l.type === "event" && (l.event as { kind: string }).kind === "prompt"
    );
    assertEquals((prompt!.event as { turn: string }).turn, turns[0].id);
    assert(lines.indexOf(turns[0]) < lines.indexOf(prompt!), "the turn starts before its events");
    assertEquals([turns[1].inputTokens, turns[1].outputTokens], [40, 7]);
    // The empty delta that ends the reply comes before the turn's end.
    const end = types.lastIndexOf("turn");
    assertEquals(lines[end - 1].type === "note" || lines[end - 1].type === "delta", true);
    assert(lines.some((l) => l.type === "delta" && l.text === ""), "an empty delta ends the reply");
    // Audit events arrive as event lines; the last line is the exit.
    assert(
      lines.some((l) => l.type === "event" && (l.event as { kind: string }).kind === "prompt"),
    );
    assertEquals(lines[lines.length - 1], { type: "exit", code: 0 });
    // The model was asked the question.
    const chats = ollama.chats();
    assertEquals(chats.length, 1);
    const messages = chats[0].messages as { role: string; content: string }[];
    assertEquals(messages[messages.length - 1].content, "What is the date?");
  } finally {
    await s.remove();
    await ollama.close();
  }
});

Deno.test("chat --json: a line that is not JSON is a message, an unknown type is ignored, a bare ! says so", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply({ text: "Hello." });
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const input = [
      JSON.stringify({ type: "from-the-future", text: "ignore me" }),
      "!",
      "/frobnicate",
      "/histroy",
      JSON.stringify({ type: "message", text: "hi" }),
      "/quit",
      "",
    ].join("\n");
    const run = await s.wisp(["chat", "--json"], { stdin: input });
    assertEquals(run.code, 0, run.stderr);
    const lines = jsonLines(run.stdout);
    const notes = lines.filter((l) => l.type === "note").map((l) => String(l.text));
    assert(notes.some((n) => n.includes("! alone runs nothing")), notes.join("\n"));
    assert(notes.some((n) => n.startsWith("/frobnicate is not a chat command")), notes.join("\n"));
    assert(notes.some((n) => n.includes("did you mean /history")), notes.join("\n"));
    // One model request only: the unknown type did not become a message.
    assertEquals(ollama.chats().length, 1);
    const messages = ollama.chats()[0].messages as { role: string; content: string }[];
    assertEquals(messages[messages.length - 1].content, "hi");
  } finally {
    await s.remove();
    await ollama.close();
  }
});

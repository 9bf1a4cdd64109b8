/**
 * A transcript holds the conversation's store: `--resume` carries on its
 * numbering (a reference made after the resume names the entry the first
 * run stored), a `!` command's notice is saved inside the next prompt's
 * entry, and a format-1 transcript (a message list) is still resumed, its
 * messages replayed into a store.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { ollamaConfig, scratch } from "../respond/support.ts";

function savedTranscript(home: string): Record<string, unknown> {
  const dir = join(home, "transcripts");
  const [file] = [...Deno.readDirSync(dir)].map((e) => e.name);
  return JSON.parse(Deno.readTextFileSync(join(dir, file)));
}

Deno.test("a transcript saves the store; --resume carries on its numbering; a typed command's notice is in the prompt entry", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply(
    { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] },
    { text: "It says hello." },
    { text: "Still hello." },
  );
  const s = await scratch(ollamaConfig(ollama.url));
  await Deno.writeTextFile(join(s.project, "notes.txt"), "hello from the notes\n");
  try {
    const first = await s.wisp(["chat", "--json", "--tool", "read_file"], {
      stdin: "!echo typed-by-me\nwhat do the notes say?\n/quit\n",
    });
    assertEquals(first.code, 0, first.stderr);
    const saved = savedTranscript(s.home);
    assertEquals(saved.version, 2);
    const context = saved.context as {
      store: { turns: { entries: { n: number; kind: string; text: string | null }[] }[] };
    };
    const entries = context.store.turns.flatMap((t) => t.entries);
    assertEquals(entries.map((e) => e.kind), ["prompt", "reply", "output", "reply"]);
    assertEquals(entries.map((e) => e.n), [1, 2, 3, 4]);
    assert(String(entries[0].text).startsWith("[the person ran `echo typed-by-me`"));
    assert(String(entries[0].text).endsWith("what do the notes say?"));

    const second = await s.wisp(["chat", "--json", "--resume", "--tool", "read_file"], {
      stdin: "and now?\n/quit\n",
    });
    assertEquals(second.code, 0, second.stderr);
    const messages = ollama.chats()[2].messages as { role: string; content: string }[];
    // The first run's read is a reference in the resumed chat, naming the entry it was stored as.
    const tool = messages.find((m) => m.role === "tool");
    assert(
      tool && tool.content.startsWith("[output of entry 3 not repeated"),
      JSON.stringify(tool),
    );
    assertEquals(messages[messages.length - 1].content, "and now?");
  } finally {
    await s.remove();
    await ollama.close();
  }
});

Deno.test("a format-1 transcript (a message list) is resumed: its messages replayed into the store", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply({ text: "You said BLUE HERON." });
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const id = "20261201-100000-abcdef";
    await Deno.mkdir(join(s.home, "transcripts"), { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(
      join(s.home, "transcripts", `${id}.json`),
      JSON.stringify({
        version: 1,
        id,
        started: "2026-12-01T10:00:00.000Z",
        saved: "2026-12-01T10:01:00.000Z",
        model: "ollama:granite4.1:8b",
        cwd: s.project,
        sessions: [],
        messages: [
          { role: "user", content: "the codename is BLUE HERON" },
          { role: "assistant", content: "Noted." },
        ],
        history: ["the codename is BLUE HERON"],
      }),
      { mode: 0o600 },
    );
    const run = await s.wisp(["chat", "--json", "--resume", id], {
      stdin: "what was it?\n/quit\n",
    });
    assertEquals(run.code, 0, run.stderr);
    const contents = (ollama.chats()[0].messages as { content: string }[]).map((m) => m.content);
    assertEquals(contents.slice(1), ["the codename is BLUE HERON", "Noted.", "what was it?"]);
    assert(run.stdout.includes("1 message so far"), run.stdout);
    assertEquals(savedTranscript(s.home).version, 2, "saved again in the new format");
  } finally {
    await s.remove();
    await ollama.close();
  }
});

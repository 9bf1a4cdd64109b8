/**
 * A transcript holds the conversation's store: `--resume` carries on its
 * numbering (a reference made after the resume names the entry the first
 * run stored), a `!` command's notice is an entry of its own before the
 * next prompt (with memory, a recall of it reads the command's whole
 * output from the audit), and a format-1 transcript (a message list) is still resumed, its
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

Deno.test("a transcript saves the store; --resume carries on its numbering; a typed command's notice is an entry before the prompt", async () => {
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
    assertEquals(entries.map((e) => e.kind), ["told", "prompt", "reply", "output", "reply"]);
    assertEquals(entries.map((e) => e.n), [1, 2, 3, 4, 5]);
    assert(String(entries[0].text).startsWith("[the person ran `echo typed-by-me`"));
    assertEquals(entries[1].text, "what do the notes say?");
    // The model got the notice as a message of its own, before the prompt.
    const asked = ollama.chats()[0].messages as { role: string; content: string }[];
    assert(asked[asked.length - 2].content.startsWith("[the person ran `echo typed-by-me`"));
    assertEquals(asked[asked.length - 1].content, "what do the notes say?");

    const second = await s.wisp(["chat", "--json", "--resume", "--tool", "read_file"], {
      stdin: "and now?\n/quit\n",
    });
    assertEquals(second.code, 0, second.stderr);
    const messages = ollama.chats()[2].messages as { role: string; content: string }[];
    // The first run's read is a reference in the resumed chat, naming the entry it was stored as.
    const tool = messages.find((m) => m.role === "tool");
    assert(
      tool && tool.content.startsWith("[output of entry 4 not repeated"),
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

Deno.test("with memory, a long typed command's notice names its entry, and recalling it reads the whole output", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply(
    { toolCalls: [{ name: "memory", arguments: { request: "recall entry 1" } }] },
    { text: "It counted to 300." },
  );
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const run = await s.wisp(["chat", "--json", "--tool", "memory"], {
      stdin: "!seq 1 300\nhow far did it count?\n/quit\n",
    });
    assertEquals(run.code, 0, run.stderr);
    const [first, second] = ollama.chats();
    const told = (first.messages as { content: string }[]).find((m) =>
      m.content.startsWith("[the person ran `seq 1 300`")
    );
    assert(told, "the notice reached the model");
    assert(told.content.includes('memory "recall entry 1"'), told.content);
    assert(!told.content.includes("\n150\n"), "the middle of the output is not repeated");
    const recalled = (second.messages as { role: string; content: string }[]).find((m) =>
      m.role === "tool"
    );
    assert(recalled, "the recall's result");
    assert(recalled.content.includes("a command the person ran themselves"), recalled.content);
    // The whole output, from the audit's command.typed, line-numbered as a recall shows it.
    assert(/\t150\n/.test(recalled.content), recalled.content);
    assert(/\t300\n/.test(recalled.content), recalled.content);
  } finally {
    await s.remove();
    await ollama.close();
  }
});

/**
 * A transcript carries the conversation's facts and task: after
 * `wisp chat --resume`, /fact lists the same facts (ids, sources, versions),
 * /task shows the same task, and the model's first request carries both
 * beside it. A format-2 transcript saved before facts were saved still
 * resumes, with no facts and no complaint; one whose facts field is damaged
 * resumes the conversation without the facts and says so in one line.
 * Driven through `wisp chat --json` processes against a fake Ollama.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { ollamaConfig, scratch } from "../respond/support.ts";

type Line = Record<string, unknown> & { type: string };

function transcriptPath(home: string): string {
  const dir = join(home, "transcripts");
  const [file] = [...Deno.readDirSync(dir)].map((e) => e.name);
  return join(dir, file);
}

function notesOf(stdout: string): string[] {
  return stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Line)
    .filter((l) => l.type === "note").map((l) => String(l.text));
}

/** The /fact listing's lines among the notes. */
const listing = (notes: string[]) => notes.filter((n) => /^\s+c\d+\s/.test(n));

/** A first chat that states two facts, replaces one, sets the task, and says hello. */
async function firstChat(s: Awaited<ReturnType<typeof scratch>>): Promise<string[]> {
  const run = await s.wisp(["chat", "--json", "--no-tools"], {
    stdin: [
      "/fact entity release codename = GREEN FINCH",
      "/fact entity release codename = BLUE HERON",
      "/fact decision storage = SQLite",
      "/task tidy the docs",
      "hi",
      "/fact",
      "/quit",
    ].join("\n") + "\n",
  });
  assertEquals(run.code, 0, run.stderr);
  return notesOf(run.stdout);
}

Deno.test("chat --resume: /fact lists the same facts and /task the same task; the model is shown both", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply({ text: "Hello." }, { text: "Still BLUE HERON." });
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const before = listing(await firstChat(s));
    assertEquals(before.length, 3, before.join("\n"));
    assert(
      before.some((l) => /c2\s+c2 entity release codename = BLUE HERON \(you, stated/.test(l)),
    );
    const saved = JSON.parse(Deno.readTextFileSync(transcriptPath(s.home)));
    assertEquals(saved.version, 2, "the format keeps its number: the field is optional");
    assertEquals(saved.task, "tidy the docs");
    assertEquals(
      saved.facts.versions.map((v: { id: string; state: string }) => [v.id, v.state]),
      [["c1", "superseded"], ["c2", "current"], ["c3", "current"], ["c4", "current"]],
    );

    const second = await s.wisp(["chat", "--json", "--no-tools", "--resume"], {
      stdin: ["/fact", "/task", "what is the codename?", "/quit"].join("\n") + "\n",
    });
    assertEquals(second.code, 0, second.stderr);
    const notes = notesOf(second.stdout);
    assertEquals(listing(notes), before, "the same facts, ids and sources");
    assert(notes.includes("the task: tidy the docs"), notes.join("\n"));
    assert(!notes.some((n) => n.includes("could not be read")), notes.join("\n"));

    // The resumed chat's first request carries the facts and the task beside it.
    const asked = ollama.chats()[1];
    const system = String((asked.messages as { content: string }[])[0].content);
    assert(system.includes("BLUE HERON") && !system.includes("GREEN FINCH"), system);
    assert(system.includes("tidy the docs"), system);
    assert(system.includes("SQLite"), system);

    // Saved again, the facts are the same (the resume added none and lost none).
    const again = JSON.parse(Deno.readTextFileSync(transcriptPath(s.home)));
    assertEquals(again.facts.versions, saved.facts.versions);
    assertEquals(again.task, "tidy the docs");
  } finally {
    await s.remove();
    await ollama.close();
  }
});

Deno.test("chat --resume: a transcript saved without facts resumes as before; a damaged facts field costs only the facts, said in one line", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply({ text: "Hello." }, { text: "Resumed." }, { text: "Resumed again." });
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    await firstChat(s);
    const path = transcriptPath(s.home);
    const saved = JSON.parse(Deno.readTextFileSync(path));

    // As a wisp before this change saved it: no facts, no task.
    const { facts: _facts, task: _task, ...older } = saved;
    Deno.writeTextFileSync(path, JSON.stringify(older), { mode: 0o600 });
    const plain = await s.wisp(["chat", "--json", "--no-tools", "--resume"], {
      stdin: "/fact\n/task\nand now?\n/quit\n",
    });
    assertEquals(plain.code, 0, plain.stderr);
    const plainNotes = notesOf(plain.stdout);
    assert(plainNotes.some((n) => n.startsWith("resumed transcript")), plainNotes.join("\n"));
    assert(plainNotes.some((n) => n.startsWith("no facts in this conversation yet")));
    assert(plainNotes.includes("no task is set; /task TEXT sets one"), plainNotes.join("\n"));
    assert(!plainNotes.some((n) => n.includes("could not be read")), plainNotes.join("\n"));
    const plainAsked = ollama.chats()[1].messages as { content: string }[];
    assertEquals(plainAsked.at(-1)!.content, "and now?");
    assert(plainAsked.some((m) => m.content === "hi"), "the conversation carried on");

    // A facts field damaged by hand: the conversation resumes, the facts do not, one line says so.
    Deno.writeTextFileSync(
      path,
      JSON.stringify({ ...saved, facts: { ...saved.facts, versions: "lost" } }),
      { mode: 0o600 },
    );
    const damaged = await s.wisp(["chat", "--json", "--no-tools", "--resume"], {
      stdin: "/fact\nonce more?\n/quit\n",
    });
    assertEquals(damaged.code, 0, damaged.stderr);
    const notes = notesOf(damaged.stdout);
    const warned = notes.filter((n) => n.includes("facts could not be read"));
    assertEquals(warned, [
      "warning: the transcript's facts could not be read (it has no list of versions); this chat resumes without them",
    ]);
    assert(notes.some((n) => n.startsWith("no facts in this conversation yet")), notes.join("\n"));
    const asked = ollama.chats()[2].messages as { content: string }[];
    assertEquals(asked.at(-1)!.content, "once more?");
    assert(asked.some((m) => m.content === "hi"), "the conversation carried on");
    assert(!String(asked[0].content).includes("BLUE HERON"), "no fact reached the model");
    // The task was saved apart from the facts, so it carries on.
    assertEquals(JSON.parse(Deno.readTextFileSync(path)).task, "tidy the docs");
  } finally {
    await s.remove();
    await ollama.close();
  }
});

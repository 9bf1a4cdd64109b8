/**
 * The fact book is every conversation's facts: a fact the distiller drew
 * from a turn that condensing dropped is still in a later request (the
 * facts' lines in the system message) though the turn itself is gone, and a
 * permanent fact kept in wisp's home reaches the first request of a new
 * chat, of a one-shot respond and of an MCP thread, whose memory tool notes
 * into the same book. Driven through `wisp chat --json` and
 * `wisp respond` against a fake Ollama that plays the model, the distiller
 * and the summariser (each known by its fixed instructions). Chat says when
 * a turn condensed: a note of kind condensed, and the turn's end line (and
 * the status line, when one follows).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { scratch } from "../faces/respond/support.ts";
import { DISTILLER_INSTRUCTIONS } from "../../src/context/facts/distiller.ts";
import { SUMMARY_PROMPT } from "../../src/context/summary.ts";
import { measuredTokens } from "./support.ts";
import { connect, mcpScratch, ollamaConfig, structured } from "../faces/mcp/support.ts";

const WINDOW = 4096;
const CODENAME = "BLUE-HERON-4217";

interface Message {
  role: string;
  content?: string | null;
}

const systemOf = (body: Record<string, unknown>) =>
  String(((body.messages ?? []) as Message[])[0]?.content ?? "");

/** Which of wisp's callers a request is: the distiller, the summariser, or the conversation. */
function callerOf(body: Record<string, unknown>): "distiller" | "summary" | "conversation" {
  const system = systemOf(body);
  if (system.startsWith(DISTILLER_INSTRUCTIONS.slice(0, 60))) return "distiller";
  if (system.startsWith(SUMMARY_PROMPT.slice(0, 60))) return "summary";
  return "conversation";
}

Deno.test("chat: a fact distilled from a dropped turn reaches a later request; the turn itself is gone", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b", contextLength: WINDOW }] });
  const s = await scratch({
    model: "ollama:granite4.1:8b",
    ollama: { host: ollama.url, contextLength: WINDOW },
    notifications: { enabled: false },
  });
  const padding = "The weather report goes on about clouds and wind. ".repeat(40);
  try {
    let distilledCodename = 0;
    const play = (body: Record<string, unknown>) => {
      const caller = callerOf(body);
      const all = JSON.stringify(body.messages);
      if (caller === "distiller") {
        // The distiller keeps the codename only when the dropped turns show it.
        const facts = all.includes(CODENAME)
          ? [{ subject: "entity", name: "codename", value: CODENAME }]
          : [];
        if (facts.length > 0) distilledCodename++;
        return { text: JSON.stringify({ facts }) };
      }
      // The summariser keeps no codename: only the facts can carry it on.
      if (caller === "summary") return { text: "The person talked about the weather." };
      return { text: `Noted. ${padding}` };
    };
    ollama.reply(...Array.from({ length: 60 }, () => play));
    const lines = [
      `The project's codename is ${CODENAME}. ${padding}`,
      ...Array.from({ length: 5 }, (_, i) => `Weather note ${i + 2}. ${padding}`),
      "What is the codename?",
      "/quit",
    ];
    const run = await s.wisp(["chat", "--json", "--no-tools"], { stdin: lines.join("\n") + "\n" });
    assertEquals(run.code, 0, run.stderr);

    const events = s.events();
    const condensed = events.filter((e) => e.kind === "context.condensed");
    assert(
      condensed.some((e) => (e.droppedTurns as number[]).includes(1)),
      `turn 1 was dropped: ${JSON.stringify(condensed)}`,
    );
    assert(distilledCodename >= 1, "the distiller was shown turn 1");
    assert(
      events.some((e) => e.kind === "fact.distilled" && Number(e.recorded) >= 1),
      JSON.stringify(events.filter((e) => String(e.kind).startsWith("fact."))),
    );

    const conversation = ollama.chats().filter((b) => callerOf(b) === "conversation");
    const last = conversation[conversation.length - 1];
    const messages = (last.messages ?? []) as Message[];
    assertEquals(messages[messages.length - 1].content, "What is the codename?");
    // The fact is in the system message's facts; no turn in view says it any more.
    assert(systemOf(last).includes("Facts of this conversation:"), systemOf(last));
    assert(systemOf(last).includes(CODENAME), systemOf(last));
    assert(
      !messages.slice(1).some((m) => String(m.content ?? "").includes(CODENAME)),
      "turn 1 is no longer in view",
    );
    for (const body of ollama.chats()) assert(measuredTokens(body) <= WINDOW);

    // The person is told: a condensed note after the turn, and the status line after it says so.
    const out = run.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    const note = out.find((l) => l.type === "note" && l.kind === "condensed");
    assert(note, "a condensed note");
    assert(
      /^note: the conversation was condensed to fit ollama:granite4\.1:8b's 4,096-token window \(.*turns? folded into the summary/
        .test(String(note.text)),
      String(note.text),
    );
    const end = out.slice(out.indexOf(note)).find((l) => l.type === "turn" && l.phase === "end");
    assertEquals(end?.condensed, true, "the turn's end line says it condensed");
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("a permanent fact from facts.json reaches the first request of a new chat and of respond", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await scratch({
    model: "ollama:granite4.1:8b",
    ollama: { host: ollama.url },
    notifications: { enabled: false },
  });
  try {
    Deno.writeTextFileSync(
      join(s.home, "facts.json"),
      JSON.stringify({
        version: 1,
        facts: [{
          id: "p0123abcd",
          subject: "entity",
          name: "build host",
          key: "build host",
          value: "GREY-OWL-77",
          keptAt: "2026-11-30T10:00:00.000Z",
          via: "terminal",
        }],
      }),
      { mode: 0o600 },
    );
    ollama.reply({ text: "Hello." }, { text: "Hi." });
    const chat = await s.wisp(["chat", "--json", "--no-tools"], { stdin: "hello\n/quit\n" });
    assertEquals(chat.code, 0, chat.stderr);
    const respond = await s.wisp(["--no-tools", "hi"]);
    assertEquals(respond.code, 0, respond.stderr);
    const [fromChat, fromRespond] = ollama.chats();
    for (const body of [fromChat, fromRespond]) {
      const system = systemOf(body);
      assert(system.includes("Facts of this conversation:"), system);
      assert(system.includes("GREY-OWL-77"), system);
    }
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("an MCP thread's requests carry its book: a permanent fact, and what the memory tool noted", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  Deno.writeTextFileSync(
    join(s.home, "facts.json"),
    JSON.stringify({
      version: 1,
      facts: [{
        id: "p0123abcd",
        subject: "entity",
        name: "build host",
        key: "build host",
        value: "GREY-OWL-77",
        keptAt: "2026-11-30T10:00:00.000Z",
      }],
    }),
    { mode: 0o600 },
  );
  const c = await connect(s);
  try {
    ollama.reply(
      {
        toolCalls: [{
          name: "memory",
          arguments: { request: `note entity codename = ${CODENAME}` },
        }],
      },
      { text: "Noted." },
      { text: "It is in my facts." },
    );
    const first = structured(
      await c.client.callTool({
        name: "respond",
        arguments: { prompt: "Remember the codename.", tools: ["memory"] },
      }),
    );
    assertEquals(first.reply, "Noted.");
    const second = structured(
      await c.client.callTool({
        name: "respond",
        arguments: { prompt: "What is the codename?", thread_id: first.thread_id },
      }),
    );
    assertEquals(second.reply, "It is in my facts.");
    const [opening, , asked] = ollama.chats();
    assert(systemOf(opening).includes("GREY-OWL-77"), systemOf(opening));
    // The note went into the thread's book, so the next turn's request shows it beside it.
    assert(systemOf(asked).includes("Facts of this conversation:"), systemOf(asked));
    assert(systemOf(asked).includes(CODENAME), systemOf(asked));
    assert(systemOf(asked).includes("GREY-OWL-77"), systemOf(asked));
    assert(
      s.events().some((e) =>
        e.kind === "fact.recorded" && e.by === "model" && e.method === "noted" &&
        e.value === CODENAME
      ),
      "the note is audited as the model's",
    );
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

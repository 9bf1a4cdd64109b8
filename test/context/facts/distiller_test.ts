/**
 * The distiller against a fake Ollama server speaking the real wire format:
 * one side call with the fixed prompt, the schema and thinking off; a good
 * reply becomes the model's distilled facts with their source; a malformed
 * one (not JSON, off the schema, a kind it was not asked for) is refused
 * with one sentence and records nothing; a server error is a sentence too.
 */
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { OllamaBackend } from "../../../src/models/ollama.ts";
import { configSchema } from "../../../src/config/schema.ts";
import { FactBook } from "../../../src/context/facts/book.ts";
import { resolveKinds } from "../../../src/context/facts/kinds.ts";
import { distil, parseDistillerReply } from "../../../src/context/facts/distiller.ts";

const DROPPED =
  "user: the release is called BLUE HERON\nassistant: noted; `deno test -A` printed 12 passed";

function backendFor(url: string): OllamaBackend {
  return new OllamaBackend("granite4.1:8b", {
    host: url,
    config: configSchema.parse({ ollama: { models: { "granite4.1:8b": { think: true } } } }),
    freeMemory: () => 16 * 2 ** 30,
  });
}

Deno.test("the distiller asks once, with its schema and thinking off, and records the model's facts", async () => {
  // A model that thinks, set to think: the side call still asks it not to.
  const ollama = startFakeOllama({
    models: [{ name: "granite4.1:8b", capabilities: ["completion", "tools", "thinking"] }],
  });
  try {
    ollama.reply({
      text: JSON.stringify({
        facts: [
          { subject: "entity", name: "release codename", value: "BLUE HERON" },
          { subject: "tests", name: "deno test -A", value: "12 passed" },
        ],
      }),
    });
    const book = new FactBook({ kinds: resolveKinds([{ name: "ticket" }]) });
    const done: Record<string, unknown>[] = [];
    const result = await distil(DROPPED, { turn: 3, entry: 7 }, backendFor(ollama.url), book, {
      onDone: (f) => done.push(f),
    });
    assertEquals(result.refused, undefined);
    assertEquals(book.lines(), [
      "c1 entity release codename = BLUE HERON (model, distilled, turn 3, entry 7)",
      "c2 tests deno test -A = 12 passed (model, distilled, turn 3, entry 7)",
    ]);
    assertEquals(done, [{ model: "ollama:granite4.1:8b", recorded: 2, turn: 3 }]);
    const [chat] = ollama.chats();
    assertEquals(chat.think, false, "thinking is off for a side call");
    assert(!("tools" in chat) || (chat.tools as unknown[]).length === 0, "no tools");
    const format = chat.format as {
      properties: { facts: { items: { properties: { subject: { enum: string[] } } } } };
    };
    const kinds = format.properties.facts.items.properties.subject.enum;
    assert(kinds.includes("ticket") && kinds.includes("entity"), kinds.join());
    assert(
      !kinds.includes("file") && !kinds.includes("answer"),
      "kinds left to the tools are not asked for",
    );
    const system = (chat.messages as { role: string; content: string }[])[0].content;
    assertMatch(system, /- ticket: /);
    assertMatch((chat.messages as { content: string }[])[1].content, /BLUE HERON/);
  } finally {
    await ollama.close();
  }
});

Deno.test("a malformed reply is refused with a sentence and records nothing", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const replies: [string, RegExp][] = [
    [
      "Sure! The release is BLUE HERON.",
      /^the distiller's reply was not JSON \(it began "Sure! The release/,
    ],
    [
      '{"facts": [{"subject": "entity", "name": "x"}]}',
      /did not match its schema \(facts\.0\.value: /,
    ],
    ['{"facts": "BLUE HERON"}', /did not match its schema \(facts: /],
    [
      '{"facts": [{"subject": "file", "name": "a.ts", "value": "edited"}]}',
      /named the kind "file", which it was not asked for/,
    ],
    ["", /reply was empty/],
  ];
  try {
    for (const [reply] of replies) ollama.reply({ text: reply });
    ollama.reply({ error: "model crashed" });
    const book = new FactBook({ kinds: resolveKinds() });
    for (const [reply, expected] of replies) {
      const result = await distil(DROPPED, { turn: 1 }, backendFor(ollama.url), book);
      assert(result.refused !== undefined, reply);
      assertMatch(result.refused, expected);
      assert(!result.refused.includes("\n"), "one sentence");
      assertEquals(result.recorded, []);
    }
    const failed = await distil(DROPPED, { turn: 1 }, backendFor(ollama.url), book);
    assertMatch(failed.refused!, /^the distiller could not run on ollama:granite4\.1:8b: /);
    assertEquals(book.all(), [], "nothing was recorded from any of them");
  } finally {
    await ollama.close();
  }
});

Deno.test("a reply in a code fence is read; a fact the book refuses is skipped with its sentence", () => {
  const kinds = resolveKinds();
  const parsed = parseDistillerReply('```json\n{"facts": []}\n```', kinds);
  assert(parsed.ok);
  const book = new FactBook({ kinds });
  return (async () => {
    const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
    try {
      ollama.reply({
        text: JSON.stringify({
          facts: [
            { subject: "entity", name: "host", value: "" },
            { subject: "task", name: "", value: "ship 0.16" },
          ],
        }),
      });
      const result = await distil("text", { turn: 2 }, backendFor(ollama.url), book);
      assertEquals(result.recorded.map((v) => v.subject), ["task"]);
      assertEquals(result.skipped.length, 1);
      assertMatch(result.skipped[0], /needs a value/);
    } finally {
      await ollama.close();
    }
  })();
});

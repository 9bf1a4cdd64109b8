/**
 * The book behind the context's seam: distilling dropped turns named as the
 * context names them ("turns 3–5") through a fake Ollama server, a malformed
 * reply audited and swallowed, the memory tool's notes kept or refused with
 * a sentence, and the lines composition reads.
 */
import { assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { OllamaBackend } from "../../../src/models/ollama.ts";
import { configSchema } from "../../../src/config/schema.ts";
import { FactBook } from "../../../src/context/facts/book.ts";
import { resolveKinds } from "../../../src/context/facts/kinds.ts";
import { bookSink, turnsOf } from "../../../src/context/facts/sink.ts";

Deno.test("sources as the context writes them", () => {
  assertEquals(turnsOf("turns 3–5"), { turn: 3, lastTurn: 5 });
  assertEquals(turnsOf("turn 4"), { turn: 4 });
  assertEquals(turnsOf("model, noted, turn 12"), { turn: 12 });
  assertEquals(turnsOf("somewhere"), {});
});

Deno.test("distil through the seam records the model's facts, and audits a refused reply without throwing", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  try {
    const backend = new OllamaBackend("granite4.1:8b", {
      host: ollama.url,
      config: configSchema.parse({}),
      freeMemory: () => 16 * 2 ** 30,
    });
    const events: [string, Record<string, unknown>][] = [];
    const book = new FactBook({ kinds: resolveKinds() });
    const sink = bookSink({
      book,
      backend,
      audit: { record: (kind, fields) => events.push([kind, fields as never]) as never },
    });
    ollama.reply({
      text: JSON.stringify({ facts: [{ subject: "decision", name: "storage", value: "SQLite" }] }),
    });
    await sink.distil("user: let's use SQLite\nassistant: agreed", "turns 3–5");
    assertEquals(sink.lines(), ["c1 decision storage = SQLite (model, distilled, turns 3–5)"]);
    ollama.reply({ text: "I think the decision was SQLite." });
    await sink.distil("more", "turn 6");
    assertEquals(events.map(([k]) => k), ["fact.distilled", "fact.distilled"]);
    assertEquals(events[0][1].recorded, 1);
    assertMatch(String(events[1][1].refused), /^the distiller's reply was not JSON/);
    assertEquals(sink.lines().length, 1, "nothing recorded from the refused reply");
  } finally {
    await ollama.close();
  }
});

Deno.test("the memory tool's notes: kept as the model's, refused under the caller's task, refused for an unknown kind", () => {
  const book = new FactBook({ kinds: resolveKinds() });
  book.record({
    subject: "task",
    value: "ship 0.16",
    source: { by: "caller", method: "stated", turn: 1 },
  });
  const sink = bookSink({ book });
  assertEquals(
    sink.note({
      subject: "entity",
      name: "release codename",
      value: "BLUE HERON",
      source: "model, noted, turn 4",
    }),
    "noted: c2 entity release codename = BLUE HERON (model, noted, turn 4)",
  );
  assertEquals(
    sink.note({ subject: "task", name: "", value: "write docs", source: "model, noted, turn 4" }),
    "error: task was set by the caller and stays: c1 task = ship 0.16 (caller, stated, turn 1)",
  );
  assertMatch(
    sink.note({ subject: "colour", name: "sky", value: "blue", source: "model, noted, turn 4" }),
    /^error: there is no fact kind "colour"/,
  );
  // Without a model attached, dropped turns are not distilled (and nothing throws).
  return sink.distil("text", "turn 1");
});

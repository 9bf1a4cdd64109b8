/**
 * An interrupt while condensing runs the fact distiller, through a live
 * `wisp chat --json` against a fake Ollama: the distiller's request is
 * cancelled (the server sees the client leave), the turn ends stopped, and
 * the conversation is left as it was before condensing began — nothing was
 * condensed, no turn dropped, no summary, no distilled fact — as the
 * transcript saved at /quit shows.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { within } from "../../support/wait.ts";
import { scratch } from "../respond/support.ts";
import { DISTILLER_INSTRUCTIONS } from "../../../src/context/facts/distiller.ts";
import { SUMMARY_PROMPT } from "../../../src/context/summary.ts";
import { type Line, startChat } from "./support.ts";

const WINDOW = 4096;

const systemOf = (body: Record<string, unknown>) =>
  String(((body.messages ?? []) as { content?: string }[])[0]?.content ?? "");

Deno.test("chat --json: an interrupt during the distiller's call cancels it; the turn ends stopped, the conversation unchanged", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b", contextLength: WINDOW }] });
  const s = await scratch({
    model: "ollama:granite4.1:8b",
    ollama: { host: ollama.url, contextLength: WINDOW },
    notifications: { enabled: false },
  });
  const padding = "The weather report goes on about clouds and wind. ".repeat(40);
  let distillerAsked: () => void = () => {};
  const asked = new Promise<void>((resolve) => distillerAsked = resolve);
  let distillerLeft: () => void = () => {};
  const left = new Promise<void>((resolve) => distillerLeft = resolve);
  let summaries = 0;
  ollama.reply(...Array.from({ length: 40 }, () => (body: Record<string, unknown>) => {
    const system = systemOf(body);
    if (system.startsWith(DISTILLER_INSTRUCTIONS.slice(0, 60))) {
      distillerAsked();
      return { hang: true as const, onClientLeft: distillerLeft };
    }
    if (system.startsWith(SUMMARY_PROMPT.slice(0, 60))) {
      summaries++;
      return { text: "The person talked about the weather." };
    }
    return { text: `Noted. ${padding}` };
  }));
  const chat = startChat(["--no-tools"], { home: s.home, cwd: s.project });
  try {
    await chat.next((l) => l.type === "status", "the first status line");
    let stoppedTurn: Line | undefined;
    for (let i = 1; i <= 12 && !stoppedTurn; i++) {
      const from = chat.lines.length;
      await chat.send(`Weather note ${i}. ${padding}`);
      const ended = chat.next(
        (l) => l.type === "turn" && l.phase === "end",
        `turn ${i}'s end`,
        from,
      );
      const which = await Promise.race([ended.then(() => "ended"), asked.then(() => "distilling")]);
      if (which === "ended") {
        assertEquals((await ended).outcome, "replied");
        continue;
      }
      // Condensing runs the distiller, whose server has answered nothing: stop the turn.
      await chat.send({ type: "interrupt" });
      await within(left, "the distiller's request being closed by wisp");
      stoppedTurn = await ended;
    }
    assert(stoppedTurn, "condensing ran the distiller within 12 turns");
    assertEquals(stoppedTurn.outcome, "stopped");
    assertEquals(stoppedTurn.condensed, undefined, "the stopped turn condensed nothing");
    assertEquals(summaries, 0, "the summariser was never asked: the stop came first");

    await chat.send("/quit");
    const over = await chat.close();
    assertEquals(over.code, 0, over.stderr);

    const events = s.events();
    assertEquals(events.filter((e) => e.kind === "context.condensed"), []);
    const distilled = events.filter((e) => e.kind === "fact.distilled");
    assertEquals(distilled.map((e) => e.refused), ["the distiller was stopped with the turn"]);
    assert(events.some((e) => e.kind === "turn.stopped"), "the turn was audited as stopped");

    const dir = join(s.home, "transcripts");
    const [file] = [...Deno.readDirSync(dir)].map((e) => e.name);
    const saved = JSON.parse(Deno.readTextFileSync(join(dir, file)));
    const store = saved.context.store;
    assertEquals(saved.context.summary, null, "no summary");
    assertEquals(store.droppedTurns, 0, "no turn dropped");
    assertEquals(store.dropped, []);
    const prompts = store.turns.flatMap((t: { entries: { kind: string; text: string }[] }) =>
      t.entries.filter((e) => e.kind === "prompt").map((e) => e.text.split(".")[0])
    );
    assertEquals(prompts[0], "Weather note 1", "the first turn is still in view");
    assertEquals(prompts.length, store.nextTurn - 1, "every turn is in view, the stopped one too");
    assertEquals(saved.facts.versions, [], "no fact was distilled");
  } finally {
    await chat.close();
    await s.remove();
    await ollama.close();
  }
});

/**
 * A long chat keeps only the latest of what it has seen (ADR 0635): the
 * engine in process with the scripted backend, 300 turns, each a read_file
 * call, a thinking stretch and a reply, with /new every 100. Counts, not heap
 * sizes: the outputs, thinking and history the engine holds stay within their
 * bounds, the latest are the ones kept, the turn figures are a tally, and the
 * audit's listeners do not gather.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { homePaths } from "../../../src/config/home.ts";
import { defaultConfig } from "../../../src/config/schema.ts";
import { ChatEngine } from "../../../src/faces/chat/engine.ts";
import { encodeOutLine, type OutLine } from "../../../src/faces/chat/protocol.ts";
import { KEPT_HISTORY, KEPT_OUTPUTS, KEPT_THOUGHTS } from "../../../src/faces/chat/kept.ts";
import { ScriptedBackend, textReply, toolCallEvent } from "../../../src/models/scripted.ts";

const TURNS = 300;
const NEW_EVERY = 100;

interface Rig {
  engine: ChatEngine;
  backend: ScriptedBackend;
  lines: OutLine[];
  send(text: string): Promise<void>;
  end(): Promise<void>;
}

/** An engine on a scratch home (HOME and WISP_HOME pointed there while it runs). */
async function rig(): Promise<Rig> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-chat-memory-" }));
  const saved = { HOME: Deno.env.get("HOME"), WISP_HOME: Deno.env.get("WISP_HOME") };
  Deno.env.set("HOME", dir);
  Deno.env.set("WISP_HOME", join(dir, "home"));
  await Deno.writeTextFile(join(dir, "notes.txt"), "a line of notes\n".repeat(50));
  const backend = new ScriptedBackend([], { capabilities: { thinking: true } });
  const lines: OutLine[] = [];
  const engine = new ChatEngine({
    config: defaultConfig(),
    paths: homePaths(join(dir, "home")),
    root: dir,
    yes: false,
    unsafe: false,
    face: "chat-json",
    approvals: "protocol",
    inputIsTerminal: false,
    noteWaiting: false,
    version: "test",
    // Encoded as chat --json does, so a line that cannot be written fails here.
    emit: (line) => {
      encodeOutLine(line);
      lines.push(line);
    },
    backend: () => Promise.resolve(backend),
    runnableModels: () => Promise.resolve([backend.name]),
    configView: () => ({}),
  });
  await engine.start();
  return {
    engine,
    backend,
    lines,
    async send(text) {
      engine.handle({ type: "message", text });
      await engine.idle();
      // The test double's own log of requests is not what is checked here.
      backend.requests.length = 0;
    },
    async end() {
      await engine.finish(0);
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) Deno.env.delete(name);
        else Deno.env.set(name, value);
      }
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** The call ids of the tool results seen so far, in order. */
function resultIds(lines: OutLine[]): string[] {
  return lines.flatMap((line) =>
    line.type === "event" && line.event.kind === "tool.result" ? [String(line.event.callId)] : []
  );
}

Deno.test("300 turns with /new every 100: outputs, thinking and history stay within their bounds, the latest kept", async () => {
  const r = await rig();
  try {
    const listeners = r.engine.session.audit.listenerCount;
    for (let i = 0; i < TURNS; i++) {
      if (i > 0 && i % NEW_EVERY === 0) await r.send("/new");
      r.backend.push(
        [toolCallEvent("read_file", { path: "notes.txt" })],
        [{ type: "thinking", text: `thinking about turn ${i}` }, ...textReply(`reply ${i}`)],
      );
      await r.send(`question ${i}`);
      assert(r.engine.outputs.length <= KEPT_OUTPUTS, `outputs after turn ${i}`);
      assert(r.engine.thoughts.length <= KEPT_THOUGHTS, `thoughts after turn ${i}`);
    }
    const seen = resultIds(r.lines);
    assertEquals(seen.length, TURNS, "every turn's read_file ran");
    // The latest KEPT_OUTPUTS outputs, in order: /show and /last still find the recent ones.
    assertEquals(r.engine.outputs.map((o) => o.id), seen.slice(-KEPT_OUTPUTS));
    assertEquals(r.engine.findOutput("")?.id, seen[TURNS - 1]);
    assertEquals(
      r.engine.findOutput(seen[TURNS - KEPT_OUTPUTS - 1]),
      undefined,
      "an older one let go",
    );
    // The thinking of the latest turns of this conversation.
    assertEquals(
      r.engine.thoughts.map((t) => t.text),
      Array.from(
        { length: KEPT_THOUGHTS },
        (_, k) => `thinking about turn ${TURNS - KEPT_THOUGHTS + k}`,
      ),
    );
    // /new drops it: it belonged to the last conversation.
    await r.send("/new");
    assertEquals(r.engine.thoughts.length, 0);
    assertEquals(r.engine.history, []);
    // Every turn is counted, though none is kept as a figure of its own.
    assertEquals(r.engine.turnTally.count, TURNS);
    assertEquals(r.engine.turnTally.failed, 0);
    const from = r.lines.length;
    await r.send("/stats");
    const said = r.lines.slice(from).flatMap((line) => line.type === "note" ? [line.text] : []);
    assertMatch(
      said[0],
      new RegExp(`^turns: ${TURNS} · mean \\d+\\.\\d s · slowest \\d+\\.\\d s$`),
    );
    assertEquals(r.engine.session.audit.listenerCount, listeners, "no listener gathered per turn");
  } finally {
    await r.end();
  }
});

Deno.test("one long conversation keeps the latest lines for /history, oldest dropped first", async () => {
  const r = await rig();
  try {
    const sent = KEPT_HISTORY + 50;
    // Lines that cost no model call: a slash command the chat does not know still goes in history.
    for (let i = 0; i < sent; i++) await r.send(`/nosuch ${i}`);
    assertEquals(r.engine.history.length, KEPT_HISTORY);
    assertEquals(r.engine.history[0], `/nosuch ${sent - KEPT_HISTORY}`);
    assertEquals(r.engine.history[KEPT_HISTORY - 1], `/nosuch ${sent - 1}`);
  } finally {
    await r.end();
  }
});

/**
 * `wisp respond` says on stderr when it condensed: a one-shot turn through a
 * fake Ollama with an 8,192-token window whose model runs eight commands of
 * about 5 KB each before replying. The earlier outputs of the turn become
 * references (no request passes the window), the reply is on stdout alone,
 * and the note names the model and its window.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { scratch } from "../faces/respond/support.ts";
import { commandOf, measuredTokens, WINDOW } from "./support.ts";

Deno.test("respond notes on stderr that it condensed the turn to fit the window", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b", contextLength: WINDOW }] });
  const s = await scratch({
    model: "ollama:granite4.1:8b",
    ollama: { host: ollama.url, contextLength: WINDOW },
    notifications: { enabled: false },
  });
  try {
    for (let n = 1; n <= 8; n++) {
      ollama.reply({
        toolCalls: [{ name: "run_command", arguments: { command: commandOf(n + 1) } }],
      });
    }
    ollama.reply({ text: "All eight ran." });
    const run = await s.wisp(["Run the eight commands."]);
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout, "All eight ran.\n");
    assertMatch(
      run.stderr,
      /^note: the conversation was condensed to fit ollama:granite4\.1:8b's 8,192-token window \(\d+ earlier outputs? shown as references\)$/m,
    );
    const sizes = ollama.chats().map(measuredTokens);
    assert(Math.max(...sizes) <= WINDOW, `every request fits (${sizes})`);
    const condensed = s.events().filter((e) => e.kind === "context.condensed");
    assert(condensed.length >= 1);
    assertEquals(condensed[0].droppedTurns, [], "a one-shot turn has no earlier turn to drop");
  } finally {
    await ollama.close();
    await s.remove();
  }
});

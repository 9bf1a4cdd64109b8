/**
 * The model's notify tool in `wisp respond`, run at a real pseudo-terminal
 * (util-linux `script`) that says it shows OSC 9: the notification is posted
 * through the terminal route, the per-minute limit holds across the calls of
 * one turn, and every call is audited as `notification`.
 */
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { wispCommand } from "../../support/wisp.ts";
import { ollamaConfig, scratch, toolMessages } from "./support.ts";

function shellQuote(arg: string): string {
  return "'" + arg.replaceAll("'", "'\\''") + "'";
}

Deno.test("a model's notify call posts through the terminal, bounded by the per-minute limit, and is audited", async () => {
  const ollama = startFakeOllama();
  const s = await scratch({
    ...ollamaConfig(ollama.url),
    notifications: { enabled: true, perMinute: 1 },
  });
  try {
    ollama.reply(
      {
        toolCalls: [
          { name: "notify", arguments: { title: "Build", message: "The tests pass" } },
          { name: "notify", arguments: { title: "Build", message: "Second one" } },
        ],
      },
      { text: "Told you." },
    );
    const line = [...wispCommand(), "tell me when it is done"].map(shellQuote).join(" ");
    const out = await new Deno.Command("script", {
      args: ["-qec", line, "/dev/null"],
      cwd: s.project,
      env: {
        WISP_HOME: s.home,
        NO_COLOR: "1",
        TERM: "xterm-256color",
        // A terminal that shows OSC 9 as a notification.
        TERM_PROGRAM: "WezTerm",
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: Deno.env.get("HOME") ?? "/root",
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const output = new TextDecoder().decode(out.stdout);
    assertEquals(out.code, 0, output);
    // Posted once, as the terminal's notification sequence.
    assertEquals(output.split("\x1b]9;").length - 1, 1, JSON.stringify(output));
    assert(output.includes("\x1b]9;Build: The tests pass\x07"), JSON.stringify(output));

    const results = toolMessages(ollama.chats()[1]).map((m) => m.content);
    assertEquals(results[0], "notification posted via terminal");
    assertMatch(
      results[1],
      /^error: notification not shown: the limit of 1 notifications a minute/,
    );

    const notes = s.events().filter((e) => e.kind === "notification");
    assertEquals(notes.length, 2);
    assertEquals(notes[0].source, "model");
    assertEquals(notes[0].route, "terminal");
    assertEquals(notes[0].posted, true);
    assertEquals(notes[0].message, "The tests pass");
    assertEquals(notes[1].posted, false);
    assertMatch(String(notes[1].reason), /limit of 1 notifications a minute/);
  } finally {
    await ollama.close();
    await s.remove();
  }
});

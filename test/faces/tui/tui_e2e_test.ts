/**
 * wisp-tui in a real terminal (tmux at 100×30 and 60×20) against the fake
 * Ollama server. Every assertion reads the screen (capture-pane), never
 * wisp-tui's state: the streamed reply above the band; the approval dialog
 * answered after its guard, with a key typed during the guard kept for the
 * input; command and outside mode; recall with the draft kept; keys held
 * while a command runs; the output panel; a resize; Ctrl-C twice quitting
 * with the transcript saved; no frame drawn while idle.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { scratch } from "../respond/support.ts";
import { tmuxAvailable } from "../../support/tmux.ts";
import { band, inputText, TuiScreen, withTui } from "./support.ts";

const ignore = !tmuxAvailable();

/** Where wisp-tui traces its frames in a scratch home. */
const frameLog = (s: { home: string }) => join(s.home, "frames.log");

Deno.test({
  name: "wisp-tui: a prompt's reply streams above the band, which stays pinned under it",
  ignore,
  fn: () =>
    withTui({ start: () => ({ width: 100, height: 30 }) }, async ({ tui, ollama }) => {
      ollama.reply({
        text: ["Hello ", "from the ", "**fake** model.\n\n", "- one\n- two\n"],
        usage: { input: 12, output: 5 },
      });
      await tui.until("the band", (screen) => band(screen).rule >= 0 && /granite/.test(screen));
      await tui.type("say hello");
      await tui.waitFor("› say hello");
      await tui.keys("Enter");
      await tui.waitFor("• two");
      // The turn over, the box is live and empty again.
      const screen = await tui.until("the turn's end", (sc) => inputText(sc) === "›");
      const b = band(screen);
      const rows = b.rows;
      const reply = rows.findIndex((r) => r.includes("Hello from the fake model."));
      assert(reply >= 0 && reply < b.rule, screen);
      // Markdown is rendered, not shown raw.
      assert(!screen.includes("**fake**"), screen);
      assert(rows.some((r) => r.includes("• one")), screen);
      // The sent line is in the scrollback above the reply; the box is empty again.
      const sent = rows.findIndex((r) => r.startsWith("› say hello"));
      assert(sent >= 0 && sent < reply, screen);
      assertStringIncludes(b.status, "granite4.1:8b");
      await tui.until("the turn's figures", (sc) => band(sc).status.includes("↓12 ↑5"));
    }),
});

Deno.test({
  name:
    "wisp-tui: an approval is answered only after its guard; a key typed during the guard goes to the input",
  ignore,
  fn: () =>
    // A long guard, so "typed during the guard" does not depend on how fast this machine is.
    withTui(
      { start: () => ({ env: { WISP_TUI_GUARD_MS: "3000" } }) },
      async ({ tui, ollama, s }) => {
        ollama.reply(
          { toolCalls: [{ name: "run_command", arguments: { command: "touch first" } }] },
          { text: "Made the first file." },
        );
        await tui.type("make the first file");
        await tui.keys("Enter");
        const dialog = await tui.waitFor("remembered as: touch *");
        assertStringIncludes(dialog, "touch first");
        assertStringIncludes(dialog, "╭");
        // Typed while the guard runs: neither answers the dialog, both are kept for the box.
        await tui.type("ys");
        await new Promise((r) => setTimeout(r, 500));
        let screen = await tui.visible();
        assertStringIncludes(screen, "remembered as: touch *");
        assert(!screen.includes("approved"), screen);
        // Once the keyboard has been quiet for the guard, a key answers.
        await tui.waitFor("[y]once", { ms: 60_000 });
        await tui.until("the guard's end", (sc) => !sc.includes("(keys in a moment)"));
        await tui.keys("n");
        screen = await tui.waitFor("⚠ refused: touch first", { history: true });
        await tui.until("the turn's end", (sc) => inputText(sc) === "› ys");
        assert(!(await Deno.stat(join(s.project, "first")).catch(() => undefined)), "not run");
        assert(
          s.events().some((e) => e.kind === "approval.decided" && e.decision === "refused"),
          "denied in the audit",
        );
      },
    ),
});

Deno.test({
  name:
    "wisp-tui at 60×20: ! and !! turn the box to command and outside mode; Backspace at the start steps back",
  ignore,
  fn: () =>
    withTui({ start: () => ({ width: 60, height: 20 }) }, async ({ tui, ollama }) => {
      await tui.type("!");
      let screen = await tui.waitFor("Run a command yourself, in the sandbox");
      assertEquals(inputText(screen), "!");
      await tui.type("ls");
      await tui.until("! ls", (sc) => inputText(sc) === "! ls");
      // Backspace at the start of the line: back to the prompt, the text kept.
      await tui.keys("Home", "BSpace");
      screen = await tui.until("› ls", (sc) => inputText(sc) === "› ls");
      assert(!screen.includes("Run a command yourself"), screen);
      // ! ! at the start: outside mode.
      await tui.keys("End", "C-u");
      await tui.until("an empty box", (sc) => inputText(sc) === "›");
      await tui.type("!!");
      screen = await tui.waitFor("OUTSIDE the sandbox");
      assertEquals(inputText(screen), "!!");
      await tui.keys("BSpace");
      screen = await tui.until("command mode", (sc) => inputText(sc) === "!");
      assert(!screen.includes("OUTSIDE"), screen);
      await tui.keys("BSpace");
      await tui.until("the prompt", (sc) => inputText(sc) === "›");
      // A command typed in command mode runs in the sandbox, with no model turn.
      await tui.type("!echo from-the-box");
      await tui.keys("Enter");
      screen = await tui.waitFor("↳ exit 0", { history: true });
      assertStringIncludes(screen, "! echo from-the-box");
      assertStringIncludes(screen, "from-the-box");
      assertEquals(ollama.chats().length, 0);
    }),
});

Deno.test({
  name: "wisp-tui: Up recalls the last line keeping the draft; Down brings the draft back",
  ignore,
  fn: () =>
    withTui({}, async ({ tui, ollama }) => {
      ollama.reply({ text: "First answer." });
      await tui.type("the first message");
      await tui.keys("Enter");
      await tui.waitFor("First answer.");
      await tui.until("the prompt", (sc) =>
        inputText(sc) === "›" && !/\.\.\.|…/.test(band(sc).status));
      await tui.type("a draft");
      await tui.until("the draft", (sc) =>
        inputText(sc) === "› a draft");
      await tui.keys("Up");
      await tui.until("the recalled line", (sc) => inputText(sc) === "› the first message");
      await tui.keys("Down");
      await tui.until("the draft back", (sc) => inputText(sc) === "› a draft");
    }),
});

Deno.test({
  name:
    "wisp-tui: keys typed while a command runs are held, counted, and applied when it ends; Ctrl-O opens its output, Esc closes it",
  ignore,
  fn: () =>
    withTui({}, async ({ tui, s }) => {
      // The command ends when the test says so, not after a guessed time.
      await tui.type("!while [ ! -e go ]; do sleep 0.1; done; seq 1 200");
      await tui.keys("Enter");
      await tui.waitFor("Ctrl-C stops it");
      await tui.type("abc");
      await tui.waitFor("3 keys held");
      await Deno.writeTextFile(join(s.project, "go"), "");
      let screen = await tui.until("the held keys applied", (sc) => inputText(sc) === "› abc");
      screen = await tui.waitFor("more lines", { history: true });
      // Ctrl-O: the whole output in a panel over the band.
      await tui.keys("C-u", "C-o");
      screen = await tui.waitFor("Esc closes");
      assertStringIncludes(screen, "╭");
      const rows = screen.split("\n");
      assert(rows.some((r) => /│\s*1\s*│?/.test(r)), screen);
      await tui.keys("PageDown");
      screen = await tui.until(
        "a page down",
        (sc) => sc.split("\n").some((r) => /│\s*17\s/.test(r)),
      );
      await tui.keys("Escape");
      screen = await tui.until("the panel closed", (sc) => !sc.includes("Esc closes"));
      assertEquals(inputText(screen), "›");
    }),
});

Deno.test({
  name:
    "wisp-tui: a resize keeps one band at the bottom; Ctrl-C clears the line, then quits with the transcript saved",
  ignore,
  fn: () =>
    withTui({ start: () => ({ width: 100, height: 30 }) }, async ({ tui, ollama, s }) => {
      ollama.reply({ text: "Resized reply." });
      await tui.type("hello there");
      await tui.keys("Enter");
      await tui.waitFor("Resized reply.");
      await tui.resize(60, 20);
      let screen = await tui.until("the band at 60 columns", (sc) => {
        const b = band(sc);
        return b.rule >= 0 && b.rows[b.rule].length === 60;
      });
      // One band: one rule, one input row, the status last; the conversation above it once.
      assertEquals(screen.split("\n").filter((r) => /^─{10,}$/.test(r)).length, 1, screen);
      assertEquals(
        screen.split("\n").filter((r) => r.includes("Resized reply.")).length,
        1,
        screen,
      );
      assertEquals(inputText(screen), "›");
      await tui.resize(100, 30);
      screen = await tui.until("the band at 100 columns", (sc) => {
        const b = band(sc);
        return b.rule >= 0 && b.rows[b.rule].length === 100;
      });
      assertEquals(screen.split("\n").filter((r) => /^─{10,}$/.test(r)).length, 1, screen);

      await tui.type("not sent");
      await tui.until("the typed line", (sc) => inputText(sc) === "› not sent");
      await tui.keys("C-c");
      await tui.until("the line cleared", (sc) => inputText(sc) === "›");
      await tui.keys("C-c");
      screen = await tui.waitFor("EXIT=", { history: true });
      assertStringIncludes(screen, "EXIT=0");
      assertStringIncludes(screen, "transcript saved:");
      const saved = [...Deno.readDirSync(join(s.home, "transcripts"))];
      assertEquals(saved.length, 1);
    }),
});

Deno.test({
  name: "wisp-tui draws no frame while idle, and each frame is one synchronized write",
  ignore,
  fn: () =>
    withTui({ start: (s) => ({ env: { WISP_TUI_TRACE: frameLog(s) } }) }, async ({ tui, s }) => {
      const trace = frameLog(s);
      const frames = () =>
        Deno.readTextFile(trace).then((t) => t.split("\n").filter(Boolean).length)
          .catch(() => 0);
      // The start is over once the status row has the model: the banner above names it earlier,
      // and the status line that follows it is a frame of its own.
      await tui.until("the status row", (screen) => /granite/.test(band(screen).status));
      await tui.type("x");
      await tui.until("the key drawn", (sc) => inputText(sc) === "› x");
      const before = await frames();
      assert(before > 0, "frames are traced");
      // Idle: nothing changes, so nothing is drawn.
      await new Promise((r) => setTimeout(r, 2500));
      assertEquals(await frames(), before);
      // A key is a frame.
      await tui.type("y");
      await tui.until("the next key drawn", (sc) => inputText(sc) === "› xy");
      assert((await frames()) > before);
    }),
});

Deno.test({
  name: "wisp-tui: a chat that cannot start gives the terminal back and says why in one line",
  ignore,
  fn: async () => {
    // Nothing listens on this port: the model is unavailable.
    const s = await scratch({
      model: "ollama:granite4.1:8b",
      ollama: { host: "http://127.0.0.1:1" },
    });
    const tui = new TuiScreen();
    try {
      await tui.start(s.home, s.project, { width: 100, height: 20 });
      const screen = await tui.waitFor("EXIT=");
      assertStringIncludes(screen, "EXIT=1");
      assertStringIncludes(screen, "ollama:granite4.1:8b is unavailable");
      // No band is left on the screen, and no stack trace.
      assertEquals(band(screen).rule, -1, screen);
      assert(!/\bat \S+:\d+:\d+/.test(screen), screen);
    } finally {
      await tui.close();
      await s.remove();
    }
  },
});

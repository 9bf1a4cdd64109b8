/**
 * The plain `wisp chat` in a real terminal (tmux send-keys / capture-pane)
 * against the fake Ollama server: a reply streams; an approval is answered
 * with the single key `s` and a second command of the same shape is not
 * asked again; `n` refuses; `!ls` runs; `!!` is refused when
 * sandbox.allowOutsideSandbox is false; Ctrl-C stops a `sleep 60` the model
 * started and leaves no process.
 */
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { ollamaConfig, scratch } from "../respond/support.ts";
import { Terminal, tmuxAvailable } from "../../support/tmux.ts";

const ignore = !tmuxAvailable();

/** The lines of the screen after the last line that includes `marker`. */
function after(screen: string, marker: string): string {
  const at = screen.lastIndexOf(marker);
  return at < 0 ? "" : screen.slice(at);
}

/** How many times `text` is on the screen; the prompt, `> `, counts as a line starting with `>` (capture-pane drops trailing spaces). */
function occurrences(screen: string, text: string): number {
  if (text === "> ") return screen.split("\n").filter((l) => l.startsWith(">")).length;
  return screen.split(text).length - 1;
}

/** Wait until `count` occurrences of `text` are on the screen. */
async function waitForCount(
  terminal: Terminal,
  session: string,
  text: string,
  count: number,
  ms = 60_000,
): Promise<string> {
  const until = Date.now() + ms;
  let screen = "";
  while (Date.now() < until) {
    screen = await terminal.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", session);
    if (occurrences(screen, text) >= count) return screen;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `timed out waiting for ${count}× ${JSON.stringify(text)}; the screen:\n${screen}`,
  );
}

Deno.test({
  name: "plain chat in a terminal: a reply streams, s approves for the session, n refuses",
  ignore,
  fn: async () => {
    const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
    ollama.reply(
      { text: ["Hello ", "from the ", "fake model."], usage: { input: 12, output: 5 } },
      { toolCalls: [{ name: "run_command", arguments: { command: "touch first" } }] },
      { text: "Made the first file." },
      { toolCalls: [{ name: "run_command", arguments: { command: "touch second" } }] },
      { text: "Made the second file." },
      { toolCalls: [{ name: "run_command", arguments: { command: "rm first" } }] },
      { text: "It was refused." },
    );
    const s = await scratch(ollamaConfig(ollama.url));
    const terminal = new Terminal();
    try {
      await terminal.wisp("chat", s.home, ["chat", "--plain"], undefined, s.project);
      await waitForCount(terminal, "chat", "> ", 1);
      await terminal.keys("chat", "say hello", "Enter");
      let screen = await waitForCount(terminal, "chat", "> ", 2);
      assertStringIncludes(screen, "Hello from the fake model.");
      assertStringIncludes(screen, "↓12 ↑5");

      await terminal.keys("chat", "make the first file", "Enter");
      await terminal.waitFor("chat", "[y]once [s]ession [p]roject 30d [a]lways 30d [n]o");
      screen = await terminal.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "chat");
      assertStringIncludes(screen, "⚠ moderate: touch first");
      assertStringIncludes(screen, "remembered as: touch *");
      await terminal.keys("chat", "s");
      screen = await waitForCount(terminal, "chat", "> ", 3);
      assertStringIncludes(screen, "⚙ run_command touch first");
      assertStringIncludes(screen, "· approved (session)");
      assertStringIncludes(screen, "Made the first file.");
      assert(Deno.statSync(`${s.project}/first`).isFile);

      // The same shape again: not asked, allowed by the session's approval.
      await terminal.keys("chat", "make the second file", "Enter");
      screen = await waitForCount(terminal, "chat", "> ", 4);
      const second = after(screen, "make the second file");
      assert(!second.includes("[y]once"), second);
      assertStringIncludes(second, "· allowed by your approval for this session");
      assert(Deno.statSync(`${s.project}/second`).isFile);

      // Another shape: asked, and n refuses.
      await terminal.keys("chat", "remove the first file", "Enter");
      await waitForCount(terminal, "chat", "[n]o", 2);
      await terminal.keys("chat", "n");
      screen = await waitForCount(terminal, "chat", "> ", 5);
      assertStringIncludes(after(screen, "remove the first file"), "⚠ refused: rm first");
      assert(Deno.statSync(`${s.project}/first`).isFile, "a refused rm ran");

      await terminal.keys("chat", "/quit", "Enter");
      screen = await terminal.waitFor("chat", "EXIT=");
      assertStringIncludes(screen, "EXIT=0");
    } finally {
      await terminal.close();
      await s.remove();
      await ollama.close();
    }
  },
});

Deno.test({
  name: "plain chat in a terminal: !ls runs, !! is refused when allowOutsideSandbox is false",
  ignore,
  fn: async () => {
    const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
    const s = await scratch({
      ...ollamaConfig(ollama.url),
      commandPolicy: { sandbox: { allowOutsideSandbox: false } },
    });
    const terminal = new Terminal();
    try {
      await Deno.writeTextFile(`${s.project}/listed-by-ls.txt`, "x");
      await terminal.wisp("chat", s.home, ["chat", "--plain"], undefined, s.project);
      await waitForCount(terminal, "chat", "> ", 1);
      await terminal.keys("chat", "!ls", "Enter");
      let screen = await waitForCount(terminal, "chat", "> ", 2);
      assertStringIncludes(screen, "↳ exit 0");
      assertStringIncludes(screen, "listed-by-ls.txt");
      await terminal.keys("chat", "!!touch outside", "Enter");
      screen = await waitForCount(terminal, "chat", "> ", 3);
      assertStringIncludes(after(screen, "!!touch outside"), "blocked by policy");
      let exists = true;
      try {
        Deno.statSync(`${s.project}/outside`);
      } catch {
        exists = false;
      }
      assert(!exists, "!! ran though it is turned off");
      assertEquals(ollama.chats().length, 0, "no model turn for a typed command");
      await terminal.keys("chat", "/quit", "Enter");
      await terminal.waitFor("chat", "EXIT=0");
    } finally {
      await terminal.close();
      await s.remove();
      await ollama.close();
    }
  },
});

/** Whether a process whose command line includes `needle` runs (from /proc). */
function running(needle: string): boolean {
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const argv = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0").join(" ");
      if (argv.includes(needle)) return true;
    } catch { /* gone */ }
  }
  return false;
}

Deno.test({
  name:
    "plain chat in a terminal: Ctrl-C stops a sleep the model started and leaves no process; a second quits with 130",
  ignore,
  fn: async () => {
    // A duration no other test uses, so the process can be found by its command line.
    const seconds = 60 + Math.floor(Math.random() * 900);
    const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
    ollama.reply(
      { toolCalls: [{ name: "run_command", arguments: { command: `sleep ${seconds}` } }] },
      { text: "It was stopped." },
    );
    const s = await scratch(ollamaConfig(ollama.url));
    const terminal = new Terminal();
    try {
      await terminal.wisp("chat", s.home, ["chat", "--plain"], undefined, s.project);
      await waitForCount(terminal, "chat", "> ", 1);
      await terminal.keys("chat", "wait a minute", "Enter");
      await terminal.waitFor("chat", `⚙ run_command sleep ${seconds}`);
      const until = Date.now() + 60_000;
      while (!running(`sleep ${seconds}`) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert(running(`sleep ${seconds}`), "the sleep started");
      await terminal.keys("chat", "C-c");
      let screen = await waitForCount(terminal, "chat", "> ", 2);
      assertStringIncludes(screen, "stopping the turn");
      const gone = Date.now() + 30_000;
      while (running(`sleep ${seconds}`) && Date.now() < gone) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert(!running(`sleep ${seconds}`), "the sleep outlived the stopped turn");
      // At the prompt, Ctrl-C quits with 130.
      await terminal.keys("chat", "C-c");
      screen = await terminal.waitFor("chat", "EXIT=");
      assertStringIncludes(screen, "EXIT=130");
    } finally {
      await terminal.close();
      await s.remove();
      await ollama.close();
    }
  },
});

Deno.test({
  name:
    "plain chat in a terminal: the ask tool's question is shown numbered, a number answers, Enter declines",
  ignore,
  fn: async () => {
    const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
    const question = {
      question: "Which config did you mean?",
      options: ["~/.wisp", "./wisp.json"],
    };
    ollama.reply(
      { toolCalls: [{ name: "ask", arguments: question }] },
      { text: "You chose the project's file." },
      { toolCalls: [{ name: "ask", arguments: question }] },
      { text: "You did not say." },
    );
    const s = await scratch({ ...ollamaConfig(ollama.url), tools: { ask: true } });
    const terminal = new Terminal();
    try {
      await terminal.wisp("chat", s.home, ["chat", "--plain"], undefined, s.project);
      await waitForCount(terminal, "chat", "> ", 1);
      await terminal.keys("chat", "replace the config", "Enter");
      let screen = await terminal.waitFor("chat", "press Enter to decline");
      assertStringIncludes(screen, "? the model asks");
      assertStringIncludes(screen, "Which config did you mean?");
      assertStringIncludes(screen, "1  ~/.wisp");
      assertStringIncludes(screen, "2  ./wisp.json");
      assertStringIncludes(screen, "3  none of these");
      await terminal.keys("chat", "2", "Enter");
      screen = await waitForCount(terminal, "chat", "> ", 2);
      assertStringIncludes(screen, "You chose the project's file.");
      const toolMessages = (body: Record<string, unknown>) =>
        (body.messages as { role: string; content: string }[]).filter((m) => m.role === "tool");
      assertEquals(toolMessages(ollama.chats()[1]).at(-1)?.content, "chose: ./wisp.json");

      await terminal.keys("chat", "again", "Enter");
      await waitForCount(terminal, "chat", "press Enter to decline", 2);
      await terminal.keys("chat", "Enter");
      await waitForCount(terminal, "chat", "> ", 3);
      assertStringIncludes(
        toolMessages(ollama.chats()[3]).at(-1)?.content ?? "",
        "the person declined to answer",
      );
      await terminal.keys("chat", "/quit", "Enter");
      await terminal.waitFor("chat", "EXIT=0");
    } finally {
      await terminal.close();
      await s.remove();
      await ollama.close();
    }
  },
});

Deno.test({
  name:
    "plain chat in a terminal: a second Ctrl-C while the turn stops kills what it runs at once and quits with 130",
  ignore,
  fn: async () => {
    const seconds = 1000 + Math.floor(Math.random() * 900);
    const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
    // A command that ignores SIGTERM, so the first Ctrl-C alone would leave it for two seconds.
    const command = `trap '' TERM; sleep ${seconds}`;
    ollama.reply(
      { toolCalls: [{ name: "run_command", arguments: { command } }] },
      { text: "never read" },
    );
    const s = await scratch(ollamaConfig(ollama.url));
    const terminal = new Terminal();
    try {
      await terminal.wisp("chat", s.home, ["chat", "--plain", "--yes"], undefined, s.project);
      await waitForCount(terminal, "chat", "> ", 1);
      await terminal.keys("chat", "wait", "Enter");
      const until = Date.now() + 60_000;
      while (!running(`sleep ${seconds}`) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert(running(`sleep ${seconds}`), "the sleep started");
      await terminal.keys("chat", "C-c");
      await terminal.waitFor("chat", "stopping the turn");
      await terminal.keys("chat", "C-c");
      const screen = await terminal.waitFor("chat", "EXIT=");
      assertStringIncludes(screen, "EXIT=130");
      const gone = Date.now() + 30_000;
      while (running(`sleep ${seconds}`) && Date.now() < gone) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert(!running(`sleep ${seconds}`), "the sleep outlived the chat");
    } finally {
      await terminal.close();
      await s.remove();
      await ollama.close();
    }
  },
});

Deno.test({
  name:
    "plain chat in a terminal: /quit saves a transcript, and --resume carries the conversation on",
  ignore,
  fn: async () => {
    const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
    ollama.reply({ text: "Noted: the codename is BLUE HERON." }, { text: "It is BLUE HERON." });
    const s = await scratch(ollamaConfig(ollama.url));
    const terminal = new Terminal();
    try {
      await terminal.wisp("first", s.home, ["chat", "--plain"], undefined, s.project);
      await waitForCount(terminal, "first", "> ", 1);
      await terminal.keys("first", "remember the codename BLUE HERON", "Enter");
      await waitForCount(terminal, "first", "> ", 2);
      await terminal.keys("first", "/quit", "Enter");
      let screen = await terminal.waitFor("first", "EXIT=");
      assertStringIncludes(screen, "EXIT=0");
      const saved = /transcript saved: (\S+)/.exec(screen);
      assert(saved, screen);

      await terminal.wisp("second", s.home, ["chat", "--plain", "--resume"], undefined, s.project);
      await waitForCount(terminal, "second", "> ", 1);
      await terminal.keys("second", "what is the codename?", "Enter");
      screen = await waitForCount(terminal, "second", "> ", 2);
      assertStringIncludes(screen, "It is BLUE HERON.");
      // The resumed conversation's request carries the first chat's turn, then the new prompt.
      const contents = (ollama.chats()[1].messages as { content: string }[]).map((m) => m.content);
      assert(
        contents.some((c) => c.includes("remember the codename BLUE HERON")),
        contents.join("\n"),
      );
      assert(
        contents.some((c) => c.includes("Noted: the codename is BLUE HERON.")),
        contents.join("\n"),
      );
      assertStringIncludes(contents[contents.length - 1], "what is the codename?");
    } finally {
      await terminal.close();
      await s.remove();
      await ollama.close();
    }
  },
});

Deno.test({
  name:
    "plain chat in a terminal: a model pull is asked as a model action, once or no, and the note of its end appears",
  ignore,
  fn: async () => {
    const ollama = startFakeOllama({
      models: [{ name: "granite4.1:8b" }],
      pulls: {
        "qwen3:4b": {
          layers: [{ digest: "sha256:" + "c".repeat(64), total: 3_000_000 }],
          model: { name: "qwen3:4b" },
        },
      },
    });
    ollama.reply(
      { toolCalls: [{ name: "models", arguments: { action: "pull", name: "ollama:qwen3:4b" } }] },
      { text: "The pull runs." },
    );
    const s = await scratch(ollamaConfig(ollama.url));
    const terminal = new Terminal();
    try {
      await terminal.wisp(
        "chat",
        s.home,
        ["chat", "--plain", "--tool", "models"],
        undefined,
        s.project,
      );
      await waitForCount(terminal, "chat", "> ", 1);
      await terminal.keys("chat", "pull qwen3:4b", "Enter");
      let screen = await terminal.waitFor("chat", "[y]once [n]o");
      const dialog = after(screen, "pull qwen3:4b");
      assertStringIncludes(
        dialog,
        "⚠ approve a model action (moderate): pull model ollama:qwen3:4b (downloads it through the Ollama server at",
      );
      assertStringIncludes(dialog, "never remembered: asked every time");
      assert(!dialog.includes("[s]ession"), dialog);
      await terminal.keys("chat", "y");
      screen = await terminal.waitFor(
        "chat",
        "[wisp: the pull of ollama:qwen3:4b you asked for",
      );
      const end = after(screen, "[wisp: the pull of ollama:qwen3:4b you asked for");
      assertStringIncludes(end, "finished: 3 MB in Ollama; it is ollama:qwen3:4b.");
      assertStringIncludes(
        after(screen, "pull qwen3:4b"),
        "⚠ approved once: pull model ollama:qwen3:4b",
      );
      await terminal.keys("chat", "/quit", "Enter");
      await terminal.waitFor("chat", "EXIT=0");
    } finally {
      await terminal.close();
      await s.remove();
      await ollama.close();
    }
  },
});

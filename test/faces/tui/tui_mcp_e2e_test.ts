/**
 * A command waiting for approval in a `wisp mcp` server started by the test
 * reaches wisp-tui in a real terminal (tmux). While the input box has text
 * it does not take the box over: a note says it waits and the status bar
 * counts it. Once the box is emptied its dialog opens, marked as from wisp
 * mcp; answered there, the server runs the command. Read from the screen.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import {
  connect,
  mcpScratch,
  ollamaConfig,
  pendingIds,
  structured,
  waitFor,
} from "../mcp/support.ts";
import { tmuxAvailable } from "../../support/tmux.ts";
import { band, inputText, TuiScreen } from "./support.ts";

Deno.test({
  name:
    "wisp-tui: an approval from wisp mcp waits while text is typed, and opens once the box is emptied",
  ignore: !tmuxAvailable(),
  fn: async () => {
    const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
    const s = await mcpScratch(ollamaConfig(ollama.url, { approval: { timeoutSeconds: 300 } }));
    const c = await connect(s);
    const tui = new TuiScreen();
    try {
      await tui.start(s.home, s.project, { env: { WISP_TUI_GUARD_MS: "500" } });
      await tui.until("the band", (screen) => band(screen).rule >= 0);
      await tui.type("half a thought");
      await tui.until("the typed text", (sc) => inputText(sc) === "› half a thought");

      ollama.reply(
        { toolCalls: [{ name: "run_command", arguments: { command: "touch from-mcp.txt" } }] },
        { text: "Done." },
      );
      // Settled at once either way, so a failure shows as this test's, with the screen.
      const call = c.client.callTool(
        {
          name: "respond",
          arguments: { prompt: "touch it", thread_id: "work", tools: ["run_command"] },
        },
        undefined,
        { timeout: 300_000 },
      ).then((result) => ({ result }), (error) => ({ error }));
      const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
      assert(id);

      let screen = await tui.waitFor("⚠ waiting in wisp mcp: touch from-mcp.txt", {
        history: true,
      });
      screen = await tui.until("the count", (sc) => band(sc).status.includes("approvals: 1"));
      // The line being typed is untouched.
      assertEquals(inputText(screen), "› half a thought");
      assert(!screen.includes("╭"), screen);

      // Emptied: the dialog opens, marked as from wisp mcp.
      await tui.keys("C-u");
      screen = await tui.waitFor("waiting in wisp mcp for");
      assertStringIncludes(screen, "thread work");
      assertStringIncludes(screen, "· wisp mcp");
      await tui.until("the guard's end", (sc) => !sc.includes("(keys in a moment)"));
      await tui.keys("y");
      const answered = await tui.waitFor("approved (once): touch from-mcp.txt", { history: true });
      assertStringIncludes(answered, "for thread work");

      const settled = await call;
      if ("error" in settled) throw settled.error;
      const result = structured(settled.result);
      assertEquals((result.calls as Record<string, unknown>[])[0].outcome, "ok");
      assert(Deno.statSync(join(s.project, "from-mcp.txt")).isFile);
      assert(
        s.events().some((e) => e.kind === "approval.answered" && e.source === "terminal"),
        "the server took the answer from the terminal's chat",
      );
      screen = await tui.until("the count gone", (sc) => !band(sc).status.includes("approvals:"));
    } finally {
      await tui.close();
      await c.close();
      await ollama.close();
      await s.remove();
    }
  },
});

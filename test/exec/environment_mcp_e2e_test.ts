/**
 * The chain the issue names, end to end: a real `wisp mcp` started by its
 * client with a token in its environment, the SDK's own client, and a model
 * (the fake Ollama server) that runs `env`, `cat /proc/self/environ`,
 * `printenv` and reads of wisp's own /proc files through respond — rated safe,
 * so they run without a question. Neither the tool results the model reads
 * nor what respond hands the calling agent hold the token. triage's command
 * path is tried too.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import {
  connect,
  mcpScratch,
  ollamaConfig,
  pendingIds,
  structured,
  textOf,
  waitFor,
} from "../faces/mcp/support.ts";
// A pane of tmux's own server: a terminal that does not descend from the MCP client (the test).
import { wispInTmux as wispAtTerminal } from "../faces/mcp/tmux.ts";

const TOKEN = "ghp_" + crypto.randomUUID().replaceAll("-", "").slice(0, 32) + "Wisp";

/** Rated safe: they run without a question. */
const SAFE_LINES = [
  "env",
  "cat /proc/self/environ",
  "cat /proc/1/environ /proc/2/environ",
  "for f in /proc/[0-9]*/environ; do cat $f; echo; done",
];
/** Rated dangerous (it names a secret): the person approves it at a terminal, and still gets nothing. */
const PRINTENV = "printenv GITHUB_TOKEN ANTHROPIC_API_KEY WISP_E2E_SESSION_TOKEN";

Deno.test("a token in wisp mcp's environment never reaches the model or the calling agent", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, {
    env: { GITHUB_TOKEN: TOKEN, ANTHROPIC_API_KEY: TOKEN, WISP_E2E_SESSION_TOKEN: TOKEN },
  });
  try {
    for (const [i, line] of [...SAFE_LINES, PRINTENV].entries()) {
      ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: line } }] });
      ollama.reply({ text: "Done." });
      const call = c.client.callTool({
        name: "respond",
        arguments: { prompt: `Run ${line}`, thread_id: `t${i}`, tools: ["run_command"] },
      });
      if (line === PRINTENV) {
        const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
        const answered = await wispAtTerminal(s.home, ["approvals", "approve", id]);
        assertEquals(answered.code, 0, answered.output);
      }
      const result = await call;
      const calls = structured(result).calls as Record<string, unknown>[];
      assertEquals(calls.length, 1, JSON.stringify(structured(result)));
      const output = String(calls[0].output);
      assert(!output.includes("command not approved"), output);
      if (line === PRINTENV) assertStringIncludes(output, "exit status: 1", output);
      assert(!JSON.stringify(result).includes(TOKEN), `respond handed back the token for ${line}`);
    }
    // The model read every result: none held the token either.
    const sent = JSON.stringify(ollama.chats());
    assertStringIncludes(sent, "HOME=", "the model did read env's output");
    assert(!sent.includes(TOKEN), "a tool result sent to the model held the token");

    const triage = await c.client.callTool({ name: "triage", arguments: { command: "env" } });
    assert(!JSON.stringify(triage).includes(TOKEN), textOf(triage));
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

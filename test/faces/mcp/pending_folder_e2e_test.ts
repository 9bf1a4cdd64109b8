/**
 * `wisp approvals approve` writes nothing into the pending folder (the
 * answer goes over the request's socket), so a folder the person cannot
 * write still answers; one they cannot read gets a sentence naming the path
 * and the fix, never a stack trace.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { connect, mcpScratch, ollamaConfig, pendingIds, structured, waitFor } from "./support.ts";
import { inTmux, shellQuote, wispInTmux } from "./tmux.ts";
import { wispCommand } from "../../support/wisp.ts";

Deno.test("an unwritable pending folder still answers; an unreadable one is a sentence naming it", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, { approval: { timeoutSeconds: 120 } }));
  const c = await connect(s);
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    ollama.reply({ text: "Done." });
    const call = c.client.callTool({
      name: "respond",
      arguments: { prompt: "touch it", thread_id: "work", tools: ["run_command"] },
    });
    const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
    if (Deno.uid() !== 0) {
      // An ordinary user: a folder they cannot read.
      Deno.chmodSync(s.pending, 0o000);
      const line = [...wispCommand(), "approvals", "approve", id].map(shellQuote).join(" ");
      const out = await inTmux(line, { WISP_HOME: s.home });
      Deno.chmodSync(s.pending, 0o700);
      assertEquals(out.code, 1, out.output);
      assertMatch(
        out.output,
        /^error: .*pending.* cannot be read \(permission denied\); .*chmod 700 /m,
      );
      assert(!/\n\s+at /.test(out.output), "no stack trace");
    }
    Deno.chmodSync(s.pending, 0o500);
    const answered = await wispInTmux(s.home, ["approvals", "approve", id]);
    Deno.chmodSync(s.pending, 0o700);
    assertEquals(answered.code, 0, answered.output);
    assertMatch(answered.output, /approved \(once\): touch made.txt/);
    assert(!/\n\s+at /.test(answered.output), "no stack trace");
    const result = await call;
    assertEquals(
      (structured(result).calls as Record<string, unknown>[])[0].outcome,
      "ok",
      // What the command said, and wisp's own log, when it did not succeed.
      `${JSON.stringify(result).slice(0, 4000)}
${c.stderr().slice(-4000)}`,
    );
    assert(Deno.statSync(join(s.project, "made.txt")).isFile);
  } finally {
    try {
      Deno.chmodSync(s.pending, 0o700);
    } catch { /* removed */ }
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

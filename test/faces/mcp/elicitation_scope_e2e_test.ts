/**
 * An approval from the client's dialog (which the calling agent may answer
 * itself) lasts at most the MCP server's life: the real SDK client answers
 * "always", the command runs, the same command later in the same server is
 * not asked again, nothing is stored for the person's own sessions, and the
 * audit names the source.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { runWisp } from "../../support/wisp.ts";
import { connect, mcpScratch, ollamaConfig, structured } from "./support.ts";

Deno.test("'always' from the client's dialog is kept for the server's life only, audited as elicitation", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, { approval: { outOfBand: false } }));
  let asked = 0;
  const c = await connect(s, {
    elicit: () => {
      asked++;
      return { action: "accept", content: { scope: "always" } };
    },
  });
  try {
    const run = async (file: string) => {
      ollama.reply({
        toolCalls: [{ name: "run_command", arguments: { command: `touch ${file}` } }],
      });
      ollama.reply({ text: "Done." });
      const receipt = structured(
        await c.client.callTool({
          name: "respond",
          arguments: { prompt: `touch ${file}`, thread_id: "work", tools: ["run_command"] },
        }),
      );
      return (receipt.calls as Record<string, unknown>[])[0].outcome;
    };
    assertEquals(await run("a.txt"), "ok");
    assertEquals(await run("b.txt"), "ok");
    assertEquals(asked, 1, "the second touch was covered in the same server");
    for (const f of ["a.txt", "b.txt"]) assert(Deno.statSync(join(s.project, f)).isFile);
    const answered = s.events().find((e) =>
      e.kind === "approval.answered" && e.by === "elicitation"
    );
    assert(answered, "the dialog's answer is audited");
    assertEquals(answered.source, "elicitation");
    assertEquals(answered.decision, "session");
    const decided = s.events().find((e) =>
      e.kind === "approval.decided" && e.decision === "approved"
    );
    assertEquals(decided?.scope, "session");
    // Nothing is stored: the person's own sessions are not covered. The list shows it as the
    // running server's, from the dialog (live_approvals_e2e_test.ts has the rest).
    const listed = await runWisp(["approvals", "list"], { home: s.home });
    assertEquals(listed.code, 0, listed.stderr);
    const rows = listed.stdout.trim().split("\n").map((l) => l.split("\t"));
    assertEquals(rows.map((r) => [r[1], r[4], r[6]]), [["session", "touch *", "elicitation"]]);
    let stored = "";
    try {
      stored = Deno.readTextFileSync(join(s.home, "approvals.json"));
    } catch { /* none: as it should be */ }
    assert(!stored.includes("touch"), stored);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

/**
 * Headless agents (`claude -p`, `codex exec`) decline every dialog the
 * moment it arrives. Such a "no" is the client's, not a person's, and the
 * refusal says so; with mcp.elicitation off for that client (by its
 * clientInfo name), no dialog is sent at all and the request waits for
 * `wisp approvals approve` at a terminal.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { wispInTmux as wispAtTerminal } from "./tmux.ts";
import { connect, mcpScratch, ollamaConfig, pendingIds, structured, waitFor } from "./support.ts";

type Receipt = {
  calls: { outcome: string; output?: string }[];
  refusals: { kind: string; reason: string }[];
};

Deno.test("a dialog the client declines at once is refused as the client's, never as the person's", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, { approval: { outOfBand: false } }));
  let asked = 0;
  const c = await connect(s, {
    name: "headless-agent",
    elicit: () => {
      asked++;
      return { action: "decline" };
    },
  });
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    ollama.reply({ text: "It was not approved." });
    const result = await c.client.callTool({
      name: "respond",
      arguments: { prompt: "touch", thread_id: "h", tools: ["run_command"] },
    });
    assertEquals(asked, 1);
    const receipt = structured(result) as unknown as Receipt;
    assertEquals(receipt.calls[0].outcome, "declined");
    assertEquals(receipt.refusals[0].kind, "declined");
    assertMatch(receipt.refusals[0].reason, /the client declined the dialog for touch made\.txt/);
    assert(!/person/.test(receipt.refusals[0].reason), receipt.refusals[0].reason);
    const decided = s.events().find((e) =>
      e.kind === "approval.decided" && e.decision === "refused"
    )!;
    assertEquals(decided.by, "client");
    let made = true;
    try {
      Deno.statSync(join(s.project, "made.txt"));
    } catch {
      made = false;
    }
    assertEquals(made, false, "nothing ran");
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("with mcp.elicitation off for the client, no dialog is sent and the request waits for wisp approvals approve", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(
    ollamaConfig(ollama.url, { mcp: { elicitation: { "Headless-Agent": "off" } } }),
  );
  let asked = 0;
  const c = await connect(s, {
    name: "headless-agent",
    elicit: () => {
      asked++;
      return { action: "decline" };
    },
  });
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    ollama.reply({ text: "Done." });
    // Held as a settled value, so a server that goes away fails this test with its own words
    // rather than as an unhandled rejection of the whole file.
    const call = c.client.callTool({
      name: "respond",
      arguments: { prompt: "touch", thread_id: "h", tools: ["run_command"] },
    }).then((r) => r, (error: Error) => error);
    const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
    const pending = s.events().find((e) => e.kind === "approval.pending")!;
    assertEquals(pending.dialog, false, "the client's dialog is not used");
    assertEquals(pending.client, "headless-agent");
    const answered = await wispAtTerminal(s.home, ["approvals", "approve", id]);
    assertEquals(answered.code, 0, answered.output);
    const result = await call;
    if (result instanceof Error) {
      throw new Error(`${result.message}; the server said: ${c.stderr()}`);
    }
    const receipt = structured(result) as unknown as Receipt;
    assertEquals(receipt.calls[0].outcome, "ok");
    assertEquals(asked, 0, "no elicitation/create was sent");
    Deno.statSync(join(s.project, "made.txt"));
    const by = s.events().find((e) => e.kind === "approval.answered" && e.decision !== "no");
    assertEquals(by?.source, "terminal");
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("mcp.elicitation accepts on and off only, and names the client as a key", async () => {
  const { validateConfig } = await import("../../../src/config/load.ts");
  const ok = validateConfig({ mcp: { elicitation: { "claude-code": "off", codex: "on" } } }, "c");
  assertEquals(ok.mcp.elicitation, { "claude-code": "off", codex: "on" });
  let problem = "";
  try {
    validateConfig({ mcp: { elicitation: { "claude-code": "never" } } }, "c");
  } catch (error) {
    problem = (error as Error).message;
  }
  assertMatch(problem, /mcp\.elicitation\.claude-code/);
});

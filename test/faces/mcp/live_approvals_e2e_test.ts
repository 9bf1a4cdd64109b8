/**
 * The approvals a running `wisp mcp` holds, seen and revoked from a
 * terminal: the real SDK client answers "always" in its dialog, `wisp
 * approvals list` (TSV and --json) shows the approval with its source and
 * server, `wisp approvals revoke` reaches the running server so the same
 * command is asked again, and a server that is gone (closed, or killed
 * without a chance to tidy up) shows nothing.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { runWisp } from "../../support/wisp.ts";
import { connect, mcpScratch, ollamaConfig, structured, waitFor } from "./support.ts";

function serverFiles(home: string): string[] {
  try {
    return [...Deno.readDirSync(join(home, "servers"))].map((e) => e.name).sort();
  } catch {
    return [];
  }
}

Deno.test("a dialog's approval is listed with its source and server, and a revoke reaches the server", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, { approval: { outOfBand: false } }));
  let asked = 0;
  const c = await connect(s, {
    name: "dialog-client",
    elicit: () => {
      asked++;
      return { action: "accept", content: { scope: "always" } };
    },
  });
  let closed = false;
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
    assertEquals(asked, 1);
    const pid = c.transport.pid!;
    assert(pid > 0);

    // Piped: the stored fields first (scope, pattern), then source, pid and client.
    const listed = await runWisp(["approvals", "list"], { home: s.home });
    assertEquals(listed.code, 0, listed.stderr);
    const rows = listed.stdout.trim().split("\n").map((l) => l.split("\t"));
    assertEquals(rows.length, 1, listed.stdout);
    const [id, scope, , , pattern, , source, serverPid, client] = rows[0];
    assertMatch(id, /^[0-9a-f]{8}$/);
    assertEquals([scope, source, serverPid, client], [
      "session",
      "elicitation",
      String(pid),
      "dialog-client",
    ]);
    assert(pattern.startsWith("touch"), pattern);

    const json = await runWisp(["approvals", "--json"], { home: s.home });
    assertEquals(json.code, 0, json.stderr);
    const items = JSON.parse(json.stdout).approvals as Record<string, unknown>[];
    assertEquals(items.length, 1);
    assertEquals(items[0].id, id);
    assertEquals(items[0].source, "elicitation");
    const server = items[0].server as Record<string, unknown>;
    assertEquals([server.pid, server.client], [pid, "dialog-client"]);
    // The session named is the server's audit session.
    const answered = s.events().find((e) => e.kind === "approval.answered");
    assertEquals(server.session, answered?.session);

    // Revoked from a terminal: the running server drops it before revoke returns, so the
    // same command is asked again.
    const revoked = await runWisp(["approvals", "revoke", id], { home: s.home });
    assertEquals(revoked.code, 0, revoked.stderr);
    assertEquals(
      revoked.stdout.trim(),
      `revoked ${id}: ${pattern} (held by wisp mcp ${pid} (dialog-client))`,
    );
    assertEquals(asked, 1);
    assertEquals(await run("b.txt"), "ok");
    assertEquals(asked, 2, "the revoked approval no longer covered the command");
    const dropped = s.events().find((e) => e.kind === "approval.revoked");
    assertEquals([dropped?.approvalId, dropped?.source], [id, "elicitation"]);

    // The second answer is listed; once the server has stopped, nothing is, and its file is gone.
    const again = await runWisp(["approvals", "list"], { home: s.home });
    assertEquals(again.stdout.trim().split("\n").length, 1, again.stdout);
    assert(!again.stdout.includes(id), again.stdout);
    await c.close();
    closed = true;
    await waitFor(() => serverFiles(s.home).length === 0 ? true : undefined, "the file's removal");
    const after = await runWisp(["approvals", "list"], { home: s.home });
    assertEquals([after.code, after.stdout], [0, ""]);
  } finally {
    if (!closed) await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("a server killed without tidying up is not listed, its file is removed, and a revoke says no such approval", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, { approval: { outOfBand: false } }));
  const c = await connect(s, {
    elicit: () => ({ action: "accept", content: { scope: "session" } }),
  });
  try {
    ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "touch k.txt" } }] });
    ollama.reply({ text: "Done." });
    await c.client.callTool({
      name: "respond",
      arguments: { prompt: "touch k.txt", thread_id: "t", tools: ["run_command"] },
    });
    const json = await runWisp(["approvals", "--json"], { home: s.home });
    const [item] = JSON.parse(json.stdout).approvals as Record<string, unknown>[];
    assertEquals(item.source, "elicitation");
    assertEquals(serverFiles(s.home).length, 1);

    const pid = c.transport.pid!;
    Deno.kill(pid, "SIGKILL");
    // Gone once reaped (the SDK's transport reaps its child).
    await waitFor(() => {
      try {
        Deno.statSync(`/proc/${pid}`);
        return undefined;
      } catch {
        return true;
      }
    }, "the server's end");
    // Its file is still there (nothing ran to remove it); the listing sees a dead server.
    assertEquals(serverFiles(s.home).length, 1);
    const listed = await runWisp(["approvals", "list"], { home: s.home });
    assertEquals([listed.code, listed.stdout], [0, ""]);
    assertEquals(serverFiles(s.home), []);
    const revoke = await runWisp(["approvals", "revoke", String(item.id)], { home: s.home });
    assertEquals(revoke.code, 1);
    assertMatch(revoke.stderr, /no remembered approval has the id/);
  } finally {
    await c.close().catch(() => {});
    await ollama.close();
    await s.remove();
  }
});

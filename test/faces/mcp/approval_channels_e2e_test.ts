/**
 * The approval channels beside the answer itself: the dialog withdrawn
 * (notifications/cancelled) when a terminal answers first, the notification
 * after approval.bannerDelaySeconds, a dead server's requests cleaned up, a
 * command outside the sandbox approved once whatever scope is given; and the
 * condensing tools that need no thread.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { runWisp, wispCommand } from "../../support/wisp.ts";
import { wispInTmux as wispAtTerminal } from "./tmux.ts";
import {
  connect,
  mcpScratch,
  ollamaConfig,
  pendingIds,
  structured,
  textOf,
  waitFor,
} from "./support.ts";

Deno.test("a terminal answering first withdraws the open dialog with notifications/cancelled; the banner came after the delay", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, { approval: { bannerDelaySeconds: 1 } }));
  let withdrawn: (reason: unknown) => void = () => {};
  const dialogWithdrawn = new Promise((resolve) => withdrawn = resolve);
  const dialogIds: (string | number)[] = [];
  const c = await connect(s, {
    // The person never answers the dialog.
    elicit: (_params, requestId) => {
      dialogIds.push(requestId);
      return new Promise(() => {});
    },
  });
  // The SDK client aborts the handler's signal when notifications/cancelled arrives for it.
  c.client.setNotificationHandler(
    (await import("@modelcontextprotocol/sdk/types.js")).CancelledNotificationSchema,
    (n: { params: { requestId: unknown; reason?: string } }) => withdrawn(n.params),
  );
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    ollama.reply({ text: "Done." });
    const call = c.client.callTool({
      name: "respond",
      arguments: { prompt: "touch", thread_id: "w", tools: ["run_command"] },
    });
    const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
    const banner = await waitFor(
      () => s.events().find((e) => e.kind === "notification" && e.source === "approval"),
      "the banner",
    );
    assertEquals(banner.id, id);
    assertMatch(
      String(banner.message),
      new RegExp(`touch made\\.txt .*wisp approvals approve ${id}`),
    );
    const requested = s.events().find((e) => e.kind === "approval.pending")!;
    const delay = Date.parse(String(banner.ts)) - Date.parse(String(requested.ts));
    assert(delay >= 900, `the banner waited for the dialog (${delay} ms)`);
    const answered = await wispAtTerminal(s.home, ["approvals", "approve", id]);
    assertEquals(answered.code, 0, answered.output);
    const cancelled = await dialogWithdrawn as { requestId: unknown };
    // The first request of the session: SDK clients drop a cancellation of id 0 (a falsy id).
    assertEquals(dialogIds.length, 1);
    assert(dialogIds[0] !== 0, "the first dialog does not use id 0");
    assertEquals(cancelled.requestId, dialogIds[0], "the cancellation names the open dialog");
    assertEquals((structured(await call).calls as Record<string, unknown>[])[0].outcome, "ok");
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("a dialog answered within the delay posts no banner", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const delaySeconds = 4;
  const s = await mcpScratch(
    ollamaConfig(ollama.url, { approval: { bannerDelaySeconds: delaySeconds } }),
  );
  const c = await connect(s, { elicit: () => ({ action: "accept", content: { scope: "once" } }) });
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    ollama.reply({ text: "Done." });
    await c.client.callTool({
      name: "respond",
      arguments: { prompt: "t", thread_id: "w", tools: ["run_command"] },
    });
    const ts = (kind: string) =>
      Date.parse(String(s.events().find((e) => e.kind === kind)?.ts ?? "invalid"));
    const asked = ts("approval.pending");
    const answered = ts("approval.decided");
    assert(Number.isFinite(asked) && Number.isFinite(answered), "the request and its answer");
    // The premise: the dialog was answered before the delay ran out.
    assert(answered - asked < delaySeconds * 1000, `answered after ${answered - asked} ms`);
    // Past the delay, a banner that had not been called off would have been posted.
    await new Promise((r) =>
      setTimeout(r, Math.max(0, asked + delaySeconds * 1000 + 300 - Date.now()))
    );
    assertEquals(s.events().filter((e) => e.kind === "notification").length, 0);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("a dead server's requests are cleaned up: pending drops them, approve calls them stale", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const [cmd, ...rest] = wispCommand();
  const server = new Deno.Command(cmd, {
    args: [...rest, "mcp"],
    cwd: s.project,
    env: {
      WISP_HOME: s.home,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
    },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = server.stdin.getWriter();
  const send = (m: unknown) => writer.write(new TextEncoder().encode(JSON.stringify(m) + "\n"));
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    });
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: {
        name: "respond",
        arguments: { prompt: "t", thread_id: "w", tools: ["run_command"] },
      },
    });
    const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
    const listed = await runWisp(["approvals", "pending"], { home: s.home });
    assertStringIncludes(listed.stdout, id, "listed while its server runs");
    server.kill("SIGKILL");
    await server.status;
    const after = await runWisp(["approvals", "pending"], { home: s.home });
    assertEquals(after.code, 0);
    assertEquals(after.stdout, "", "a stopped server's request is not listed");
    assertEquals(pendingIds(s.pending), [], "and its file is removed");
    const stale = await wispAtTerminal(s.home, ["approvals", "approve", id]);
    assertEquals(stale.code, 1);
    assertMatch(stale.output, /no longer waits: stale: the wisp mcp server that asked has stopped/);
  } finally {
    try {
      server.kill("SIGKILL");
    } catch { /* ended */ }
    await writer.close().catch(() => {});
    await server.stdout.cancel().catch(() => {});
    await ollama.close();
    await s.remove();
  }
});

Deno.test("SIGTERM withdraws the server's requests at once", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s);
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    const call = c.client.callTool({
      name: "respond",
      arguments: { prompt: "t", thread_id: "w", tools: ["run_command"] },
    });
    call.catch(() => {}); // the server goes away before it answers
    const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
    Deno.kill(c.transport.pid!, "SIGTERM");
    await waitFor(
      () => pendingIds(s.pending).length === 0 ? true : undefined,
      // Nothing else removes the file while no `wisp approvals` runs: a generous deadline still
      // tells the server's own withdrawal from none.
      "the request withdrawn",
    );
    const outcome = JSON.parse(Deno.readTextFileSync(join(s.pending, `${id}.outcome`)));
    assertEquals(outcome.status, "closed");
    assertMatch(outcome.reason, /server stopped/);
  } finally {
    await c.close().catch(() => {});
    await ollama.close();
    await s.remove();
  }
});

Deno.test("outside the sandbox: approved once whatever scope the terminal gives, and it says so", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s);
  const target = join(s.base, "outside.txt");
  try {
    ollama.reply({
      toolCalls: [{
        name: "run_command",
        arguments: { command: `touch ${target}`, outsideSandbox: true },
      }],
    });
    ollama.reply({ text: "Done." });
    const call = c.client.callTool({
      name: "respond",
      arguments: { prompt: "t", thread_id: "w", tools: ["run_command"] },
    });
    const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
    const listed = await wispAtTerminal(s.home, ["approvals", "pending"]);
    assertStringIncludes(listed.output, `OUTSIDE THE SANDBOX: touch ${target}`);
    const answered = await wispAtTerminal(s.home, [
      "approvals",
      "approve",
      id,
      "--scope",
      "session",
    ]);
    assertEquals(answered.code, 0, answered.output);
    assertStringIncludes(
      answered.output,
      "approved once, outside the sandbox (session is taken as once)",
    );
    assertEquals((structured(await call).calls as Record<string, unknown>[])[0].outcome, "ok");
    Deno.statSync(target);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("scan_secrets and redact answer without a thread or a model", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const c = await connect(s);
  try {
    const key = "ghp_" + "R8nX2vLq9TzW4mYp7KjH3sDf6GbN1cVe5Ua0";
    const scan = await c.client.callTool({
      name: "scan_secrets",
      arguments: { text: `token = ${key}\n` },
    });
    assertEquals(structured(scan).total, 1);
    assert(!textOf(scan).includes(key), "the value never comes back");
    const redacted = await c.client.callTool({
      name: "redact",
      arguments: { text: `key=${key}\n` },
    });
    assertMatch(textOf(redacted), /key=\[REDACTED:[a-z_-]+#1\]/);
    const neither = await c.client.callTool({ name: "scan_secrets", arguments: {} });
    assertEquals((neither as { isError?: boolean }).isError, true);
  } finally {
    await c.close();
    await s.remove();
  }
});

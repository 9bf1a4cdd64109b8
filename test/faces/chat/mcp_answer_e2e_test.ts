/**
 * /approvals from a plain chat at a real terminal (a tmux pane of its own,
 * which does not descend from the MCP client): the request waiting in a
 * `wisp mcp` server started by the test is listed and approved, through the
 * same checks as `wisp approvals approve`, and audited via chat.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { runWisp } from "../../support/wisp.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { waitUntil } from "../../support/wait.ts";
import { exists } from "../../support/wait.ts";
import {
  connect,
  mcpScratch,
  ollamaConfig,
  pendingIds,
  structured,
  waitFor,
} from "../mcp/support.ts";
import { openWispInTmux } from "../mcp/tmux.ts";

Deno.test("a plain chat at a terminal lists a request waiting in wisp mcp and approves it with /approvals approve ID", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, { env: { WISP_MCP_CLIENT: "claude-code" } });
  ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }] });
  ollama.reply({ text: "Done." });
  const call = c.client.callTool({
    name: "respond",
    arguments: {
      prompt: "Use run_command to run exactly: touch made.txt",
      thread_id: "work",
      tools: ["run_command"],
    },
  });
  // Closing the connection in the end rejects a call still waiting: the test fails on what came first.
  call.catch(() => {});
  const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
  // A piped chat notes what waits, once, and says where to answer; it cannot answer itself.
  const piped = await runWisp(["chat"], {
    home: s.home,
    cwd: s.project,
    stdin: `/approvals approve ${id}\n\n/quit\n`,
  });
  assertEquals(piped.code, 0, piped.stderr);
  const waiting =
    `⚠ ${id} waiting in wisp mcp (claude-code, thread work): run touch made.txt in ${s.project}, moderate`;
  assertEquals(piped.stderr.split(waiting).length - 1, 1, piped.stderr);
  assertStringIncludes(piped.stderr, "answer with wisp approvals approve|deny ID at a terminal");
  assertStringIncludes(piped.stderr, "answers only when the chat's input is a terminal");
  assertEquals(pendingIds(s.pending), [id], "the request still waits");
  const pane = await openWispInTmux(s.home, ["chat", "--plain"]);
  try {
    await waitUntil(async () => (await pane.screen()).includes("/help for commands"), "the chat");
    // Noted before the first prompt, with how to answer from here.
    await waitUntil(async () => {
      const screen = await pane.screen();
      return screen.includes(waiting) &&
        screen.includes("answer with /approvals approve ID [once|session|project|always]") &&
        screen.includes("approve at moderate");
    }, "the note of the waiting request before the first prompt");
    const first = await pane.screen();
    assert(first.indexOf(waiting) < first.indexOf("approve at moderate"), first);
    await pane.keys("/approvals pending", "Enter");
    await waitUntil(
      async () =>
        (await pane.screen()).includes(`⚠ ${id} waiting in wisp mcp (claude-code, thread work)`),
      "the pending list",
    );
    await pane.keys(`/approvals approve ${id} session`, "Enter");
    const receipt = structured(await call);
    assertEquals((receipt.calls as Record<string, unknown>[])[0].outcome, "ok");
    assert(exists(join(s.project, "made.txt")), "the approved command ran");
    await waitUntil(
      () => s.events().find((e) => e.kind === "approval.answered" && e.via === "chat"),
      "the chat's own approval.answered",
    );
    const server = s.events().find((e) => e.kind === "approval.answered" && e.by === "terminal");
    assertEquals(server?.decision, "session");
    // Answered here: not noted again as no longer waiting, at the next prompt.
    const statuses = async () => (await pane.screen()).split("approve at moderate").length;
    const before = await statuses();
    await pane.keys("/history", "Enter");
    await waitUntil(async () => (await statuses()) > before, "the next prompt's status");
    assert(!(await pane.screen()).includes(`${id} no longer waiting`));
  } finally {
    await pane.close();
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("a plain chat at a terminal: /approvals deny without an id offers what waits, and the pick denies it", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, { env: { WISP_MCP_CLIENT: "claude-code" } });
  ollama.reply({
    toolCalls: [{ name: "run_command", arguments: { command: "touch denied.txt" } }],
  });
  ollama.reply({ text: "It was refused." });
  const call = c.client.callTool({
    name: "respond",
    arguments: {
      prompt: "Use run_command to run exactly: touch denied.txt",
      thread_id: "work",
      tools: ["run_command"],
    },
  });
  call.catch(() => {});
  const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
  const pane = await openWispInTmux(s.home, ["chat", "--plain"]);
  try {
    await waitUntil(async () => (await pane.screen()).includes("approve at moderate"), "the chat");
    await pane.keys("/approvals deny", "Enter");
    await waitUntil(
      async () =>
        (await pane.screen()).includes(
          `1. ${id}  touch denied.txt (claude-code, thread work, moderate)`,
        ),
      "the choice of what waits",
    );
    await pane.keys("1", "Enter");
    const receipt = structured(await call);
    assert(!exists(join(s.project, "denied.txt")), "the denied command never ran");
    assertEquals((receipt.calls as Record<string, unknown>[])[0].outcome === "ok", false);
    await waitUntil(
      () =>
        s.events().find((e) =>
          e.kind === "approval.answered" && e.via === "chat" && e.pendingId === id &&
          e.decision === "no"
        ),
      "the chat's own approval.answered",
    );
  } finally {
    await pane.close();
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

/**
 * A model action waiting in a real `wisp mcp` server (the models tool's
 * pull, asked of a person every time) is named as what it is wherever it is
 * shown: the request file records it, `wisp approvals pending` lists it
 * (piped, --json, and at a terminal in tmux), a plain chat notes it, and a
 * `wisp chat --json` front end gets an approval line of kind model. A
 * request file that cannot be read is listed as unreadable, never as a
 * command, and is not answered.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { runWisp } from "../../support/wisp.ts";
import { startChat } from "../chat/support.ts";
import { connect, mcpScratch, ollamaConfig, pendingIds, waitFor } from "./support.ts";
import { wispInTmux } from "./tmux.ts";

Deno.test("a model pull waiting in wisp mcp is listed, noted and sent as a model action; an unreadable request is shown as unreadable", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, { approval: { timeoutSeconds: 300 } }));
  // No dialog: the request waits in the pending folder alone.
  const c = await connect(s, { env: { WISP_MCP_CLIENT: "claude-code" } });
  ollama.reply({
    toolCalls: [{ name: "models", arguments: { action: "pull", name: "ollama:qwen3:8b" } }],
  });
  ollama.reply({ text: "Not pulled." });
  const call = c.client.callTool({
    name: "respond",
    arguments: { prompt: "pull qwen3:8b", thread_id: "pull", tools: ["models"] },
  });
  call.catch(() => {});
  const chat = startChat([], { home: s.home, cwd: s.project });
  try {
    const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");

    // What the file records, written by the server through the gate's model-action path.
    const filed = JSON.parse(Deno.readTextFileSync(join(s.pending, `${id}.json`)));
    assertEquals(filed.kind, "approval");
    assertEquals(filed.asks, "model");
    assertEquals(filed.command, "models pull ollama:qwen3:8b");
    assertEquals(filed.modelAction, {
      verb: "pull",
      model: "ollama:qwen3:8b",
      reason: "downloads a model through Ollama",
      details: [
        `downloads it through the Ollama server at ${ollama.url}; Ollama says its size only as the download starts`,
      ],
    });
    const words =
      `pull model ollama:qwen3:8b (downloads it through the Ollama server at ${ollama.url}; Ollama says its size only as the download starts)`;

    // Piped: the row's last field is the words, not the gate's line.
    const piped = await runWisp(["approvals", "pending"], { home: s.home });
    assertEquals(piped.code, 0, piped.stderr);
    const fields = piped.stdout.trim().split("\n").map((l) => l.split("\t")).find((f) =>
      f[0] === id
    );
    assert(fields, piped.stdout);
    assertEquals(fields[1], "moderate");
    assertEquals(fields[5], words);

    const json = await runWisp(["approvals", "pending", "--json"], { home: s.home });
    assertEquals(json.code, 0, json.stderr);
    const listed = JSON.parse(json.stdout);
    assertEquals(listed.unreadable, []);
    assertEquals(listed.pending.length, 1);
    assertEquals(listed.pending[0].id, id);
    assertEquals(listed.pending[0].asks, "model");
    assertEquals(listed.pending[0].words, words);
    assertEquals(listed.pending[0].modelAction.verb, "pull");

    // A front end that asked for what waits in wisp mcp: an approval line of kind model.
    await chat.send({ type: "hello", effects: ["approve", "approve-mcp"], client: "test" });
    const line = await chat.next((l) => l.type === "approval" && l.id === id, "the approval line");
    assertEquals(line.kind, "model");
    assertEquals(line.words, words);
    assertEquals(line.source, "mcp");
    assertEquals(line.options, ["once", "no"]);

    // A plain chat notes it before its prompt as a model action.
    const plain = await runWisp(["chat", "--plain"], {
      home: s.home,
      cwd: s.project,
      stdin: "/quit\n",
    });
    assertStringIncludes(
      plain.stderr,
      `⚠ ${id} waiting in wisp mcp (claude-code, thread pull): ${words}, a model action asked of you every time, moderate`,
    );

    // A request that asks something this wisp cannot read: listed as such, never as a command.
    const odd = "0badc0de";
    Deno.writeTextFileSync(
      join(s.pending, `${odd}.json`),
      JSON.stringify({ ...filed, id: odd, asks: "shell", command: "ls" }, null, 2) + "\n",
      { mode: 0o600 },
    );
    const withOdd = JSON.parse(
      (await runWisp(["approvals", "pending", "--json"], { home: s.home })).stdout,
    );
    assertEquals(withOdd.pending.map((p: { id: string }) => p.id), [id]);
    assertEquals(withOdd.unreadable, [{
      id: odd,
      why: "it asks something this wisp does not know (shell)",
    }]);

    // The front end is warned of it once; a plain chat notes it too.
    const warned = await chat.next(
      (l) => l.type === "note" && l.kind === "waiting" && String(l.text).includes(odd),
      "the unreadable request's note",
    );
    assertEquals(
      warned.text,
      `⚠ ${odd} waits in wisp mcp, but its request cannot be read (it asks something this wisp does not know (shell)): wisp cannot tell what it asks and will not answer it`,
    );
    assertEquals(warned.tone, "warn");
    assertEquals(chat.lines.filter((l) => l.type === "approval" && l.id === odd), []);
    const plainAgain = await runWisp(["chat", "--plain"], {
      home: s.home,
      cwd: s.project,
      stdin: "/quit\n",
    });
    assertStringIncludes(plainAgain.stderr, String(warned.text));

    // At a terminal: the table names both as what they are.
    const shown = await wispInTmux(s.home, ["approvals", "pending"]);
    assertEquals(shown.code, 0, shown.output);
    assertMatch(shown.output, /REQUEST/);
    assertStringIncludes(shown.output, "pull model ollama:qwen3:8b");
    assertMatch(shown.output, new RegExp(`${odd} .*UNREADABLE: it asks something`));
    assert(!new RegExp(`${odd} .* ls\\s*$`, "m").test(shown.output), shown.output);

    // It is never answered.
    const approved = await wispInTmux(s.home, ["approvals", "approve", odd]);
    assertEquals(approved.code, 1, approved.output);
    assertStringIncludes(approved.output, "is not one wisp wrote");

    // Denied at a terminal: the answer's line names the model action too.
    const denied = await wispInTmux(s.home, ["approvals", "deny", id]);
    assertEquals(denied.code, 0, denied.output);
    assertStringIncludes(denied.output, "denied: pull model ollama:qwen3:8b for thread pull");
    await call;
    await chat.send("/quit");
    assertEquals((await chat.close()).code, 0);
  } finally {
    await chat.close();
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

/**
 * wisp mcp's flags as thread defaults, and what a thread may choose for
 * itself when it starts: model, tools, working directory, a reply schema;
 * --yes approving what would be asked; a model that is not there.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { runWisp } from "../../support/wisp.ts";
import { exists, waitUntil } from "../../support/wait.ts";
import { connect, mcpScratch, ollamaConfig, structured, textOf } from "./support.ts";

function offered(body: Record<string, unknown>): string[] {
  return ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
}

Deno.test("--model and --tool are defaults; a thread's own model, tools and workingDirectory win when it starts", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }, { name: "other:1b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  await Deno.mkdir(join(s.project, "sub"));
  const c = await connect(s, { args: ["--model", "ollama:other:1b", "--tool", "current_date"] });
  try {
    ollama.reply({ text: "a" });
    await c.client.callTool({ name: "respond", arguments: { prompt: "defaults", thread_id: "d" } });
    assertEquals(ollama.chats()[0].model, "other:1b");
    assertEquals(offered(ollama.chats()[0]), ["current_date"]);

    ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "pwd" } }] });
    ollama.reply({ text: "b" });
    const own = structured(
      await c.client.callTool({
        name: "respond",
        arguments: {
          prompt: "own",
          thread_id: "o",
          model: "ollama:granite4.1:8b",
          tools: ["run_command", "read_file"],
          workingDirectory: "sub",
        },
      }),
    );
    assertEquals(ollama.chats()[1].model, "granite4.1:8b");
    assertEquals(offered(ollama.chats()[1]), ["run_command", "read_file"]);
    const calls = own.calls as Record<string, unknown>[];
    assertMatch(String(calls[0].output), new RegExp(`stdout:\\n${join(s.project, "sub")}$`));

    ollama.reply({ text: '{"answer":42}' });
    const shaped = structured(
      await c.client.callTool({
        name: "respond",
        arguments: {
          prompt: "json",
          thread_id: "o",
          schema: {
            type: "object",
            properties: { answer: { type: "number" } },
            required: ["answer"],
          },
        },
      }),
    );
    assertEquals(shaped.reply, '{"answer":42}');
    assertEquals((ollama.chats()[3].format as { required: string[] }).required, ["answer"]);

    await c.client.callTool({
      name: "respond",
      arguments: { prompt: "x", thread_id: "w", workingDirectory: "nowhere" },
    }).then(
      () => {
        throw new Error("a working directory that does not exist must be refused");
      },
      (error) => assertMatch(String(error.message), /workingDirectory .*nowhere does not exist/),
    );
    const unknownTool = await c.client.callTool({
      name: "respond",
      arguments: { prompt: "x", thread_id: "u", tools: ["teleport"] },
    });
    assertEquals((unknownTool as { isError?: boolean }).isError, true);
    assertMatch(textOf(unknownTool), /no tool named 'teleport'/);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("a model that is not there is the call's error, with the reason; other threads go on", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, { args: ["--no-tools"] });
  try {
    const missing = await c.client.callTool({
      name: "respond",
      arguments: { prompt: "x", thread_id: "m", model: "ollama:absent:7b" },
    });
    assertEquals((missing as { isError?: boolean }).isError, true);
    assertMatch(textOf(missing), /^error: .*absent:7b/);
    ollama.reply({ text: "fine" });
    const ok = structured(
      await c.client.callTool({ name: "respond", arguments: { prompt: "y", thread_id: "n" } }),
    );
    assertEquals(ok.reply, "fine");
    assertEquals(ollama.chats()[0].tools, undefined, "--no-tools");
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("--yes approves what would be asked (with a warning), and files nothing", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, { args: ["--yes"] });
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    ollama.reply({ text: "done" });
    const receipt = structured(
      await c.client.callTool({
        name: "respond",
        arguments: { prompt: "t", tools: ["run_command"] },
      }),
    );
    assertEquals((receipt.calls as Record<string, unknown>[])[0].outcome, "ok");
    Deno.statSync(join(s.project, "made.txt"));
    assert(!s.events().some((e) => e.kind === "approval.pending"));
    assertMatch(c.stderr(), /warning: --yes/);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("--tool and --no-tools together, or an unknown tool, are usage errors before serving", async () => {
  const both = await runWisp(["mcp", "--tool", "current_date", "--no-tools"]);
  assertEquals(both.code, 64);
  assertMatch(both.stderr, /choose one of --tool and --no-tools/);
  const unknown = await runWisp(["mcp", "--tool", "teleport"]);
  assertEquals(unknown.code, 64);
  assertEquals(unknown.stdout, "");
});

Deno.test("cancelling a respond call stops its turn and the command it runs", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, { args: ["--yes"] });
  try {
    ollama.reply({
      toolCalls: [{
        name: "run_command",
        arguments: { command: "touch started && sleep 30 && touch late" },
      }],
    });
    const controller = new AbortController();
    const call = c.client.callTool(
      { name: "respond", arguments: { prompt: "sleep", thread_id: "z", tools: ["run_command"] } },
      undefined,
      { signal: controller.signal },
    );
    // Cancel once the command is running.
    await waitUntil(() => exists(join(s.project, "started")), "the command's start");
    controller.abort("enough");
    await call.then(() => {}, () => {});
    const outcome = await waitUntil(
      () => s.events().find((e) => e.kind === "command.outcome"),
      "the command's end",
    );
    assertEquals(outcome.stopped, true);
    assert(!exists(join(s.project, "late")), "the command ran to its end: it was not stopped");
    await waitUntil(
      () => s.events().some((e) => e.kind === "turn.stopped" && e.thread === "z"),
      "the turn's stop",
    );
    // The server still serves the thread afterwards.
    ollama.reply({ text: "again" });
    const next = structured(
      await c.client.callTool({ name: "respond", arguments: { prompt: "more", thread_id: "z" } }),
    );
    assertEquals(next.reply, "again");
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

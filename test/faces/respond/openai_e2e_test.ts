/**
 * End to end against a fake OpenAI-compatible server (LM Studio and
 * llama.cpp flavours): the model asks for run_command, read_file and
 * edit_file, wisp runs them through the real gate and sandbox, and a
 * response cut off at the length limit never runs its call.
 */
import { join } from "node:path";
import { assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOpenAI } from "../../support/fake_openai.ts";
import { scratch } from "./support.ts";

type Message = { role: string; content: string | null; tool_call_id?: string };
const toolResults = (body: Record<string, unknown>) =>
  ((body.messages ?? []) as Message[]).filter((m) => m.role === "tool").map((m) =>
    String(m.content)
  );

Deno.test("LM Studio: run_command, read_file and edit_file in one turn, through the gate and sandbox", async () => {
  const server = startFakeOpenAI({
    flavour: "lmstudio",
    models: [{ id: "qwen3-8b", loadedContext: 16384 }],
  });
  const s = await scratch({ model: "lmstudio:qwen3-8b", lmstudio: { baseURL: server.baseURL } });
  try {
    await Deno.writeTextFile(join(s.project, "todo.txt"), "one\ntwo\n");
    server.reply(
      {
        toolCalls: [{
          name: "run_command",
          arguments: { command: "wc -l todo.txt" },
          id: "call_1",
        }],
      },
      { toolCalls: [{ name: "read_file", arguments: { path: "todo.txt" }, id: "call_2" }] },
      {
        toolCalls: [{
          name: "edit_file",
          arguments: { path: "todo.txt", mode: "append", content: "three\n" },
          id: "call_3",
        }],
      },
      { text: ["todo.txt had 2 lines; ", "I added a third."] },
    );
    const run = await s.wisp(["--yes", "Add a third item to todo.txt"]);
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout, "todo.txt had 2 lines; I added a third.\n");
    assertMatch(run.stderr, /^ran: run_command · read_file · edit_file$/m);
    assertEquals(await Deno.readTextFile(join(s.project, "todo.txt")), "one\ntwo\nthree\n");
    const chats = server.chats();
    assertEquals(chats.length, 4);
    assertMatch(toolResults(chats[1])[0], /^exit status: 0\nstdout:\n2 todo\.txt/);
    assertMatch(toolResults(chats[2])[1], /^1\tone\n2\ttwo\n\[end of file\]/);
    const edit = s.events().find((e) => e.kind === "file.write");
    assertEquals(edit?.mode, "append");
  } finally {
    await server.close();
    await s.remove();
  }
});

Deno.test("llama.cpp: a call cut off at the length limit does not run; the reissued one does", async () => {
  const server = startFakeOpenAI({ flavour: "llamacpp", models: [{ id: "granite" }] });
  const s = await scratch({
    model: "llamacpp:granite",
    llamacpp: { baseURL: server.baseURL, models: { granite: { capabilities: ["toolCalling"] } } },
  });
  try {
    server.reply(
      {
        toolCalls: [{ name: "run_command", arguments: { command: "touch cut.txt" } }],
        finishReason: "length",
      },
      { toolCalls: [{ name: "run_command", arguments: { command: "touch whole.txt" } }] },
      { text: "Made whole.txt." },
    );
    const run = await s.wisp(["--yes", "make a file"]);
    assertEquals(run.code, 0, run.stderr);
    const chats = server.chats();
    assertMatch(toolResults(chats[1])[0], /cut off at the length limit/);
    await Deno.stat(join(s.project, "whole.txt"));
    let cut = true;
    try {
      await Deno.stat(join(s.project, "cut.txt"));
    } catch {
      cut = false;
    }
    assertEquals(cut, false, "the cut-off call never ran");
    assertMatch(run.stderr, /^ran: run_command$/m);
  } finally {
    await server.close();
    await s.remove();
  }
});

/**
 * completion/complete through the SDK's client against the real server: the
 * resource templates' arguments complete to what a read would accept (open
 * and closed threads, a thread's outputs, audit sessions), filtered by what
 * was typed; a prompt (wisp offers none) or a template not wisp's has none.
 */
import { assert, assertEquals } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { connect, mcpScratch, ollamaConfig, structured } from "./support.ts";

Deno.test("completions: thread ids, a thread's output ids and audit sessions, as typed", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s);
  try {
    assertEquals(c.client.getServerCapabilities()?.completions, {});
    ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "seq 1 40000" } }] });
    ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "seq 1 700" } }] });
    ollama.reply({ text: "Counted." });
    const receipt = structured(
      await c.client.callTool({
        name: "respond",
        arguments: { prompt: "count", thread_id: "nums", tools: ["run_command"] },
      }),
    );
    const refs = (receipt.calls as { outputRef: string }[]).map((call) =>
      call.outputRef.split("/").pop()!
    );
    assertEquals(refs.length, 2);
    ollama.reply({ text: "Hello." });
    await c.client.callTool({ name: "respond", arguments: { prompt: "hi", thread_id: "note" } });
    ollama.reply({ text: "Gone soon." });
    await c.client.callTool({ name: "respond", arguments: { prompt: "x", thread_id: "old" } });
    await c.client.callTool({ name: "close_thread", arguments: { thread_id: "old" } });

    const complete = async (
      uri: string,
      name: string,
      value: string,
      args?: Record<string, string>,
    ) =>
      (await c.client.complete({
        ref: { type: "ref/resource", uri },
        argument: { name, value },
        ...(args ? { context: { arguments: args } } : {}),
      })).completion;

    const threads = await complete("wisp://threads/{thread_id}", "thread_id", "");
    assertEquals(threads.values.toSorted(), ["note", "nums", "old"], "open and closed threads");
    assertEquals(threads.total, 3);
    assertEquals(threads.hasMore, false);
    assertEquals(
      (await complete("wisp://threads/{thread_id}/summary", "thread_id", "no")).values,
      ["note"],
      "what was typed filters",
    );
    const outputs = await complete("wisp://threads/{thread_id}/output/{id}", "id", "", {
      thread_id: "nums",
    });
    assertEquals(
      outputs.values.toSorted(),
      refs.toSorted(),
      "the stored output and the audited one",
    );
    for (const id of outputs.values) {
      const read = await c.client.readResource({ uri: `wisp://threads/nums/output/${id}` });
      assert((read.contents[0] as { text: string }).text.length > 0, "each completion reads");
    }
    assertEquals(
      (await complete("wisp://threads/{thread_id}/output/{id}", "id", "", { thread_id: "nope" }))
        .values,
      [],
      "an unknown thread has no outputs",
    );
    const sessions = await complete("wisp://audit/{session}", "session", "");
    const audited = new Set(s.events().map((e) => e.session));
    assertEquals(new Set(sessions.values), audited);
    assert(sessions.values.length >= 1);

    // Nothing to offer is an empty list, never an error.
    assertEquals((await complete("wisp://nothing/{x}", "x", "")).values, []);
    const prompt = await c.client.complete({
      ref: { type: "ref/prompt", name: "anything" },
      argument: { name: "arg", value: "a" },
    });
    assertEquals(prompt.completion.values, []);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

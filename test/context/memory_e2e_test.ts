/**
 * The memory tool end to end: an MCP thread given run_command and memory,
 * through a fake Ollama. Turn 1 runs a command; in turn 2 its output is a
 * reference naming the recall, the model calls memory with it, and the
 * recall reads the whole output back from the audit log. A thread given
 * run_command alone has no memory tool and no reference names one.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { connect, mcpScratch, ollamaConfig, structured } from "../faces/mcp/support.ts";
import { CODENAME, commandOf } from "./support.ts";

interface Sent {
  role: string;
  content: string;
}

Deno.test("memory recalls an earlier output from the audit log through a reference's own words", async () => {
  const ollama = startFakeOllama();
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s);
  try {
    ollama.reply(
      { toolCalls: [{ name: "run_command", arguments: { command: commandOf(1) } }] },
      { text: "Ran it." },
    );
    const first = structured(
      await c.client.callTool({
        name: "respond",
        arguments: { prompt: "Run the first command.", tools: ["run_command", "memory"] },
      }),
    );
    const thread = String(first.thread_id);
    ollama.reply(
      (body) => {
        const tools = body.tools as { function: { name: string; description: string } }[];
        assertEquals(tools.map((t) => t.function.name), ["run_command", "memory"]);
        const reference = (body.messages as Sent[]).find((m) => m.role === "tool")!.content;
        const recall = reference.match(/to see it: memory "(recall entry \d+)"/);
        assert(recall, `the reference names its recall: ${reference}`);
        return { toolCalls: [{ name: "memory", arguments: { request: recall[1] } }] };
      },
      (body) => {
        const result = (body.messages as Sent[]).findLast((m) => m.role === "tool")!.content;
        assertMatch(result, /^entry 3: run_command output, turn 1 at .*, from the audit log\n/);
        const codename = result.match(/codename ([A-Z-]+\d+)/)?.[1] ?? "none";
        return { text: `The codename was ${codename}.` };
      },
    );
    const second = structured(
      await c.client.callTool({
        name: "respond",
        arguments: { prompt: "What codename did it print?", thread_id: thread },
      }),
    );
    assertEquals(second.reply, `The codename was ${CODENAME}.`);
    assertEquals(second.ran, "ran: memory");
    const memory = s.events().find((e) => e.kind === "context.memory")!;
    assertEquals(memory.source, "the audit log");
    assertEquals(memory.entries, [3]);

    // run_command alone: no memory tool, and the reference does not name one.
    ollama.reply(
      { toolCalls: [{ name: "run_command", arguments: { command: commandOf(2) } }] },
      { text: "Ran it." },
      (body) => {
        const names = (body.tools as { function: { name: string } }[]).map((t) => t.function.name);
        assertEquals(names, ["run_command"]);
        const reference = (body.messages as Sent[]).find((m) => m.role === "tool")!.content;
        assertStringIncludes(reference, "do not run it again to see it");
        assert(!JSON.stringify(body.messages).includes("memory"), "nothing names memory");
        return { text: "No memory here." };
      },
    );
    const other = structured(
      await c.client.callTool({
        name: "respond",
        arguments: { prompt: "Run the second command.", tools: ["run_command"] },
      }),
    );
    const after = structured(
      await c.client.callTool({
        name: "respond",
        arguments: { prompt: "And now?", thread_id: String(other.thread_id) },
      }),
    );
    assertEquals(after.reply, "No memory here.");
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

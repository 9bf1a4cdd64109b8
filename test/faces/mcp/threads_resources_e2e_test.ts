/**
 * Threads and resources through the SDK's client against the real server:
 * a thread made up when none is named, continued, its shape fixed once it
 * starts, closed; the resources and templates listed; paging, output
 * references and invalidParams for what does not exist.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { connect, mcpScratch, ollamaConfig, structured, textOf } from "./support.ts";

async function rejects(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  try {
    await promise;
  } catch (error) {
    assertMatch(String((error as Error).message), pattern);
    assertEquals((error as { code?: number }).code, -32602);
    return;
  }
  throw new Error(`expected an invalidParams error matching ${pattern}`);
}

function json(result: unknown): Record<string, unknown> {
  const contents = (result as { contents: { text: string }[] }).contents;
  return JSON.parse(contents[0].text);
}

Deno.test("threads: made up when absent, continued, shape fixed at start, closed; resources read them", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, { args: ["--instructions", "Server default instructions."] });
  try {
    ollama.reply({ text: "First." });
    const first = structured(
      await c.client.callTool({ name: "respond", arguments: { prompt: "one", tools: [] } }),
    );
    const thread = String(first.thread_id);
    assertMatch(thread, /^t[0-9a-f]{8}$/);
    assertEquals(first.turn, 1);
    assertEquals(first.ran, null);
    const firstChat = ollama.chats()[0];
    const system = (firstChat.messages as { role: string; content: string }[])[0];
    assertStringIncludes(
      system.content,
      "Server default instructions.",
      "wisp mcp's flags are thread defaults",
    );
    assertEquals(firstChat.tools, undefined, "tools: [] offers none");

    ollama.reply({ text: "Second." });
    const second = structured(
      await c.client.callTool({
        name: "respond",
        arguments: { prompt: "two", thread_id: thread, task: "Be brief." },
      }),
    );
    assertEquals(second.turn, 2);
    const messages = ollama.chats()[1].messages as { role: string; content: string }[];
    assertEquals(
      messages.map((m) => m.role),
      ["system", "user", "assistant", "user"],
      "the thread keeps its conversation",
    );
    assertEquals(messages[3].content, "Task: Be brief.\n\ntwo");

    await rejects(
      c.client.callTool({
        name: "respond",
        arguments: { prompt: "x", thread_id: thread, model: "ollama:other" },
      }),
      /model is taken only when a thread starts/,
    );
    // Giving the same value again is no change, and no error.
    ollama.reply({ text: "Third." });
    const third = await c.client.callTool({
      name: "respond",
      arguments: { prompt: "three", thread_id: thread, tools: [] },
    });
    assertEquals(structured(third).turn, 3);

    const info = json(await c.client.readResource({ uri: `wisp://threads/${thread}` }));
    assertEquals(info.open, true);
    assertEquals(info.turns, 3);
    assertEquals(
      (info.shape as Record<string, unknown>).instructions,
      "Server default instructions.",
    );
    const summary = json(await c.client.readResource({ uri: `wisp://threads/${thread}/summary` }));
    assertEquals((summary.turns as Record<string, unknown>[]).map((t) => t.reply), [
      "First.",
      "Second.",
      "Third.",
    ]);
    const audit = json(
      await c.client.readResource({ uri: `wisp://threads/${thread}/audit?limit=2` }),
    );
    assertEquals(audit.limit, 2);
    assertEquals((audit.events as unknown[]).length, 2);
    assert(Number(audit.total) >= 6, "prompt and response of each turn");
    assertEquals(audit.next, `wisp://threads/${thread}/audit?page=2&limit=2`);
    assertEquals(audit.last, `wisp://threads/${thread}/audit?page=${audit.pages}&limit=2`);
    for (const e of audit.events as Record<string, unknown>[]) assertEquals(e.thread, thread);
    await rejects(
      c.client.readResource({
        uri: `wisp://threads/${thread}/audit?page=${Number(audit.pages) + 1}&limit=2`,
      }),
      /past the last page/,
    );

    const closed = await c.client.callTool({
      name: "close_thread",
      arguments: { thread_id: thread },
    });
    assertEquals(structured(closed).closed, true);
    const again = await c.client.callTool({
      name: "close_thread",
      arguments: { thread_id: thread },
    });
    assertEquals((again as { isError?: boolean }).isError, true);
    const after = json(await c.client.readResource({ uri: `wisp://threads/${thread}` }));
    assertEquals(after.open, false);
    const summaryAfter = json(
      await c.client.readResource({ uri: `wisp://threads/${thread}/summary` }),
    );
    assertEquals((summaryAfter.turns as unknown[]).length, 3, "a closed thread's summary remains");
    await rejects(c.client.readResource({ uri: "wisp://threads/nosuch" }), /no thread nosuch/);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("resources and templates are listed; tools, config and audit read; malformed URIs are invalidParams", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const c = await connect(s);
  try {
    const resources = (await c.client.listResources()).resources.map((r) => r.uri);
    for (
      const uri of [
        "wisp://tools",
        "wisp://tools.md",
        "wisp://config",
        "wisp://audit",
        "wisp://threads",
        "wisp://facts",
      ]
    ) {
      assert(resources.includes(uri), uri);
    }
    const templates = (await c.client.listResourceTemplates()).resourceTemplates.map((t) =>
      t.uriTemplate
    );
    for (
      const t of [
        "wisp://audit/{session}",
        "wisp://threads/{thread_id}",
        "wisp://threads/{thread_id}/audit",
        "wisp://threads/{thread_id}/outputs",
        "wisp://threads/{thread_id}/output/{id}",
        "wisp://threads/{thread_id}/summary",
        "wisp://threads/{thread_id}/facts",
      ]
    ) assert(templates.includes(t), t);
    const tools = json(await c.client.readResource({ uri: "wisp://tools" }));
    const names = (tools.tools as { name: string }[]).map((t) => t.name);
    assert(names.includes("run_command") && names.includes("read_file"), names.join(","));
    const md = await c.client.readResource({ uri: "wisp://tools.md" });
    assertStringIncludes((md.contents[0] as { text: string }).text, "run_command");
    const config = json(await c.client.readResource({ uri: "wisp://config" }));
    assertEquals(config.maxThreads, 32);
    assertEquals((config.paths as { root: string }).root, s.home);
    const audit = json(await c.client.readResource({ uri: "wisp://audit" }));
    const start = (audit.events as Record<string, unknown>[]).find((e) =>
      e.kind === "session.start"
    );
    assert(start && start.face === "mcp");
    const own = json(await c.client.readResource({ uri: `wisp://audit/${start.session}` }));
    assertEquals(own.page, 1);
    assertEquals(own.next, null);
    for (
      const bad of [
        "wisp://nothing",
        "wisp://tools?page=1",
        "wisp://audit?page=0",
        "wisp://audit?page=x",
        "wisp://audit?limit=501",
        "wisp://audit?limit=0",
        "wisp://audit?color=red",
        "wisp://threads/../etc",
        "https://example.com/",
        "wisp://audit?page=2",
      ]
    ) {
      await rejects(c.client.readResource({ uri: bad }), /./);
    }
  } finally {
    await c.close();
    await s.remove();
  }
});

Deno.test("a large output is referenced, not inlined, and reads back whole in 16 KiB pages", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s);
  try {
    ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "seq 1 40000" } }] });
    ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "seq 1 700" } }] });
    ollama.reply({ text: "Printed the numbers." });
    const result = await c.client.callTool({
      name: "respond",
      arguments: { prompt: "count", thread_id: "nums", tools: ["run_command"] },
    });
    const calls = structured(result).calls as Record<string, unknown>[];
    assertEquals(calls.length, 2, textOf(result));
    for (const call of calls) {
      assertEquals(call.output, undefined, "too large to inline");
      assertMatch(String(call.outputRef), /^wisp:\/\/threads\/nums\/output\/[A-Za-z0-9_-]+$/);
    }
    // The held-back one is in the output store, whole.
    const big = await c.client.readResource({ uri: String(calls[0].outputRef) });
    const page1 = (big.contents[0] as { text: string }).text;
    assert(page1.startsWith("exit status: 0\nstdout:\n1\n2\n3\n"), page1.slice(0, 40));
    const page2 = (await c.client.readResource({ uri: `${calls[0].outputRef}?page=2` }))
      .contents[0] as { text: string };
    assertMatch(page2.text, /^\[page 2 of \d+ of output [A-Za-z0-9_-]+\]\n/);
    let whole = "";
    for (let page = 1;; page++) {
      try {
        const text = ((await c.client.readResource({ uri: `${calls[0].outputRef}?page=${page}` }))
          .contents[0] as {
            text: string;
          }).text;
        whole += page === 1 ? text : text.slice(text.indexOf("\n") + 1);
      } catch {
        break;
      }
    }
    const expected = Array.from({ length: 40000 }, (_, i) => `${i + 1}\n`).join("");
    assertEquals(
      whole,
      "exit status: 0\nstdout:\n" + expected,
      "the pages join to the whole output",
    );
    // The smaller one was not held back: its whole result comes from the audit.
    const small = await c.client.readResource({ uri: String(calls[1].outputRef) });
    assertStringIncludes((small.contents[0] as { text: string }).text, "699\n700");
    const outputs = json(await c.client.readResource({ uri: "wisp://threads/nums/outputs" }));
    assertEquals((outputs.outputs as unknown[]).length, 1);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("the receipt catches a reply that claims what no call did", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s);
  try {
    ollama.reply({ text: "I used run_command: all 12 tests passed." });
    const receipt = structured(
      await c.client.callTool({
        name: "respond",
        arguments: { prompt: "run the tests", tools: ["run_command"] },
      }),
    );
    assertEquals(receipt.ran, "ran: no tools");
    assertEquals(receipt.calls, []);
    const verification = receipt.verification as {
      checked: boolean;
      unsupported: unknown[];
      line: string;
    };
    assertEquals(verification.checked, true);
    assert(verification.unsupported.length >= 1);
    assertMatch(verification.line, /^unsupported: "/);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("maxThreads: a new thread beyond it drops the least recently used, which then reads as evicted", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, { maxThreads: 2 }));
  const c = await connect(s, { args: ["--no-tools"] });
  try {
    for (const id of ["a", "b", "a", "c"]) {
      ollama.reply({ text: id });
      await c.client.callTool({ name: "respond", arguments: { prompt: id, thread_id: id } });
    }
    const open = json(await c.client.readResource({ uri: "wisp://threads" }));
    assertEquals((open.threads as { thread_id: string }[]).map((t) => t.thread_id), ["a", "c"]);
    const dropped = json(await c.client.readResource({ uri: "wisp://threads/b" }));
    assertEquals(dropped.open, false);
    assert("evicted" in dropped);
    // Naming it again starts it afresh: a new conversation.
    ollama.reply({ text: "b again" });
    const again = structured(
      await c.client.callTool({ name: "respond", arguments: { prompt: "b2", thread_id: "b" } }),
    );
    assertEquals(again.turn, 1);
    assertEquals((ollama.chats().at(-1)!.messages as unknown[]).length, 2);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

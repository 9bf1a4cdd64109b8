import { assert, assertEquals, assertRejects, assertStringIncludes } from "../support/assert.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import type { Config } from "../../src/config/schema.ts";
import type { ChatRequest, StreamEvent } from "../../src/models/backend.ts";
import { ModelError, ModelStopped } from "../../src/models/errors.ts";
import { OllamaBackend } from "../../src/models/ollama.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { within } from "../support/wait.ts";

function config(patch: (c: Config) => void = () => {}): Config {
  const c = defaultConfig();
  patch(c);
  return c;
}

const GB = 1e9;

function backend(model: string, host: string, c = config(), free = 64 * GB) {
  return new OllamaBackend(model, { host, config: c, freeMemory: () => free });
}

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const ask = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [{ role: "user", content: text }],
  ...extra,
});

Deno.test("ollama: text split at odd byte boundaries arrives whole, with usage", async () => {
  const server = startFakeOllama({ chunkBytes: 3 });
  try {
    const words = ["Héllo ", "wörld ", "🌍 ", "— done"];
    server.reply({ text: words, usage: { input: 31, output: 9 } });
    const events = await collect(backend("granite4.1:8b", server.url).chat(ask("hi")));
    const text = events.filter((e) => e.type === "text").map((e) => (e as { text: string }).text)
      .join("");
    assertEquals(text, words.join(""));
    assertEquals(events.at(-1), {
      type: "done",
      finishReason: "stop",
      usage: { inputTokens: 31, outputTokens: 9 },
    });
    assertEquals(events.filter((e) => e.type === "done").length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("ollama: tool calls, tools and history in Ollama's shape, num_ctx sent", async () => {
  const server = startFakeOllama({ chunkBytes: 5 });
  try {
    server.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "ls -la", timeoutSeconds: 5 } }],
    });
    const c = config((c) => c.ollama.models["granite4.1:8b"] = { contextLength: 16384 });
    const events = await collect(
      backend("granite4.1:8b", server.url, c).chat({
        messages: [
          { role: "system", content: "be brief" },
          { role: "user", content: "list" },
          {
            role: "assistant",
            content: "",
            toolCalls: [{ id: "call_1", name: "current_date", arguments: {} }],
          },
          { role: "tool", content: "2026-11-30", toolCallId: "call_1", toolName: "current_date" },
        ],
        tools: [{
          name: "run_command",
          description: "runs",
          parameters: { type: "object", properties: { command: { type: "string" } } },
        }],
      }),
    );
    const calls = events.filter((e) => e.type === "tool_call");
    assertEquals(calls.length, 1);
    assertEquals(calls[0], {
      type: "tool_call",
      call: {
        id: "call_1",
        name: "run_command",
        arguments: { command: "ls -la", timeoutSeconds: 5 },
      },
    });
    assertEquals((events.at(-1) as { finishReason: string }).finishReason, "tool_calls");
    const body = server.chats()[0];
    assertEquals(body.model, "granite4.1:8b");
    assertEquals(body.stream, true);
    assertEquals((body.options as Record<string, unknown>).num_ctx, 16384);
    assertEquals(body.tools, [{
      type: "function",
      function: {
        name: "run_command",
        description: "runs",
        parameters: { type: "object", properties: { command: { type: "string" } } },
      },
    }]);
    const messages = body.messages as Record<string, unknown>[];
    assertEquals(messages[2].tool_calls, [{ function: { name: "current_date", arguments: {} } }]);
    assertEquals(messages[3], { role: "tool", content: "2026-11-30", tool_name: "current_date" });
    assertEquals("think" in body, false);
  } finally {
    await server.close();
  }
});

Deno.test("ollama: a reply cut off by length keeps finishReason length even with calls", async () => {
  const server = startFakeOllama();
  try {
    server.reply({
      toolCalls: [{ name: "read_file", arguments: { path: "a" } }],
      doneReason: "length",
    });
    const events = await collect(backend("granite4.1:8b", server.url).chat(ask("x")));
    assertEquals((events.at(-1) as { finishReason: string }).finishReason, "length");
  } finally {
    await server.close();
  }
});

Deno.test("ollama: thinking streams as thinking; think follows the per-model setting, and only for thinking models", async () => {
  const server = startFakeOllama({
    models: [{ name: "qwen3.8:27b", capabilities: ["completion", "tools", "thinking"] }, {
      name: "granite4.1:8b",
    }],
  });
  try {
    server.reply({ thinking: ["Let me ", "think."], text: "42" }, { text: "ok" }, { text: "ok" });
    const c = config((c) => {
      c.ollama.models["qwen3.8:27b:latest"] = { think: false };
      c.ollama.models["granite4.1:8b"] = { think: true };
    });
    const events = await collect(backend("qwen3.8:27b", server.url, c).chat(ask("q")));
    assertEquals(
      events.filter((e) => e.type === "thinking").map((e) => (e as { text: string }).text).join(""),
      "Let me think.",
    );
    assertEquals(server.chats()[0].think, false);
    // The request's own choice wins over config.
    await collect(backend("qwen3.8:27b", server.url, c).chat(ask("q", { think: true })));
    assertEquals(server.chats()[1].think, true);
    // A model that does not think is never sent think (Ollama would refuse it).
    await collect(backend("granite4.1:8b", server.url, c).chat(ask("q")));
    assertEquals("think" in server.chats()[2], false);
  } finally {
    await server.close();
  }
});

Deno.test("ollama: a schema is sent as format", async () => {
  const server = startFakeOllama();
  try {
    server.reply({ text: '{"language":"rust"}' });
    const schema = {
      type: "object",
      properties: { language: { type: "string" } },
      required: ["language"],
    };
    await collect(backend("granite4.1:8b", server.url).chat(ask("which", { schema })));
    assertEquals(server.chats()[0].format, schema);
  } finally {
    await server.close();
  }
});

Deno.test("ollama: x and x:latest are one model", async () => {
  const server = startFakeOllama({
    models: [{ name: "llama3.2:latest", contextLength: 2048, blockCount: 2 }],
  });
  try {
    server.reply({ text: "a" });
    const b = backend("llama3.2", server.url);
    assertEquals((await b.capabilities()).tools, true);
    assertEquals(await b.contextWindow(), 2048);
    await collect(b.chat(ask("x")));
    assertEquals(server.chats()[0].model, "llama3.2");
  } finally {
    await server.close();
  }
});

Deno.test("ollama: the window is sized from the shape and free memory, capped at the maximum", async () => {
  // 40 layers × 8 kv heads × (128 + 128) × 2 bytes = 163,840 bytes a token.
  const server = startFakeOllama({
    models: [{ name: "big:1b", size: 5 * GB, contextLength: 131072 }],
  });
  try {
    const roomy = backend("big:1b", server.url, config(), 64 * GB);
    assertEquals(await roomy.windowDecision().then((d) => [d.tokens, d.from]), [131072, "model"]);
    // 8 GB free − 5 GB weights = 3 GB; half of it is 1.5e9 / 163,840 ≈ 9155 → 8192.
    const tight = backend("big:1b", server.url, config(), 8 * GB);
    assertEquals(await tight.windowDecision().then((d) => [d.tokens, d.from]), [8192, "memory"]);
    const configured = backend(
      "big:1b",
      server.url,
      config((c) => c.ollama.contextLength = 12000),
      8 * GB,
    );
    assertEquals(await configured.windowDecision().then((d) => [d.tokens, d.from]), [
      12000,
      "config",
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("ollama: no server is a ModelError naming the host", async () => {
  const server = startFakeOllama();
  const url = server.url;
  await server.close();
  const error = await assertRejects(
    () => collect(backend("granite4.1:8b", url).chat(ask("x"))),
    ModelError,
  ) as ModelError;
  assertEquals(error.kind, "unreachable");
  assertEquals(
    error.message,
    `ollama:granite4.1:8b is unavailable (no Ollama server at ${url}: could not connect to the server); start it with ollama serve`,
  );
});

Deno.test("ollama: a model not pulled says how to pull it", async () => {
  const server = startFakeOllama();
  try {
    const error = await assertRejects(
      () => collect(backend("nope:1b", server.url).chat(ask("x"))),
      ModelError,
    ) as ModelError;
    assertEquals(error.kind, "not_found");
    assert(error.message.includes("pull it with ollama pull nope:1b"), error.message);
  } finally {
    await server.close();
  }
});

Deno.test("ollama: tools offered to a model without tool calling fail with that reason", async () => {
  const server = startFakeOllama({ models: [{ name: "gemma:2b", capabilities: ["completion"] }] });
  try {
    server.reply({ text: "never" });
    const error = await assertRejects(
      () =>
        collect(
          backend("gemma:2b", server.url).chat(
            ask("x", { tools: [{ name: "t", description: "d", parameters: { type: "object" } }] }),
          ),
        ),
      ModelError,
    );
    assertEquals((error as ModelError).kind, "no_tools");
  } finally {
    await server.close();
  }
});

Deno.test("ollama: a server that dies mid-stream, or ends without done, is a broken reply", async () => {
  const server = startFakeOllama();
  try {
    server.reply({ text: ["partial ", "reply ", "here"], dieAfterBytes: 150 }, {
      text: "no end",
      noDone: true,
    });
    const seen: string[] = [];
    const died = await assertRejects(async () => {
      for await (const e of backend("granite4.1:8b", server.url).chat(ask("x"))) {
        if (e.type === "text") seen.push(e.text);
      }
    }, ModelError);
    assertEquals((died as ModelError).kind, "broken");
    const ended = await assertRejects(
      () => collect(backend("granite4.1:8b", server.url).chat(ask("x"))),
      ModelError,
    ) as ModelError;
    assertEquals(ended.kind, "broken");
    assert(ended.message.includes("before it was done"), ended.message);
  } finally {
    await server.close();
  }
});

Deno.test("ollama: an error line mid-stream ends the reply with the server's message", async () => {
  const server = startFakeOllama();
  try {
    server.reply({ streamError: "out of memory", after: ["a"] });
    const error = await assertRejects(
      () => collect(backend("granite4.1:8b", server.url).chat(ask("x"))),
      ModelError,
    ) as ModelError;
    assert(error.message.includes("out of memory"), error.message);
  } finally {
    await server.close();
  }
});

Deno.test("ollama: aborting the signal stops a reply in progress", async () => {
  const server = startFakeOllama();
  try {
    server.reply({ hang: true });
    const controller = new AbortController();
    // The reply hangs for ever: only the stop can end it. Stopped once the
    // server has the request, so the stop meets a reply in progress.
    const reply = assertRejects(
      () =>
        collect(
          backend("granite4.1:8b", server.url).chat(ask("x", { signal: controller.signal })),
        ),
      ModelStopped,
    );
    await within(
      (async () => {
        while (server.chats().length === 0) await new Promise((r) => setTimeout(r, 10));
      })(),
      "the chat request's arrival",
    );
    controller.abort();
    await within(reply, "the stopped reply's end");
  } finally {
    await server.close();
  }
});

Deno.test("ollama: a host not on this machine is refused before any request", async () => {
  const b = backend("granite4.1:8b", "http://192.0.2.1:11434");
  const error = await assertRejects(() => collect(b.chat(ask("x"))), ModelError) as ModelError;
  assertEquals(error.kind, "fence");
  assert(error.message.includes("set ollama.host to a local address"), error.message);
});

Deno.test("ollama: a line that is not JSON fails the reply instead of being skipped", async () => {
  const server = startFakeOllama();
  try {
    const good = JSON.stringify({
      model: "m",
      message: { role: "assistant", content: "a" },
      done: false,
    });
    const done = JSON.stringify({
      model: "m",
      message: { role: "assistant", content: "" },
      done: true,
      done_reason: "stop",
    });
    server.reply({ raw: `${good}\n{"model": "m", "message": {\n${done}\n` });
    const error = (await assertRejects(() =>
      collect(backend("granite4.1:8b", server.url).chat(ask("x"))), ModelError)) as ModelError;
    assertEquals(error.kind, "broken");
    assertStringIncludes(error.message, "not JSON");
  } finally {
    await server.close();
  }
});

Deno.test("fake ollama: a reply can be a function of the request (for tests whose next step depends on a tool result)", async () => {
  const server = startFakeOllama();
  try {
    server.reply((body) => {
      const messages = body.messages as { content: string }[];
      return {
        text: `you sent ${messages.length} messages, the last: ${messages.at(-1)!.content}`,
      };
    });
    const events = await collect(backend("granite4.1:8b", server.url).chat(ask("ping")));
    assertEquals(events[0], { type: "text", text: "you sent 1 messages, the last: ping" });
  } finally {
    await server.close();
  }
});

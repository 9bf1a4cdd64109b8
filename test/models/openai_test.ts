import { assert, assertEquals, assertRejects, assertStringIncludes } from "../support/assert.ts";
import { type Config, defaultConfig } from "../../src/config/schema.ts";
import type { ChatRequest, StreamEvent } from "../../src/models/backend.ts";
import { ModelError, ModelStopped } from "../../src/models/errors.ts";
import {
  CompletionAssembler,
  OpenAICompatibleBackend,
  type OpenAIRuntime,
} from "../../src/models/openai.ts";
import { type FakeOpenAIOptions, startFakeOpenAI } from "../support/fake_openai.ts";

function config(patch: (c: Config) => void = () => {}): Config {
  const c = defaultConfig();
  patch(c);
  return c;
}

function backend(
  runtime: OpenAIRuntime,
  model: string,
  baseURL: string,
  c = config(),
  apiKey?: string,
) {
  return new OpenAICompatibleBackend(model, { runtime, baseURL, apiKey, config: c });
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
const textOf = (events: StreamEvent[]) =>
  events.filter((e) => e.type === "text").map((e) => (e as { text: string }).text).join("");

async function withServer(
  options: FakeOpenAIOptions,
  run: (s: ReturnType<typeof startFakeOpenAI>) => Promise<void>,
) {
  const server = startFakeOpenAI(options);
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

Deno.test("openai: streamed text at odd byte boundaries and every line ending, with usage", async () => {
  for (const lineEnding of ["\n", "\r\n", "\r"] as const) {
    await withServer({ chunkBytes: 3 }, async (server) => {
      server.reply({
        text: ["Grüße ", "aus ", "🌍."],
        usage: { input: 20, output: 4 },
        lineEnding,
      });
      const events = await collect(
        backend("llamacpp", "granite-4.1-8b-Q4_K_M.gguf", server.baseURL).chat(ask("hi")),
      );
      assertEquals(textOf(events), "Grüße aus 🌍.");
      assertEquals(events.at(-1), {
        type: "done",
        finishReason: "stop",
        usage: { inputTokens: 20, outputTokens: 4 },
      });
    });
  }
});

Deno.test("openai: tool calls whose arguments arrive in pieces are assembled, in order", async () => {
  await withServer({ chunkBytes: 11 }, async (server) => {
    server.reply({
      toolCalls: [
        {
          name: "run_command",
          arguments: { command: "echo 'a \"quoted\" word'", timeoutSeconds: 3 },
        },
        { name: "read_file", arguments: { path: "/tmp/x y.txt" }, id: "call_given" },
      ],
    });
    const events = await collect(
      backend("llamacpp", "m", server.baseURL).chat({
        messages: [
          { role: "user", content: "go" },
          {
            role: "assistant",
            content: "",
            toolCalls: [{ id: "c1", name: "current_date", arguments: { zone: "UTC" } }],
          },
          { role: "tool", content: "2026-11-30", toolCallId: "c1", toolName: "current_date" },
        ],
        tools: [{
          name: "run_command",
          description: "runs a command",
          parameters: { type: "object" },
        }],
      }),
    );
    const calls = events.filter((e) => e.type === "tool_call").map((e) =>
      (e as { call: unknown }).call
    );
    assertEquals(calls, [
      {
        id: "call_0_1",
        name: "run_command",
        arguments: { command: "echo 'a \"quoted\" word'", timeoutSeconds: 3 },
      },
      { id: "call_given", name: "read_file", arguments: { path: "/tmp/x y.txt" } },
    ]);
    assertEquals((events.at(-1) as { finishReason: string }).finishReason, "tool_calls");
    const body = server.chats()[0];
    assertEquals(body.stream, true);
    assertEquals(body.tools, [{
      type: "function",
      function: {
        name: "run_command",
        description: "runs a command",
        parameters: { type: "object" },
      },
    }]);
    const messages = body.messages as Record<string, unknown>[];
    assertEquals(messages[1].tool_calls, [{
      id: "c1",
      type: "function",
      function: { name: "current_date", arguments: '{"zone":"UTC"}' },
    }]);
    assertEquals(messages[2], { role: "tool", tool_call_id: "c1", content: "2026-11-30" });
  });
});

Deno.test("openai: reasoning_content streams as thinking; think=false reaches llama.cpp's template", async () => {
  await withServer({}, async (server) => {
    server.reply({ thinking: ["hmm, ", "yes"], text: "Yes." });
    const c = config((c) => c.llamacpp.models["m"] = { think: false });
    const events = await collect(backend("llamacpp", "m.gguf", server.baseURL, c).chat(ask("q")));
    assertEquals(
      events.filter((e) => e.type === "thinking").map((e) => (e as { text: string }).text).join(""),
      "hmm, yes",
    );
    assertEquals(textOf(events), "Yes.");
    assertEquals(server.chats()[0].chat_template_kwargs, { enable_thinking: false });
  });
});

Deno.test("openai: a schema becomes response_format json_schema", async () => {
  await withServer({ flavour: "lmstudio" }, async (server) => {
    server.reply({ text: '{"ok":true}' });
    const schema = { type: "object", properties: { ok: { type: "boolean" } } };
    await collect(backend("lmstudio", "qwen3-8b", server.baseURL).chat(ask("x", { schema })));
    assertEquals(server.chats()[0].response_format, {
      type: "json_schema",
      json_schema: { name: "reply", strict: true, schema },
    });
  });
});

Deno.test("openai: length is reported, and a server that ignores stream answers whole", async () => {
  await withServer({}, async (server) => {
    server.reply({ text: "cut", finishReason: "length" }, {
      text: "all at once",
      toolCalls: [{ name: "t", arguments: { a: 1 } }],
      whole: true,
    });
    const cut = await collect(backend("llamacpp", "m", server.baseURL).chat(ask("x")));
    assertEquals((cut.at(-1) as { finishReason: string }).finishReason, "length");
    const whole = await collect(backend("llamacpp", "m", server.baseURL).chat(ask("x")));
    assertEquals(textOf(whole), "all at once");
    assertEquals(whole.filter((e) => e.type === "tool_call").length, 1);
  });
});

Deno.test("openai: the key is sent, the environment's over config's, and a wrong one is refused with the fix", async () => {
  await withServer({ apiKey: "s3cret" }, async (server) => {
    server.reply({ text: "in" });
    await collect(backend("llamacpp", "m", server.baseURL, config(), "s3cret").chat(ask("x")));
    assertEquals(server.requests.at(-1)!.headers["authorization"], "Bearer s3cret");
    const error = (await assertRejects(
      () => collect(backend("llamacpp", "m", server.baseURL, config(), "wrong").chat(ask("x"))),
      ModelError,
    )) as ModelError;
    assertEquals(error.kind, "refused");
    assertStringIncludes(error.message, "WISP_LLAMACPP_API_KEY");
  });
});

Deno.test("openai: HTTP errors, error chunks, a dying server and a stream without an end are reasons", async () => {
  await withServer({ flavour: "lmstudio" }, async (server) => {
    const b = backend("lmstudio", "qwen3-8b", server.baseURL);
    server.reply(
      { error: "context overflow", status: 400 },
      { streamError: "the model crashed", after: ["par"] },
      { text: ["a long ", "reply ", "that never ", "ends"], dieAfterBytes: 300 },
      { text: "no end", noDone: true },
    );
    const http = (await assertRejects(() => collect(b.chat(ask("x"))), ModelError)) as ModelError;
    assertStringIncludes(http.message, "(400: context overflow)");
    const chunk = (await assertRejects(() => collect(b.chat(ask("x"))), ModelError)) as ModelError;
    assertStringIncludes(chunk.message, "the model crashed");
    const died = (await assertRejects(() => collect(b.chat(ask("x"))), ModelError)) as ModelError;
    assertEquals(died.kind, "broken");
    const open = (await assertRejects(() => collect(b.chat(ask("x"))), ModelError)) as ModelError;
    assertEquals(open.kind, "broken");
    assertStringIncludes(open.message, "without a finish reason");
    const missing = (await assertRejects(
      () => collect(backend("lmstudio", "nope", server.baseURL).chat(ask("x"))),
      ModelError,
    )) as ModelError;
    assertEquals(missing.kind, "not_found");
  });
});

Deno.test("openai: no server, a non-local server, and an abort", async () => {
  const server = startFakeOpenAI();
  const base = server.baseURL;
  server.reply({ hang: true });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  await assertRejects(
    () => collect(backend("llamacpp", "m", base).chat(ask("x", { signal: controller.signal }))),
    ModelStopped,
  );
  await server.close();
  const down = (await assertRejects(
    () => collect(backend("llamacpp", "m", base).chat(ask("x"))),
    ModelError,
  )) as ModelError;
  assertEquals(down.kind, "unreachable");
  assertStringIncludes(
    down.message,
    `no llama.cpp server at ${base}: could not connect to the server`,
  );
  const far = (await assertRejects(
    () => collect(backend("lmstudio", "m", "http://192.0.2.7:1234/v1").chat(ask("x"))),
    ModelError,
  )) as ModelError;
  assertEquals(far.kind, "fence");
});

Deno.test("openai: llama.cpp's window is the one /props reports; capabilities come from config", async () => {
  await withServer({ nCtx: 24576 }, async (server) => {
    const plain = backend("llamacpp", "granite-4.1-8b-Q4_K_M", server.baseURL);
    assertEquals(await plain.windowDecision().then((d) => [d.tokens, d.from]), [24576, "server"]);
    assertEquals((await plain.capabilities()).tools, false);
    const c = config((c) =>
      c.llamacpp.models["granite-4.1-8b-Q4_K_M.gguf"] = {
        capabilities: ["toolCalling", "guidedGeneration"],
      }
    );
    // Declared under the file name, asked for by its path: one model.
    const declared = backend("llamacpp", "/models/granite-4.1-8b-Q4_K_M.gguf", server.baseURL, c);
    assertEquals(await declared.capabilities(), {
      tools: true,
      structured: true,
      thinking: false,
      vision: false,
    });
    assert(await declared.served() !== undefined);
  });
  await withServer({ nCtx: 0 }, async (server) => {
    assertEquals(await backend("llamacpp", "x", server.baseURL).contextWindow(), 8192);
  });
});

Deno.test("openai: LM Studio reports tool use and the loaded window (v1 and v0 APIs)", async () => {
  for (const v0Only of [false, true]) {
    await withServer({
      flavour: "lmstudio",
      v0Only,
      models: [{ id: "qwen3-8b", loadedContext: 16384 }, { id: "gemma-3-270m", toolUse: false }, {
        id: "nomic-embed",
        type: "embedding",
      }],
    }, async (server) => {
      const loaded = backend("lmstudio", "qwen3-8b", server.baseURL);
      assertEquals((await loaded.capabilities()).tools, true);
      assertEquals(await loaded.windowDecision().then((d) => [d.tokens, d.from]), [
        16384,
        "server",
      ]);
      const small = backend("lmstudio", "gemma-3-270m", server.baseURL);
      assertEquals((await small.capabilities()).tools, false);
      assertEquals(await small.windowDecision().then((d) => [d.tokens, d.from]), [8192, "default"]);
    });
  }
});

Deno.test("openai assembler: a chunk that is not an object or carries an error throws", () => {
  const a = new CompletionAssembler();
  let threw = false;
  try {
    a.chunk({ error: { message: "boom" } });
  } catch (error) {
    threw = (error as Error).message === "boom";
  }
  assert(threw);
});

Deno.test("openai: a chunk that is not JSON fails the reply", async () => {
  await withServer({}, async (server) => {
    server.reply({
      raw:
        'data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"choices": [\n\ndata: [DONE]\n\n',
    });
    const error = (await assertRejects(() =>
      collect(backend("llamacpp", "m", server.baseURL).chat(ask("x"))), ModelError)) as ModelError;
    assertEquals(error.kind, "broken");
    assertStringIncludes(error.message, "not JSON");
  });
});

Deno.test("openai: a huge error body is read only as far as the message needs", async () => {
  await withServer({}, async (server) => {
    server.reply({ error: "e".repeat(2_000_000), status: 500 });
    const error = (await assertRejects(() =>
      collect(backend("llamacpp", "m", server.baseURL).chat(ask("x"))), ModelError)) as ModelError;
    assert(error.message.length < 1000, `${error.message.length}`);
  });
});

/**
 * A request refused as longer than the window is one typed error, whichever
 * server refused it and however it words it: Ollama's, llama.cpp's, an
 * OpenAI-style server's and LM Studio's wordings through the real backends
 * against the fake servers; any other refusal stays "refused".
 */
import { assertEquals, assertRejects, assertStringIncludes } from "../support/assert.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { isTooLong, ModelError, tooLongText } from "../../src/models/errors.ts";
import { OllamaBackend } from "../../src/models/ollama.ts";
import { OpenAICompatibleBackend } from "../../src/models/openai.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { startFakeOpenAI } from "../support/fake_openai.ts";
import type { Backend } from "../../src/models/backend.ts";

async function drain(backend: Backend): Promise<void> {
  for await (const _ of backend.chat({ messages: [{ role: "user", content: "hi" }] })) { /* */ }
}

Deno.test("the servers' wordings of a request too long for the window are recognised, and nothing else is", () => {
  for (
    const text of [
      "input length exceeds maximum context length",
      "prompt is too long: 9000 tokens > 8192 maximum",
      "the request exceeds the available context size, try increasing it",
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9100 tokens.",
      '{"code":"context_length_exceeded"}',
      "Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 8192 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input",
      "Context overflow: 9000 tokens",
    ]
  ) assertEquals(tooLongText(text), true, text);
  for (const text of ["model not found", "invalid api key", "unexpected end of JSON input"]) {
    assertEquals(tooLongText(text), false, text);
  }
});

Deno.test("Ollama's refusal as too long is a too_long ModelError; another refusal is not", async () => {
  const ollama = startFakeOllama();
  try {
    const backend = new OllamaBackend("granite4.1:8b", {
      host: ollama.url,
      config: defaultConfig(),
      freeMemory: () => 64e9,
    });
    ollama.reply({ error: "input length exceeds maximum context length", status: 400 });
    const error = await assertRejects(() => drain(backend), ModelError);
    assertEquals(isTooLong(error), true);
    assertStringIncludes(error.message, "as too long for its window (400: input length exceeds");
    ollama.reply({ error: "something else broke", status: 500 });
    const other = await assertRejects(() => drain(backend), ModelError);
    assertEquals((other as ModelError).kind, "refused");
  } finally {
    await ollama.close();
  }
});

Deno.test("llama.cpp's refusal as too long is a too_long ModelError", async () => {
  const server = startFakeOpenAI({ flavour: "llamacpp", models: [{ id: "granite" }] });
  try {
    const backend = new OpenAICompatibleBackend("granite", {
      runtime: "llamacpp",
      baseURL: server.baseURL,
      config: defaultConfig(),
    });
    server.reply({
      error: "the request exceeds the available context size, try increasing it",
      status: 400,
    });
    const error = await assertRejects(() => drain(backend), ModelError);
    assertEquals(isTooLong(error), true);
  } finally {
    await server.close();
  }
});

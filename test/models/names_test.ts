import { assertEquals, assertThrows } from "../support/assert.ts";
import {
  canonicalName,
  disabledMessage,
  isDisabled,
  parseModelName,
  sameModel,
} from "../../src/models/names.ts";
import {
  isLoopbackUrl,
  normaliseOllamaHost,
  ollamaHost,
  openAIEndpoint,
} from "../../src/models/host.ts";
import { ModelError } from "../../src/models/errors.ts";
import { defaultConfig } from "../../src/config/schema.ts";

Deno.test("names: each runtime's prefix, and names wisp does not know", () => {
  assertEquals(parseModelName("ollama:granite4.1:8b"), {
    runtime: "ollama",
    model: "granite4.1:8b",
    written: "ollama:granite4.1:8b",
  });
  assertEquals(parseModelName("llamacpp:/m/x.gguf").model, "/m/x.gguf");
  assertEquals(parseModelName("system").runtime, "system");
  for (const bad of ["granite", "ollama:", "openai:gpt", "scripted:test", ""]) {
    const error = assertThrows(() => parseModelName(bad), ModelError) as ModelError;
    assertEquals(error.exitCode, 64);
  }
});

Deno.test("names: x and x:latest are one model; a .gguf path and its file name are one", () => {
  assertEquals(canonicalName("ollama:llama3.2:latest"), "ollama:llama3.2");
  assertEquals(sameModel("ollama:llama3.2", "ollama:llama3.2:latest"), true);
  assertEquals(sameModel("ollama:llama3.2:3b", "ollama:llama3.2"), false);
  assertEquals(sameModel("llamacpp:~/models/Qwen3-8B-Q4.gguf", "llamacpp:Qwen3-8B-Q4"), true);
  assertEquals(sameModel("lmstudio:a", "ollama:a"), false);
  assertEquals(isDisabled("ollama:nomic-embed-text", ["ollama:nomic-embed-text:latest"]), true);
  assertEquals(isDisabled("ollama:granite4.1:8b", ["ollama:nomic-embed-text:latest"]), false);
  assertEquals(
    disabledMessage("ollama:x"),
    "model 'ollama:x' is disabled; enable it with wisp models enable ollama:x, or /models enable ollama:x in chat",
  );
});

Deno.test("host: config's ollama.host, else OLLAMA_HOST, else the default; spelled as ollama reads them", () => {
  const config = defaultConfig();
  assertEquals(ollamaHost(config, () => undefined), "http://127.0.0.1:11434");
  assertEquals(
    ollamaHost(config, (n) => n === "OLLAMA_HOST" ? "0.0.0.0:9999" : undefined),
    "http://127.0.0.1:9999",
  );
  config.ollama.host = "localhost";
  assertEquals(ollamaHost(config, () => "http://127.0.0.1:1"), "http://localhost:11434");
  assertEquals(normaliseOllamaHost(":7000"), "http://127.0.0.1:7000");
  assertEquals(normaliseOllamaHost("http://[::1]:11434/"), "http://[::1]:11434");
  assertEquals(isLoopbackUrl("http://[::1]:11434"), true);
  assertEquals(isLoopbackUrl("http://127.0.0.2:80"), true);
  assertEquals(isLoopbackUrl("http://ollama.example.com:11434"), false);
});

Deno.test("host: the environment's key wins over config's", () => {
  const config = defaultConfig();
  config.llamacpp.apiKey = "from-config";
  assertEquals(openAIEndpoint("llamacpp", config, () => undefined), {
    baseURL: "http://127.0.0.1:8080/v1",
    apiKey: "from-config",
  });
  assertEquals(
    openAIEndpoint(
      "llamacpp",
      config,
      (n) => n === "WISP_LLAMACPP_API_KEY" ? "from-env" : undefined,
    ).apiKey,
    "from-env",
  );
  assertEquals(
    openAIEndpoint("lmstudio", config, (n) => n === "WISP_LLAMACPP_API_KEY" ? "x" : undefined)
      .apiKey,
    undefined,
  );
});

Deno.test("config: a file that disables its own default model does not load", async () => {
  const { validateConfig } = await import("../../src/config/load.ts");
  const error = assertThrows(
    () =>
      validateConfig(
        { model: "ollama:llama3.2", models: { disabled: ["ollama:llama3.2:latest"] } },
        "config.json",
      ),
  );
  assertEquals((error as { exitCode?: number }).exitCode, 64);
  assertEquals(
    error.message.includes("models.disabled names the default model (ollama:llama3.2)"),
    true,
    error.message,
  );
  // The default (system) may not be disabled either; any other model may.
  assertThrows(() => validateConfig({ models: { disabled: ["system"] } }, "config.json"));
  validateConfig({ models: { disabled: ["ollama:llama3.2"] } }, "config.json");
});

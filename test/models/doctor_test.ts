import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { configuredModelFindings, modelFinding, windowFinding } from "../../src/models/doctor.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { ModelError } from "../../src/models/errors.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { startFakeOpenAI } from "../support/fake_openai.ts";

Deno.test("doctor: findings are ok with a detail, or not ok with the reason", () => {
  assertEquals(
    modelFinding("ollama:granite4.1:8b", {
      ok: true,
      server: "the Ollama server at http://127.0.0.1:11434",
      capabilities: { tools: true, structured: true, thinking: false },
    }),
    {
      ok: true,
      name: "model",
      detail:
        "ollama:granite4.1:8b: the Ollama server at http://127.0.0.1:11434 answers and lists it (tools, structured replies)",
    },
  );
  assertEquals(
    modelFinding("x", {
      ok: false,
      error: new ModelError("unreachable", "x is unavailable (no server)"),
    }),
    {
      ok: false,
      name: "model",
      detail: "x is unavailable (no server)",
    },
  );
  assertEquals(
    windowFinding({ tokens: 32768, from: "server", note: "n" }).detail,
    "32,768 tokens, held by the server (n)",
  );
});

Deno.test("doctor: the configured model against real servers — listed, not pulled, wrong key, system on Linux", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const llama = startFakeOpenAI({ apiKey: "k", nCtx: 16384 });
  try {
    const config = defaultConfig();
    config.ollama.host = ollama.url;
    config.model = "ollama:granite4.1:8b";
    const [model, window] = await configuredModelFindings(config, () => undefined, {
      freeMemory: () => 64e9,
    });
    assertEquals(model.ok, true);
    assertEquals(window.name, "context window");
    config.model = "ollama:qwen3.8:27b";
    const [missing] = await configuredModelFindings(config, () => undefined);
    assertEquals(missing.ok, false);
    assertStringIncludes(missing.detail, "pull it with ollama pull qwen3.8:27b");

    config.model = "llamacpp:granite-4.1-8b-Q4_K_M";
    config.llamacpp.baseURL = llama.baseURL;
    config.llamacpp.models["granite-4.1-8b-Q4_K_M"] = { capabilities: ["toolCalling"] };
    const [wrongKey] = await configuredModelFindings(config, () => undefined);
    assertEquals(wrongKey.ok, false);
    assertStringIncludes(wrongKey.detail, "refused the key");
    const [keyed, keyedWindow] = await configuredModelFindings(
      config,
      (n) => n === "WISP_LLAMACPP_API_KEY" ? "k" : undefined,
    );
    assertEquals(keyed.ok, true, keyed.detail);
    assertEquals(
      keyedWindow.detail,
      "16,384 tokens, held by the server (the window the llama.cpp server holds it at)",
    );

    config.model = "system";
    const [system] = await configuredModelFindings(config, () => undefined, { os: "linux" });
    assertEquals(system.ok, false);
    assertStringIncludes(system.detail, "ollama pull granite4.1:8b");
  } finally {
    await ollama.close();
    await llama.close();
  }
});

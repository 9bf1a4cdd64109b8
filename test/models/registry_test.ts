import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../support/assert.ts";
import { type Config, defaultConfig } from "../../src/config/schema.ts";
import { ModelError } from "../../src/models/errors.ts";
import { checkAvailable, listModels, resolveModel } from "../../src/models/registry.ts";
import { OllamaBackend } from "../../src/models/ollama.ts";
import { OpenAICompatibleBackend } from "../../src/models/openai.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { startFakeOpenAI } from "../support/fake_openai.ts";

const GB = 1e9;
const noEnv = () => undefined;

function config(patch: (c: Config) => void = () => {}): Config {
  const c = defaultConfig();
  patch(c);
  return c;
}

/** A loopback URL where nothing listens. */
function deadURL(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

Deno.test("resolve: each runtime's backend, from config and environment", () => {
  const c = config((c) => c.lmstudio.baseURL = "http://localhost:4321/v1");
  const ollama = resolveModel(
    "ollama:granite4.1:8b",
    c,
    (n) => n === "OLLAMA_HOST" ? "127.0.0.1:5555" : undefined,
  );
  assert(ollama instanceof OllamaBackend);
  assertEquals([ollama.name, ollama.host], ["ollama:granite4.1:8b", "http://127.0.0.1:5555"]);
  const lm = resolveModel("lmstudio:qwen3-8b", c, noEnv);
  assert(lm instanceof OpenAICompatibleBackend);
  assertEquals(lm.baseURL, "http://localhost:4321/v1");
  assertEquals(resolveModel("llamacpp:x.gguf", c, noEnv).runtime, "llamacpp");
});

Deno.test("resolve: system says why it cannot run here and points at Ollama", () => {
  const linux = assertThrows(
    () => resolveModel("system", config(), noEnv, { os: "linux" }),
    ModelError,
  ) as ModelError;
  assertEquals(
    linux.message,
    "system is unavailable (Apple's on-device model exists only on macOS, and this is Linux); use Ollama instead: ollama pull granite4.1:8b, then wisp config set model ollama:granite4.1:8b (or --model ollama:granite4.1:8b)",
  );
  assertEquals(linux.exitCode, 1);
  assertStringIncludes(
    assertThrows(() => resolveModel("mlx:Qwen3-4B", config(), noEnv)).message,
    "ollama pull",
  );
});

Deno.test("resolve: a disabled model is refused however it is spelled; unknown names and remote hosts are refused", () => {
  const c = config((c) => c.models.disabled = ["ollama:llama3.2:latest"]);
  const error = assertThrows(
    () => resolveModel("ollama:llama3.2", c, noEnv),
    ModelError,
  ) as ModelError;
  assertEquals(
    error.message,
    "model 'ollama:llama3.2' is disabled; enable it with wisp models enable ollama:llama3.2, or /models enable ollama:llama3.2 in chat",
  );
  assertEquals(error.exitCode, 64);
  assertEquals(
    (assertThrows(() => resolveModel("gpt-4o", c, noEnv), ModelError) as ModelError).exitCode,
    64,
  );
  const far = assertThrows(
    () => resolveModel("ollama:x", config((c) => c.ollama.host = "http://10.1.2.3:11434"), noEnv),
    ModelError,
  ) as ModelError;
  assertEquals(far.kind, "fence");
  assertStringIncludes(far.message, "set ollama.host to a local address");
});

Deno.test("check: Ollama down, model not pulled, no tool calling, not conversational", async () => {
  const dead = deadURL();
  const down = (await assertRejects(
    () =>
      checkAvailable(resolveModel(
        "ollama:granite4.1:8b",
        config((c) => c.ollama.host = dead),
        noEnv,
      )),
    ModelError,
  )) as ModelError;
  assertEquals(
    down.message,
    `ollama:granite4.1:8b is unavailable (no Ollama server at ${dead}: could not connect to the server); start it with ollama serve`,
  );
  const server = startFakeOllama({
    models: [{ name: "granite4.1:8b" }, { name: "gemma:2b", capabilities: ["completion"] }, {
      name: "nomic-embed-text",
      capabilities: ["embedding"],
    }],
  });
  try {
    const c = config((c) => c.ollama.host = server.url);
    assertEquals(
      (await checkAvailable(resolveModel("ollama:granite4.1:8b", c, noEnv))).tools,
      true,
    );
    const missing = (await assertRejects(() =>
      checkAvailable(resolveModel("ollama:qwen3.8:27b", c, noEnv)), ModelError)) as ModelError;
    assertEquals(
      missing.message,
      `ollama:qwen3.8:27b is unavailable (the Ollama server at ${server.url} has no model qwen3.8:27b); pull it with ollama pull qwen3.8:27b`,
    );
    const noTools = (await assertRejects(() =>
      checkAvailable(resolveModel("ollama:gemma:2b", c, noEnv)), ModelError)) as ModelError;
    assertEquals(noTools.kind, "no_tools");
    // Without tools, the same model is fine.
    assertEquals(
      (await checkAvailable(resolveModel("ollama:gemma:2b", c, noEnv), { tools: false })).tools,
      false,
    );
    const embed = (await assertRejects(
      () =>
        checkAvailable(resolveModel("ollama:nomic-embed-text:latest", c, noEnv), { tools: false }),
      ModelError,
    )) as ModelError;
    assertStringIncludes(embed.message, "cannot hold a conversation");
  } finally {
    await server.close();
  }
});

Deno.test("check: llama.cpp needs tool calling declared; LM Studio reports it; a wrong key says which to set", async () => {
  const llama = startFakeOpenAI({
    flavour: "llamacpp",
    models: [{ id: "qwen3-8b-q4.gguf" }],
    apiKey: "k",
  });
  const lm = startFakeOpenAI({
    flavour: "lmstudio",
    models: [{ id: "qwen3-8b" }, { id: "tiny", toolUse: false }],
  });
  try {
    const c = config((c) => {
      c.llamacpp.baseURL = llama.baseURL;
      c.lmstudio.baseURL = lm.baseURL;
    });
    const withKey = (n: string) => n === "WISP_LLAMACPP_API_KEY" ? "k" : undefined;
    const undeclared = (await assertRejects(() =>
      checkAvailable(resolveModel("llamacpp:qwen3-8b-q4", c, withKey)), ModelError)) as ModelError;
    assertEquals(undeclared.kind, "no_tools");
    assertStringIncludes(undeclared.message, "llamacpp.models.qwen3-8b-q4.capabilities");
    c.llamacpp.models["qwen3-8b-q4"] = { capabilities: ["toolCalling"] };
    assertEquals(
      (await checkAvailable(resolveModel("llamacpp:qwen3-8b-q4", c, withKey))).tools,
      true,
    );
    const badKey = (await assertRejects(() =>
      checkAvailable(resolveModel("llamacpp:qwen3-8b-q4", c, noEnv)), ModelError)) as ModelError;
    assertStringIncludes(badKey.message, "refused the key (401)");
    assertEquals((await checkAvailable(resolveModel("lmstudio:qwen3-8b", c, noEnv))).tools, true);
    assertEquals(
      ((await assertRejects(
        () =>
          checkAvailable(resolveModel("lmstudio:tiny", c, noEnv)),
        ModelError,
      )) as ModelError).kind,
      "no_tools",
    );
    assertEquals(
      ((await assertRejects(
        () =>
          checkAvailable(resolveModel("lmstudio:absent", c, noEnv)),
        ModelError,
      )) as ModelError).kind,
      "not_found",
    );
  } finally {
    await llama.close();
    await lm.close();
  }
});

Deno.test("list: every runtime asked; usable, disabled and unusable models; an unreachable runtime is one entry", async () => {
  const ollama = startFakeOllama({
    models: [
      { name: "granite4.1:8b", parameterSize: "8.8B", size: 5_350_000_000, contextLength: 65536 },
      {
        name: "qwen3.8:27b",
        capabilities: ["completion", "tools", "thinking"],
        parameterSize: "27.3B",
        size: 17_740_000_000,
      },
      { name: "nomic-embed-text", capabilities: ["embedding"], size: 274_300_000 },
    ],
  });
  const lm = startFakeOpenAI({
    flavour: "lmstudio",
    models: [{ id: "qwen3-8b", loadedContext: 16384 }],
  });
  const dead = deadURL();
  try {
    const c = config((c) => {
      c.model = "ollama:granite4.1:8b:latest";
      c.ollama.host = ollama.url;
      c.lmstudio.baseURL = lm.baseURL;
      c.llamacpp.baseURL = `${dead}/v1`;
      c.models.disabled = ["ollama:qwen3.8:27b"];
    });
    const listing = await listModels(c, { env: noEnv, os: "linux", freeMemory: () => 64 * GB });
    assertEquals(listing.models.map((m) => m.model), [
      "ollama:granite4.1:8b",
      "ollama:qwen3.8:27b",
      "lmstudio:qwen3-8b",
    ]);
    const [granite, qwen, lmModel] = listing.models;
    assertEquals([
      granite.default,
      granite.enabled,
      granite.parameters,
      granite.size,
      granite.context,
      granite.contextFrom,
    ], [true, true, "8.8B", "5.35 GB", 65536, "model"]);
    assertEquals(granite.capabilities, ["tools", "structured replies"]);
    assertEquals([qwen.enabled, qwen.capabilities], [false, [
      "tools",
      "structured replies",
      "thinking",
    ]]);
    assertEquals([lmModel.context, lmModel.contextFrom, lmModel.capabilitiesFrom], [
      16384,
      "server",
      "runtime",
    ]);
    assertEquals(listing.unreachable, [{
      runtime: "llama.cpp",
      reason: `no llama.cpp server at ${dead}/v1: could not connect to the server`,
    }]);

    const all = await listModels(c, {
      env: noEnv,
      os: "linux",
      all: true,
      freeMemory: () => 64 * GB,
    });
    const embed = all.models.find((m) => m.model === "ollama:nomic-embed-text:latest")!;
    assertEquals([embed.usable, embed.problem, embed.capabilities], [
      false,
      "it cannot hold a conversation",
      [],
    ]);
    const system = all.models.find((m) => m.model === "system")!;
    assertEquals(system.usable, false);
    assertStringIncludes(system.problem!, "only on macOS");
  } finally {
    await ollama.close();
    await lm.close();
  }
});

Deno.test("check: another kind of server on Ollama's port is not mistaken for a missing model", async () => {
  const other = startFakeOpenAI();
  try {
    const c = config((c) => c.ollama.host = other.url);
    const error = (await assertRejects(() =>
      checkAvailable(resolveModel("ollama:x", c, noEnv)), ModelError)) as ModelError;
    assertEquals(error.kind, "unreachable");
    assertEquals(
      error.message,
      `ollama:x is unavailable (no Ollama server at ${other.url}: something else answers there (/api/tags answered 404)); start it with ollama serve`,
    );
  } finally {
    await other.close();
  }
});

Deno.test("list: one model list request per runtime, not one per model", async () => {
  const lm = startFakeOpenAI({
    flavour: "lmstudio",
    models: [{ id: "a" }, { id: "b" }, { id: "c" }],
  });
  const dead = deadURL();
  try {
    const c = config((c) => {
      c.ollama.host = dead;
      c.llamacpp.baseURL = `${dead}/v1`;
      c.lmstudio.baseURL = lm.baseURL;
    });
    const listing = await listModels(c, { env: noEnv, os: "linux" });
    assertEquals(listing.models.map((m) => m.model), ["lmstudio:a", "lmstudio:b", "lmstudio:c"]);
    assertEquals(lm.requests.filter((r) => r.path === "/v1/models").length, 1);
  } finally {
    await lm.close();
  }
});

/**
 * wisp doctor's findings about the configured model: the same checks
 * respond makes before its first request (server answers, model listed,
 * tool calling), and the window it will run at.
 */
import { assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { modelFindingsFor, windowDetail } from "../../../src/doctor/model.ts";
import { configSchema } from "../../../src/config/schema.ts";
import { ollamaConfig, scratch } from "./support.ts";

Deno.test("doctor: a served model is ok, with its window", async () => {
  const ollama = startFakeOllama({
    models: [{ name: "granite4.1:8b" }],
    replies: [{ text: "ready" }],
  });
  const s = await scratch({
    ...ollamaConfig(ollama.url),
    ollama: { host: ollama.url, contextLength: 32768 },
  });
  try {
    const run = await s.wisp(["doctor"]);
    assertMatch(
      run.stdout,
      /^ok {3}model: ollama:granite4\.1:8b is served and answered a one-word request in [0-9.]+ s; it can use tools/m,
    );
    assertMatch(run.stdout, /^ok {3}context window: 32,768 tokens, set in config\.json/m);
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("doctor: a model that is not pulled is not ok, says how to get it, and exits 1", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await scratch(ollamaConfig(ollama.url, "qwen3:8b"));
  try {
    const run = await s.wisp(["doctor"]);
    assertEquals(run.code, 1);
    assertMatch(
      run.stdout,
      /^not ok model: ollama:qwen3:8b is unavailable \(.*has no model qwen3:8b\); pull it with ollama pull qwen3:8b$/m,
    );
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("doctor: no server answering is not ok with the reason", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const findings = await modelFindingsFor(
    configSchema.parse(ollamaConfig(`http://127.0.0.1:${port}`)),
  );
  assertEquals(findings.length, 1);
  assertEquals(findings[0].ok, false);
  assertMatch(
    findings[0].detail,
    /^ollama:granite4\.1:8b is unavailable \(.*\); start it with ollama serve$/,
  );
});

Deno.test("doctor: Apple's model on Linux is not ok, pointing at Ollama", async () => {
  if (Deno.build.os !== "linux") return; // on macOS the system model is the native library's to check
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const dead = `http://127.0.0.1:${port}`;
  const [finding] = await modelFindingsFor(
    configSchema.parse({
      llamacpp: { baseURL: `${dead}/v1` },
      lmstudio: { baseURL: `${dead}/v1` },
    }),
    (name) => name === "OLLAMA_HOST" ? dead : undefined,
  );
  assertEquals(finding.ok, false);
  assertMatch(
    finding.detail,
    /^system cannot run here \(Apple's on-device model exists only on macOS.*\), and no running local server offers a model .*; install Ollama \(curl .*\), start it \(ollama serve\), and pull a model that calls tools \(ollama pull granite4\.1:8b\)/,
  );
});

Deno.test("the window finding's words", () => {
  assertEquals(
    windowDetail({
      tokens: 131072,
      from: "memory",
      note: "the model's maximum; 20 GiB free holds it",
    }),
    "131,072 tokens, the model's maximum; 20 GiB free holds it",
  );
  assertEquals(
    windowDetail({ tokens: 8192, from: "default", note: "" }),
    "8,192 tokens, from the default",
  );
});

/**
 * Which model a use runs on: the default that cannot exist here (system on
 * Linux) gives way to the first model a running local server offers, once
 * said; a name given for one run never falls back; routed tasks take
 * routing.tasks.<task> and then routing.ladder. Against the fake Ollama, and
 * through the real CLI where a person would see it.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "../support/assert.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import { chooseForTask, chooseModel } from "../../src/models/choose.ts";
import { ModelError } from "../../src/models/errors.ts";
import { configSchema } from "../../src/config/schema.ts";
import { modelFindingsFor } from "../../src/doctor/model.ts";

function deadURL(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

/** A config whose llama.cpp and LM Studio servers do not answer, and the env that points Ollama at `url`. */
function setUp(url: string, config: Record<string, unknown> = {}) {
  const dead = deadURL();
  return {
    config: configSchema.parse({
      llamacpp: { baseURL: `${dead}/v1` },
      lmstudio: { baseURL: `${dead}/v1` },
      ...config,
    }),
    env: (name: string) => name === "OLLAMA_HOST" ? url : undefined,
    os: "linux",
  };
}

Deno.test("choose: on Linux the default system gives way to the first enabled local model, said once", async () => {
  const ollama = startFakeOllama({
    models: [
      { name: "nomic-embed-text", capabilities: ["embedding"] },
      { name: "llama3.2:3b" },
      { name: "granite4.1:8b" },
    ],
  });
  try {
    const { config, env, os } = setUp(ollama.url, { models: { disabled: ["ollama:llama3.2:3b"] } });
    const notes: string[] = [];
    const chosen = await chooseModel("system", config, { env, os, note: (l) => notes.push(l) });
    // The embedding model cannot converse and llama3.2 is disabled: granite is the first usable one.
    assertEquals(chosen.backend.name, "ollama:granite4.1:8b");
    assertEquals(chosen.capabilities.tools, true);
    assertMatch(
      chosen.standIn!,
      /^system cannot run here \(Apple's on-device model exists only on macOS, and this is Linux\); using ollama:granite4\.1:8b, the first model a running local server offers/,
    );
    const again = await chooseModel("system", config, { env, os, note: (l) => notes.push(l) });
    assertEquals(again.backend.name, "ollama:granite4.1:8b");
    assertEquals(notes.length, 1, "the stand-in is said once in a process");
  } finally {
    await ollama.close();
  }
});

Deno.test("choose: routing.ladder's order wins over the server's for the default's stand-in", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }, { name: "qwen3:8b" }] });
  try {
    const { config, env, os } = setUp(ollama.url, {
      routing: { ladder: ["system", "ollama:qwen3:8b"] },
    });
    const chosen = await chooseModel("system", config, { env, os });
    assertEquals(chosen.backend.name, "ollama:qwen3:8b");
  } finally {
    await ollama.close();
  }
});

Deno.test("choose: an explicit name and a configured model that is not system never fall back", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  try {
    const { config, env, os } = setUp(ollama.url, {
      routing: { ladder: ["ollama:granite4.1:8b"] },
    });
    const explicit = await assertRejects(
      () => chooseModel("system", config, { env, os, explicit: true }),
      ModelError,
    );
    assertMatch(explicit.message, /^system is unavailable/);
    const configured = await assertRejects(
      () => chooseModel("ollama:qwen3:8b", config, { env, os }),
      ModelError,
    );
    assertMatch(configured.message, /has no model qwen3:8b/);
  } finally {
    await ollama.close();
  }
});

Deno.test("choose: with no local server, the default's error names what to install and start", async () => {
  const { config, env, os } = setUp(deadURL());
  const error = await assertRejects(() => chooseModel("system", config, { env, os }), ModelError);
  assertMatch(
    error.message,
    /^system cannot run here \(.*\), and no running local server offers a model that can hold a conversation with tools; .*could not connect.*; install Ollama \(curl -fsSL https:\/\/ollama\.com\/install\.sh \| sh\), start it \(ollama serve\), and pull a model that calls tools \(ollama pull granite4\.1:8b\), or choose a model with wisp config set model <name>$/,
  );
});

Deno.test("routing: a task takes routing.tasks.<task>, then the ladder when that is unavailable", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }, { name: "qwen3:8b" }] });
  try {
    const { config, env, os } = setUp(ollama.url, {
      model: "ollama:granite4.1:8b",
      routing: {
        tasks: { draft: "ollama:qwen3:8b", triage: "ollama:missing:1b" },
        ladder: ["ollama:absent:2b", "ollama:granite4.1:8b"],
      },
    });
    const draft = await chooseForTask("draft", config, { env, os });
    assertEquals(draft.backend.name, "ollama:qwen3:8b");
    assertEquals(draft.standIn, null);
    const classifier = await chooseForTask("classifier", config, { env, os });
    assertEquals(
      classifier.backend.name,
      "ollama:granite4.1:8b",
      "an unrouted task takes the model",
    );
    const triage = await chooseForTask("triage", config, { env, os });
    assertEquals(triage.backend.name, "ollama:granite4.1:8b");
    assertMatch(
      triage.standIn!,
      /^ollama:missing:1b is unavailable for triage \(.*has no model missing:1b\); it runs on ollama:granite4\.1:8b, next in routing\.ladder$/,
    );
    // --model for this run is never replaced by the ladder.
    await assertRejects(
      () => chooseForTask("triage", config, { env, os, model: "ollama:missing:1b" }),
      ModelError,
    );
  } finally {
    await ollama.close();
  }
});

Deno.test("doctor: a server that lists the model but fails every request is not ok, with the advice to restart it", async () => {
  const ollama = startFakeOllama({
    models: [{ name: "granite4.1:8b" }],
    replies: [{ error: "llama runner process has terminated: too many open files", status: 500 }],
  });
  try {
    const { config, env } = setUp(ollama.url, { model: "ollama:granite4.1:8b" });
    const findings = await modelFindingsFor(config, env);
    assertEquals(findings.length, 1);
    assertEquals(findings[0].ok, false);
    assertMatch(
      findings[0].detail,
      /^ollama:granite4\.1:8b is served and listed, but a one-word request to it failed \(.*too many open files.*\); restart Ollama \(systemctl restart ollama, or stop ollama serve and start it again\), then run wisp doctor again$/,
    );
  } finally {
    await ollama.close();
  }
});

Deno.test("wisp on Linux with no config: doctor is all ok and a prompt runs on the local model, saying so", async () => {
  if (Deno.build.os !== "linux") return; // on macOS the default is Apple's model
  const ollama = startFakeOllama({
    models: [{ name: "granite4.1:8b" }],
    replies: [{ text: "ready" }, { text: ["Two ", "files."] }],
  });
  const home = await tempDir();
  // No config.json at all: llama.cpp and LM Studio are looked for where they listen by default.
  const env = { OLLAMA_HOST: ollama.url };
  try {
    const doctor = await runWisp(["doctor"], { home, env });
    assertEquals(doctor.code, 0, doctor.stdout + doctor.stderr);
    const lines = doctor.stdout.trim().split("\n");
    assert(lines.every((l) => l.startsWith("ok")), doctor.stdout);
    assertMatch(
      doctor.stdout,
      /^ok {3}model: system cannot run here .*using ollama:granite4\.1:8b/m,
    );

    const respond = await runWisp(["--no-stream", "how many files?"], { home, env });
    assertEquals(respond.code, 0, respond.stderr);
    assertEquals(respond.stdout.trim(), "Two files.");
    assertEquals(
      respond.stderr.split("\n").filter((l) => l.includes("system cannot run here")).length,
      1,
    );

    const explicit = await runWisp(["--model", "system", "hi"], { home, env });
    assertEquals(explicit.code, 1);
    assertMatch(explicit.stderr, /system is unavailable/);
    assertEquals(explicit.stdout, "");
  } finally {
    await ollama.close();
    await Deno.remove(home, { recursive: true });
  }
});

/**
 * `wisp models check` and the check `enable` runs: the real CLI asks a fake
 * llama.cpp server (the real wire format) three questions and records what
 * passes in config.json, audited.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import { startFakeOpenAI } from "../support/fake_openai.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { join } from "node:path";

const MODEL = "qwen3-8b.gguf";

async function home(config: Record<string, unknown>): Promise<string> {
  const dir = await tempDir();
  await Deno.writeTextFile(join(dir, "config.json"), JSON.stringify(config, null, 2) + "\n");
  return dir;
}

function readConfig(dir: string) {
  return JSON.parse(Deno.readTextFileSync(join(dir, "config.json")));
}

function events(dir: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(join(dir, "logs", "audit.jsonl")).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
}

const good = [
  { text: "ready" },
  { toolCalls: [{ name: "record_word", arguments: { word: "blue" } }] },
  { text: '{"word": "blue"}' },
];

Deno.test("models check: a llama.cpp model's passes are recorded, audited, and a later failure takes one out", async () => {
  const server = startFakeOpenAI({ flavour: "llamacpp", models: [{ id: MODEL }], replies: good });
  const dir = await home({ llamacpp: { baseURL: server.baseURL } });
  try {
    const first = await runWisp(["models", "check", `llamacpp:${MODEL}`], { home: dir });
    assertEquals(first.code, 0, first.stderr);
    assertMatch(
      first.stdout,
      /^checking llamacpp:qwen3-8b\.gguf: asks three short questions .*allowing 3 min for the first.* and 60 s for each/m,
    );
    assertMatch(first.stdout, /^ {2}reply: passed in [0-9.]+ s$/m);
    assertMatch(first.stdout, /^ {2}tool calling: passed in [0-9.]+ s$/m);
    assertMatch(first.stdout, /^ {2}structured reply: passed in [0-9.]+ s$/m);
    assertMatch(
      first.stdout,
      /recorded in config\.json: llamacpp:qwen3-8b\.gguf can do tools, structured replies \(verified \d{4}-\d\d-\d\d\)/,
    );
    assertMatch(first.stdout, /reasoning and vision are not checked/);
    const recorded = readConfig(dir).llamacpp.models[MODEL];
    assertEquals(recorded.capabilities, ["toolCalling", "guidedGeneration"]);
    assertEquals(recorded.verified.passed, ["toolCalling", "guidedGeneration"]);
    assertEquals(recorded.verified.failed, []);
    // The questions went as asked: the tool offered on the second, a schema on the third.
    const chats = server.chats();
    assertEquals(chats.length, 3);
    assertEquals(
      (chats[1].tools as { function: { name: string } }[])[0].function.name,
      "record_word",
    );
    assert(chats[2].response_format, "the structured question holds the reply to a schema");
    const kinds = events(dir).map((e) => e.kind);
    assert(kinds.includes("model.verified"), kinds.join(","));
    assertEquals(kinds.filter((k) => k === "config.change").length, 2);

    // Now the model writes its call as text: tool calling is taken out, structured stays.
    server.reply({ text: "ready" }, { text: "record_word(blue)" }, { text: '{"word":"blue"}' });
    const second = await runWisp(["models", "check", `llamacpp:${MODEL}`], { home: dir });
    assertEquals(second.code, 0, second.stderr);
    assertMatch(
      second.stdout,
      /tool calling: failed in [0-9.]+ s \(no call to record_word arrived\)/,
    );
    const after = readConfig(dir).llamacpp.models[MODEL];
    assertEquals(after.capabilities, ["guidedGeneration"]);
    assertEquals(after.verified.failed, ["toolCalling"]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("models check: a capability declared by hand is kept when its check fails, and the output says so", async () => {
  const server = startFakeOpenAI({
    flavour: "llamacpp",
    models: [{ id: MODEL }],
    replies: [{ text: "ready" }, { text: "blue" }, { text: "not json" }],
  });
  const dir = await home({
    llamacpp: { baseURL: server.baseURL, models: { [MODEL]: { capabilities: ["toolCalling"] } } },
  });
  try {
    const run = await runWisp(["models", "check", `llamacpp:${MODEL}`], { home: dir });
    assertEquals(run.code, 0, run.stderr);
    assertMatch(run.stdout, /structured reply: failed in [0-9.]+ s \(the reply was not JSON\)/);
    assertMatch(
      run.stdout,
      /^tools failed its check but is kept: you declared it in config\.json$/m,
    );
    assertEquals(readConfig(dir).llamacpp.models[MODEL].capabilities, ["toolCalling"]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("models check: a model with no answer in time fails with the limit, exit 1; an Ollama model is not checked", async () => {
  const server = startFakeOpenAI({
    flavour: "llamacpp",
    models: [{ id: MODEL }],
    replies: [{ hang: true }, { hang: true }, { hang: true }],
  });
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const dir = await home({ llamacpp: { baseURL: server.baseURL } });
  try {
    const run = await runWisp(["models", "check", `llamacpp:${MODEL}`], {
      home: dir,
      env: { WISP_MODEL_CHECK_LIMITS_MS: "1000,1000" },
    });
    assertEquals(run.code, 1, run.stderr);
    assertMatch(run.stdout, /reply: failed in [0-9.]+ s \(no answer within 1 s\)/);
    assertMatch(
      run.stdout,
      /recorded in config\.json: llamacpp:qwen3-8b\.gguf passed no capability/,
    );

    const other = await runWisp(["models", "check", "ollama:granite4.1:8b"], {
      home: dir,
      env: { OLLAMA_HOST: ollama.url },
    });
    assertEquals(other.code, 0, other.stderr);
    assertEquals(
      other.stdout.trim(),
      "ollama:granite4.1:8b is not checked: its runtime reports what it can do (wisp models shows it)",
    );
  } finally {
    await server.close();
    await ollama.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("models enable: a disabled llama.cpp model with nothing declared is checked, then enabled", async () => {
  const server = startFakeOpenAI({ flavour: "llamacpp", models: [{ id: MODEL }], replies: good });
  const dir = await home({
    llamacpp: { baseURL: server.baseURL },
    models: { disabled: [`llamacpp:${MODEL}`] },
  });
  try {
    const run = await runWisp(["models", "enable", `llamacpp:${MODEL}`], { home: dir });
    assertEquals(run.code, 0, run.stderr);
    assertMatch(run.stdout, /^checking llamacpp:qwen3-8b\.gguf/m);
    assertMatch(run.stderr, /^enabled llamacpp:qwen3-8b\.gguf$/m);
    const config = readConfig(dir);
    assertEquals(config.models.disabled, []);
    assertEquals(config.llamacpp.models[MODEL].capabilities, ["toolCalling", "guidedGeneration"]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

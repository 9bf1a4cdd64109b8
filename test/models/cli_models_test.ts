/**
 * `wisp models` as a person runs it: the real CLI in a subprocess under the
 * binary's permission set, talking to fake servers in this process.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { runWisp, tempDir, wispCommand } from "../support/wisp.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { startFakeOpenAI } from "../support/fake_openai.ts";
import { join } from "node:path";

function deadURL(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

async function home(config: Record<string, unknown>): Promise<string> {
  const dir = await tempDir();
  await Deno.writeTextFile(join(dir, "config.json"), JSON.stringify(config, null, 2) + "\n");
  return dir;
}

Deno.test("wisp models: piped lines, JSON, the default marked, unreachable runtimes on stderr", async () => {
  const ollama = startFakeOllama({
    models: [
      { name: "granite4.1:8b", parameterSize: "8.8B", size: 5_350_000_000, contextLength: 65536 },
      {
        name: "qwen3.8:27b",
        capabilities: ["completion", "tools", "thinking"],
        parameterSize: "27.3B",
      },
      { name: "nomic-embed-text", capabilities: ["embedding"], size: 274_300_000 },
    ],
  });
  const lm = startFakeOpenAI({
    flavour: "lmstudio",
    models: [{ id: "qwen3-8b", loadedContext: 16384 }],
  });
  const dead = deadURL();
  const dir = await home({
    model: "ollama:granite4.1:8b",
    lmstudio: { baseURL: lm.baseURL },
    llamacpp: { baseURL: `${dead}/v1` },
    ollama: { models: { "granite4.1:8b": { contextLength: 32768 } } },
    models: { disabled: ["ollama:qwen3.8:27b"] },
  });
  try {
    const env = { OLLAMA_HOST: ollama.url };
    const piped = await runWisp(["models"], { home: dir, env });
    assertEquals(piped.code, 0, piped.stderr);
    const lines = piped.stdout.trimEnd().split("\n");
    assertEquals(lines.length, 3);
    assertEquals(
      lines[0],
      "* ollama:granite4.1:8b\tOllama\tgguf\t8.8B\t5.35 GB\t32,768\tconfig\t\tyes\ttools, structured replies",
    );
    assert(lines[1].startsWith("  ollama:qwen3.8:27b\t"), lines[1]);
    assertEquals(lines[1].split("\t")[8], "no");
    assert(lines[2].startsWith("  lmstudio:qwen3-8b\t"), lines[2]);
    assertEquals(
      piped.stderr.trim(),
      `(no llama.cpp server at ${dead}/v1: could not connect to the server)`,
    );

    const all = await runWisp(["models", "list", "--all"], { home: dir, env });
    const embed = all.stdout.split("\n").find((l) => l.includes("nomic-embed-text"))!;
    assertEquals(embed.split("\t").at(-1), "it cannot hold a conversation");

    const json = await runWisp(["models", "--json"], { home: dir, env });
    const parsed = JSON.parse(json.stdout);
    assertEquals(parsed.models.map((m: { model: string }) => m.model), [
      "ollama:granite4.1:8b",
      "ollama:qwen3.8:27b",
      "lmstudio:qwen3-8b",
    ]);
    assertEquals(parsed.models[0].default, true);
    assertEquals(parsed.models[0].context, 32768);
    assertEquals(parsed.unreachable, [{
      runtime: "llama.cpp",
      reason: `no llama.cpp server at ${dead}/v1: could not connect to the server`,
    }]);
  } finally {
    await ollama.close();
    await lm.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wisp models: with nothing running, each runtime is one line and the Linux default is explained", async () => {
  const dead = deadURL();
  const dir = await home({
    llamacpp: { baseURL: `${dead}/v1` },
    lmstudio: { baseURL: `${dead}/v1` },
  });
  try {
    const result = await runWisp(["models"], { home: dir, env: { OLLAMA_HOST: dead } });
    assertEquals(result.code, 0);
    assertEquals(result.stdout, "");
    assertStringIncludes(
      result.stderr,
      `(no Ollama server at ${dead}: could not connect to the server)`,
    );
    assertStringIncludes(result.stderr, "the default model, system, cannot run here");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wisp models: a server not on this machine is one sentence, not a stack trace", async () => {
  const dead = deadURL();
  // config.json cannot name such a server (the schema refuses it); OLLAMA_HOST still can.
  const dir = await home({
    llamacpp: { baseURL: `${dead}/v1` },
    lmstudio: { baseURL: `${dead}/v1` },
  });
  try {
    const result = await runWisp(["models", "--json"], {
      home: dir,
      env: { OLLAMA_HOST: "http://192.0.2.1:11434" },
    });
    assertEquals(result.code, 0, result.stderr);
    const parsed = JSON.parse(result.stdout);
    assertEquals(parsed.unreachable[0].runtime, "Ollama");
    assertStringIncludes(parsed.unreachable[0].reason, "is not on this machine");
    assert(!result.stderr.includes("    at "), result.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wisp models disable|enable: edits models.disabled in place, keeps comments, refuses the default", async () => {
  const dir = await tempDir();
  const path = join(dir, "config.json");
  await Deno.writeTextFile(path, '{\n  // my model\n  "model": "ollama:granite4.1:8b"\n}\n');
  try {
    const disabled = await runWisp([
      "models",
      "disable",
      "ollama:nomic-embed-text:latest",
      "lmstudio:tiny",
    ], { home: dir });
    assertEquals(disabled.code, 0, disabled.stderr);
    assertStringIncludes(
      disabled.stderr,
      "disabled ollama:nomic-embed-text:latest: hidden from /model and refused until enabled",
    );
    let text = await Deno.readTextFile(path);
    assertStringIncludes(text, "// my model");
    assertEquals(JSON.parse(text.replace(/\/\/.*\n/, "\n")).models.disabled, [
      "ollama:nomic-embed-text:latest",
      "lmstudio:tiny",
    ]);
    assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);

    // One spelling enables the other.
    const enabled = await runWisp(["models", "enable", "ollama:nomic-embed-text"], { home: dir });
    assertEquals(enabled.code, 0, enabled.stderr);
    text = await Deno.readTextFile(path);
    assertEquals(JSON.parse(text.replace(/\/\/.*\n/, "\n")).models.disabled, ["lmstudio:tiny"]);

    const refused = await runWisp(["models", "disable", "ollama:granite4.1:8b:latest"], {
      home: dir,
    });
    assertEquals(refused.code, 64);
    assertStringIncludes(refused.stderr, "is the default model, so it cannot be disabled");
    const bad = await runWisp(["models", "disable", "gpt-4o"], { home: dir });
    assertEquals(bad.code, 64);

    const audit = await Deno.readTextFile(join(dir, "logs", "audit.jsonl"));
    const changes = audit.trim().split("\n").map((l) => JSON.parse(l)).filter((e) =>
      e.kind === "config.change"
    );
    assertEquals(changes.length, 2);
    assertEquals(changes[1].to, ["lmstudio:tiny"]);
    assertEquals(changes[1].source, "cli");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wisp models: on a terminal, a table fitted to COLUMNS with the unreachable lines under it", async () => {
  const ollama = startFakeOllama({
    models: [
      { name: "granite4.1:8b", parameterSize: "8.8B", size: 5_350_000_000, contextLength: 65536 },
      {
        name: "qwen3.8:27b",
        capabilities: ["completion", "tools", "thinking", "vision"],
        parameterSize: "27.3B",
      },
    ],
  });
  const dead = deadURL();
  const dir = await home({
    model: "ollama:granite4.1:8b",
    llamacpp: { baseURL: `${dead}/v1` },
    lmstudio: { baseURL: `${dead}/v1` },
    ollama: {
      models: {
        "granite4.1:8b": { contextLength: 32768 },
        "qwen3.8:27b": { contextLength: 16384 },
      },
    },
  });
  try {
    const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
    const command = [...wispCommand(), "models"].map(quote).join(" ");
    // script(1) gives wisp a terminal of unknown size, so COLUMNS decides the width.
    const out = await new Deno.Command("script", {
      args: ["-qec", command, "/dev/null"],
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: dir,
        WISP_HOME: dir,
        OLLAMA_HOST: ollama.url,
        COLUMNS: "60",
        TERM: "dumb",
        NO_COLOR: "1",
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const lines = new TextDecoder().decode(out.stdout).replaceAll("\r", "").trimEnd().split("\n");
    // At 60 columns SIZE and CONTEXT would leave the capabilities fewer than 20 cells.
    assertEquals(lines.slice(0, 4), [
      "  MODEL                 ENABLED  CAPABILITIES",
      "* ollama:granite4.1:8b  yes      tools, structured replies",
      "  ollama:qwen3.8:27b    yes      tools, structured replies,",
      "                                 thinking, vision",
    ]);
    assert(
      lines.includes(`(no llama.cpp server at ${dead}/v1: could not connect to the server)`),
      lines.join("\n"),
    );
    for (const line of lines.slice(0, 4)) assert(line.length < 60, `${line.length}: ${line}`);
  } finally {
    await ollama.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wisp models: on Linux with no model configured, the listing says which model stands in for system", async () => {
  if (Deno.build.os !== "linux") return;
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }, { name: "qwen3:8b" }] });
  const dead = deadURL();
  const dir = await home({
    llamacpp: { baseURL: `${dead}/v1` },
    lmstudio: { baseURL: `${dead}/v1` },
    routing: { ladder: ["ollama:qwen3:8b"] },
  });
  try {
    const result = await runWisp(["models"], { home: dir, env: { OLLAMA_HOST: ollama.url } });
    assertEquals(result.code, 0, result.stderr);
    assertStringIncludes(
      result.stderr,
      "the default model, system, cannot run here (Apple's on-device model exists only on macOS, and this is Linux); wisp uses ollama:qwen3:8b in its place",
    );
  } finally {
    await ollama.close();
    await Deno.remove(dir, { recursive: true });
  }
});

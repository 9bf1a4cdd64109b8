/**
 * `wisp models pull ollama:NAME`: the real CLI against a fake Ollama that
 * streams /api/pull's NDJSON progress. Piped, a plain line per layer; on a
 * terminal, one line redrawn with bytes, rate and ETA; an error line is one
 * sentence; Ctrl-C stops the pull with exit 130; every outcome audited.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { runWisp, tempDir, wispCommand } from "../support/wisp.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { waitUntil } from "../support/wait.ts";
import { join } from "node:path";

const LAYERS = [
  { digest: `sha256:${"a".repeat(64)}`, total: 2_600_000_000 },
  { digest: `sha256:${"b".repeat(64)}`, total: 12_000 },
];

function events(dir: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(join(dir, "logs", "audit.jsonl")).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
}

Deno.test("models pull ollama: piped, a plain line per layer and the statuses; then the model is listed", async () => {
  const ollama = startFakeOllama({
    models: [],
    pulls: { "granite4.1:8b": { layers: LAYERS, model: { name: "granite4.1:8b" } } },
  });
  const home = await tempDir();
  const env = { OLLAMA_HOST: ollama.url };
  try {
    const run = await runWisp(["models", "pull", "ollama:granite4.1:8b"], { home, env });
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout, "");
    const lines = run.stderr.trim().split("\n");
    assertEquals(lines[0], "pulling manifest");
    assertEquals(lines[1], "layer aaaaaaaaaaaa (2.6 GB)");
    assertMatch(lines[2], /^layer aaaaaaaaaaaa: 2\.6 GB in [0-9.]+ s$/);
    assertEquals(lines[3], "layer bbbbbbbbbbbb (12 KB)");
    assertMatch(lines[4], /^layer bbbbbbbbbbbb: 12 KB in [0-9.]+ s$/);
    assertEquals(lines.slice(5, 8), ["verifying sha256 digest", "writing manifest", "success"]);
    assertMatch(lines[8], /^pulled ollama:granite4\.1:8b; wisp models lists it/);
    assert(!run.stderr.includes("\r"), "no carriage return when piped");
    const body = ollama.requests.find((r) => r.path === "/api/pull")!.body as Record<
      string,
      unknown
    >;
    assertEquals([body.model ?? body.name, body.stream], ["granite4.1:8b", true]);
    const pulled = events(home).find((e) => e.kind === "model.pull")!;
    assertEquals([pulled.model, pulled.outcome], ["ollama:granite4.1:8b", "pulled"]);

    const listed = await runWisp(["models", "--json"], { home, env });
    const names = JSON.parse(listed.stdout).models.map((m: { model: string }) => m.model);
    assert(names.includes("ollama:granite4.1:8b"), listed.stdout);
  } finally {
    await ollama.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("models pull ollama: a name Ollama does not have, and an error mid-pull, are one sentence and exit 1", async () => {
  const ollama = startFakeOllama({
    models: [],
    pulls: { "qwen3:8b": { layers: LAYERS, error: "max retries exceeded: unexpected EOF" } },
  });
  const home = await tempDir();
  const env = { OLLAMA_HOST: ollama.url };
  try {
    const missing = await runWisp(["models", "pull", "ollama:nosuch:1b"], { home, env });
    assertEquals(missing.code, 1);
    assertMatch(
      missing.stderr,
      /^error: Ollama cannot pull nosuch:1b \(pull model manifest: file does not exist\); check the name at https:\/\/ollama\.com\/library$/m,
    );
    assert(!missing.stderr.includes("    at "), missing.stderr);

    const broken = await runWisp(["models", "pull", "ollama:qwen3:8b"], { home, env });
    assertEquals(broken.code, 1);
    assertMatch(broken.stderr, /layer aaaaaaaaaaaa: failed at 2\.6 GB of 2\.6 GB/);
    assertMatch(broken.stderr, /max retries exceeded: unexpected EOF/);
    assert(!broken.stderr.includes("    at "), broken.stderr);
    assertEquals(events(home).filter((e) => e.kind === "model.pull").map((e) => e.outcome), [
      "failed",
      "failed",
    ]);

    const bad = await runWisp(["models", "pull", "granite"], { home, env });
    assertEquals(bad.code, 64);
    assertMatch(bad.stderr, /takes ollama:<name> .* not 'granite'/);
  } finally {
    await ollama.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("models pull ollama: on a terminal, one line redrawn with bytes, rate and ETA", async () => {
  const ollama = startFakeOllama({
    models: [],
    pulls: { "granite4.1:8b": { layers: LAYERS, steps: 40 } },
  });
  const home = await tempDir();
  try {
    const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
    const command = [...wispCommand(), "models", "pull", "ollama:granite4.1:8b"].map(quote).join(
      " ",
    );
    const out = await new Deno.Command("script", {
      args: ["-qec", command, "/dev/null"],
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: home,
        WISP_HOME: home,
        OLLAMA_HOST: ollama.url,
        TERM: "dumb",
        NO_COLOR: "1",
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assertEquals(out.code, 0, text);
    // The finished layer's line: a full bar, both sizes, a rate.
    assertMatch(
      text,
      /layer aaaaaaaaaaaa \[#{20}\] 100% 2\.6 GB \/ 2\.6 GB [0-9.]+ [KMG]?B\/s/,
    );
    assert(text.includes("\r"), "redrawn in place on a terminal");
  } finally {
    await ollama.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("models pull ollama: Ctrl-C stops the pull with exit 130, says how to go on, and audits it", async () => {
  const ollama = startFakeOllama({
    models: [],
    pulls: { "granite4.1:8b": { layers: LAYERS, hang: true } },
  });
  const home = await tempDir();
  try {
    const [cmd, ...args] = wispCommand();
    const child = new Deno.Command(cmd, {
      args: [...args, "models", "pull", "ollama:granite4.1:8b"],
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: home,
        WISP_HOME: home,
        OLLAMA_HOST: ollama.url,
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let stderr = "";
    const reader = (async () => {
      for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
    })();
    await waitUntil(() => stderr.includes("layer aaaaaaaaaaaa"), "the first layer");
    child.kill("SIGINT");
    const status = await child.status;
    await reader;
    await child.stdout.cancel();
    assertEquals(status.code, 130, stderr);
    assertMatch(stderr, /layer aaaaaaaaaaaa: stopped at 0 B of 2\.6 GB/);
    assertMatch(
      stderr,
      /the pull of ollama:granite4\.1:8b was stopped; Ollama keeps what it fetched, and wisp models pull ollama:granite4\.1:8b goes on from there/,
    );
    assertEquals(
      events(home).filter((e) => e.kind === "model.pull").map((e) => e.outcome),
      ["interrupted"],
    );
  } finally {
    await ollama.close();
    await Deno.remove(home, { recursive: true });
  }
});

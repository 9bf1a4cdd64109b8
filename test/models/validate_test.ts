/**
 * `wisp config set model X` asks X's server first: a name it does not have is
 * refused with the near names and nothing is written; a server that does not
 * answer cannot tell, which is said and not refused.
 */
import { assertEquals, assertMatch } from "../support/assert.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { editDistance, nearNames } from "../../src/models/validate.ts";
import { join } from "node:path";

function deadURL(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

Deno.test("near names: the nearest spellings first, a tag ignored", () => {
  assertEquals(editDistance("granite", "granit"), 1);
  assertEquals(
    nearNames("ollama:granit4.1:8b", [
      "ollama:qwen3:8b",
      "ollama:granite4.1:8b",
      "ollama:granite4.1:3b",
    ]),
    ["ollama:granite4.1:8b", "ollama:granite4.1:3b"],
  );
  assertEquals(nearNames("ollama:llama3.2", ["ollama:llama3.2:latest"]), [
    "ollama:llama3.2:latest",
  ]);
  assertEquals(nearNames("ollama:zzz", ["ollama:granite4.1:8b"]), []);
});

Deno.test("config set model: a name the server does not have is refused with the near ones; nothing is written", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }, { name: "qwen3:8b" }] });
  const home = await tempDir();
  const dead = deadURL();
  const original = JSON.stringify({ llamacpp: { baseURL: `${dead}/v1` } }, null, 2) + "\n";
  await Deno.writeTextFile(join(home, "config.json"), original);
  const env = { OLLAMA_HOST: ollama.url };
  try {
    const typo = await runWisp(["config", "set", "model", "ollama:granit4.1:8b"], { home, env });
    assertEquals(typo.code, 64);
    assertEquals(
      typo.stderr.trim(),
      "error: model cannot be ollama:granit4.1:8b: the Ollama server has no model granit4.1:8b; did you mean ollama:granite4.1:8b? (wisp models lists what can be used)",
    );
    assertEquals(await Deno.readTextFile(join(home, "config.json")), original);

    const good = await runWisp(["config", "set", "model", "ollama:granite4.1:8b"], { home, env });
    assertEquals(good.code, 0, good.stderr);
    assertEquals(
      JSON.parse(await Deno.readTextFile(join(home, "config.json"))).model,
      "ollama:granite4.1:8b",
    );

    // A server that does not answer cannot tell: the change is made, with a note.
    const down = await runWisp(["config", "set", "model", "llamacpp:qwen3-8b"], { home, env });
    assertEquals(down.code, 0, down.stderr);
    assertMatch(
      down.stderr,
      /note: it could not be checked \(no llama\.cpp server at .*\); it is used once its server runs/,
    );

    // Loopback only (docs/adr/0142): another machine's server is refused before anything is asked.
    const remote = await runWisp(["config", "set", "ollama.host", "http://10.1.2.3:11434"], {
      home,
      env,
    });
    assertEquals(remote.code, 64);
    assertMatch(remote.stderr, /must be a server on this machine/);
  } finally {
    await ollama.close();
    await Deno.remove(home, { recursive: true });
  }
});

/**
 * readConfig (the light read `wisp config` and `wisp sandbox` use) against
 * loadConfig (jsonc-parser and zod): the same config for every file, and for
 * every broken one the same error, sentence and exit code.
 */
import { assertEquals } from "../support/assert.ts";
import { readConfig } from "../../src/config/read.ts";
import { loadConfig } from "../../src/config/load.ts";
import { WispError } from "../../src/util/errors.ts";

const FILES: Record<string, string> = {
  plain: '{"model": "ollama:qwen3:8b", "audit": {"keep": 3}}',
  jsonc: '// mine\n{ /* a */ "approval": { "timeoutSeconds": 5, }, }\n',
  blank: "\n",
  broken: '{\n  "model": "x",\n  "approval": {\n}',
  "not an object": "[1, 2]",
  "bad value": '{\n  "audit": {\n    "keep": 300\n  }\n}',
  "bad model": '{"model": "gpt-4"}',
  "too deep": `{"a": ${"[".repeat(70)}${"]".repeat(70)}}`,
  "bad custom tool":
    '{"tools": {"custom": [{"name": "t", "description": "d", "command": "echo {x}"}]}}',
  "disabled default": '{"model": "ollama:a", "models": {"disabled": ["ollama:a"]}}',
  "unusual spaces": '{\u00a0"model": "system"}',
};

/** A result as comparable data: the loaded config, or the error's class, sentence and exit code. */
async function outcome(read: () => unknown): Promise<unknown> {
  try {
    return { loaded: await read() };
  } catch (error) {
    return {
      error: (error as Error).constructor.name,
      message: (error as Error).message,
      exitCode: error instanceof WispError ? error.exitCode : undefined,
    };
  }
}

Deno.test("readConfig gives what loadConfig gives, for good, broken and missing files", async () => {
  const home = await Deno.makeTempDir({ prefix: "wisp-read-test-" });
  try {
    for (const [name, text] of Object.entries(FILES)) {
      const path = `${home}/${name}.json`;
      await Deno.writeTextFile(path, text);
      const light = await outcome(() => readConfig(path));
      assertEquals(
        JSON.stringify(light),
        JSON.stringify(await outcome(() => loadConfig(path))),
        name,
      );
    }
    const missing = `${home}/missing.json`;
    assertEquals(
      await outcome(() => readConfig(missing)),
      await outcome(() => loadConfig(missing)),
    );
    assertEquals(await outcome(() => readConfig(home)), await outcome(() => loadConfig(home)));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

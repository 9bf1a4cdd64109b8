/**
 * Under wisp's own permission set a connection elsewhere is refused by Deno;
 * the backends turn that refusal into a sentence. The loopback check normally
 * answers first, so this drives the fetch wrapper directly in a child process
 * run with the same --allow-net list as the binary.
 */
import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { DENO_CONFIG } from "../support/wisp.ts";

Deno.test("fence: a refused connection becomes a ModelError sentence, not NotCapable", async () => {
  const http = new URL("../../src/models/http.ts", import.meta.url).href;
  const script = `
    import { guardedFetch } from "${http}";
    try {
      await guardedFetch({ timeoutMs: 2000 })("http://192.0.2.1:11434/api/tags");
      console.log("connected?");
    } catch (error) {
      console.log(error.name + ": " + error.message);
    }`;
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(file, script);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P=wisp", "--config", DENO_CONFIG, file],
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).output();
  await Deno.remove(file);
  const text = new TextDecoder().decode(out.stdout).trim();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  assertStringIncludes(
    text,
    "ModelError: wisp's permission fence refused a connection to http://192.0.2.1:11434",
  );
});

/**
 * The permission fence (deno.json "permissions.wisp") refuses what wisp
 * itself must never do, whatever a bug in wisp might try: start a program
 * other than the sandbox launchers, reach a non-loopback host, load FFI.
 */
import { assertEquals } from "../support/assert.ts";
import { DENO_CONFIG } from "../support/wisp.ts";

const PROBE = new URL("../fixtures/fence_probe.ts", import.meta.url).pathname;

Deno.test("under the wisp permission set, sh, other hosts and FFI are refused; the launcher is not", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P=wisp", "--config", DENO_CONFIG, PROBE],
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  const result = JSON.parse(new TextDecoder().decode(out.stdout));
  assertEquals(result, {
    sh: "NotCapable",
    absoluteSh: "NotCapable",
    env: "NotCapable",
    otherHost: "NotCapable",
    ffi: "NotCapable",
    bwrap: "ran",
    loopback: "reached",
  });
});

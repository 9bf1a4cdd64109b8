/**
 * The permission fence (deno.json "permissions.wisp") refuses what wisp
 * itself must never do, whatever a bug in wisp might try: start a program
 * other than the sandbox launchers, reach a host other than loopback and the
 * Hugging Face Hub (ADR 0451), load a native
 * library other than the C library at its own path (ADR 0270).
 */
import { assertEquals } from "../support/assert.ts";
import { DENO_CONFIG } from "../support/wisp.ts";

const PROBE = new URL("../fixtures/fence_probe.ts", import.meta.url).pathname;

Deno.test("under the wisp permission set, sh, other hosts and other libraries are refused; the launcher and libc are not", async () => {
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
    hub: "granted granted granted granted",
    hubLookAlikes: "NotCapable NotCapable NotCapable",
    ffi: "NotCapable",
    ffiOther: "NotCapable",
    ffiLibc: Deno.build.os === "linux" || Deno.build.os === "darwin"
      ? "loaded"
      : "other: not loaded",
    bwrap: "ran",
    loopback: "reached",
  });
});

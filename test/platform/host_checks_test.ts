/**
 * Doctor's host checks, asked for an OS by name: an OS wisp does not support
 * is a finding that says so, Linux names its release and kernel, and the
 * launcher check on Linux agrees with looking bwrap up on PATH.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { hostOsCheck, launcherCheck } from "../../src/platform/host_checks.ts";
import { whichProgram } from "../../src/platform/which.ts";

Deno.test("an OS wisp does not support is a finding that says what to do", () => {
  assertEquals(hostOsCheck("plan9"), {
    ok: false,
    name: "os",
    detail: "plan9 is not supported",
    fix: "wisp runs on macOS and Linux",
  });
});

Deno.test("on Linux the OS check names the kernel and points at local model servers", () => {
  const check = hostOsCheck("linux");
  assertEquals(check.ok, true);
  assertEquals(check.name, "os");
  assert(check.detail.includes(`kernel ${Deno.osRelease()}`), check.detail);
  assert(check.detail.includes("use Ollama"), check.detail);
});

Deno.test("the Linux launcher check agrees with bwrap on PATH", () => {
  const bwrap = whichProgram("bwrap");
  const check = launcherCheck("linux");
  assertEquals(check.name, "sandbox");
  assertEquals(check.ok, bwrap !== undefined);
  assertEquals(check.detail, bwrap ? `${bwrap} present` : "bwrap (bubblewrap) is not on PATH");
});

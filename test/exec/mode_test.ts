import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { decideMode } from "../../src/exec/mode.ts";
import { statusOf } from "../../src/exec/status.ts";
import { signalName, signalNumber } from "../../src/platform/signals.ts";

const base = {
  origin: "model" as const,
  outsideSandbox: false,
  sandboxEnabled: true,
  unsafe: false,
  allowOutsideSandbox: true,
  probe: { state: "ok" } as const,
  plainAllowed: false,
};

Deno.test("the mode: confined by default; outside only when asked and allowed; off with the sandbox off", () => {
  assertEquals(decideMode(base), { mode: "confined", launch: "confined", notes: [] });
  const outside = decideMode({ ...base, outsideSandbox: true });
  assertEquals([outside.mode, outside.launch], ["outside", "open"]);
  assertEquals(outside.notes, [
    "sandbox: ran outside the sandbox, as the person approved, this once",
  ]);
  const refused = decideMode({ ...base, outsideSandbox: true, allowOutsideSandbox: false });
  assertStringIncludes(
    refused.error!,
    "command denied by policy: running outside the sandbox is turned off here",
  );
  assertEquals(decideMode({ ...base, unsafe: true }).mode, "off");
  assertEquals(decideMode({ ...base, sandboxEnabled: false }).launch, "open");
  assertEquals(decideMode({ ...base, sandboxEnabled: false, outsideSandbox: true }).notes, [
    "sandbox: outsideSandbox changed nothing: the sandbox is off here",
  ]);
});

Deno.test("wisp sandbox's origin is confined even with the sandbox off", () => {
  assertEquals(decideMode({ ...base, origin: "sandbox", sandboxEnabled: false }).mode, "confined");
  assertEquals(decideMode({ ...base, origin: "sandbox", unsafe: true }).mode, "confined");
});

Deno.test("nested: plain when a shell may be started, else a refusal; outside changes nothing", () => {
  const probe = { state: "nested", detail: "bwrap: Creating new namespace failed" } as const;
  const refused = decideMode({ ...base, probe });
  assertEquals(refused.mode, "nested");
  assertStringIncludes(refused.error!, "wisp runs inside another sandbox");
  const plain = decideMode({ ...base, probe, plainAllowed: true, outsideSandbox: true });
  assertEquals([plain.mode, plain.launch, plain.error], ["nested", "plain", undefined]);
  assertEquals(plain.notes, [
    "sandbox: outsideSandbox changed nothing: wisp runs inside another sandbox, which confined this command",
  ]);
  const missing = decideMode({
    ...base,
    probe: { state: "missing", detail: "bwrap is not installed" },
  });
  assertStringIncludes(missing.error!, "bwrap is not installed");
});

Deno.test("statuses: a signal is reported negated, 128+N from the shell read as signal N", () => {
  assertEquals(statusOf(0, null), { exitStatus: 0 });
  assertEquals(statusOf(2, null), { exitStatus: 2 });
  assertEquals(statusOf(143, null), { exitStatus: -15, signal: "SIGTERM" });
  assertEquals(statusOf(137, null), { exitStatus: -9, signal: "SIGKILL" });
  assertEquals(statusOf(1, "SIGKILL"), { exitStatus: -9, signal: "SIGKILL" });
  assertEquals(statusOf(255, null), { exitStatus: 255 });
  assertEquals(statusOf(128, null), { exitStatus: 128 });
});

Deno.test("statuses: the waiter's word decides 129–159", () => {
  assertEquals(statusOf(130, null, "exit"), { exitStatus: 130 });
  assertEquals(statusOf(159, null, "exit"), { exitStatus: 159 });
  assertEquals(statusOf(130, null, "signal"), { exitStatus: -2, signal: "SIGINT" });
  // Real-time signals lie past the shells' 128+31.
  assertEquals(statusOf(128 + 34, null, "signal"), { exitStatus: -34, signal: "signal 34" });
  assertEquals(statusOf(130, null, "-"), { exitStatus: -2, signal: "SIGINT" });
  // What the launcher itself reports outranks the trailer.
  assertEquals(statusOf(130, "SIGKILL", "exit"), { exitStatus: -9, signal: "SIGKILL" });
});

Deno.test("statuses: signal numbers past 15 are named by the system they ran on", () => {
  // Linux and macOS agree up to SIGTERM and part after it.
  assertEquals(statusOf(128 + 10, null, "signal", "linux"), { exitStatus: -10, signal: "SIGUSR1" });
  assertEquals(statusOf(128 + 10, null, "signal", "darwin"), { exitStatus: -10, signal: "SIGBUS" });
  assertEquals(statusOf(128 + 30, null, "signal", "darwin"), {
    exitStatus: -30,
    signal: "SIGUSR1",
  });
  assertEquals(statusOf(128 + 12, null, "signal", "darwin"), { exitStatus: -12, signal: "SIGSYS" });
  assertEquals(statusOf(1, "SIGUSR2", "-", "darwin"), { exitStatus: -31, signal: "SIGUSR2" });
  assertEquals(statusOf(1, "SIGUSR2", "-", "linux"), { exitStatus: -12, signal: "SIGUSR2" });
  assertEquals(signalName(17, "linux"), "SIGCHLD");
  assertEquals(signalName(17, "darwin"), "SIGSTOP");
  assertEquals(signalNumber("SIGWINCH", "darwin"), 28);
  assertEquals(signalNumber("SIGNOPE", "linux"), undefined);
});

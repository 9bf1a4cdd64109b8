/**
 * runHelper, the one start of a fixed-argv helper process: it keeps what it
 * is asked to keep, cuts a stream at its bound and stops the program, kills a
 * program past its time, and says when a program cannot start.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { runHelper } from "../../src/platform/helper_process.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("runHelper keeps stdout and stderr apart when asked, from the given folder", async () => {
  const folder = Deno.makeTempDirSync();
  try {
    const result = await runHelper(
      { program: "/bin/sh", args: ["-c", "pwd; echo said >&2; exit 3"] },
      { cwd: folder, stdout: "keep", stderr: "keep" },
    );
    assert(result.started);
    assertEquals(result.ok, false);
    assertEquals(result.code, 3);
    assertEquals(text(result.stdout).trim(), Deno.realPathSync(folder));
    assertEquals(text(result.stderr), "said\n");
    assertEquals(result.cut, false);
    assertEquals(result.timedOut, false);
  } finally {
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test("runHelper throws a stream away unless it is kept, and closes stdin", async () => {
  const result = await runHelper({
    program: "/bin/sh",
    args: ["-c", "echo out; cat; echo err >&2"],
  });
  assert(result.started);
  assertEquals(result.ok, true);
  assertEquals(result.stdout.length, 0);
  assertEquals(result.stderr.length, 0);
});

Deno.test("runHelper cuts a kept stream at maxBytes and stops the program", async () => {
  const result = await runHelper(
    { program: "/bin/sh", args: ["-c", "while :; do echo yyyyyyyy; done"] },
    { stdout: "keep", maxBytes: 1000 },
  );
  assert(result.started);
  assertEquals(result.stdout.length, 1000);
  assertEquals(result.cut, true);
  assertEquals(result.ok, false);
  assertEquals(result.signal, "SIGKILL");
});

Deno.test("runHelper kills a program past its time limit", async () => {
  const result = await runHelper({ program: "/bin/sleep", args: ["600"] }, { timeoutMs: 200 });
  assert(result.started);
  assertEquals(result.timedOut, true);
  assertEquals(result.ok, false);
  assertEquals(result.signal, "SIGKILL");
});

Deno.test("runHelper says a missing program is not found instead of throwing", async () => {
  const result = await runHelper({ program: "/nonexistent/wisp-helper", args: [] });
  assertEquals(result.started, false);
  assert(!result.started && result.notFound);
  assert(!result.started && result.reason.length > 0);
});

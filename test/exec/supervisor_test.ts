/**
 * The macOS flavour of the supervisor (process groups, no PID namespace),
 * run here with bash directly: the test runner may start any program, which
 * wisp itself may not. The Linux flavour runs under bwrap in runner_test.ts.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { splitTrailer, supervisorArgv } from "../../src/exec/supervisor.ts";
import { processesWith } from "./support.ts";
import { waitUntil } from "../support/wait.ts";

async function supervise(
  line: string,
  seconds: number,
  control?: (w: WritableStreamDefaultWriter<Uint8Array>) => Promise<void>,
) {
  const [program, ...args] = supervisorArgv("pgroup", line, seconds, true);
  const child = new Deno.Command(program, {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  const writer = child.stdin.getWriter();
  const t0 = performance.now();
  const controlling = control?.(writer);
  const out = await child.output();
  await controlling;
  const ms = performance.now() - t0;
  const split = splitTrailer(out.stderr);
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(split.rest),
    trailer: split.trailer,
    ms,
  };
}

const tag = () => String(40 + Math.floor(Math.random() * 1000) / 1000);

Deno.test("pgroup supervisor: the status, the trailer, and no background job left", async () => {
  const t = tag();
  const dir = Deno.makeTempDirSync();
  try {
    // Each job leaves a mark if its sleep ends: had the supervisor waited for
    // the jobs, the marks would be there when it returned.
    const r = await supervise(
      `cd '${dir}'; echo hi; (sleep ${t}1; touch late1) & ` +
        `sh -c 'trap "" TERM; sleep ${t}2; touch late2' & exit 4`,
      0,
    );
    assertEquals(r.code, 4);
    assertEquals(r.stdout, "hi\n");
    assertEquals(r.trailer, { status: 4, reason: "-" });
    assertEquals([...Deno.readDirSync(dir)], [], "the supervisor waited for a job");
    // The group was killed; the kernel may take a moment to reap it.
    await waitUntil(
      () => processesWith(`sleep ${t}`).length === 0,
      "the background jobs' end",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("pgroup supervisor: a time limit sends TERM, then KILL to what ignores it", async () => {
  const r = await supervise("sleep 30", 1);
  assertEquals(r.trailer, { status: 143, reason: "timeout" });
  // The limit is a time: at least 1 s, and an upper bound with five times
  // the room the old one left (it was 2 s).
  assert(r.ms > 900 && r.ms < 6000, `${r.ms} ms`);
  const stubborn = await supervise("trap '' TERM; sleep 30", 1);
  assertEquals(stubborn.trailer, { status: 137, reason: "timeout" });
  assert(stubborn.ms > 2500 && stubborn.ms < 15_000, `${stubborn.ms} ms`);
});

Deno.test("pgroup supervisor: a stop on the control pipe ends the group", async () => {
  const r = await supervise("sleep 30", 0, async (w) => {
    await new Promise((res) => setTimeout(res, 300));
    await w.write(new TextEncoder().encode("stop\n"));
  });
  // TERM ended it (143), not the KILL two seconds later, nor the end of its sleep.
  assertEquals(r.trailer, { status: 143, reason: "stop" });
  assertEquals(r.stderr, "");
});

/**
 * The macOS flavour of the supervisor (process groups, no PID namespace),
 * run here with bash directly: the test runner may start any program, which
 * wisp itself may not. The Linux flavour runs under bwrap in runner_test.ts,
 * and here where the test needs its control pipe in hand.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { splitTrailer, START_MARK, supervisorArgv } from "../../src/exec/supervisor.ts";
import { processesRunning, processesWith } from "./support.ts";
import { waitUntil } from "../support/wait.ts";

async function supervise(
  line: string,
  seconds: number,
  control?: (w: WritableStreamDefaultWriter<Uint8Array>) => Promise<void>,
  env?: Record<string, string>,
) {
  const [program, ...args] = supervisorArgv("pgroup", line, seconds, true);
  const child = new Deno.Command(program, {
    args,
    ...(env ? { env } : {}),
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
  // A capturing supervisor writes its start mark first, before the command runs.
  const stderr = new TextDecoder().decode(split.rest);
  assert(stderr.startsWith(START_MARK), `no start mark first on stderr: ${JSON.stringify(stderr)}`);
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: stderr.slice(START_MARK.length),
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
    assertEquals(r.trailer, { status: 4, reason: "-", kind: "exit" });
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
  assertEquals(r.trailer, { status: 143, reason: "timeout", kind: "signal" });
  // The limit is a time: at least 1 s, and an upper bound with five times
  // the room the old one left (it was 2 s).
  assert(r.ms > 900 && r.ms < 6000, `${r.ms} ms`);
  const stubborn = await supervise("trap '' TERM; sleep 30", 1);
  assertEquals(stubborn.trailer, { status: 137, reason: "timeout", kind: "-" });
  assert(stubborn.ms > 2500 && stubborn.ms < 15_000, `${stubborn.ms} ms`);
});

Deno.test("pgroup supervisor: a stop on the control pipe ends the group", async () => {
  const r = await supervise("sleep 30", 0, async (w) => {
    await new Promise((res) => setTimeout(res, 300));
    await w.write(new TextEncoder().encode("stop\n"));
  });
  // TERM ended it (143), not the KILL two seconds later, nor the end of its sleep.
  assertEquals(r.trailer, { status: 143, reason: "stop", kind: "signal" });
  assertEquals(r.stderr, "");
});

Deno.test("pgroup supervisor: the control pipe's end while the command runs (wisp gone) kills the group", async () => {
  const t = tag();
  const r = await supervise(`sleep ${t}; echo late`, 0, async (w) => {
    await waitUntil(() => processesWith(`sleep ${t}`).length > 0, "the sleep to start");
    await w.close();
  });
  // Killed at once (137; the waiter dies with its group, so the kind is unknown), not ended by its
  // own sleep (which would print "late" and exit 0).
  assertEquals(r.trailer, { status: 137, reason: "-", kind: "-" });
  assertEquals(r.stdout, "");
  await waitUntil(() => processesWith(`sleep ${t}`).length === 0, "the sleep's end");
});

Deno.test({
  name:
    "pidns supervisor under bubblewrap: the control pipe's end kills the command, and the launcher ends",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    // The end can come while the command runs, or before it has even started.
    for (const when of ["running", "at once"] as const) {
      const t = tag();
      const child = new Deno.Command("bwrap", {
        args: [
          "--dev-bind",
          "/",
          "/",
          "--unshare-pid",
          "--as-pid-1",
          "--",
          ...supervisorArgv("pidns", `sleep ${t}; echo late`, 0, true),
        ],
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      if (when === "running") {
        await waitUntil(() => processesRunning(`sleep ${t}`).length > 0, "the sleep to start");
      }
      await child.stdin.close();
      const out = await child.output();
      const split = splitTrailer(out.stderr);
      assertEquals([when, split.trailer], [when, { status: 137, reason: "-", kind: "-" }]);
      assertEquals(out.code, 137);
      assertEquals(new TextDecoder().decode(out.stdout), "");
      await waitUntil(() => processesWith(`sleep ${t}`).length === 0, "the sleep's end");
    }
  },
});

Deno.test("pgroup supervisor: an exit status of 128+N is told from a death by signal N", async () => {
  for (
    const [line, trailer] of [
      ["exit 130", { status: 130, reason: "-", kind: "exit" }],
      ["exit 159", { status: 159, reason: "-", kind: "exit" }],
      ["kill -INT $$", { status: 130, reason: "-", kind: "signal" }],
      ["kill -KILL $$", { status: 137, reason: "-", kind: "signal" }],
      ["trap 'exit 143' TERM; sleep 30 & wait", { status: 143, reason: "timeout", kind: "exit" }],
    ] as const
  ) {
    const r = await supervise(line, line.includes("TERM") ? 1 : 0);
    assertEquals([line, r.trailer], [line, trailer]);
    assertEquals(r.code, trailer.status);
  }
});

Deno.test("pgroup supervisor: the command gets back SIGINT, and none of the waiter's descriptors", async () => {
  // A job of a shell without job control would have SIGINT ignored; the
  // waiter ignores it for itself only. The waiter writes to a private file
  // the command must not hold open.
  const r = await supervise("grep '^SigIgn' /proc/self/status; ls -l /proc/self/fd/", 0);
  const [ignored, ...fds] = r.stdout.split("\n");
  // SIGINT is bit 1 of the ignored mask (signal 2).
  assertEquals(BigInt("0x" + ignored.split(/\s+/)[1]) & 2n, 0n);
  assert(fds.some((l) => / 0 -> \/dev\/null$/.test(l)), r.stdout);
  assert(!fds.some((l) => l.includes("wisp-supervisor")), r.stdout);
});

Deno.test("both flavours without perl: the command runs and the status is read the shells' way", async () => {
  // bwrap hides /usr/bin/perl behind /dev/null (not executable), so the
  // supervisor takes its way without a waiter.
  for (const flavour of ["pidns", "pgroup"] as const) {
    for (
      const [line, status] of [["echo ran; exit 130", 130], [
        "echo ran; kill -INT $$",
        130,
      ]] as const
    ) {
      const out = await new Deno.Command("bwrap", {
        args: [
          ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
          ...["--ro-bind", "/dev/null", "/usr/bin/perl", "--bind", "/tmp", "/tmp"],
          ...["--unshare-pid", "--as-pid-1", "--die-with-parent", "--"],
          ...supervisorArgv(flavour, line, 0, true),
        ],
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      // The control pipe stays open while the command runs: its end would say wisp is gone.
      const control = out.stdin.getWriter();
      const done = await out.output();
      await control.close().catch(() => {});
      assertEquals(new TextDecoder().decode(done.stdout), "ran\n");
      assertEquals(
        [flavour, line, splitTrailer(done.stderr).trailer],
        [flavour, line, { status, reason: "-", kind: "-" }],
      );
    }
  }
});

Deno.test("both flavours: the person's PERL5OPT and PERL5LIB neither stop the waiter nor leave the command", async () => {
  for (const flavour of ["pidns", "pgroup"] as const) {
    const out = await new Deno.Command("bwrap", {
      args: [
        ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", "/tmp", "/tmp"],
        ...["--unshare-pid", "--as-pid-1", "--die-with-parent", "--"],
        ...supervisorArgv(flavour, 'echo "$PERL5OPT|$PERL5LIB"; exit 141', 0, true),
      ],
      env: { PERL5OPT: "-MWisp::Not::A::Module", PERL5LIB: "/nonexistent-lib" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // The control pipe stays open while the command runs: its end would say wisp is gone.
    const control = out.stdin.getWriter();
    const done = await out.output();
    await control.close().catch(() => {});
    const split = splitTrailer(done.stderr);
    assertEquals(
      new TextDecoder().decode(done.stdout),
      "-MWisp::Not::A::Module|/nonexistent-lib\n",
    );
    // Nothing on stderr but the start mark the supervisor writes before the command runs.
    assertEquals(new TextDecoder().decode(split.rest), START_MARK);
    assertEquals([flavour, split.trailer], [flavour, { status: 141, reason: "-", kind: "exit" }]);
  }
});

Deno.test("pgroup supervisor: a PATH without the system folders still gets the time limit kept", async () => {
  // The command's PATH is the person's to set (the environment policy); the supervisor's own
  // tools must not depend on it. Before, a sleep not found fired the limit at once.
  const r = await supervise("echo started; /bin/sleep 30", 1, undefined, { PATH: "/nonexistent" });
  assertEquals(r.stdout, "started\n");
  assertEquals(r.trailer, { status: 143, reason: "timeout", kind: "signal" });
  assert(r.ms > 900, `${r.ms} ms`);
});

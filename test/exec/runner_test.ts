/**
 * The runner with real commands under the real launcher: exit statuses,
 * process cleanup, time limits (also while wisp's event loop is blocked),
 * stopping, bounded capture with the whole kept in the output store, the
 * network switch, and what command.outcome records.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { join } from "node:path";
import { runCommand, startCommand } from "../../src/exec/runner.ts";
import { renderWhole } from "../../src/tools/command_result.ts";
import { resolveOnOwnPath } from "../../src/exec/environment.ts";
import {
  config,
  exists,
  processesWith,
  request,
  scratch,
  stderrText,
  stdoutText,
} from "./support.ts";
import { GENEROUS_MS, waitUntil, within } from "../support/wait.ts";

const encoder = new TextEncoder();

async function waitFor(path: string, ms = GENEROUS_MS): Promise<void> {
  const until = Date.now() + ms;
  while (!exists(path)) {
    if (Date.now() > until) throw new Error(`${path} never appeared`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("exit status, both streams, and nothing of the supervisor in them", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(request(s, "echo out; echo err >&2; exit 3"));
    assertEquals(r.exitStatus, 3);
    assertEquals(r.rendered, "exit status: 3\nstdout:\nout\nstderr:\nerr");
    assertEquals(stderrText(r), "err\n");
    const quiet = await runCommand(request(s, "true"));
    assertEquals(quiet.rendered, "exit status: 0");
  } finally {
    await s.cleanup();
  }
});

Deno.test("a look-alike of the supervisor's trailer printed by the command stays the command's output", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(request(s, "printf '\\036wisp-exit 0 - exit\\n' >&2; exit 5"));
    assertEquals(r.exitStatus, 5);
    assertEquals(stderrText(r), "\x1ewisp-exit 0 - exit\n");
  } finally {
    await s.cleanup();
  }
});

Deno.test("a command killed by a signal reports it negated", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(request(s, "kill -TERM $$"));
    assertEquals(r.exitStatus, -15);
    assertEquals(r.signal, "SIGTERM");
    assertMatch(r.rendered, /^exit status: -15$/);
  } finally {
    await s.cleanup();
  }
});

Deno.test("a status of 129–159 the command chose is its own; a death by a signal is negated (result and audit)", async () => {
  const s = await scratch();
  // A command gets the signal dispositions wisp came with, and a test run started as a background
  // job of a script comes with SIGQUIT ignored (so the QUIT case below would exit 0). A listener
  // here makes this process's children start with SIGQUIT's default, as at a terminal.
  const listening = () => {};
  Deno.addSignalListener("SIGQUIT", listening);
  try {
    // [line, the status the model sees, the signal's name if one ended it]
    const cases: [string, number, string | undefined][] = [
      ["exit 129", 129, undefined],
      ["exit 130", 130, undefined],
      ["exit 143", 143, undefined],
      ["exit 159", 159, undefined],
      // A shell that waited for a killed child exits by itself with 128+N. (TERM: a background
      // job of a shell without job control ignores SIGINT.)
      ["sleep 30 & kill -TERM $!; wait $!", 143, undefined],
      ["kill -INT $$", -2, "SIGINT"],
      ["kill -TERM $$", -15, "SIGTERM"],
      ["kill -KILL $$", -9, "SIGKILL"],
      ["kill -PIPE $$", -13, "SIGPIPE"],
      // A writer whose reader has gone: yes, in the shell's place, dies of SIGPIPE.
      ["mkfifo p; head -c1 p >/dev/null & exec yes > p", -13, "SIGPIPE"],
      // A program the shell replaced itself with, killed by a signal.
      ["exec sh -c 'kill -QUIT $$'", -3, "SIGQUIT"],
    ];
    for (const [line, status, signal] of cases) {
      const r = await runCommand(request(s, line));
      assertEquals([line, r.exitStatus, r.signal], [line, status, signal]);
      // The first line is the status the model reads (the shell may add "Terminated" below).
      assertEquals(r.rendered.split("\n")[0], `exit status: ${status}`);
      const event = s.events.findLast((e) => e.kind === "command.outcome")!;
      assertEquals(event.command, line);
      assertEquals([event.exitStatus, event.signal], [status, signal]);
    }

    // The supervisor's own endings: a time limit and a stop are signals.
    const late = await runCommand(request(s, "sleep 30", { timeoutSeconds: 1 }));
    assertEquals([late.timedOut, late.exitStatus, late.signal], [true, -15, "SIGTERM"]);
    const lateEvent = s.events.findLast((e) => e.kind === "command.outcome")!;
    assertEquals([lateEvent.exitStatus, lateEvent.signal], [-15, "SIGTERM"]);
    const running = startCommand(request(s, "touch begun; sleep 30", { origin: "person" }));
    await waitFor(join(s.project, "begun"));
    running.stop();
    const stopped = await within(running.result, "the stopped command's end");
    assertEquals([stopped.stopped, stopped.exitStatus, stopped.signal], [true, -15, "SIGTERM"]);
    const stoppedEvent = s.events.findLast((e) => e.kind === "command.outcome")!;
    assertEquals([stoppedEvent.exitStatus, stoppedEvent.signal], [-15, "SIGTERM"]);
    // A command that catches the stop and chooses its status keeps it.
    const chooser = startCommand(
      request(s, "trap 'exit 143' TERM; touch chose; sleep 30 & wait", { origin: "person" }),
    );
    await waitFor(join(s.project, "chose"));
    chooser.stop();
    const chose = await within(chooser.result, "the trapping command's end");
    assertEquals([chose.stopped, chose.exitStatus, chose.signal], [true, 143, undefined]);
    const choseEvent = s.events.findLast((e) => e.kind === "command.outcome")!;
    assertEquals([choseEvent.exitStatus, choseEvent.signal], [143, undefined]);
  } finally {
    Deno.removeSignalListener("SIGQUIT", listening);
    await s.cleanup();
  }
});

Deno.test("the waiter leaves the command SIGINT, no descriptor of its own, and is not a perl to kill", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(
      request(s, "grep '^SigIgn' /proc/self/status; ls -l /proc/self/fd/ | grep -o 'pipe:.*'"),
    );
    const [ignored, ...pipes] = stdoutText(r).trim().split("\n");
    assertEquals(BigInt("0x" + ignored.split(/\s+/)[1]) & 2n, 0n);
    // stdout and stderr are wisp's two pipes; any other pipe the command
    // holds must be one this test process holds too (inherited from outside),
    // not the one the waiter reports through.
    const ours = new Set<string>();
    for (const fd of Deno.readDirSync("/proc/self/fd")) {
      try {
        ours.add(Deno.readLinkSync(`/proc/self/fd/${fd.name}`));
      } catch { /* closed meanwhile */ }
    }
    const extra = pipes.filter((p) => !ours.has(p));
    assertEquals(extra.length, 2, `pipes: ${pipes.join(" ")}`);
    // A command that kills every perl it can see (a stuck script, say) goes on: the waiter is
    // not called perl.
    const sweeper = await runCommand(
      request(
        s,
        'for d in /proc/[0-9]*; do [ "$(cat $d/comm 2>/dev/null)" = perl ] && kill -9 ${d#/proc/}; done; echo after',
      ),
    );
    assertEquals([sweeper.exitStatus, stdoutText(sweeper)], [0, "after\n"]);
  } finally {
    await s.cleanup();
  }
});

Deno.test("no background job, TERM-ignoring child, or setsid'ed descendant outlives the command", async () => {
  const s = await scratch();
  const tag = String(30 + Math.floor(Math.random() * 1000) / 1000);
  try {
    // Each job leaves a mark if its sleep ends: had the runner waited for the
    // jobs, the marks would be there when it returned.
    const r = await runCommand(request(
      s,
      [
        `sh -c 'sleep ${tag}1; touch late1' &`,
        `sh -c 'trap "" TERM; sleep ${tag}2; touch late2' &`,
        `setsid sh -c 'sleep ${tag}3; touch late3' &`,
        "sleep 0.2; echo started",
      ].join("\n"),
    ));
    assertEquals(stdoutText(r), "started\n");
    for (const n of [1, 2, 3]) {
      assert(!exists(join(s.project, `late${n}`)), `the runner waited for job ${n}`);
      assertEquals(processesWith(`sleep ${tag}${n}`), [], `sleep ${tag}${n} outlived the command`);
    }
  } finally {
    await s.cleanup();
  }
});

Deno.test("a time limit sends TERM, then KILL two seconds later to what ignores TERM", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(
      request(s, "sleep 30", { timeoutSeconds: 1, timeoutSource: "call", timeoutClamped: false }),
    );
    assert(r.timedOut);
    assertEquals(r.exitStatus, -15);
    // The limit is a time: at least 1 s, and an upper bound with five times
    // the room the old one left (it was 2.5 s).
    assert(r.durationMs >= 900 && r.durationMs < 8500, `took ${r.durationMs} ms`);
    assertStringIncludes(
      r.rendered,
      "timed out: the command was killed after 1 s; ask for up to 3600 s with timeoutSeconds",
    );
    const event = s.events.findLast((e) => e.kind === "command.outcome")!;
    assertEquals(event.timedOut, true);
    assertEquals(event.timeoutSource, "call");
    assertEquals(event.timeoutSeconds, 1);
    assertEquals(event.timeoutClamped, false);

    const stubborn = await runCommand(request(s, "trap '' TERM; sleep 30", { timeoutSeconds: 1 }));
    assert(stubborn.timedOut);
    assertEquals(stubborn.exitStatus, -9);
    assert(
      stubborn.durationMs >= 2800 && stubborn.durationMs < 15_000,
      `took ${stubborn.durationMs} ms`,
    );
  } finally {
    await s.cleanup();
  }
});

Deno.test("a PATH without the system folders: the command runs and its time limit is kept", async () => {
  // The environment policy may give commands any PATH; the supervisor's own shell and sleep must
  // not depend on it. Before, sleep was not found and the limit fired at once, before any output.
  const s = await scratch();
  try {
    const cfg = config({
      commandPolicy: { sandbox: { environment: { set: { PATH: "/nonexistent" } } } },
    });
    const r = await runCommand(
      request(s, "echo started; /bin/sleep 30", { config: cfg, timeoutSeconds: 1 }),
    );
    assertEquals(stdoutText(r), "started\n");
    assert(r.timedOut);
    assertEquals(r.exitStatus, -15);
    assert(r.durationMs >= 900, `took ${r.durationMs} ms`);
    const plain = await runCommand(request(s, "echo $PATH; exit 3", { config: cfg }));
    assertEquals(stdoutText(plain), "/nonexistent\n");
    assertEquals(plain.exitStatus, 3);
  } finally {
    await s.cleanup();
  }
});

Deno.test("the time limit fires on time while wisp's event loop is blocked", async () => {
  const s = await scratch();
  try {
    const script =
      `date +%s%N > started; trap 'date +%s%N > ended; exit 1' TERM; sleep 30 & wait; touch finished`;
    // The limit runs from the launch, not from when the command's own shell got going (on a
    // loaded machine that may be a good part of a second later).
    const launchedMs = Date.now();
    const running = startCommand(request(s, script, { timeoutSeconds: 1 }));
    await waitFor(join(s.project, "started"));
    // Block this thread until the command says TERM came: no timer of wisp's
    // can fire meanwhile, so only the supervisor's own timer can send it.
    const endedPath = join(s.project, "ended");
    const until = performance.now() + GENEROUS_MS;
    while (!exists(endedPath)) {
      if (performance.now() > until) throw new Error("no TERM came while wisp was blocked");
    }
    const r = await running.result;
    assert(r.timedOut, r.rendered);
    const ended = Number(Deno.readTextFileSync(join(s.project, "ended")));
    const sinceLaunchMs = ended / 1e6 - launchedMs;
    assert(sinceLaunchMs >= 900, `TERM came ${sinceLaunchMs} ms after the launch`);
    // TERM came from the limit, not after the command's own end: the sleep never finished.
    assert(!exists(join(s.project, "finished")), "the command ran to its own end before TERM");
  } finally {
    await s.cleanup();
  }
});

Deno.test("the backstop counts from the command's start: a slow launcher does not eat into the time limit", async () => {
  const s = await scratch();
  // A launcher that takes 5 s to get going, well past the 2 s limit and the
  // backstop's half second after it: had the backstop counted from the
  // launch, it would have stopped a command that never ran out of time.
  const realLauncher = resolveOnOwnPath("bwrap");
  const wrapperDir = await Deno.makeTempDir({ prefix: "wisp-slow-launcher-" });
  const launchedPath = join(wrapperDir, "launched");
  await Deno.writeTextFile(
    join(wrapperDir, "bwrap"),
    `#!/bin/sh\ndate +%s%N > '${launchedPath}'\nsleep 5\nexec '${realLauncher}' "$@"\n`,
    { mode: 0o755 },
  );
  const path = Deno.env.get("PATH") ?? "";
  Deno.env.set("PATH", `${wrapperDir}:${path}`);
  try {
    const r = await runCommand(
      request(s, "date +%s%N > started; echo ran", { timeoutSeconds: 2 }),
    );
    assertEquals([r.timedOut, r.stopped, r.exitStatus], [false, false, 0], r.rendered);
    assertEquals(stdoutText(r), "ran\n");
    // The scenario happened: the command started long after the launch.
    const launched = Number(Deno.readTextFileSync(launchedPath));
    const started = Number(Deno.readTextFileSync(join(s.project, "started")));
    assert((started - launched) / 1e6 >= 2500, "the launcher was not slow");
  } finally {
    Deno.env.set("PATH", path);
    await Deno.remove(wrapperDir, { recursive: true });
    await s.cleanup();
  }
});

Deno.test("a look-alike of the supervisor's start mark printed by the command stays the command's output", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(request(s, "printf '\\036wisp-start\\n' >&2; exit 0"));
    assertEquals(r.exitStatus, 0);
    assertEquals(stderrText(r), "\x1ewisp-start\n");
  } finally {
    await s.cleanup();
  }
});

/** Whether a process `sleep SECONDS` is alive on this machine (zombies do not count). */
function sleepsRunning(seconds: string): boolean {
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const argv = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
      if (argv[0].endsWith("sleep") && argv[1] === seconds) {
        const state = Deno.readTextFileSync(`/proc/${entry.name}/stat`).split(") ")[1]?.[0];
        if (state !== "Z") return true;
      }
    } catch { /* gone meanwhile */ }
  }
  return false;
}

/** Poll `probe` until it holds, for up to a minute. */
Deno.test("stop: TERM to everything, recorded as stopped; a second stop kills at once", async () => {
  const s = await scratch();
  try {
    const running = startCommand(request(s, "touch started; sleep 30", { origin: "person" }));
    await waitFor(join(s.project, "started"));
    running.stop();
    const r = await within(running.result, "the stopped command's end");
    assert(r.stopped);
    assertEquals(r.timedOut, false);
    assertEquals(r.exitStatus, -15);
    assertStringIncludes(r.rendered, "stopped: the person stopped the command");
    assertEquals(s.events.findLast((e) => e.kind === "command.outcome")!.stopped, true);

    // Two commands that ignore TERM, stopped together; only the first is
    // stopped a second time. Its processes must be gone while the other's
    // still wait out the grace. (Read from the process table, not from the
    // results: a result also waits for the pipes to drain, which a loaded
    // machine can stretch past the grace.)
    // Sleeps of lengths no other test (or a second run of this one) uses, to find them by.
    const unique = 100_000 + Math.floor(Math.random() * 800_000);
    const [first, second] = [String(unique), String(unique + 1)];
    const stubborn = startCommand(
      request(s, `trap '' TERM; touch started2; sleep ${first}`, { origin: "person" }),
    );
    const control = startCommand(
      request(s, `trap '' TERM; touch started3; sleep ${second}`, { origin: "person" }),
    );
    await waitFor(join(s.project, "started2"));
    await waitFor(join(s.project, "started3"));
    await waitUntil(() => sleepsRunning(first) && sleepsRunning(second), "both sleeps to start");
    const t1 = performance.now();
    stubborn.stop();
    control.stop();
    stubborn.stop();
    await waitUntil(() => !sleepsRunning(first), "the twice-stopped command's sleep to die");
    assert(sleepsRunning(second), "the second stop did not kill at once: the grace ran out first");
    const [killed, graced] = await within(
      Promise.all([stubborn.result, control.result]),
      "both stopped commands' ends",
    );
    assert(performance.now() - t1 >= 1800, "the grace before KILL was cut short");
    assertEquals(killed.exitStatus, -9);
    assert(killed.stopped);
    assertEquals(graced.exitStatus, -9);
  } finally {
    await s.cleanup();
  }
});

Deno.test("stop through an AbortSignal; a command that ignores TERM is killed two seconds later", async () => {
  const s = await scratch();
  try {
    const controller = new AbortController();
    // The trap is set before the mark: a stop that came between the two would end the shell by TERM.
    const running = startCommand(
      request(s, "trap '' TERM; touch started; sleep 30", {
        origin: "person",
        signal: controller.signal,
      }),
    );
    await waitFor(join(s.project, "started"));
    const t0 = performance.now();
    controller.abort();
    const r = await running.result;
    const ms = performance.now() - t0;
    assert(ms >= 1800 && ms < 10_000, `killed after ${ms} ms`);
    assertEquals(r.exitStatus, -9);
    assert(r.stopped);
  } finally {
    await s.cleanup();
  }
});

Deno.test("a long output: head and tail within the budget, the whole kept, the note's line lands on the first held back", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(
      request(s, "seq 1 200000; echo 'error: it failed' >&2; exit 1", {
        budgetBytes: 4096,
        outputId: "call0001",
      }),
    );
    assert(encoder.encode(r.rendered).length <= 4096, `${encoder.encode(r.rendered).length} bytes`);
    assertEquals(r.outputId, "call0001");
    assertStringIncludes(r.rendered, "stderr:\nerror: it failed\n");
    const held =
      /held back: stdout lines ([\d,]+)–([\d,]+) \(([^)]+)\); the whole output is kept as output call0001 \(([\d,]+) lines\)/
        .exec(r.rendered);
    assert(held, r.rendered);
    const [from, to, , total] = [held[1], held[2], held[3], held[4]].map((n) =>
      Number(n.replaceAll(",", ""))
    );
    const stored = Deno.readTextFileSync(join(s.home.output, s.audit.session, "call0001"));
    const seq = Array.from({ length: 200000 }, (_, i) => String(i + 1)).join("\n") + "\n";
    assertEquals(stored, renderWhole(1, seq, "error: it failed\n"));
    const lines = stored.split("\n");
    assertEquals(lines.length - 1, total);
    // The last stdout line shown before the marker, and the first held-back line in the store.
    const shownHead = r.rendered.split("\n[…")[0].split("\n");
    const lastShown = Number(shownHead[shownHead.length - 1]);
    assertEquals(lines[from - 1], String(lastShown + 1));
    const afterMarker = r.rendered.split("held back …]\n")[1].split("\n")[0];
    assertEquals(lines[to], afterMarker);
    assertMatch(r.rendered, /\n\[… [\d,]+ lines \([\d.]+ (KiB|MiB)\) held back …\]\n/);
    // no spill files are left beside the output
    assertEquals([...Deno.readDirSync(join(s.home.output, s.audit.session))].map((e) => e.name), [
      "call0001",
    ]);
    const event = s.events.findLast((e) => e.kind === "command.outcome")!;
    assertEquals(event.stored, "call0001");
    assertEquals(event.stdoutBytes, encoder.encode(seq).length);
  } finally {
    await s.cleanup();
  }
});

Deno.test("a short error keeps at least a fifth of the room beside a long log", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(
      request(s, 'seq 1 100000; for i in $(seq 1 300); do echo "error line $i" >&2; done; exit 2', {
        budgetBytes: 8192,
      }),
    );
    const stderrPart = r.rendered.split("stderr:\n")[1].split("held back:")[0];
    assert(
      encoder.encode(stderrPart).length >= 8192 / 5 - 200,
      `stderr got ${encoder.encode(stderrPart).length} bytes`,
    );
    assertStringIncludes(stderrPart, "error line 300");
    assertStringIncludes(stderrPart, "error line 1\n");
  } finally {
    await s.cleanup();
  }
});

Deno.test("without an output store the note says the held-back lines were not kept", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(request(s, "seq 1 50000", { budgetBytes: 4096, outputStore: null }));
    assertStringIncludes(r.rendered, "the held-back lines were not kept");
    assertEquals(r.outputId, undefined);
    assert(!exists(join(s.home.output, s.audit.session)));
  } finally {
    await s.cleanup();
  }
});

Deno.test("a wisp killed while its command runs leaves nothing behind: not the command, not the launcher", async () => {
  const s = await scratch();
  // A sleep far longer than the wait below, so only the kill can end it in time.
  const marker = `sleep 3${Math.floor(Math.random() * 9)}${Date.now() % 10}.${Date.now() % 100000}`;
  try {
    const script = join(s.project, "killed.ts");
    const root = new URL("../..", import.meta.url).pathname;
    Deno.writeTextFileSync(
      script,
      `import { runCommand } from "${root}src/exec/runner.ts";
import { defaultConfig } from "${root}src/config/schema.ts";
import { homePaths } from "${root}src/config/home.ts";
import { commandResultRenderer } from "${root}src/tools/command_result.ts";
await runCommand({ cwd: "${s.project}", root: "${s.project}", origin: "model", budgetBytes: 4096, config: defaultConfig(), home: homePaths("${s.home.root}"), audit: { session: "kill0001", record: () => ({}) } as never, render: commandResultRenderer, command: "touch started; ${marker}" });
`,
    );
    const wisp = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--config", join(root, "deno.json"), script],
      stdout: "null",
      stderr: "null",
    }).spawn();
    await waitFor(join(s.project, "started"));
    await waitUntil(() => processesWith(marker).length >= 2, "the launcher and the sleep");
    wisp.kill("SIGKILL");
    await wisp.status;
    // Neither the sleep nor the launcher (whose arguments name it) may outlive wisp.
    await waitUntil(() => processesWith(marker).length === 0, "everything wisp started to end");
  } finally {
    for (const pid of processesWith(marker)) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone */ }
    }
    await s.cleanup();
  }
});

Deno.test("`yes | head -c 2G` is captured within the memory bound (measured in a subprocess)", async () => {
  const s = await scratch();
  try {
    const script = join(s.project, "probe.ts");
    const root = new URL("../..", import.meta.url).pathname;
    Deno.writeTextFileSync(
      script,
      `import { runCommand } from "${root}src/exec/runner.ts";
import { defaultConfig } from "${root}src/config/schema.ts";
import { homePaths } from "${root}src/config/home.ts";
import { commandResultRenderer } from "${root}src/tools/command_result.ts";
const kib = (k: string) => Number(new RegExp(k + ":\\\\s+(\\\\d+)").exec(Deno.readTextFileSync("/proc/self/status"))![1]);
const base = { cwd: "${s.project}", root: "${s.project}", origin: "model" as const, budgetBytes: 64 * 1024, config: defaultConfig(), home: homePaths("${s.home.root}"), audit: { session: "mem00001", record: () => ({}) } as never, render: commandResultRenderer };
await runCommand({ ...base, command: "echo warm" });
const before = kib("VmRSS");
const r = await runCommand({ ...base, command: "yes | head -c 2G" });
console.log(JSON.stringify({ growthKiB: kib("VmHWM") - before, bytes: r.stdout.bytes, lines: r.stdout.lines, id: r.outputId }));
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--config", join(root, "deno.json"), script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert(out.success, new TextDecoder().decode(out.stderr));
    const m = JSON.parse(new TextDecoder().decode(out.stdout).trim());
    assertEquals(m.bytes, 2 * 1024 ** 3);
    assertEquals(m.lines, 1024 ** 3);
    assert(m.growthKiB < 64 * 1024, `peak RSS grew ${m.growthKiB} KiB`);
    // The store kept the first 16 MiB and said the rest was not kept.
    const stored = Deno.statSync(join(s.home.output, "mem00001", m.id)).size;
    assertEquals(stored, 16 * 1024 * 1024);
  } finally {
    await s.cleanup();
  }
});

Deno.test("the network is there unless commandPolicy.sandbox.allowNetwork is false", async () => {
  const s = await scratch();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const accepting = (async () => {
    for await (const conn of listener) conn.close();
  })();
  try {
    const line = `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}' && echo connected`;
    const on = await runCommand(request(s, line));
    assertEquals(stdoutText(on), "connected\n", on.rendered);
    const off = await runCommand(
      request(s, line, { config: config({ commandPolicy: { sandbox: { allowNetwork: false } } }) }),
    );
    assert(off.exitStatus !== 0);
    assertEquals(stdoutText(off), "");
  } finally {
    listener.close();
    await accepting.catch(() => {});
    await s.cleanup();
  }
});

Deno.test("a working directory that does not exist: nothing runs, the result says why", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(request(s, "true", { cwd: join(s.project, "nope") }));
    assertEquals(r.exitStatus, null);
    assertMatch(r.rendered, /^error: the working directory .* does not exist$/);
    assertEquals(s.events.findLast((e) => e.kind === "command.outcome")!.exitStatus, null);
  } finally {
    await s.cleanup();
  }
});

Deno.test("a bare permission error with no path gets a sandbox line that says it is a guess", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(request(s, "echo 'Error: Operation not permitted' >&2; exit 1"));
    assertEquals(r.sandbox.verdict, "guess");
    assertStringIncludes(r.rendered, "sandbox: the sandbox may have refused a write (a guess");
    assertEquals(s.events.findLast((e) => e.kind === "command.outcome")!.sandboxRefusal, "guess");
  } finally {
    await s.cleanup();
  }
});

Deno.test("with the sandbox off the runner hands the face its warning, and prints nothing itself", async () => {
  const s = await scratch();
  try {
    const warnings: string[] = [];
    const r = await runCommand(
      request(s, "true", { unsafe: true, warn: (line) => warnings.push(line) }),
    );
    assertEquals(r.sandbox.mode, "off");
    assertEquals(warnings, [
      "warning: the sandbox is off: commands can write anywhere you can, wisp's home included",
    ]);
    const confined = await runCommand(request(s, "true", { warn: (line) => warnings.push(line) }));
    assertEquals(confined.sandbox.mode, "confined");
    assertEquals(warnings.length, 1);
  } finally {
    await s.cleanup();
  }
});

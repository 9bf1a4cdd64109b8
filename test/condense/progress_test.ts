/**
 * `wisp triage -- COMMAND` on a terminal: a working line on stderr while the
 * command runs (elapsed seconds, lines read), cleared when it ends; none with
 * --quiet or when stderr is not a terminal.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { Terminal, tmuxAvailable } from "../support/tmux.ts";
import { tempDir } from "../support/wisp.ts";
import { progressLine, wantsProgress } from "../../src/cli/triage.ts";
import { scanFile, scanStream } from "../../src/condense/input.ts";
import { join } from "node:path";

/**
 * The end of a feed or a command: it waits in its folder for the file `go`, which the test
 * writes once it has seen what it waits for (a minute at most, so a failed test leaves nothing).
 */
const untilGo = "n=0; while [ ! -e go ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n+1)); done";

Deno.test("the working line: seconds and lines read; shown only on a terminal and never with --quiet", () => {
  assertEquals(progressLine(12_400, 34_567), "wisp triage: running, 12 s, 34,567 lines read");
  assertEquals(wantsProgress(undefined, true), true);
  assertEquals(wantsProgress(true, true), false);
  assertEquals(wantsProgress(undefined, false), false);
  assertEquals(progressLine(3_000, 12, "reading"), "wisp triage: reading, 3 s, 12 lines read");
});

Deno.test("a file and standard input tell the watcher how many lines they have read", async () => {
  const home = await tempDir();
  try {
    const path = join(home, "build.log");
    await Deno.writeTextFile(path, "row\n".repeat(5000));
    let fileLines: (() => number) | undefined;
    const scanned = await scanFile(path, path, { onScanning: (read) => fileLines = read });
    assertEquals(scanned.lines, 5000);
    assertEquals(fileLines?.(), 5000);
    let streamLines: (() => number) | undefined;
    const seen: number[] = [];
    const enc = new TextEncoder();
    const pieces = ["a\nb\n", "c\n"];
    // Pulled only when read (high-water mark 0): each pull sees what the scan has read so far.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        seen.push(streamLines!());
        const piece = pieces.shift();
        if (piece === undefined) controller.close();
        else controller.enqueue(enc.encode(piece));
      },
    }, { highWaterMark: 0 });
    // The watcher is told before the first byte is read.
    await scanStream(body, {
      onScanning: (read) => {
        streamLines = read;
        seen.push(read());
      },
    });
    assertEquals(seen, [0, 0, 2, 3]);
    assertEquals(streamLines!(), 3);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test({
  name:
    "wisp triage reading standard input at a real terminal shows the working line; --quiet does not",
  ignore: !tmuxAvailable(),
  fn: async () => {
    const home = await tempDir();
    const work = await tempDir();
    const terminal = new Terminal();
    try {
      // The input stays open until the test has seen the working line (the file `go`): a fixed
      // pause could end before a slow machine has even started wisp.
      const feed =
        `sh -c 'i=0; while [ $i -lt 300 ]; do echo row $i; i=$((i+1)); done; ${untilGo}'`;
      await terminal.wisp("shown", home, ["triage", "--no-model"], feed, work);
      await terminal.wisp("quiet", home, ["triage", "--no-model", "--quiet"], feed, work);
      const reading = await terminal.waitFor("shown", "300 lines read");
      assert(/wisp triage: reading, \d+ s, 300 lines read/.test(reading), reading);
      await Deno.writeTextFile(join(work, "go"), "");
      const done = await terminal.waitFor("shown", "EXIT=");
      assertStringIncludes(done, "no failures found");
      assert(!done.includes("lines read"), `the working line was left on the screen:\n${done}`);
      const quiet = await terminal.waitFor("quiet", "EXIT=");
      assertStringIncludes(quiet, "no failures found");
      assert(!quiet.includes("lines read"), `--quiet showed the working line:\n${quiet}`);
    } finally {
      await terminal.close();
      await Deno.remove(home, { recursive: true });
      await Deno.remove(work, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "wisp triage -- COMMAND at a real terminal shows the working line while it runs, and clears it",
  ignore: !tmuxAvailable(),
  fn: async () => {
    const home = await tempDir();
    const work = await tempDir();
    const terminal = new Terminal();
    try {
      // The command runs (sandboxed, in `work`) until the test has seen the working line.
      const script = `i=0; while [ $i -lt 300 ]; do echo row $i; i=$((i+1)); done; ${untilGo}`;
      await terminal.wisp(
        "run",
        home,
        ["triage", "-y", "--no-model", "--", "sh", "-c", script],
        undefined,
        work,
      );
      const running = await terminal.waitFor("run", "300 lines read");
      assert(/wisp triage: running, \d+ s, 300 lines read/.test(running), running);
      await Deno.writeTextFile(join(work, "go"), "");
      const done = await terminal.waitFor("run", "EXIT=");
      assertStringIncludes(done, "exit 0; no failures found");
      assert(!done.includes("lines read"), `the working line was left on the screen:\n${done}`);
    } finally {
      await terminal.close();
      await Deno.remove(home, { recursive: true });
      await Deno.remove(work, { recursive: true });
    }
  },
});

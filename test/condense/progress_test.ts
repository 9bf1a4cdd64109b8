/**
 * `wisp triage -- COMMAND` on a terminal: a working line on stderr while the
 * command runs (elapsed seconds, lines read), cleared when it ends; none with
 * --quiet or when stderr is not a terminal.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { Terminal, tmuxAvailable } from "../support/tmux.ts";
import { tempDir } from "../support/wisp.ts";
import { progressLine, wantsProgress } from "../../src/cli/triage.ts";

Deno.test("the working line: seconds and lines read; shown only on a terminal and never with --quiet", () => {
  assertEquals(progressLine(12_400, 34_567), "wisp triage: running, 12 s, 34,567 lines read");
  assertEquals(wantsProgress(undefined, true), true);
  assertEquals(wantsProgress(true, true), false);
  assertEquals(wantsProgress(undefined, false), false);
});

Deno.test({
  name:
    "wisp triage -- COMMAND at a real terminal shows the working line while it runs, and clears it",
  ignore: !tmuxAvailable(),
  fn: async () => {
    const home = await tempDir();
    const terminal = new Terminal();
    try {
      const script = "i=0; while [ $i -lt 300 ]; do echo row $i; i=$((i+1)); done; sleep 6";
      await terminal.wisp("run", home, ["triage", "-y", "--no-model", "--", "sh", "-c", script]);
      const running = await terminal.waitFor("run", "300 lines read");
      assert(/wisp triage: running, \d+ s, 300 lines read/.test(running), running);
      const done = await terminal.waitFor("run", "EXIT=");
      assertStringIncludes(done, "exit 0; no failures found");
      assert(!done.includes("lines read"), `the working line was left on the screen:\n${done}`);
    } finally {
      await terminal.close();
      await Deno.remove(home, { recursive: true });
    }
  },
});

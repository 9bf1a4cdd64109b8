import { assertEquals } from "../support/assert.ts";
import { exitCodeFor, shellLine } from "../../src/cli/sandbox.ts";
import { shellQuote } from "../../src/util/shell_words.ts";
import { runCommand } from "../../src/exec/runner.ts";
import { request, scratch, stdoutText } from "./support.ts";

Deno.test("arguments are quoted so the shell gives the program exactly the argv it was given", async () => {
  assertEquals(shellQuote("make"), "make");
  assertEquals(shellQuote("it's"), "'it'\\''s'");
  assertEquals(shellQuote(""), "''");
  assertEquals(shellQuote("$(rm -rf ~)"), "'$(rm -rf ~)'");
  const argv = ["a b", "it's", "$HOME", "`id`", "*", "", "x;y", "new\nline", "-la", "é"];
  const s = await scratch();
  try {
    const r = await runCommand(request(s, shellLine(["printf", "[%s]\\n", ...argv])));
    assertEquals(stdoutText(r), argv.map((a) => `[${a}]\n`).join(""));
  } finally {
    await s.cleanup();
  }
});

Deno.test("wisp sandbox's exit code: the status, 128+N for signal N, 1 when nothing ran", () => {
  assertEquals(exitCodeFor(0), 0);
  assertEquals(exitCodeFor(7), 7);
  assertEquals(exitCodeFor(-15), 143);
  assertEquals(exitCodeFor(-9), 137);
  assertEquals(exitCodeFor(null), 1);
});

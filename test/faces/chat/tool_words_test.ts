/**
 * How a tool call is named on its line and on the working line: a command as
 * the command itself, any other tool with its main argument.
 */
import { activityWords, callWords } from "../../../src/faces/chat/tool_words.ts";
import { elapsedWords, workingText } from "../../../src/faces/chat/working_line.ts";
import { assertEquals } from "../../support/assert.ts";

Deno.test("the working line names the command a model runs, or the tool and its main argument", () => {
  assertEquals(activityWords("run_command", { command: "git status" }), "running git status");
  assertEquals(activityWords("read_file", { path: "README.md" }), "working: read_file README.md");
  assertEquals(activityWords("grep", { pattern: "TODO" }), "working: grep TODO");
  assertEquals(activityWords("current_date", {}), "working: current_date");
  assertEquals(activityWords("run_command", undefined), "working: run_command");
});

Deno.test("a call's line: the tool and its main argument", () => {
  assertEquals(callWords("run_command", { command: "ls -l" }), "run_command ls -l");
  assertEquals(callWords("ask", { question: "which?" }), "ask which?");
  assertEquals(callWords("ls", { depth: 2 }), "ls");
  assertEquals(callWords("ls", null), "ls");
});

Deno.test("the working line: how long, what, and the second Ctrl-C's warning", () => {
  assertEquals(elapsedWords(-5), "0 s");
  assertEquals(elapsedWords(59_999), "59 s");
  assertEquals(elapsedWords(125_000), "2 min 5 s");
  const since = 1_000_000;
  assertEquals(
    workingText({ text: "running git status", since }, since + 12_400),
    "… 12 s · running git status",
  );
  assertEquals(
    workingText({ text: "stopping the turn", since, stopping: true }, since + 3_000),
    "… 3 s · stopping the turn · Ctrl-C again quits",
  );
});

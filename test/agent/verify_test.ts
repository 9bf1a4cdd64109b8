import { assertEquals } from "../support/assert.ts";
import type { TurnCall } from "../../src/audit/calls.ts";
import { unsupportedClaims, unsupportedLine } from "../../src/agent/verify.ts";

const TOOLS = ["current_date", "run_command", "read_file", "edit_file", "notify"];

function command(line: string, text: string, outcome: TurnCall["outcome"] = "ok"): TurnCall {
  const status = /^exit status: (-?\d+)/.exec(text);
  return {
    id: line,
    tool: "run_command",
    arguments: { command: line },
    command: line,
    outcome,
    text,
    ...(status ? { exitStatus: Number(status[1]) } : {}),
  };
}

function line(reply: string, calls: TurnCall[] = []): string | null {
  return unsupportedLine(unsupportedClaims(reply, calls, TOOLS));
}

Deno.test("a removed file with no rm is unsupported, quoted as the spec shows", () => {
  assertEquals(
    line("Removed the scratch file."),
    'unsupported: "Removed the scratch file." (no rm, rmdir, unlink, or trash command ran in this turn)',
  );
  assertEquals(
    line("Removed the scratch file.", [command("rm scratch.txt", "exit status: 0")]),
    null,
  );
  assertEquals(
    line("Removed the scratch file.", [
      command("rm scratch.txt", "error: command not approved: no", "declined"),
    ]) !== null,
    true,
  );
  assertEquals(line("I did not remove the scratch file."), null, "a negation claims nothing");
});

Deno.test("an exit status must be one a command of the turn had", () => {
  assertEquals(
    line("The command exited with status 0.", [command("make", "exit status: 2")]),
    'unsupported: "The command exited with status 0." (no command in this turn exited with 0)',
  );
  assertEquals(line("It finished with exit status 2.", [command("make", "exit status: 2")]), null);
  assertEquals(
    line("Exit code 0, all good."),
    'unsupported: "Exit code 0, all good." (no command ran in this turn)',
  );
});

Deno.test("a command said to have run must have run", () => {
  assertEquals(
    line("I ran `git status` and the tree is clean."),
    'unsupported: "I ran `git status` and the tree is clean." (no command `git status` ran in this turn)',
  );
  assertEquals(
    line("I ran `git status` and the tree is clean.", [
      command("git status --short", "exit status: 0"),
    ]),
    null,
  );
  assertEquals(
    line("I ran `git push`.", [
      command("git push", "error: command not approved: no one can be asked", "declined"),
    ]) !== null,
    true,
    "a refused command did not run",
  );
});

Deno.test("a test or build outcome needs a test or build command", () => {
  assertEquals(
    line("All tests passed."),
    'unsupported: "All tests passed." (no test or build command ran in this turn)',
  );
  assertEquals(line("All tests passed.", [command("deno test -A", "exit status: 0")]), null);
  assertEquals(
    line("The build succeeded.", [command("ls", "exit status: 0\nstdout:\nx")]),
    'unsupported: "The build succeeded." (no test or build command ran in this turn)',
  );
});

Deno.test("a refusal claimed without one", () => {
  assertEquals(
    line("The command was denied by policy."),
    'unsupported: "The command was denied by policy." (no call in this turn was refused)',
  );
  assertEquals(
    line("The command was denied by policy.", [
      command("sudo ls", "error: command denied by policy: sudo", "denied"),
    ]),
    null,
  );
});

Deno.test("a tool in call form with a result beside it, for a tool that never ran", () => {
  assertEquals(
    line('run_command {"command": "ls"} → exit status 0'),
    'unsupported: "run_command {"command": "ls"} → exit status 0" (no run_command call ran in this turn)',
  );
});

Deno.test("a notification claimed without notify", () => {
  assertEquals(
    line("I sent you a notification."),
    'unsupported: "I sent you a notification." (no notify call ran in this turn)',
  );
});

Deno.test("a count must be shown by some call", () => {
  assertEquals(
    line("There are 12 files here."),
    'unsupported: "There are 12 files here." (no call ran in this turn)',
  );
  const ls = command("ls", "exit status: 0\nstdout:\na\nb\nc");
  assertEquals(line("There are 3 files here.", [ls]), null, "the output has three lines");
  assertEquals(
    line("There are 7 files here.", [ls]),
    'unsupported: "There are 7 files here." (no call in this turn showed 7)',
  );
  assertEquals(
    line("There are 7 files here.", [command("ls | wc -l", "exit status: 0\nstdout:\n7")]),
    null,
  );
});

Deno.test("output quoted in a block must be in some call's output", () => {
  const reply = "The command printed:\n```\nhello world\n```\n";
  assertEquals(line(reply), 'unsupported: "hello world" (no call ran in this turn)');
  assertEquals(
    line(reply, [command("echo hello world", "exit status: 0\nstdout:\nhello world")]),
    null,
  );
  assertEquals(
    line("Here is a script you could use:\n```\nfor f in *; do echo $f; done\n```"),
    null,
    "code that is not presented as output",
  );
});

Deno.test("several claims: the first is quoted, the rest counted", () => {
  assertEquals(
    line("Removed the scratch file. All tests passed."),
    'unsupported: "Removed the scratch file." (no rm, rmdir, unlink, or trash command ran in this turn) +1 more',
  );
});

Deno.test("a plain answer claims nothing", () => {
  assertEquals(line("Tokyo is nine hours ahead of London in winter."), null);
  assertEquals(line("You can run `git status` to see what changed."), null);
});

/**
 * What a conversation's events look like, as both chat faces show them: every
 * event kind a person reads, the gate's verdicts held until their call shows
 * (and let out by a note or a flush when it never does), folded output,
 * notes in their tones, withdrawn requests and views.
 */
import {
  ConversationLines,
  gateLine,
  type ShownLine,
} from "../../../src/faces/chat/conversation_lines.ts";
import { assertEquals } from "../../support/assert.ts";

/** Lines as a terminal shows them, the tone in brackets: `[muted]  · safe by rules`. */
function plain(lines: ShownLine[]): string[] {
  return lines.map((l) => `[${l.tone}]${" ".repeat(l.indent)}${l.text}`);
}

const verdict = (command: string, level: string, reason: string, line = command) => ({
  kind: "classifier.verdict",
  command,
  line,
  level,
  classifier: "rules",
  reasons: [reason],
});

Deno.test("a model's command: its call, the gate's verdicts under it, the exit, the output folded", () => {
  const lines = new ConversationLines({ shownOutputLines: 3 });
  // Both calls of the response are judged before either runs: nothing shows yet.
  assertEquals(lines.event(verdict("ls", "safe", "only reads")), []);
  assertEquals(lines.event(verdict("make", "moderate", "builds")), []);
  assertEquals(
    lines.event({
      kind: "approval.decided",
      command: "make",
      line: "make",
      decision: "approved",
      by: "person",
      scope: "session",
    }),
    [],
  );
  assertEquals(
    plain(lines.event({ kind: "tool.call", tool: "run_command", arguments: { command: "ls" } })),
    ["[tool]⚙ run_command ls", "[muted]  · safe by rules: only reads"],
  );
  assertEquals(
    plain(lines.event({ kind: "command.outcome", command: "ls", exitStatus: 0, origin: "model" })),
    ["[muted]↳ exit 0"],
  );
  assertEquals(
    plain(lines.event({
      kind: "tool.result",
      tool: "run_command",
      callId: "abcdef0123",
      text: "exit status: 0\na\nb\nc\nd\ne\n",
    })),
    [
      "[muted]    a",
      "[muted]    b",
      "[muted]    c",
      "[muted]    … 2 more lines, 10 bytes in all: /show abcdef01",
    ],
  );
  // The second call takes the verdicts held for it, in the order they came.
  assertEquals(
    plain(lines.event({ kind: "tool.call", tool: "run_command", arguments: { command: "make" } })),
    [
      "[tool]⚙ run_command make",
      "[muted]  · moderate by rules: builds",
      "[muted]  · approved (session)",
    ],
  );
  assertEquals(lines.flush(), [], "nothing left held");
});

Deno.test("a verdict whose call never shows comes out before the next note, or at a flush", () => {
  const lines = new ConversationLines({ shownOutputLines: 3 });
  lines.event({ kind: "policy.decision", command: "sudo ls", decision: "deny", reason: "root" });
  assertEquals(
    plain(lines.note({ type: "note", text: "the model's command was refused", tone: "warn" })),
    ["[muted]  · blocked by policy: root", "[warn]the model's command was refused"],
  );
  lines.event(verdict("rm -rf build", "dangerous", "removes files"));
  // A call about another command does not take it.
  assertEquals(
    plain(lines.event({ kind: "tool.call", tool: "run_command", arguments: { command: "ls" } })),
    ["[tool]⚙ run_command ls"],
  );
  assertEquals(plain(lines.flush()), ["[muted]  · dangerous by rules: removes files"]);
  assertEquals(lines.flush(), []);
});

Deno.test("the outcome of a command stopped, timed out or killed by a signal; a person's own command shows as command.typed only", () => {
  const lines = new ConversationLines({ shownOutputLines: 3 });
  const outcome = (e: Record<string, unknown>) =>
    plain(lines.event({ kind: "command.outcome", origin: "model", ...e }));
  assertEquals(outcome({ exitStatus: 143, stopped: true }), ["[muted]↳ exit 143 (stopped)"]);
  assertEquals(outcome({ exitStatus: 124, timedOut: true }), ["[muted]↳ exit 124 (timed out)"]);
  assertEquals(outcome({ signal: "SIGKILL" }), ["[muted]↳ exit signal SIGKILL"]);
  assertEquals(outcome({}), ["[muted]↳ exit -"]);
  assertEquals(lines.event({ kind: "command.outcome", origin: "person", exitStatus: 0 }), []);
  assertEquals(
    plain(lines.event({
      kind: "command.typed",
      id: "0123456789ab",
      command: "ls",
      exitStatus: 0,
      stopped: false,
      output: "one\ntwo\n",
    })),
    ["[muted]↳ exit 0", "[muted]    one", "[muted]    two"],
  );
  assertEquals(
    plain(lines.event({
      kind: "command.typed",
      id: "0123456789ab",
      command: "sleep 9",
      exitStatus: 143,
      stopped: true,
      output: "",
    })),
    ["[muted]↳ exit 143 (stopped by you)"],
  );
});

Deno.test("another tool: its call names the main argument, its result's first line after ↳, the rest folded", () => {
  const lines = new ConversationLines({ shownOutputLines: 2 });
  assertEquals(
    plain(lines.event({ kind: "tool.call", tool: "read_file", arguments: { path: "README.md" } })),
    ["[tool]⚙ read_file README.md"],
  );
  assertEquals(
    plain(lines.event({ kind: "tool.call", tool: "current_date", arguments: {} })),
    ["[tool]⚙ current_date"],
  );
  assertEquals(
    plain(lines.event({
      kind: "tool.result",
      tool: "read_file",
      id: "fedcba9876",
      text: "README.md, 3 lines\n# wisp\n\nA local agent.",
    })),
    [
      "[muted]↳ README.md, 3 lines",
      "[muted]    # wisp",
      "[muted]    ",
      "[muted]    … 1 more line, 22 bytes in all: /show fedcba98",
    ],
  );
});

Deno.test("events a person does not read show nothing", () => {
  const lines = new ConversationLines({ shownOutputLines: 3 });
  for (const kind of ["turn.start", "model.request", "policy.decision", "host.hello"]) {
    assertEquals(lines.event({ kind, decision: "allow" }), [], kind);
  }
});

Deno.test("notes keep their tone, a line each; withdrawn requests and views", () => {
  const lines = new ConversationLines({ shownOutputLines: 3 });
  for (const tone of ["plain", "muted", "warn", "error"] as const) {
    assertEquals(plain(lines.note({ type: "note", text: `a ${tone} note`, tone })), [
      `[${tone}]a ${tone} note`,
    ]);
  }
  assertEquals(
    plain(lines.note({ type: "note", text: "first\nsecond", tone: "muted", kind: "help" })),
    ["[muted]first", "[muted]second"],
  );
  assertEquals(
    plain(lines.withdrawn({ type: "withdrawn", id: "a1b2c3d4", reason: "approved elsewhere" })),
    ["[muted]⚠ no longer waiting: approved elsewhere"],
  );
  const view = (text: string) =>
    plain(lines.view({ type: "view", id: "v", kind: "text", title: "/help", text }));
  assertEquals(view("one\ntwo\n"), ["[muted]── /help", "[plain]one", "[plain]two"]);
  assertEquals(view("one\n\n"), ["[muted]── /help", "[plain]one", "[plain]"]);
  assertEquals(view(""), ["[muted]── /help"]);
});

Deno.test("gate lines: a verdict about one part of a line names it; a remembered verdict and its time", () => {
  assertEquals(
    gateLine({
      ...verdict("rm x", "moderate", "removes a file", "ls && rm x"),
      cached: true,
      seconds: 0.0123,
    }),
    "· moderate by rules (remembered): removes a file (12.3 ms) — rm x",
  );
  assertEquals(
    gateLine({ kind: "approval.decided", decision: "approved", by: "yes" }),
    "· approved by --yes",
  );
  assertEquals(
    gateLine({ kind: "approval.decided", decision: "refused", by: "person", reason: "no" }),
    "· denied: no",
  );
});

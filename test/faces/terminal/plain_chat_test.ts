/**
 * The plain chat's renderer on its own: the reply on stdout and the rest on
 * stderr, the gate's lines under the call they are about (the gate is asked
 * for every call of a response before any runs), output folded, and the
 * status line above the prompt.
 */
import { gateLine, PlainChat, statusText } from "../../../src/faces/terminal/plain_chat.ts";
import { TerminalInput } from "../../../src/faces/terminal/input.ts";
import { palette } from "../../../src/cli/io.ts";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";

function renderer() {
  const io = { out: "", err: "" };
  const chat = new PlainChat({
    out: (t) => (io.out += t),
    err: (t) => (io.err += t),
    colour: palette(false),
    terminal: false,
    inputIsTerminal: false,
    input: new TerminalInput({ read: () => Promise.resolve(null), setRaw: () => {} }),
    shownOutputLines: 3,
  });
  return { chat, io };
}

Deno.test("the reply goes to stdout, tool lines and gate lines to stderr, each verdict under its call", () => {
  const { chat, io } = renderer();
  const event = (e: Record<string, unknown>) =>
    chat.render({ type: "event", event: { id: "e1", ...e } as { kind: string; id: string } });
  // Two calls prepared: both verdicts come before either call runs.
  event({
    kind: "classifier.verdict",
    command: "ls",
    line: "ls",
    level: "safe",
    classifier: "rules",
    reasons: ["only reads"],
  });
  event({
    kind: "classifier.verdict",
    command: "make",
    line: "make",
    level: "moderate",
    classifier: "rules",
    reasons: ["builds"],
  });
  event({
    kind: "approval.decided",
    command: "make",
    line: "make",
    decision: "approved",
    by: "remembered",
    scope: "session",
  });
  event({ kind: "tool.call", tool: "run_command", arguments: { command: "ls" } });
  event({ kind: "command.outcome", command: "ls", exitStatus: 0, origin: "model" });
  event({
    kind: "tool.result",
    tool: "run_command",
    callId: "abcdef0123",
    text: "exit status: 0\na\nb\nc\nd\ne\n",
  });
  event({ kind: "tool.call", tool: "run_command", arguments: { command: "make" } });
  chat.render({ type: "delta", text: "Done" });
  chat.render({ type: "delta", text: "" });
  assertEquals(io.out, "Done\n");
  const lines = io.err.split("\n");
  const at = (s: string) => lines.findIndex((l) => l.includes(s));
  assert(at("⚙ run_command ls") < at("· safe by rules: only reads"), io.err);
  assert(at("· safe by rules: only reads") < at("⚙ run_command make"), io.err);
  assert(at("⚙ run_command make") < at("· moderate by rules: builds"), io.err);
  assertStringIncludes(io.err, "· allowed by your approval for this session");
  assertStringIncludes(io.err, "↳ exit 0");
  // Three lines shown of five, then the fold line with the call's id.
  assertStringIncludes(io.err, "    c\n    … 2 more lines");
  assertStringIncludes(io.err, "/show abcdef01");
  assert(!io.err.includes("    d\n"), io.err);
});

Deno.test("gate lines: rules, remembered approvals, policy, refusals", () => {
  assertEquals(
    gateLine({ kind: "approval.decided", decision: "approved", by: "person", scope: "session" }),
    "· approved (session)",
  );
  assertEquals(
    gateLine({
      kind: "approval.decided",
      decision: "approved",
      by: "remembered",
      scope: "project",
    }),
    "· allowed by your standing approval",
  );
  assertEquals(
    gateLine({ kind: "approval.decided", decision: "refused", by: "timeout" }),
    "· no answer in time, denied",
  );
  assertEquals(
    gateLine({ kind: "policy.decision", decision: "deny", reason: "privilege escalation" }),
    "· blocked by policy: privilege escalation",
  );
  assertEquals(gateLine({ kind: "policy.decision", decision: "allow" }), undefined);
  assertEquals(gateLine({ kind: "tool.call" }), undefined);
});

Deno.test("the status line: model and context, directory under ~, branch with lines added and removed, mode", () => {
  const text = statusText(
    {
      type: "status",
      model: "ollama:granite4.1:8b",
      contextPercent: 15,
      cwd: "/home/me/src/wisp",
      branch: "main",
      added: 12,
      removed: 3,
      approvalMode: "approve at moderate",
    },
    palette(false),
    "/home/me",
  );
  assertEquals(text, "ollama:granite4.1:8b:15% used · ~/src/wisp:main+12-3   approve at moderate");
});

/** The lines for what waits in wisp mcp (mcp_lines.ts): which effects ask for what, and each line's fields. */
import { assertEquals } from "../../support/assert.ts";
import {
  approvalLineFor,
  factLineFor,
  mcpLineEffects,
  questionLineFor,
} from "../../../src/faces/chat/mcp_lines.ts";
import type {
  PendingFactRequest,
  PendingQuestion,
  PendingRequest,
} from "../../../src/gate/pending.ts";

const server = { pid: 1234, session: "s1" };

Deno.test("each hello effect asks for its own kind only; unknown effects ask for nothing", () => {
  assertEquals(mcpLineEffects(["approve", "notify"]), {
    approvals: false,
    facts: false,
    questions: false,
  });
  assertEquals(mcpLineEffects(["approve-mcp"]), {
    approvals: true,
    facts: false,
    questions: false,
  });
  assertEquals(mcpLineEffects(["keep-facts", "answer-questions", "other"]), {
    approvals: false,
    facts: true,
    questions: true,
  });
});

Deno.test("an approval from wisp mcp: source mcp with client and thread; outside the sandbox only once or no", () => {
  const request: PendingRequest = {
    version: 1,
    kind: "approval",
    id: "0a1b2c3d",
    server,
    client: "claude-code",
    thread: "git",
    command: "git push",
    level: "moderate",
    cwd: "/tmp/p",
    reasons: ["writes to a remote"],
    pattern: "git push",
    outsideSandbox: false,
    createdAt: "2026-12-02T08:00:00Z",
    expiresAt: "2026-12-02T08:05:00Z",
  };
  const line = approvalLineFor(request);
  assertEquals(line, {
    type: "approval",
    id: "0a1b2c3d",
    kind: "command",
    words: "git push",
    source: "mcp",
    level: "moderate",
    command: "git push",
    line: "git push",
    cwd: "/tmp/p",
    reasons: ["writes to a remote"],
    pattern: "git push",
    outsideSandbox: false,
    options: ["once", "session", "project", "always", "no"],
    client: "claude-code",
    thread: "git",
  });
  const outside = approvalLineFor({ ...request, outsideSandbox: true });
  assertEquals(outside.type === "approval" && outside.options, ["once", "no"]);
});

Deno.test("a fact to keep is an approval of kind fact answered keep or drop; a question is a choice from mcp, typed when it offers nothing", () => {
  const fact: PendingFactRequest = {
    version: 1,
    kind: "fact",
    id: "1a2b3c4d",
    server,
    client: "claude-code",
    thread: "git",
    fact: {
      id: "c2",
      subject: "entity",
      name: "release codename",
      key: "release codename",
      value: "BLUE HERON",
      by: "caller",
      source: "caller",
    },
    createdAt: "2026-12-02T08:00:00Z",
  };
  const line = factLineFor(fact);
  assertEquals(line.type === "approval" && [line.kind, line.command, line.options], [
    "fact",
    "release codename = BLUE HERON",
    ["keep", "drop"],
  ]);
  const question: PendingQuestion = {
    version: 1,
    kind: "question",
    id: "2a3b4c5d",
    server,
    client: "claude-code",
    thread: "cfg",
    question: "Which name?",
    options: [],
    createdAt: "2026-12-02T08:00:00Z",
    expiresAt: "2026-12-02T08:05:00Z",
  };
  assertEquals(questionLineFor(question), {
    type: "choice",
    id: "2a3b4c5d",
    kind: "question",
    title: "Which name? (claude-code, thread cfg)",
    options: [],
    typed: true,
    source: "mcp",
  });
});

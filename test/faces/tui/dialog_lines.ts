/**
 * Approval, fact and choice lines as the chat engine sends them, for the
 * dialog tests; each test overrides only what it is about.
 */
import type { ApprovalLine, ChoiceLine } from "../../../src/faces/chat/protocol.ts";

/** A moderate command in this conversation, asked about as one part of its line. */
export function approvalLine(over: Partial<ApprovalLine> = {}): ApprovalLine {
  return {
    type: "approval",
    id: "a1",
    kind: "command",
    words: "git push origin main",
    source: "chat",
    level: "moderate",
    command: "git push origin main",
    line: "git fetch && git push origin main",
    cwd: "/home/me/src/wisp",
    reasons: ["sends commits to a remote"],
    pattern: "git push *",
    outsideSandbox: false,
    options: ["once", "session", "project", "always", "no"],
    ...over,
  };
}

/** The same command waiting in wisp mcp for claude-code. */
export function mcpApprovalLine(over: Partial<ApprovalLine> = {}): ApprovalLine {
  return approvalLine({ source: "mcp", client: "claude-code", thread: "git", ...over });
}

/** A fact a wisp mcp caller asks to keep. */
export function factLine(over: Partial<ApprovalLine> = {}): ApprovalLine {
  return approvalLine({
    id: "f1",
    kind: "fact",
    source: "mcp",
    level: "safe",
    command: "release codename = BLUE HERON",
    line: "release codename = BLUE HERON",
    cwd: "",
    reasons: ["proposed by model (chat) in thread docs"],
    pattern: "entity:release codename",
    options: ["keep", "drop"],
    client: "claude-code",
    thread: "docs",
    ...over,
  });
}

/** A question the model asks in wisp mcp. */
export function questionLine(over: Partial<ChoiceLine> = {}): ChoiceLine {
  return {
    type: "choice",
    id: "q1",
    kind: "question",
    title: "Which config?",
    options: [{ value: "~/.wisp" }, { value: "./wisp.json" }],
    source: "mcp",
    ...over,
  };
}

/** A setting's choice in this conversation, its value in force marked. */
export function settingLine(over: Partial<ChoiceLine> = {}): ChoiceLine {
  return {
    type: "choice",
    id: "c1",
    kind: "setting",
    title: "approval.threshold",
    options: [
      { value: "safe" },
      { value: "moderate", current: true },
      { value: "dangerous", label: "dangerous only" },
    ],
    source: "chat",
    ...over,
  };
}

/**
 * A model action in the pending folder (ADR 0625): how its request is read,
 * the words every face names it by, and the fail-closed reading of a file
 * that asks something this wisp does not know.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import {
  approvalWords,
  askedWords,
  listPending,
  listUnreadable,
  parseRequest,
  type PendingRequest,
  requestText,
  unreadableWhy,
} from "../../src/gate/pending.ts";
import { approvalLineFor } from "../../src/faces/chat/mcp_lines.ts";
import { unreadableNote, waitingNote } from "../../src/faces/chat/waiting.ts";
import {
  pendingRows,
  rowInput,
  unreadableRow,
  watchLines,
} from "../../src/cli/approvals_pending.ts";
import { tempDir } from "../support/wisp.ts";

const pull: PendingRequest = {
  version: 1,
  kind: "approval",
  id: "7f3a2c1d",
  server: { pid: Deno.pid, session: "s1" },
  client: "claude-code",
  thread: "models",
  asks: "model",
  modelAction: {
    verb: "pull",
    model: "mlx-community/Qwen3-4B-4bit",
    reason: "downloads a model from Hugging Face",
    details: [
      "downloads 2.3 GB in 4 of 7 files from Hugging Face, as mlx:Qwen3-4B-4bit",
      "publisher mlx-community: trusted",
      "licence: apache-2.0",
    ],
  },
  command: "models pull mlx-community/Qwen3-4B-4bit",
  level: "moderate",
  cwd: "/home/ann/src/app",
  reasons: ["downloads a model from Hugging Face"],
  pattern: "models pull mlx-community/Qwen3-4B-4bit",
  outsideSandbox: false,
  createdAt: "2026-12-02T08:00:00Z",
  expiresAt: "2999-12-02T08:05:00Z",
};
const WORDS =
  "pull model mlx-community/Qwen3-4B-4bit (downloads 2.3 GB in 4 of 7 files from Hugging Face, as mlx:Qwen3-4B-4bit)";

Deno.test("a model action reads as what it is: its words, its outcome's few words", () => {
  assertEquals(parseRequest(JSON.stringify(pull)), pull);
  assertEquals(approvalWords(pull), WORDS);
  assertEquals(requestText(pull), "pull model mlx-community/Qwen3-4B-4bit");
  const enable: PendingRequest = {
    ...pull,
    modelAction: {
      verb: "enable",
      model: "ollama:qwen3:8b",
      reason: "changes the models wisp can run",
      details: [],
    },
  };
  assertEquals(
    approvalWords(enable),
    "enable model ollama:qwen3:8b (changes the models wisp can run)",
  );
  // The gate's request before it is filed (the notification, a chat's own dialog): the same words.
  assertEquals(
    askedWords({ kind: "modelAction", command: pull.command, modelAction: pull.modelAction }),
    WORDS,
  );
  assertEquals(askedWords({ command: "git push" }), "git push");
  // A command is its own words, with asks or without (an older file).
  const command: PendingRequest = { ...pull, asks: "command", command: "git push" };
  delete command.modelAction;
  assertEquals(approvalWords(command), "git push");
  const older = { ...command } as Partial<PendingRequest>;
  delete older.asks;
  assertEquals(approvalWords(parseRequest(JSON.stringify(older)) as PendingRequest), "git push");
});

Deno.test("a request whose kind cannot be read is unreadable, never a command", () => {
  const unreadable = [
    [{ ...pull, asks: "shell" }, "it asks something this wisp does not know (shell)"],
    [
      { ...pull, modelAction: { ...pull.modelAction, verb: "delete" } },
      "its approval fields cannot be read",
    ],
    [{ ...pull, modelAction: undefined }, "its approval fields cannot be read"],
    [{ ...pull, asks: "command" }, "its approval fields cannot be read"],
    [{ ...pull, kind: "purchase" }, "it is of a kind this wisp does not know (purchase)"],
    [{ ...pull, kind: undefined }, "it names no kind of request"],
  ] as const;
  for (const [value, why] of unreadable) {
    const text = JSON.stringify(value);
    const parsed = parseRequest(text);
    assertEquals(parsed === undefined || parsed.kind !== "approval", true, text);
    assertEquals(unreadableWhy(text), why, text);
  }
  assertEquals(unreadableWhy("{ torn"), "it is not JSON");
  assertEquals(unreadableWhy(JSON.stringify(pull)), undefined);
});

Deno.test("the pending folder: a readable model action is listed, an unreadable file is listed apart", async () => {
  const dir = await tempDir("wisp-pending-");
  try {
    Deno.writeTextFileSync(join(dir, `${pull.id}.json`), JSON.stringify(pull));
    Deno.writeTextFileSync(
      join(dir, "0badc0de.json"),
      JSON.stringify({ ...pull, id: "0badc0de", asks: "shell" }),
    );
    Deno.writeTextFileSync(join(dir, "notes.json"), "not a request's name");
    const alive = () => Promise.resolve({ alive: true });
    const listed = await listPending(dir, alive, Date.parse("2026-12-02T08:00:30Z"));
    assertEquals(listed.map((l) => l.request.id), [pull.id]);
    assertEquals(listUnreadable(dir), [{
      id: "0badc0de",
      why: "it asks something this wisp does not know (shell)",
    }]);
    // Listing never removes an unreadable file: whether anyone waits on it cannot be told.
    assertEquals(Deno.statSync(join(dir, "0badc0de.json")).isFile, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("approvals pending: rows, JSON item and watch lines name a model action and an unreadable file", () => {
  const row = rowInput({ request: pull, waited: 12 }, approvalWords);
  assertEquals(row.asks, "model");
  assertEquals(row.words, WORDS);
  assertEquals(row.modelAction, pull.modelAction);
  const odd = unreadableRow("0badc0de", "it is not JSON");
  assertEquals(pendingRows([row, odd], true, "/home/ann"), [
    ["7f3a2c1d", "moderate", "12 s", "claude-code/models", "~/src/app", WORDS],
    [
      "0badc0de",
      "?",
      "?",
      "?",
      "?",
      "UNREADABLE: it is not JSON; wisp cannot tell what it asks and will not answer it",
    ],
  ]);
  assertEquals(pendingRows([row, odd], false), [
    ["7f3a2c1d", "moderate", "12", "claude-code/models", "/home/ann/src/app", WORDS],
    ["0badc0de", "unreadable", "", "", "", "it is not JSON"],
  ]);
  assertEquals(watchLines(new Map(), [row, odd], true, "/home/ann"), [
    `· 7f3a2c1d waiting (moderate, claude-code/models, in ~/src/app): ${WORDS} — wisp approvals approve 7f3a2c1d`,
    "· 0badc0de waiting, but its request cannot be read: it is not JSON; wisp cannot tell what it asks and will not answer it",
  ]);
});

Deno.test("the chat's note and the protocol's approval line carry the same words", () => {
  assertEquals(waitingNote(pull, false, true, "/home/ann"), [
    `⚠ 7f3a2c1d waiting in wisp mcp (claude-code, thread models): ${WORDS}, a model action asked of you every time, moderate`,
  ]);
  assertEquals(
    unreadableNote("0badc0de", "it is not JSON"),
    "⚠ 0badc0de waits in wisp mcp, but its request cannot be read (it is not JSON): wisp cannot tell what it asks and will not answer it",
  );
  const line = approvalLineFor(pull);
  assertEquals(line.type === "approval" && [line.kind, line.words, line.options], [
    "model",
    WORDS,
    ["once", "no"],
  ]);
});

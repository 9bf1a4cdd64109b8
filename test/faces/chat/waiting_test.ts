/**
 * The notes a plain chat prints about requests waiting in `wisp mcp`: once
 * each, how to answer with the first, how a gone one ended, and a chat not
 * reading a terminal refusing to answer. The pending folder is written as a
 * server writes it; the server's process is this test's (so it runs).
 */
import {
  endedWords,
  requestWords,
  WaitingInMcp,
  waitingNote,
} from "../../../src/faces/chat/waiting.ts";
import type { PendingRequest } from "../../../src/gate/pending.ts";
import { writeOutcome } from "../../../src/gate/pending.ts";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { tempDir } from "../../support/wisp.ts";

function request(id: string, over: Partial<PendingRequest> = {}): PendingRequest {
  const now = Date.now();
  return {
    version: 1,
    kind: "approval",
    id,
    server: { pid: Deno.pid, session: "s1" },
    client: "claude-code",
    thread: "git",
    command: "git push origin main",
    level: "moderate",
    cwd: "/home/me/src/wisp",
    reasons: ["sends to a remote"],
    pattern: "git push *",
    outsideSandbox: false,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 600_000).toISOString(),
    ...over,
  };
}

Deno.test("a waiting request's note: the spec's words, outside the sandbox marked", () => {
  const lines = waitingNote(request("a1b2c3d4"), true, true, "/home/me");
  assertEquals(
    lines[0],
    "⚠ a1b2c3d4 waiting in wisp mcp (claude-code, thread git): run git push origin main in ~/src/wisp, moderate",
  );
  assertEquals(
    lines[1],
    "  answer with /approvals approve ID [once|session|project|always] or /approvals deny ID",
  );
  assertEquals(waitingNote(request("a1b2c3d4"), false, true).length, 1);
  assertStringIncludes(
    waitingNote(request("a1b2c3d4"), true, false)[1],
    "answer with wisp approvals approve|deny ID at a terminal",
  );
  assertEquals(
    requestWords(request("x", { outsideSandbox: true, command: "brew upgrade" }), "/home/me"),
    "run brew upgrade OUTSIDE THE SANDBOX, this once, in ~/src/wisp, moderate",
  );
  assertStringIncludes(endedWords(undefined), "answered elsewhere or withdrawn");
  assertStringIncludes(
    endedWords({
      id: "x",
      status: "approved",
      by: "elicitation",
      command: "c",
      thread: "t",
      at: "",
    }),
    "in the client's dialog",
  );
});

Deno.test("notes: each request once, how to answer only with the first, a gone one with how it ended", async () => {
  const dir = await tempDir();
  try {
    const write = (r: PendingRequest) =>
      Deno.writeTextFileSync(`${dir}/${r.id}.json`, JSON.stringify(r));
    const waiting = new WaitingInMcp({ dir, stdinIsTerminal: false, home: "/home/me" });
    assertEquals(await waiting.notes(), []);
    write(request("a1b2c3d4"));
    const first = await waiting.notes();
    assertEquals(first.length, 2);
    assertStringIncludes(first[0], "a1b2c3d4 waiting in wisp mcp");
    assertEquals(await waiting.notes(), [], "noted once");
    write(request("b1b2c3d4", { command: "git tag v1" }));
    const second = await waiting.notes();
    assertEquals(second.length, 1, second.join("\n"));
    assertStringIncludes(second[0], "git tag v1");
    Deno.removeSync(`${dir}/a1b2c3d4.json`);
    writeOutcome(dir, {
      id: "a1b2c3d4",
      status: "closed",
      by: "timeout",
      command: "git push origin main",
      thread: "git",
      at: new Date().toISOString(),
    });
    assertEquals(await waiting.notes(), [
      "· a1b2c3d4 no longer waiting: its wait ran out unanswered (git push origin main)",
    ]);
    // Piped, the chat says where to answer instead of answering.
    const refused = await waiting.answer("b1b2c3d4", "approve", "session", {
      record: () => assert(false, "nothing is audited as answered"),
    });
    assertEquals(refused.exitCode, 1);
    assertStringIncludes(refused.message, "cannot answer b1b2c3d4");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

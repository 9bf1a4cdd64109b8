/**
 * The receipt's context fields, from a turn's events: `condensed` is true
 * exactly when the turn recorded a `context.condensed`, `condensing` lists
 * those records and triage's (envelope removed), and `files` lists each
 * `file.write` of the turn.
 */
import { assertEquals } from "../../support/assert.ts";
import { buildReceipt, parkedMarker } from "../../../src/faces/mcp/receipt.ts";
import type { AuditEvent } from "../../../src/audit/catalogue.ts";

function event(kind: string, fields: Record<string, unknown>, seq: number): AuditEvent {
  return {
    ts: "2026-12-02T06:00:00Z",
    session: "s",
    seq,
    id: `e${seq}`,
    version: "0",
    kind,
    ...fields,
  };
}

function receipt(events: AuditEvent[]) {
  return buildReceipt({
    thread: "t1",
    turn: 3,
    model: "ollama:m",
    reply: "done",
    events,
    tools: ["edit_file"],
    stopped: false,
    seconds: 1,
    auditEnabled: true,
    calls: [],
    ran: null,
    claims: null,
  });
}

Deno.test("a receipt says condensed only when the turn condensed, and lists the files the turn wrote", () => {
  const plain = receipt([event("prompt", { text: "hi" }, 1)]);
  assertEquals(plain.condensed, false);
  assertEquals(plain.condensing, []);
  assertEquals(plain.files, []);

  const condensing = {
    reason: "threshold",
    beforeTokens: 7000,
    afterTokens: 4800,
    window: 8192,
    referenced: [],
    droppedTurns: [1, 2],
  };
  const write = { path: "/p/a.txt", mode: "write", created: true, bytesBefore: 0, bytesAfter: 12 };
  const busy = receipt([
    event("context.condensed", condensing, 1),
    event("file.write", write, 2),
    event("file.write", {
      ...write,
      path: "/p/b.txt",
      mode: "replace",
      created: false,
      bytesBefore: 40,
    }, 3),
  ]);
  assertEquals(busy.condensed, true);
  assertEquals(busy.condensing, [{ kind: "context.condensed", ...condensing }]);
  assertEquals(busy.files, [
    write,
    { path: "/p/b.txt", mode: "replace", created: false, bytesBefore: 40, bytesAfter: 12 },
  ]);
});

Deno.test("a parked turn's receipt lists the question left waiting, and its reply ends with the marker", () => {
  const parked = receipt([
    // Filed on the board (no outcome yet), then parked by the ask tool.
    event("inquiry.pending", { inquiryId: "q1", pendingId: "a1b2c3d4", question: "Which?" }, 1),
    event("inquiry.pending", {
      inquiryId: "q1",
      outcome: "waiting",
      pendingId: "a1b2c3d4",
      question: "Which?",
    }, 2),
  ]);
  assertEquals(parked.questions, [{ id: "a1b2c3d4", question: "Which?", state: "waiting" }]);
  assertEquals(
    parked.reply,
    "done\n\n[a question waits for the person: Which? — answer with wisp questions answer a1b2c3d4]",
  );
  assertEquals(
    parkedMarker({ id: "a1b2c3d4", question: "Which?", state: "waiting" }),
    "[a question waits for the person: Which? — answer with wisp questions answer a1b2c3d4]",
  );

  const answered = receipt([
    event("inquiry.pending", { inquiryId: "q1", pendingId: "a1b2c3d4", question: "Which?" }, 1),
    event("inquiry.settled", { inquiryId: "q1", outcome: "answered" }, 2),
  ]);
  assertEquals(answered.questions, undefined);
  assertEquals(answered.reply, "done");
});

import { assertEquals } from "../../support/assert.ts";
import { acrossIn, acrossOut } from "../../../src/faces/tui/bridge.ts";
import type { OutLine } from "../../../src/faces/chat/protocol.ts";

Deno.test("bridge: an out line crosses as JSON would, so what does not survive JSON is gone", () => {
  const line = {
    type: "event",
    event: { kind: "tool.result", id: "e1", text: "ok", extra: undefined, when: new Date(0) },
  } as unknown as OutLine;
  assertEquals(acrossOut(line), {
    type: "event",
    event: { kind: "tool.result", id: "e1", text: "ok", when: "1970-01-01T00:00:00.000Z" },
  } as unknown as OutLine);
});

Deno.test("bridge: an in line is read by the protocol's own reader", () => {
  assertEquals(acrossIn({ type: "message", text: "!git status" }), {
    line: { type: "message", text: "!git status" },
  });
  assertEquals(acrossIn({ type: "answer", id: "a1", decision: "session" }), {
    line: { type: "answer", id: "a1", decision: "session" },
  });
  assertEquals(acrossIn({ type: "output", id: "x" }), {
    line: { type: "output", id: "x", page: 1 },
  });
});

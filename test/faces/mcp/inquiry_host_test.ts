/**
 * The words of a parked question's end: the notice the thread's next turn
 * reads, and the line `wisp questions answer|decline` prints when its answer
 * is taken after the turn was parked.
 */
import { assertEquals } from "../../support/assert.ts";
import { parkedNotice } from "../../../src/faces/mcp/inquiry_host.ts";
import { questionTakenLine } from "../../../src/faces/mcp/answer.ts";
import type { PendingOutcome } from "../../../src/gate/pending.ts";

Deno.test("a parked question's end is told as a notice naming the question", () => {
  assertEquals(
    parkedNotice("Which config?", { kind: "answered", text: "./wisp.json" }),
    '[the person answered your question "Which config?": ./wisp.json]',
  );
  assertEquals(
    parkedNotice("Which config?", { kind: "none-of-these" }),
    '[the person answered your question "Which config?": none of these]',
  );
  assertEquals(
    parkedNotice("Which config?", { kind: "declined" }),
    '[the person declined your question "Which config?"]',
  );
  assertEquals(
    parkedNotice("Which config?", { kind: "timeout", seconds: 600 }),
    '[the person did not answer your question "Which config?" within 600 s; it no longer waits. Do not guess the answer]',
  );
});

Deno.test("the terminal is told when the thread reads the answer: in this turn, or on its next when parked", () => {
  const outcome: PendingOutcome = {
    id: "a1b2c3d4",
    status: "answered",
    by: "terminal",
    command: "Which config?",
    thread: "git",
    at: "2026-12-02T06:00:00Z",
  };
  assertEquals(
    questionTakenLine(outcome),
    "answered: Which config?; thread git reads it in this turn",
  );
  assertEquals(
    questionTakenLine({ ...outcome, parked: true }),
    "answered: Which config?; thread git reads it on its next turn",
  );
  assertEquals(
    questionTakenLine({ ...outcome, status: "declined" }),
    "declined: Which config?; thread git is told you did not answer",
  );
  assertEquals(
    questionTakenLine({ ...outcome, status: "declined", parked: true }),
    "declined: Which config?; thread git is told you did not answer on its next turn",
  );
});

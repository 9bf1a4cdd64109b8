/**
 * wisp-tui's dialog queue, driven with a fake clock: the half-second guard,
 * every answer an approval, a fact and a choice can take, the answers
 * offered outside the sandbox, parking what waits in wisp mcp while the
 * input has text, withdrawal, and the counts the status bar shows.
 */
import {
  type DialogKeyResult,
  DialogQueue,
  parkedNote,
} from "../../../src/faces/tui/dialog_queue.ts";
import type { Key } from "../../../src/faces/tui/key.ts";
import { assert, assertEquals } from "../../support/assert.ts";
import {
  approvalLine,
  factLine,
  mcpApprovalLine,
  questionLine,
  settingLine,
} from "./dialog_lines.ts";

/** A queue on a clock the test moves by hand. */
function fakeClock(start = 0) {
  const clock = { ms: start };
  const queue = new DialogQueue({ now: () => clock.ms });
  return { clock, queue };
}

/** A queue whose guard is already over for the dialog shown at 0 ms. */
function liveQueue() {
  const { clock, queue } = fakeClock();
  return {
    clock,
    queue,
    /** Offer a line and let the guard run out, so the next key counts. */
    show(line: Parameters<DialogQueue["offer"]>[0]) {
      const outcome = queue.offer(line, false);
      clock.ms += 1000;
      return outcome;
    },
  };
}

const text = (t: string): Key => ({ kind: "text", text: t });
const named = (name: string): Key => ({ kind: "key", name });
const ctrl = (letter: string): Key => ({ kind: "key", name: letter, ctrl: true });

function answered(result: DialogKeyResult) {
  assert(result.kind === "answer", `expected an answer, got ${result.kind}`);
  return result;
}

Deno.test("the guard: a key 100 ms after the dialog appears is held, and restarts the quiet", () => {
  const { clock, queue } = fakeClock(10_000);
  assertEquals(queue.offer(approvalLine(), false), "shown");
  assertEquals(queue.guardEndsAt(), 10_500);
  assertEquals(queue.live(), false);

  clock.ms = 10_100;
  assertEquals(queue.key(text("y")), { kind: "held" });
  assertEquals(queue.guardEndsAt(), 10_600);

  // 550 ms after it appeared, but only 450 ms after the held key: still held.
  clock.ms = 10_550;
  assertEquals(queue.key(text("s")), { kind: "held" });
  assertEquals(queue.guardEndsAt(), 11_050);
  assertEquals(queue.isOpen, true);

  // 700 ms after the dialog appeared and the keyboard quiet since: it answers.
  clock.ms = 11_250;
  assertEquals(queue.live(), true);
  const result = answered(queue.key(text("y")));
  assertEquals(result.send, { type: "answer", id: "a1", decision: "once" });
  assertEquals(queue.isOpen, false);
  assertEquals(queue.guardEndsAt(), undefined);
});

Deno.test("the guard: a key at 700 ms after a quiet keyboard answers", () => {
  const { clock, queue } = fakeClock();
  queue.offer(approvalLine(), false);
  clock.ms = 700;
  assertEquals(answered(queue.key(text("n"))).record, "⚠ refused: git push origin main");
});

Deno.test("the guard: exactly guardMs of quiet is enough; a custom guardMs is used", () => {
  const clock = { ms: 0 };
  const queue = new DialogQueue({ now: () => clock.ms, guardMs: 200 });
  queue.offer(approvalLine(), false);
  clock.ms = 199;
  assertEquals(queue.key(text("y")).kind, "held");
  clock.ms = 399;
  assertEquals(queue.key(text("y")).kind, "answer");
});

Deno.test("the guard: Ctrl-C and Ctrl-D answer at once inside it", () => {
  const cases = [
    { line: approvalLine(), key: ctrl("c"), send: { type: "answer", id: "a1", decision: "no" } },
    { line: approvalLine(), key: ctrl("d"), send: { type: "answer", id: "a1", decision: "no" } },
    { line: factLine(), key: ctrl("c"), send: { type: "answer", id: "f1", decision: "drop" } },
    { line: questionLine(), key: ctrl("c"), send: { type: "choose", id: "q1", value: null } },
  ] as const;
  for (const c of cases) {
    const { clock, queue } = fakeClock();
    queue.offer(c.line, false);
    clock.ms = 10;
    assertEquals(answered(queue.key(c.key)).send, c.send);
    assertEquals(queue.isOpen, false);
  }
});

Deno.test("a new dialog after an answer starts its own guard", () => {
  const { clock, queue } = fakeClock();
  queue.offer(approvalLine({ id: "a1" }), false);
  assertEquals(queue.offer(approvalLine({ id: "a2", command: "git tag v1" }), false), "queued");
  clock.ms = 600;
  answered(queue.key(text("y")));
  assertEquals(queue.current()?.line.id, "a2");
  assertEquals(queue.guardEndsAt(), 1100);
  clock.ms = 700;
  assertEquals(queue.key(text("y")).kind, "held");
});

Deno.test("every decision letter of an approval, with its scrollback line", () => {
  const expected = [
    ["y", "once", "⚠ approved once: git push origin main"],
    ["s", "session", "⚠ approved for this session: git push origin main"],
    ["p", "project", "⚠ approved for this project (30 days): git push origin main"],
    ["a", "always", "⚠ approved always (30 days): git push origin main"],
    ["n", "no", "⚠ refused: git push origin main"],
    ["S", "session", "⚠ approved for this session: git push origin main"],
  ] as const;
  for (const [letter, decision, record] of expected) {
    const { queue, show } = liveQueue();
    show(approvalLine());
    const result = answered(queue.key(text(letter)));
    assertEquals(result.send, { type: "answer", id: "a1", decision });
    assertEquals(result.record, record);
  }
});

Deno.test("an approval: Esc refuses; other keys, Enter and several letters at once are ignored", () => {
  const { queue, show } = liveQueue();
  show(approvalLine());
  for (const key of [text("x"), named("enter"), text("ys"), named("up"), text("k")]) {
    assertEquals(queue.key(key), { kind: "ignored" });
  }
  assertEquals(queue.isOpen, true);
  assertEquals(answered(queue.key(named("escape"))).send, {
    type: "answer",
    id: "a1",
    decision: "no",
  });
});

Deno.test("outside the sandbox only once and no are offered, whatever the line lists", () => {
  const { queue, show } = liveQueue();
  show(approvalLine({ outsideSandbox: true }));
  const dialog = queue.current();
  assert(dialog?.kind === "approval");
  assertEquals(dialog.answers, ["once", "no"]);
  for (const letter of ["s", "p", "a"]) assertEquals(queue.key(text(letter)).kind, "ignored");
  assertEquals(answered(queue.key(text("y"))).record, "⚠ approved once: git push origin main");
});

Deno.test("the answers offered follow the line's options, in key-line order, no always there", () => {
  const { queue, show } = liveQueue();
  show(approvalLine({ level: "dangerous", options: ["session", "once", "no"] }));
  const dialog = queue.current();
  assert(dialog?.kind === "approval");
  assertEquals(dialog.answers, ["once", "session", "no"]);
  assertEquals(queue.key(text("p")).kind, "ignored");
});

Deno.test("a fact: k keeps, d drops, Esc drops, other letters do nothing", () => {
  const keep = liveQueue();
  keep.show(factLine());
  assertEquals(keep.queue.key(text("y")).kind, "ignored");
  assertEquals(answered(keep.queue.key(text("k"))), {
    kind: "answer",
    send: { type: "answer", id: "f1", decision: "keep" },
    record: "⚠ kept as a permanent fact: release codename = BLUE HERON",
  });
  for (const key of [text("d"), named("escape")]) {
    const drop = liveQueue();
    drop.show(factLine());
    assertEquals(answered(drop.queue.key(key)), {
      kind: "answer",
      send: { type: "answer", id: "f1", decision: "drop" },
      record: "⚠ dropped: release codename = BLUE HERON",
    });
  }
});

Deno.test("a choice opens on its current option; Up/Down/Home/End move, Enter chooses", () => {
  const { queue, show } = liveQueue();
  show(settingLine());
  const selected = () => {
    const dialog = queue.current();
    assert(dialog?.kind === "choice");
    return dialog.selected;
  };
  assertEquals(selected(), 1);
  assertEquals(queue.key(named("down")), { kind: "moved" });
  assertEquals(selected(), 2);
  assertEquals(queue.key(named("down")), { kind: "ignored" });
  assertEquals(queue.key(named("home")), { kind: "moved" });
  assertEquals(selected(), 0);
  assertEquals(queue.key(named("up")), { kind: "ignored" });
  assertEquals(queue.key(named("end")), { kind: "moved" });
  assertEquals(answered(queue.key(named("enter"))), {
    kind: "answer",
    send: { type: "choose", id: "c1", value: "dangerous" },
    record: "? approval.threshold: dangerous only",
  });
});

Deno.test("a choice: a digit picks at once, one past the list does nothing, Esc is no answer", () => {
  const pick = liveQueue();
  pick.show(settingLine());
  assertEquals(pick.queue.key(text("4")).kind, "ignored");
  assertEquals(answered(pick.queue.key(text("1"))).send, {
    type: "choose",
    id: "c1",
    value: "safe",
  });
  const leave = liveQueue();
  leave.show(questionLine());
  assertEquals(answered(leave.queue.key(named("escape"))), {
    kind: "answer",
    send: { type: "choose", id: "q1", value: null },
    record: "? Which config?: no answer",
  });
});

Deno.test("a typed choice: text and digits go to its line, Backspace edits, Enter sends the text", () => {
  const { queue, show } = liveQueue();
  show(settingLine({ title: "shownOutputLines", typed: true, options: [{ value: "20" }] }));
  for (const key of [text("4"), text("2"), text("x"), named("backspace")]) {
    assertEquals(queue.key(key), { kind: "moved" });
  }
  const dialog = queue.current();
  assert(dialog?.kind === "choice");
  assertEquals(dialog.typed, "42");
  assertEquals(answered(queue.key(named("enter"))), {
    kind: "answer",
    send: { type: "choose", id: "c1", value: "42" },
    record: "? shownOutputLines: 42",
  });
});

Deno.test("a typed choice with nothing typed: Enter chooses the selection, or waits with no options", () => {
  const withOptions = liveQueue();
  withOptions.show(questionLine({ typed: true }));
  assertEquals(answered(withOptions.queue.key(named("enter"))).send, {
    type: "choose",
    id: "q1",
    value: "~/.wisp",
  });
  const bare = liveQueue();
  bare.show(questionLine({ typed: true, options: [] }));
  assertEquals(bare.queue.key(named("enter")), { kind: "ignored" });
  assertEquals(bare.queue.key(named("backspace")), { kind: "ignored" });
  assertEquals(bare.queue.key({ kind: "paste", text: "a\nb" }), { kind: "moved" });
  assertEquals(answered(bare.queue.key(named("enter"))).record, "? Which config?: a b");
});

Deno.test("a toggles choice: Space toggles, digits toggle, Enter sends values in option order", () => {
  const { queue, show } = liveQueue();
  show(settingLine({
    title: "models",
    toggles: true,
    options: [{ value: "system", current: true }, { value: "ollama:a" }, { value: "ollama:b" }],
  }));
  assertEquals(queue.key(text("3")), { kind: "moved" });
  assertEquals(queue.key(named("home")), { kind: "moved" });
  assertEquals(queue.key(text(" ")), { kind: "moved" });
  assertEquals(queue.key(named("down")), { kind: "moved" });
  assertEquals(queue.key(text(" ")), { kind: "moved" });
  assertEquals(answered(queue.key(named("enter"))), {
    kind: "answer",
    send: { type: "choose", id: "c1", values: ["ollama:a", "ollama:b"] },
    record: "? models: ollama:a, ollama:b",
  });
});

Deno.test("one dialog at a time; the rest open in arrival order", () => {
  const { clock, queue } = fakeClock();
  assertEquals(queue.offer(approvalLine({ id: "a1" }), false), "shown");
  assertEquals(queue.offer(settingLine({ id: "c1" }), false), "queued");
  assertEquals(queue.offer(approvalLine({ id: "a2" }), true), "queued");
  // The same line again changes nothing.
  assertEquals(queue.offer(approvalLine({ id: "a2" }), false), "queued");
  const order: string[] = [];
  while (queue.isOpen) {
    order.push(queue.current()!.line.id);
    clock.ms += 1000;
    answered(queue.key(ctrl("c")));
  }
  assertEquals(order, ["a1", "c1", "a2"]);
});

Deno.test("wisp mcp requests park while the input has text, and open when it empties, in order", () => {
  const { clock, queue } = fakeClock();
  assertEquals(queue.offer(mcpApprovalLine({ id: "m1" }), true), "parked");
  assertEquals(queue.offer(factLine({ id: "m2" }), true), "parked");
  assertEquals(queue.offer(questionLine({ id: "m3" }), true), "parked");
  assertEquals(queue.isOpen, false);
  // This conversation's own approval takes the box even while typing.
  assertEquals(queue.offer(approvalLine({ id: "a1" }), true), "shown");
  assertEquals(queue.counts(), { approvals: 3, questions: 1 });

  clock.ms = 1000;
  answered(queue.key(text("n")));
  // Still typing: the parked stay parked.
  assertEquals(queue.isOpen, false);

  clock.ms = 2000;
  assertEquals(queue.inputEmptied(), true);
  assertEquals(queue.current()?.line.id, "m1");
  assertEquals(queue.guardEndsAt(), 2500);
  const order: string[] = [];
  while (queue.isOpen) {
    order.push(queue.current()!.line.id);
    clock.ms += 1000;
    answered(queue.key(ctrl("c")));
  }
  assertEquals(order, ["m1", "m2", "m3"]);
  assertEquals(queue.inputEmptied(), false);
});

Deno.test("a wisp mcp request with an empty input is shown or queued, not parked", () => {
  const { queue } = fakeClock();
  assertEquals(queue.offer(mcpApprovalLine({ id: "m1" }), false), "shown");
  assertEquals(queue.offer(mcpApprovalLine({ id: "m2" }), false), "queued");
});

Deno.test("the status bar opens the earliest parked dialog; the others stay parked", () => {
  const { queue } = fakeClock();
  queue.offer(mcpApprovalLine({ id: "m1" }), true);
  queue.offer(mcpApprovalLine({ id: "m2" }), true);
  assertEquals(queue.openParked(), true);
  assertEquals(queue.current()?.line.id, "m1");
  answered(queue.key(ctrl("c")));
  assertEquals(queue.isOpen, false);
  assertEquals(queue.counts(), { approvals: 1, questions: 0 });
  assertEquals(queue.openParked(), true);
  assertEquals(queue.current()?.line.id, "m2");
  answered(queue.key(ctrl("c")));
  assertEquals(queue.openParked(), false);
});

Deno.test("a parked request opened from the bar while a dialog is shown queues behind it", () => {
  const { queue } = fakeClock();
  queue.offer(approvalLine({ id: "a1" }), true);
  queue.offer(mcpApprovalLine({ id: "m1" }), true);
  assertEquals(queue.openParked(), false);
  answered(queue.key(ctrl("c")));
  assertEquals(queue.current()?.line.id, "m1");
});

Deno.test("the parked note names the command, the fact, or the question", () => {
  assertEquals(
    parkedNote(mcpApprovalLine()),
    "⚠ waiting in wisp mcp: git push origin main · its dialog opens when the input is empty, or from the status bar",
  );
  assertEquals(
    parkedNote(questionLine()),
    "⚠ waiting in wisp mcp: Which config? · its dialog opens when the input is empty, or from the status bar",
  );
});

Deno.test("withdraw closes a shown, a queued or a parked request; an unknown id gives nothing", () => {
  const { clock, queue } = fakeClock();
  queue.offer(approvalLine({ id: "a1" }), true);
  queue.offer(approvalLine({ id: "a2" }), true);
  queue.offer(mcpApprovalLine({ id: "m1" }), true);
  assertEquals(queue.counts(), { approvals: 3, questions: 0 });

  assertEquals(
    queue.withdraw("m1", "answered in the client's dialog"),
    "⚠ no longer waiting: answered in the client's dialog",
  );
  assertEquals(queue.counts(), { approvals: 2, questions: 0 });
  assertEquals(queue.openParked(), false);

  clock.ms = 300;
  assertEquals(
    queue.withdraw("a1", "the turn was stopped"),
    "⚠ no longer waiting: the turn was stopped",
  );
  // The queued one opens, with its own guard from now.
  assertEquals(queue.current()?.line.id, "a2");
  assertEquals(queue.guardEndsAt(), 800);

  assertEquals(
    queue.withdraw("a2", "its wait ran out unanswered"),
    "⚠ no longer waiting: its wait ran out unanswered",
  );
  assertEquals(queue.isOpen, false);
  assertEquals(queue.withdraw("a2", "again"), undefined);
  assertEquals(queue.withdraw("zz", "never seen"), undefined);
  assertEquals(queue.counts(), { approvals: 0, questions: 0 });
});

Deno.test("counts: approvals and facts as approvals, only the model's questions as questions", () => {
  const { queue } = fakeClock();
  queue.offer(settingLine({ id: "c1" }), false);
  queue.offer(questionLine({ id: "q1", source: "chat" }), false);
  queue.offer(questionLine({ id: "q2" }), true);
  queue.offer(factLine({ id: "f1" }), true);
  queue.offer(approvalLine({ id: "a1" }), false);
  assertEquals(queue.counts(), { approvals: 2, questions: 2 });
});

Deno.test("with nothing open every key is ignored", () => {
  const { queue } = fakeClock();
  assertEquals(queue.key(text("y")), { kind: "ignored" });
  assertEquals(queue.key(ctrl("c")), { kind: "ignored" });
  assertEquals(queue.current(), undefined);
  assertEquals(queue.live(), false);
});

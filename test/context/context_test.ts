/**
 * The conversation's context without a server: composition (outputs whole in
 * their own turn, references after it, worded with and without the memory
 * tool), the store letting outputs go only when the audit holds them, the
 * calibration of the estimate, and condensing (the running turn's earlier
 * outputs first, then the oldest turns into the summary, the running turn
 * always kept, a summariser that fails replaced by the exact summary).
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { ConversationContext } from "../../src/context/context.ts";
import { ConversationStore } from "../../src/context/store.ts";
import { TokenCalibration } from "../../src/context/tokens.ts";
import type { AuditEvent } from "../../src/audit/catalogue.ts";
import type { AuditSink } from "../../src/audit/writer.ts";
import type { Summariser } from "../../src/context/summary.ts";

const OUTPUT = Array.from({ length: 400 }, (_, i) => `line ${i + 1} of the listing`).join("\n");

/** One finished turn: the prompt, a call of run_command, its output, the reply. */
function turn(context: ConversationContext, n: number, output = OUTPUT): void {
  context.begin(`prompt ${n}`);
  context.add({
    role: "assistant",
    content: "",
    toolCalls: [{ id: `c${n}`, name: "run_command", arguments: { command: `ls ${n}` } }],
  });
  context.add({ role: "tool", content: output, toolCallId: `c${n}`, toolName: "run_command" });
  context.add({ role: "assistant", content: `reply ${n}` });
  context.end();
}

function recorder(): AuditSink & { events: { kind: string; fields: Record<string, unknown> }[] } {
  const events: { kind: string; fields: Record<string, unknown> }[] = [];
  return {
    session: "s",
    events,
    record(kind, fields) {
      events.push({ kind, fields: fields as Record<string, unknown> });
      return { kind, id: String(events.length) } as unknown as AuditEvent;
    },
  };
}

Deno.test("an output is whole in its own turn and a reference after it, worded for the tools there are", () => {
  for (const memory of [false, true]) {
    const context = new ConversationContext({ instructions: "be brief", window: 32768, memory });
    turn(context, 1);
    context.begin("prompt 2");
    const messages = context.compose();
    assertEquals(messages.map((m) => m.role), [
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    const reference = messages[3].content;
    assertMatch(
      reference,
      /^\[output of entry 3 not repeated: run_command "ls 1" at \d\d:\d\d:\d\d, /,
    );
    assertStringIncludes(reference, "first line: line 1 of the listing");
    if (memory) assertStringIncludes(reference, `to see it: memory "recall entry 3"`);
    else {
      assertStringIncludes(reference, "do not run it again to see it");
      assert(!reference.includes("memory"), "without the memory tool no reference names it");
    }
    assertEquals(messages[3].toolCallId, "c1", "the reference still answers its call");
    context.add({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c2", name: "read_file", arguments: { path: "a" } }],
    });
    context.add({ role: "tool", content: OUTPUT, toolCallId: "c2", toolName: "read_file" });
    assertEquals(context.compose().at(-1)!.content, OUTPUT, "whole in its own turn");
  }
});

Deno.test("the store lets an output go only when the audit holds it, keeping its excerpt", () => {
  const events: AuditEvent[] = [
    { kind: "prompt", id: "e1", text: "p" },
    { kind: "tool.result", id: "e2", tool: "run_command", text: OUTPUT },
  ] as unknown as AuditEvent[];
  for (const auditHolds of [false, true]) {
    const store = new ConversationStore({ auditHolds, heldOutputBytes: 10 });
    store.begin("p");
    store.add({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c", name: "run_command", arguments: {} }],
    });
    const output = store.add({
      role: "tool",
      content: OUTPUT,
      toolCallId: "c",
      toolName: "run_command",
    });
    store.end(events);
    assertEquals(output.auditEvent, "e2");
    assertEquals(output.text === null, auditHolds);
    assertEquals(store.heldOutputChars, auditHolds ? 0 : OUTPUT.length);
    assertStringIncludes(output.excerpt, "line 1 of the listing");
    assert(output.excerpt.length <= 1100);
  }
});

Deno.test("calibration takes an undercount at once, an overcount halfway, and ignores a cached partial count", () => {
  const calibration = new TokenCalibration();
  calibration.observe(1000, 1200);
  assertEquals(calibration.factor, 1.2);
  calibration.observe(1000, 1000);
  assertEquals(calibration.factor, 1.1);
  calibration.observe(1000, 100);
  assertEquals(calibration.factor, 1.1, "a count far below the estimate is a cache reuse");
  calibration.observe(1000, 10_000);
  assertEquals(calibration.factor, 3, "bounded");
  assertEquals(calibration.tokens(100), 300);
});

Deno.test("condensing drops the oldest turns into the summary, keeps the running turn, and is audited", async () => {
  const folded: string[] = [];
  const summariser: Summariser = {
    summarise: (previous, text) => {
      folded.push(text);
      return Promise.resolve(
        `${previous}\nsummary of ${[...text.matchAll(/## turn (\d+)/g)].map((m) => m[1]).join(",")}`
          .trim(),
      );
    },
  };
  const context = new ConversationContext({ instructions: "be brief", window: 8192, summariser });
  for (let n = 1; n <= 80; n++) turn(context, n, "x".repeat(2000));
  const audit = recorder();
  context.begin("prompt 81", audit);
  const messages = await context.request([]);
  const size = context.measure(messages, []);
  assert(size <= 0.6 * 8192, `condensed to the target (${size})`);
  assertEquals(context.condensedThisTurn.length, 1);
  const record = audit.events.find((e) => e.kind === "context.condensed")!.fields;
  assertEquals(record.reason, "threshold");
  assert((record.beforeTokens as number) > 0.85 * 8192 - context.averageTurnTokens());
  assertEquals(record.afterTokens, size);
  const dropped = record.droppedTurns as number[];
  assertEquals(dropped[0], 1, "oldest first");
  assertEquals(dropped, dropped.map((_, i) => i + 1), "consecutive from the first");
  assertStringIncludes(String(messages[0].content), `summary of 1,`);
  assertEquals(messages.at(-1)!.content, "prompt 81", "the running turn is kept");
  assertStringIncludes(folded[0], "## turn 1\nperson: prompt 1");
});

Deno.test("the running turn's earlier outputs become references before any turn is dropped", async () => {
  const context = new ConversationContext({ instructions: "be brief", window: 8192 });
  turn(context, 1, "short");
  context.begin("prompt 2");
  for (let i = 1; i <= 7; i++) {
    context.add({
      role: "assistant",
      content: "",
      toolCalls: [{ id: `k${i}`, name: "run_command", arguments: { command: `cat ${i}` } }],
    });
    context.add({
      role: "tool",
      content: `${i}`.repeat(5000),
      toolCallId: `k${i}`,
      toolName: "run_command",
    });
  }
  const messages = await context.request([]);
  const record = context.condensedThisTurn[0];
  assert(record.referenced.length > 0, "earlier outputs of the running turn became references");
  assertEquals(messages.at(-1)!.content, "7".repeat(5000), "the latest round stays whole");
  assertEquals(record.droppedTurns, [], "references alone made room: no turn was dropped");
});

Deno.test("a refusal as too long calibrates to the window and condenses even under the threshold", async () => {
  const context = new ConversationContext({ instructions: "be brief", window: 8192 });
  for (let n = 1; n <= 6; n++) turn(context, n, "y".repeat(2000));
  context.begin("prompt 7");
  for (let i = 1; i <= 3; i++) {
    context.add({
      role: "assistant",
      content: "",
      toolCalls: [{ id: `k${i}`, name: "run_command", arguments: { command: `cat ${i}` } }],
    });
    context.add({
      role: "tool",
      content: "z".repeat(4000),
      toolCallId: `k${i}`,
      toolName: "run_command",
    });
  }
  const before = await context.request([]);
  assertEquals(context.condensedThisTurn.length, 0, "under the threshold by the estimate");
  assert(await context.overflowed([]));
  assert(context.calibration.factor > 1, "the estimate fell short");
  const after = context.compose();
  assert(context.measure(after, []) < context.measure(before, []), "condensed");
  assertEquals(context.condensedThisTurn[0].reason, "overflow");
});

Deno.test("a summariser that fails gives way to the exact summary, and the condensing says so", async () => {
  const summariser: Summariser = { summarise: () => Promise.reject(new Error("no model")) };
  const context = new ConversationContext({ instructions: "be brief", window: 8192, summariser });
  for (let n = 1; n <= 80; n++) turn(context, n, "x".repeat(2000));
  const audit = recorder();
  context.begin("prompt 81", audit);
  const messages = await context.request([]);
  assertStringIncludes(
    String(messages[0].content),
    `turn 1: asked "prompt 1"; ran run_command "ls 1"; replied "reply 1"`,
  );
  assertEquals(audit.events[0].fields.summaryBy, "exact");
});

/**
 * The memory tool against a real conversation context: recall of an entry
 * (paged within the budget, from the store when the audit does not hold it),
 * of a turn, before anything is stored; summarise by exact readers; condense
 * through the conversation's side call, chunk by chunk; note and task through
 * the conversation's facts, their forms, subjects and the per-turn limit.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { ConversationContext } from "../../src/context/context.ts";
import type { FactSink, NotedFact } from "../../src/context/facts_sink.ts";
import { memoryTool, parseNote, parseRequest } from "../../src/context/memory_tool.ts";
import { configSchema } from "../../src/config/schema.ts";
import type { ToolContext } from "../../src/tools/tool.ts";
import type { AuditSink } from "../../src/audit/writer.ts";
import type { AuditEvent } from "../../src/audit/catalogue.ts";

const LISTING = Array.from({ length: 300 }, (_, i) => `row ${i + 1}: value ${i * 7}`).join("\n");

function conversation(options: Partial<ConstructorParameters<typeof ConversationContext>[0]> = {}) {
  const context = new ConversationContext({
    instructions: "be brief",
    window: 8192,
    memory: true,
    ...options,
  });
  context.begin("list the rows");
  context.add({
    role: "assistant",
    content: "",
    toolCalls: [{ id: "c1", name: "run_command", arguments: { command: "rows" } }],
  });
  context.add({ role: "tool", content: LISTING, toolCallId: "c1", toolName: "run_command" });
  context.add({ role: "assistant", content: "300 rows." });
  context.end();
  context.begin("what was row 250?");
  return context;
}

function toolContext(context: ConversationContext | undefined, budgetBytes = 4096) {
  const events: { kind: string; fields: Record<string, unknown> }[] = [];
  const audit: AuditSink = {
    session: "s",
    record(kind, fields) {
      events.push({ kind, fields: fields as Record<string, unknown> });
      return { kind, id: String(events.length) } as unknown as AuditEvent;
    },
  };
  const ctx = {
    cwd: "/",
    root: "/",
    config: configSchema.parse({ audit: { enabled: false } }),
    home: {} as ToolContext["home"],
    audit,
    budgetBytes,
    session: "s",
    ...(context ? { conversation: context } : {}),
  } as ToolContext;
  return { ctx, events };
}

async function call(ctx: ToolContext, request: string): Promise<string> {
  return (await memoryTool.run({ request }, ctx)).text;
}

Deno.test("its description says it is not the machine's RAM, and its one argument spells the requests", () => {
  assertStringIncludes(memoryTool.description, "not the machine's RAM (that is system_info)");
  assertEquals(parseRequest('memory "recall entry 7"'), { verb: "recall", rest: "entry 7" });
  assertEquals(parseRequest("entry 7"), { verb: "recall", rest: "entry 7" });
  assertEquals(parseRequest("remember entity x = y"), { verb: "note", rest: "entity x = y" });
  assertEquals(parseRequest("summarize output ab12"), { verb: "summarise", rest: "output ab12" });
});

Deno.test("recall pages an earlier entry within the budget, from the store when the audit does not hold it", async () => {
  const context = conversation();
  const { ctx, events } = toolContext(context, 2048);
  const first = await call(ctx, "recall entry 3");
  assertMatch(
    first,
    /^entry 3: run_command output, turn 1 at \d\d:\d\d:\d\d, from the conversation's store\n/,
  );
  assertStringIncludes(first, 'arguments: {"command":"rows"}');
  assertStringIncludes(first, "1\trow 1: value 0");
  const more = first.match(/\[more: memory "recall entry 3 from line (\d+)"\]$/);
  assert(more, "a page that is not the last names the next");
  assert(new TextEncoder().encode(first).length <= 2048);
  const next = await call(ctx, `recall entry 3 from line ${more[1]}`);
  assertStringIncludes(next, `${more[1]}\trow ${more[1]}:`);
  const last = await call(ctx, "recall entry 3 from line 290");
  assert(last.endsWith("300\trow 300: value 2093\n[end of output]\n[end of what recall found]"));
  assertEquals(events[0].kind, "context.memory");
  assertEquals(events[0].fields.source, "the conversation's store");
});

Deno.test("recall of a turn, of what does not exist, and before anything is stored says what there is", async () => {
  const context = conversation();
  const { ctx } = toolContext(context);
  const turn = await call(ctx, "recall turn 1");
  assertStringIncludes(turn, "entry 1, the person: list the rows");
  assertStringIncludes(turn, `entry 3, run_command "rows" output`);
  assertStringIncludes(
    await call(ctx, "recall entry 99"),
    "memory: there is no entry 99; entries 1 to 5",
  );
  assertStringIncludes(await call(ctx, "recall entry 5"), "this turn's own");
  const fresh = new ConversationContext({ instructions: "x", window: 8192 });
  fresh.begin("hello");
  assertStringIncludes(await call(toolContext(fresh).ctx, "recall entry 1"), "this turn's own");
  const empty = new ConversationContext({ instructions: "x", window: 8192 });
  assertStringIncludes(
    await call(toolContext(empty).ctx, "recall"),
    "the first turn is all in view",
  );
  assertStringIncludes(await call(toolContext(undefined).ctx, "recall entry 1"), "no conversation");
});

Deno.test("summarise reads the notable lines exactly; overview gives the size, the ending and the edges", async () => {
  const context = new ConversationContext({ instructions: "x", window: 8192 });
  context.begin("test it");
  context.add({
    role: "assistant",
    content: "",
    toolCalls: [{ id: "c", name: "run_command", arguments: { command: "cargo test" } }],
  });
  const cargo = [
    "exit status: 101",
    "stdout:",
    "running 2 tests",
    "test dates::parses_iso ... ok",
    "test money::rounds_half_even ... FAILED",
    "",
    "failures:",
    "",
    "---- money::rounds_half_even stdout ----",
    "thread 'money::rounds_half_even' panicked at src/money.rs:42:9:",
    "assertion `left == right` failed",
    "  left: 3",
    " right: 2",
    "",
    "test result: FAILED. 1 passed; 1 failed; 0 ignored",
  ].join("\n");
  context.add({ role: "tool", content: cargo, toolCallId: "c", toolName: "run_command" });
  context.end();
  context.begin("why?");
  const { ctx } = toolContext(context);
  const notable = await call(ctx, "summarise entry 3");
  assertStringIncludes(notable, "notable lines (exact readers, no model): 15 lines");
  assertStringIncludes(notable, "exit status 101 (failed)");
  assertStringIncludes(notable, "rounds_half_even");
  const overview = await call(ctx, "summarise entry 3 overview");
  assertStringIncludes(overview, "overview (exact readers, no model)");
  assertStringIncludes(overview, "L15 test result: FAILED");
});

Deno.test("condense asks each chunk in a side call and joins what they say; without a model it says so", async () => {
  const asked: string[] = [];
  const context = conversation({
    window: 1024,
    sideCall: (_instructions, message) => {
      asked.push(message);
      return Promise.resolve(
        message.includes("row 250:") ? "row 250 holds value 1743." : "nothing here",
      );
    },
  });
  const { ctx } = toolContext(context);
  const answer = await call(ctx, "condense entry 3: what does row 250 hold?");
  assert(asked.length > 1, "the output was read in chunks");
  assert(asked.every((m) => m.startsWith("Question: what does row 250 hold?")));
  assertMatch(
    answer,
    /^condense of entry 3: .*"what does row 250 hold\?"; 300 lines in \d+ chunks, written by the model\n/,
  );
  assertMatch(answer, /L\d+–\d+: row 250 holds value 1743\.$/);
  const none = conversation();
  assertStringIncludes(
    await call(toolContext(none).ctx, "condense entry 3: why?"),
    "needs the conversation's model",
  );
});

Deno.test("note and task keep facts through the conversation's facts, in the forms a small model writes", async () => {
  const kept: NotedFact[] = [];
  const facts: FactSink = {
    distil: () => Promise.resolve(),
    lines: () => kept.map((f) => `${f.subject} ${f.name} = ${f.value}`),
    note: (fact) => {
      kept.push(fact);
      return `noted: ${fact.subject} ${fact.name} = ${fact.value} (a proposal until the person keeps it)`;
    },
  };
  const context = conversation({ facts });
  const { ctx } = toolContext(context);
  assertEquals(
    await call(ctx, "note entity release codename = BLUE HERON"),
    "noted: entity release codename = BLUE HERON (a proposal until the person keeps it)",
  );
  assertEquals(kept[0].source, "model, noted, turn 2");
  assertEquals(parseNote('tests: ci = "green"'), { subject: "tests", name: "ci", value: "green" });
  assertEquals(parseNote("branch main: feature-x"), {
    subject: "branch",
    name: "main",
    value: "feature-x",
  });
  assertMatch(
    await call(ctx, "note weather today = sunny"),
    /^error: no subject weather to note; use one of task, decision/,
  );
  assertMatch(await call(ctx, "note entity = x"), /^error: say which entity it is before the =/);
  assertEquals(
    await call(ctx, "task add a dry-run flag. Objective: sync prints the plan"),
    "noted the task: add a dry-run flag; objective: sync prints the plan",
  );
  assertStringIncludes(
    await call(ctx, "recall fact codename"),
    "entity release codename = BLUE HERON",
  );
  for (let i = 0; i < 10; i++) await call(ctx, `note decision d${i} = yes`);
  assertEquals(
    await call(ctx, "note decision late = no"),
    "error: at most 12 notes a turn; the rest were not kept",
  );
  const noFacts = conversation();
  assertMatch(
    await call(toolContext(noFacts).ctx, "note entity x = y"),
    /^error: this conversation keeps no facts/,
  );
});

Deno.test("condense asks once more to combine answers too long to return", async () => {
  const asked: string[] = [];
  const context = conversation({
    window: 1024,
    sideCall: (instructions) => {
      asked.push(instructions);
      return Promise.resolve(
        instructions.startsWith("You combine")
          ? "Every part lists rows and values."
          : `this part lists rows and values: ${"row ".repeat(400)}`,
      );
    },
  });
  const { ctx, events } = toolContext(context, 4096);
  const answer = await call(ctx, "condense entry 3: what does it list?");
  assertEquals(asked.filter((i) => i.startsWith("You combine")).length, 1);
  assert(answer.endsWith("\nEvery part lists rows and values."));
  assertEquals(events[0].fields.combined, true);
});

Deno.test("recall with matching shows only the lines that contain the pattern, with their own numbers", async () => {
  const context = conversation();
  const { ctx, events } = toolContext(context);
  const found = await call(ctx, 'recall entry 3 matching "VALUE 1743"');
  assertStringIncludes(
    found,
    'lines matching "VALUE 1743":\n250\trow 250: value 1743\n[end of output]',
  );
  assertEquals(events[0].fields.filter, "VALUE 1743");
  assertStringIncludes(
    await call(ctx, "recall entry 3 matching nowhere"),
    'no line from 1 on contains "nowhere"',
  );
});

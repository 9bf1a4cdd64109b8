import { ConversationContext } from "../../src/context/context.ts";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { ScriptedBackend, textReply, toolCallEvent } from "../../src/models/scripted.ts";
import type { ChatRequest, StreamEvent } from "../../src/models/backend.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { currentDateTool } from "../../src/tools/current_date.ts";
import { runTurn } from "../../src/agent/turn.ts";
import type { GateVerdict, ToolGate } from "../../src/tools/tool.ts";
import { harness, slowTool } from "./support.ts";
import { within } from "../support/wait.ts";

const system = () => new ConversationContext({ instructions: "be brief", window: 32768 });

Deno.test("a reply without calls ends the turn in one round, audited as prompt and response", async () => {
  const h = await harness();
  try {
    const backend = new ScriptedBackend([textReply("Hello.")]);
    const streamed: string[] = [];
    const outcome = await runTurn({
      backend,
      transcript: system(),
      prompt: "hi",
      tools: [],
      registry: new ToolRegistry(),
      context: h.ctx,
      hooks: { onText: (t) => streamed.push(t) },
    });
    assertEquals(outcome.reply, "Hello.");
    assertEquals(outcome.rounds, 1);
    assertEquals(streamed, ["Hello."]);
    assertEquals(h.events.map((e) => e.kind), ["prompt", "response"]);
    assertEquals(h.events[0].text, "hi");
    assertEquals(h.events[1].text, "Hello.");
    assertEquals(backend.requests[0].tools, undefined, "no tools offered, none sent");
  } finally {
    await h.remove();
  }
});

Deno.test("a call runs and its result goes back before the model replies", async () => {
  const h = await harness();
  try {
    const registry = new ToolRegistry().register(currentDateTool);
    const backend = new ScriptedBackend([
      [toolCallEvent("current_date", {}, "c1")],
      textReply("It is today."),
    ]);
    const outcome = await runTurn({
      backend,
      transcript: system(),
      prompt: "what day is it?",
      tools: registry.all(),
      registry,
      context: h.ctx,
    });
    assertEquals(outcome.rounds, 2);
    assertEquals(outcome.reply, "It is today.");
    const second = backend.requests[1].messages;
    const tool = second.find((m) => m.role === "tool");
    assertEquals(tool?.toolCallId, "c1");
    assertMatch(tool!.content, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d \(/);
    assertEquals(backend.requests[0].tools?.map((t) => t.name), ["current_date"]);
    assertEquals(h.events.map((e) => e.kind), [
      "prompt",
      "response",
      "tool.call",
      "tool.result",
      "response",
    ]);
  } finally {
    await h.remove();
  }
});

Deno.test("a response cut off at the length limit never runs its calls; the model is asked to reissue them", async () => {
  const h = await harness();
  try {
    const registry = new ToolRegistry().register(
      slowTool("effect", h.log, { parallelSafe: false }),
    );
    const backend = new ScriptedBackend([
      [toolCallEvent("effect", { arg: "half" }, "c1"), { type: "done", finishReason: "length" }],
      [toolCallEvent("effect", { arg: "whole" }, "c2"), {
        type: "done",
        finishReason: "tool_calls",
      }],
      textReply("Done."),
    ]);
    const outcome = await runTurn({
      backend,
      transcript: system(),
      prompt: "go",
      tools: registry.all(),
      registry,
      context: h.ctx,
    });
    assertEquals(h.log, ["start effect:whole", "end effect:whole"], "only the complete call ran");
    const told = backend.requests[1].messages.find((m) => m.role === "tool");
    assertMatch(told!.content, /cut off at the length limit .* did not run; issue the call again/);
    assertEquals(h.events.filter((e) => e.kind === "tool.call").length, 1);
    assertEquals(outcome.reply, "Done.");
  } finally {
    await h.remove();
  }
});

Deno.test("calls that are all parallel-safe run together, results in source order", async () => {
  const h = await harness();
  try {
    const registry = new ToolRegistry().register(
      slowTool("look", h.log, { parallelSafe: true, ms: 40 }),
    );
    const backend = new ScriptedBackend([
      [
        toolCallEvent("look", { arg: "a" }),
        toolCallEvent("look", { arg: "b" }),
        toolCallEvent("look", { arg: "c" }),
      ],
      textReply("ok"),
    ]);
    await runTurn({
      backend,
      transcript: system(),
      prompt: "go",
      tools: registry.all(),
      registry,
      context: h.ctx,
    });
    assertEquals(
      h.log.slice(0, 3),
      ["start look:a", "start look:b", "start look:c"],
      "all three started before any ended",
    );
    const results = backend.requests[1].messages.filter((m) => m.role === "tool").map((m) =>
      m.content
    );
    assertEquals(results, ["look did a", "look did b", "look did c"]);
  } finally {
    await h.remove();
  }
});

Deno.test("parallel groups are bounded", async () => {
  const h = await harness();
  try {
    const registry = new ToolRegistry().register(
      slowTool("look", h.log, { parallelSafe: true, ms: 20 }),
    );
    const calls = ["1", "2", "3", "4", "5"].map((arg) => toolCallEvent("look", { arg }));
    const backend = new ScriptedBackend([calls, textReply("ok")]);
    await runTurn({
      backend,
      transcript: system(),
      prompt: "go",
      tools: registry.all(),
      registry,
      context: h.ctx,
      parallelGroup: 2,
    });
    assertEquals(h.log, [
      "start look:1",
      "start look:2",
      "end look:1",
      "end look:2",
      "start look:3",
      "start look:4",
      "end look:3",
      "end look:4",
      "start look:5",
      "end look:5",
    ]);
  } finally {
    await h.remove();
  }
});

Deno.test("one call that is not parallel-safe makes the whole response run in order", async () => {
  const h = await harness();
  try {
    const registry = new ToolRegistry()
      .register(slowTool("look", h.log, { parallelSafe: true }))
      .register(slowTool("write", h.log, { parallelSafe: false }));
    const backend = new ScriptedBackend([
      [toolCallEvent("write", { arg: "file" }), toolCallEvent("look", { arg: "test" })],
      textReply("ok"),
    ]);
    await runTurn({
      backend,
      transcript: system(),
      prompt: "go",
      tools: registry.all(),
      registry,
      context: h.ctx,
    });
    assertEquals(h.log, ["start write:file", "end write:file", "start look:test", "end look:test"]);
  } finally {
    await h.remove();
  }
});

Deno.test("every call's approval is asked before any call has its effect, and only once", async () => {
  const asked: string[] = [];
  const log: string[] = [];
  const gate: ToolGate = {
    check(line: string): Promise<GateVerdict> {
      asked.push(line);
      log.push(`ask ${line}`);
      return Promise.resolve(
        line.endsWith("bad")
          ? { allowed: false, refusal: "the person said no" }
          : { allowed: true },
      );
    },
  };
  const h = await harness(gate);
  try {
    const registry = new ToolRegistry().register(
      slowTool("write", log, { parallelSafe: false, gated: true }),
    );
    const backend = new ScriptedBackend([
      [
        toolCallEvent("write", { arg: "one" }),
        toolCallEvent("write", { arg: "bad" }),
        toolCallEvent("write", { arg: "two" }),
      ],
      textReply("ok"),
    ]);
    await runTurn({
      backend,
      transcript: system(),
      prompt: "go",
      tools: registry.all(),
      registry,
      context: h.ctx,
    });
    assertEquals(log, [
      "ask write one",
      "ask write bad",
      "ask write two",
      "start write:one",
      "end write:one",
      "start write:two",
      "end write:two",
    ]);
    assertEquals(asked.length, 3, "a prepared call is not asked again when it runs");
    const results = backend.requests[1].messages.filter((m) => m.role === "tool").map((m) =>
      m.content
    );
    assertEquals(results[1], "error: command not approved: the person said no");
  } finally {
    await h.remove();
  }
});

Deno.test("a call of a tool this turn does not offer is audited and refused, not run", async () => {
  const h = await harness();
  try {
    const registry = new ToolRegistry().register(slowTool("write", h.log, { parallelSafe: false }));
    const backend = new ScriptedBackend([[toolCallEvent("write", { arg: "x" })], textReply("ok")]);
    await runTurn({
      backend,
      transcript: system(),
      prompt: "go",
      tools: [],
      registry,
      context: h.ctx,
    });
    assertEquals(h.log, []);
    const told = backend.requests[1].messages.find((m) => m.role === "tool");
    assertMatch(told!.content, /^error: there is no tool named write here/);
    assertEquals(h.events.filter((e) => e.kind === "tool.call").length, 1);
  } finally {
    await h.remove();
  }
});

Deno.test("the rounds of a turn are bounded", async () => {
  const h = await harness();
  try {
    const registry = new ToolRegistry().register(currentDateTool);
    const steps = Array.from({ length: 5 }, () => [toolCallEvent("current_date", {})]);
    const backend = new ScriptedBackend(steps);
    const outcome = await runTurn({
      backend,
      transcript: system(),
      prompt: "loop",
      tools: registry.all(),
      registry,
      context: h.ctx,
      maxRounds: 3,
    });
    assertEquals(outcome.roundLimit, true);
    assertEquals(outcome.rounds, 3);
    assertEquals(backend.requests.length, 3);
  } finally {
    await h.remove();
  }
});

Deno.test("aborting mid-stream stops the turn and audits turn.stopped", async () => {
  const h = await harness();
  try {
    const controller = new AbortController();
    const slow = async function* (request: ChatRequest): AsyncGenerator<StreamEvent> {
      yield { type: "text", text: "Thinking about it" };
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (request.signal?.aborted) return;
      yield { type: "text", text: " and more" };
    };
    const backend = new ScriptedBackend([slow]);
    const outcome = await runTurn({
      backend,
      transcript: system(),
      prompt: "go",
      tools: [],
      registry: new ToolRegistry(),
      context: h.ctx,
      signal: controller.signal,
    });
    assertEquals(outcome.stopped, true);
    assert(h.events.some((e) => e.kind === "turn.stopped"));
    assert(!h.events.some((e) => e.kind === "response"), "no reply is recorded for a stopped turn");
  } finally {
    await h.remove();
  }
});

Deno.test("aborting while a call runs stops it and ends the turn without another request", async () => {
  const h = await harness();
  try {
    const controller = new AbortController();
    const registry = new ToolRegistry().register(
      slowTool("wait", h.log, { parallelSafe: false, ms: 2_000_000_000 }),
    );
    const backend = new ScriptedBackend([
      [toolCallEvent("wait", { arg: "long" })],
      textReply("never"),
    ]);
    setTimeout(() => controller.abort(), 50);
    // The tool ends only when it is stopped (its pause is about 23 days).
    const outcome = await within(
      runTurn({
        backend,
        transcript: system(),
        prompt: "go",
        tools: registry.all(),
        registry,
        context: h.ctx,
        signal: controller.signal,
      }),
      "the stopped turn's end",
    );
    assertEquals(outcome.stopped, true);
    assertEquals(backend.requests.length, 1);
  } finally {
    await h.remove();
  }
});

Deno.test("the same line twice in one response is asked twice and answered in order", async () => {
  const answers = [{ allowed: true }, { allowed: false, refusal: "not twice" }];
  const asked: string[] = [];
  const gate: ToolGate = {
    check(line: string): Promise<GateVerdict> {
      asked.push(line);
      return Promise.resolve(
        answers[asked.length - 1] ?? { allowed: false, refusal: "asked too often" },
      );
    },
  };
  const h = await harness(gate);
  try {
    const registry = new ToolRegistry().register(
      slowTool("write", h.log, { parallelSafe: false, gated: true }),
    );
    const backend = new ScriptedBackend([
      [toolCallEvent("write", { arg: "same" }), toolCallEvent("write", { arg: "same" })],
      textReply("ok"),
    ]);
    await runTurn({
      backend,
      transcript: system(),
      prompt: "go",
      tools: registry.all(),
      registry,
      context: h.ctx,
    });
    assertEquals(asked, ["write same", "write same"]);
    const results = backend.requests[1].messages.filter((m) => m.role === "tool").map((m) =>
      m.content
    );
    assertEquals(results, ["write did same", "error: command not approved: not twice"]);
  } finally {
    await h.remove();
  }
});

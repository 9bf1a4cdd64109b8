/**
 * The ask tool: off by default, how a typed answer is read, and what the
 * model reads for each outcome — an answer, a decline, none of these, no
 * answer in time, and no person to ask (respond).
 */
import { type Inquirer, readAnswer } from "../../src/tools/ask.ts";
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { callTool, registry, scratch } from "./support.ts";
import { configSchema } from "../../src/config/schema.ts";

Deno.test("ask is offered only when tools.ask is on or a tool list names it", () => {
  const off = registry.list({ config: configSchema.parse({}) }).map((t) => t.name);
  assert(!off.includes("ask"), off.join(","));
  const on = registry.list({ config: configSchema.parse({ tools: { ask: true } }) }).map((t) =>
    t.name
  );
  assert(on.includes("ask"), on.join(","));
  const named = registry.list({ config: configSchema.parse({}), only: ["ask"] }).map((t) => t.name);
  assertEquals(named, ["ask"]);
});

Deno.test("a typed answer: a number or an option picks it, the one after the last is none of these, Enter declines", () => {
  const options = ["~/.wisp", "./wisp.json"];
  assertEquals(readAnswer(options, "2"), { kind: "answered", text: "./wisp.json" });
  assertEquals(readAnswer(options, " ./WISP.json "), { kind: "answered", text: "./wisp.json" });
  assertEquals(readAnswer(options, "3"), { kind: "none-of-these" });
  assertEquals(readAnswer(options, "none of these"), { kind: "none-of-these" });
  assertEquals(readAnswer(options, ""), { kind: "declined" });
  assertEquals(readAnswer(options, "the other one"), { kind: "answered", text: "the other one" });
  assertEquals(readAnswer([], "42"), { kind: "answered", text: "42" });
});

Deno.test("what the model reads: the answer, a decline, no person, no answer in time", async () => {
  const s = await scratch({ config: { inquiry: { timeoutSeconds: 1 } } });
  try {
    const question = { question: "Which config?", options: ["a", "b"] };
    // respond: no one to ask.
    const none = await callTool(s, "ask", question);
    assertEquals(none.ok, false);
    assertStringIncludes(none.text, "no person can answer here");
    const answering = (outcome: Awaited<ReturnType<Inquirer["ask"]>>): Inquirer => ({
      ask: () => Promise.resolve(outcome),
    });
    s.ctx.inquirer = answering({ kind: "answered", text: "b" });
    assertEquals((await callTool(s, "ask", question)).text, "chose: b");
    s.ctx.inquirer = answering({ kind: "declined" });
    assertStringIncludes(
      (await callTool(s, "ask", question)).text,
      "declined to answer. Do not ask this again",
    );
    // Silence: the face never answers, and inquiry.timeoutSeconds ends the wait.
    let withdrawn = false;
    s.ctx.inquirer = {
      ask: (_q, signal) =>
        new Promise((resolve) =>
          signal?.addEventListener("abort", () => {
            withdrawn = true;
            resolve({ kind: "declined" });
          })
        ),
    };
    const silent = await callTool(s, "ask", question);
    assertStringIncludes(silent.text, "no answer within 1 s. Do not guess");
    assert(withdrawn, "the face was told the question no longer waits");
    const settled = s.events.filter((e) => e.kind === "inquiry.settled").map((e) => e.outcome);
    assertEquals(settled, ["no-person", "answered", "declined", "timeout"]);
  } finally {
    await s.cleanup();
  }
});

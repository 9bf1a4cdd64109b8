import { z } from "zod";
import { assert, assertEquals, assertMatch, assertThrows } from "../support/assert.ts";
import { configSchema } from "../../src/config/schema.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { currentDateTool } from "../../src/tools/current_date.ts";
import { readFileTool } from "../../src/tools/read_file.ts";
import { editFileTool } from "../../src/tools/edit_file.ts";
import { builtinRegistry } from "../../src/tools/builtins.ts";
import type { Tool } from "../../src/tools/tool.ts";
import { UsageError } from "../../src/util/errors.ts";
import { scratch } from "./support.ts";

/** The three tools of this area, apart from whatever else builtins registers. */
function fileTools(): ToolRegistry {
  return new ToolRegistry().register(currentDateTool).register(readFileTool).register(editFileTool);
}

function fakeTool(name: string, extra: Partial<Tool> = {}): Tool {
  return {
    name,
    description: `the ${name} tool`,
    schema: z.object({}),
    parallelSafe: true,
    gatesBeforeEffect: false,
    limits: () => [],
    examplePrompt: `use ${name}`,
    run: () => Promise.resolve({ text: name, ok: true }),
    ...extra,
  };
}

Deno.test("registry: the default list, tools.disabled, --tool and --no-tools", () => {
  const r = fileTools().register(fakeTool("memory")).register(fakeTool("ask"))
    .register(fakeTool("mine", { custom: true }));
  const names = (opts: Parameters<ToolRegistry["list"]>[0]) => r.list(opts).map((t) => t.name);
  const defaults = configSchema.parse({ context: { memory: true } });
  // memory is on with context.memory, ask is off without tools.ask; custom tools come last.
  assertEquals(names({ config: defaults }), [
    "current_date",
    "read_file",
    "edit_file",
    "memory",
    "mine",
  ]);
  assertEquals(
    names({ config: configSchema.parse({ tools: { ask: true }, context: { memory: false } }) }),
    [
      "current_date",
      "read_file",
      "edit_file",
      "ask",
      "mine",
    ],
  );
  const disabled = configSchema.parse({
    tools: { disabled: ["read_file", "edit_file"] },
    context: { memory: true },
  });
  assertEquals(names({ config: disabled }), ["current_date", "memory", "mine"]);
  // A named list is exactly that list (opt-in tools too), less tools.disabled.
  assertEquals(names({ config: defaults, only: ["ask", "read_file"] }), ["read_file", "ask"]);
  assertEquals(names({ config: disabled, only: ["read_file", "current_date"] }), ["current_date"]);
  assertEquals(names({ config: defaults, noTools: true }), []);
  const error = assertThrows(() => r.list({ config: defaults, only: ["nope"] }), UsageError);
  assertMatch(error.message, /no tool named 'nope'/);
});

Deno.test("registry: specs carry input JSON Schema (defaulted arguments are optional)", () => {
  const specs = builtinRegistry().specs();
  const read = specs.find((s) => s.name === "read_file")!;
  assertEquals(read.parameters.type, "object");
  assertEquals(read.parameters.required, ["path"]);
  const props = read.parameters.properties as Record<string, { type: string; default?: unknown }>;
  assertEquals(props.offset.type, "integer");
  assertEquals(props.offset.default, 1);
  const edit = specs.find((s) => s.name === "edit_file")!;
  assertEquals(edit.parameters.required, ["path", "mode", "content"]);
  assertEquals((edit.parameters.properties as Record<string, { enum?: string[] }>).mode.enum, [
    "write",
    "append",
    "replace",
  ]);
  const date = specs.find((s) => s.name === "current_date")!;
  assertEquals(date.parameters.properties, {});
  assert(!("$schema" in date.parameters));
});

Deno.test("registry: registering a name twice is a programming error", () => {
  assertThrows(() => builtinRegistry().register(fakeTool("read_file")), Error, "registered twice");
});

Deno.test("registry.call: validates, audits tool.call and tool.result verbatim, never throws", async () => {
  const s = await scratch();
  try {
    const r = builtinRegistry().register(
      fakeTool("boom", { run: () => Promise.reject(new Error("kaput")) }),
    );
    const bad = await r.call("read_file", { path: 3 }, s.ctx);
    assertEquals(bad.ok, false);
    assertEquals(bad.text, "error: bad arguments for read_file: path must be a string");
    const unknown = await r.call("nope", {}, s.ctx);
    assertMatch(unknown.text, /^error: there is no tool named nope/);
    const boom = await r.call("boom", "{}", s.ctx); // arguments as a JSON string, as some servers send them
    assertEquals(boom.text, "error: boom failed: kaput");
    const calls = s.events.filter((e) => e.kind === "tool.call");
    const results = s.events.filter((e) => e.kind === "tool.result");
    assertEquals(calls.map((e) => e.tool), ["read_file", "nope", "boom"]);
    assertEquals(calls[0].arguments, { path: 3 });
    assertEquals(
      results.map((e) => [e.tool, e.ok, e.callId]),
      calls.map((c) => [c.tool, false, c.id]),
    );
    assertEquals(results[2].text, "error: boom failed: kaput");
    // And the events reached the audit file.
    const lines = Deno.readTextFileSync(s.ctx.home.auditLog).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assertEquals(lines.filter((e) => e.kind === "tool.call").length, 3);
  } finally {
    await s.cleanup();
  }
});

Deno.test("registry.call fits any result to the budget, keeping the whole in the output store", async () => {
  const s = await scratch({ budgetBytes: 4096 });
  try {
    const kept: string[] = [];
    s.ctx.outputStore = {
      keep(text: string) {
        kept.push(text);
        return Promise.resolve({ id: "feedbeef", lines: 5000 });
      },
    };
    const long = Array.from({ length: 5000 }, (_, i) => `row ${i + 1}`).join("\n") + "\n";
    const r = new ToolRegistry().register(
      fakeTool("chatty", { run: () => Promise.resolve({ text: long, ok: true }) }),
    );
    const result = await r.call("chatty", {}, s.ctx);
    assert(new TextEncoder().encode(result.text).length <= 4096);
    assertEquals(result.outputId, "feedbeef");
    assertEquals(kept, [long]);
    assertMatch(result.text, /^row 1\n/);
    assertMatch(result.text, /kept as output feedbeef/);
    const audited = s.events.find((e) => e.kind === "tool.result")!;
    assertEquals(audited.outputId, "feedbeef");
    // An error quoting a huge path is bounded too.
    const huge = await r.call("chatty", {}, { ...s.ctx, outputStore: undefined });
    assertMatch(huge.text, /they were not kept/);
  } finally {
    await s.cleanup();
  }
});

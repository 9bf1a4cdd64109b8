/**
 * Approval preparation over every tool that can reach the gate, with the
 * real gate, the real runner (the sandbox) and a person's host that looks at
 * the project while it is asked: an edit followed by a custom tool or a
 * `process start` that needs approval asks both before the edit is written.
 * And a tool that asks the gate without declaring it is refused, so no tool
 * can slip past preparation.
 */
import { ConversationContext } from "../../src/context/context.ts";
import { join } from "node:path";
import { z } from "zod";
import { assertEquals, assertMatch } from "../support/assert.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema } from "../../src/config/schema.ts";
import { Session } from "../../src/session/session.ts";
import { runTurn } from "../../src/agent/turn.ts";
import { ScriptedBackend, textReply, toolCallEvent } from "../../src/models/scripted.ts";
import type { ApprovalAnswer, ApprovalHost } from "../../src/gate/gate.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import type { Tool } from "../../src/tools/tool.ts";
import { harness } from "./support.ts";

interface Asked {
  command: string;
  /** Whether the edit had been written when this was asked. */
  editDone: boolean;
}

async function batch(
  second: ReturnType<typeof toolCallEvent>,
  answer: (command: string) => ApprovalAnswer,
  config: Record<string, unknown> = {},
  setUp?: (project: string) => Promise<void>,
) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-prepare-" }));
  const project = join(dir, "project");
  await Deno.mkdir(project);
  await Deno.mkdir(join(project, "old"));
  await setUp?.(project);
  const asked: Asked[] = [];
  const host: ApprovalHost = {
    approve(request) {
      let editDone = true;
      try {
        Deno.statSync(join(project, "notes.txt"));
      } catch {
        editDone = false;
      }
      asked.push({ command: request.command, editDone });
      return Promise.resolve(answer(request.command));
    },
  };
  const session = Session.open({
    face: "test",
    paths: homePaths(join(dir, "home")),
    config: configSchema.parse(config),
    root: project,
    host,
  });
  try {
    const backend = new ScriptedBackend([
      [
        toolCallEvent("edit_file", { path: "notes.txt", mode: "write", content: "hello\n" }),
        second,
      ],
      textReply("Done."),
    ]);
    const turn = session.beginTurn({ budgetBytes: 8192 });
    await runTurn({
      backend,
      transcript: new ConversationContext({ instructions: "test", window: 32768 }),
      prompt: "go",
      tools: session.tools(),
      registry: session.registry,
      context: turn.context,
    });
    const results = backend.requests[1].messages.filter((m) => m.role === "tool").map((m) =>
      m.content
    );
    const notes = await Deno.readTextFile(join(project, "notes.txt")).catch(() => null);
    return { asked, results, notes, oldLeft: Deno.statSync(join(project, "old")).isDirectory };
  } finally {
    session.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("an edit then a custom tool that needs approval: both asked before the edit is written", async () => {
  const config = {
    tools: {
      custom: [{
        name: "clean",
        description: "removes a folder of build output",
        command: "rm -r {folder}",
        arguments: { folder: { type: "string", description: "the folder" } },
      }],
    },
  };
  const { asked, results, notes, oldLeft } = await batch(
    toolCallEvent("clean", { folder: "old" }),
    (command) => command.startsWith("rm") ? "no" : "once",
    config,
  );
  assertEquals(asked.length, 2, JSON.stringify(asked));
  assertMatch(asked[0].command, /^edit_file write /);
  assertMatch(asked[1].command, /^rm -r 'old'/);
  assertEquals(
    asked.map((a) => a.editDone),
    [false, false],
    "asked before the edit had its effect",
  );
  assertEquals(notes, "hello\n");
  assertMatch(results[1], /^error: command not approved: the person refused rm -r/);
  assertEquals(oldLeft, true);
});

Deno.test("an edit then process start that needs approval: both asked before the edit is written", async () => {
  const { asked, results, notes, oldLeft } = await batch(
    toolCallEvent("process", { action: "start", command: "rm -r old" }),
    (command) => command.startsWith("rm") ? "no" : "once",
  );
  assertEquals(asked.length, 2, JSON.stringify(asked));
  assertMatch(asked[0].command, /^edit_file write /);
  assertEquals(asked[1].command, "rm -r old");
  assertEquals(
    asked.map((a) => a.editDone),
    [false, false],
    "asked before the edit had its effect",
  );
  assertEquals(notes, "hello\n");
  assertMatch(results[1], /^error: command not approved: the person refused rm -r old/);
  assertEquals(oldLeft, true);
});

Deno.test("an edit then ls of a credential folder: the read is asked before the edit is written", async () => {
  const { asked, results, notes } = await batch(
    toolCallEvent("ls", { path: ".ssh" }),
    (command) => command.startsWith("ls") ? "no" : "once",
    {},
    async (project) => await Deno.mkdir(join(project, ".ssh")),
  );
  assertEquals(asked.length, 2, JSON.stringify(asked));
  assertMatch(asked[0].command, /^edit_file write /);
  assertMatch(asked[1].command, /^ls -la '\.ssh'/);
  assertEquals(
    asked.map((a) => a.editDone),
    [false, false],
    "asked before the edit had its effect",
  );
  assertEquals(notes, "hello\n");
  assertMatch(results[1], /^error: /);
});

Deno.test("a tool that asks the gate in a call it declares asks nothing is refused, not run", async () => {
  const asked: string[] = [];
  const h = await harness({
    check(line) {
      asked.push(line);
      return Promise.resolve({ allowed: true });
    },
  });
  try {
    let ran = false;
    const sneaky: Tool<{ arg: string }> = {
      name: "sneaky",
      description: "asks the gate without saying so",
      schema: z.object({ arg: z.string() }),
      parallelSafe: false,
      gatesBeforeEffect: false,
      limits: () => [],
      examplePrompt: "",
      async run(args, ctx) {
        const verdict = await ctx.gate!.check(`sneaky ${args.arg}`, { origin: "model" });
        if (!verdict.allowed) return { text: `error: ${verdict.refusal}`, ok: false };
        ran = true;
        return { text: "did it", ok: true };
      },
    };
    const registry = new ToolRegistry().register(sneaky);
    const backend = new ScriptedBackend([
      [toolCallEvent("sneaky", { arg: "x" })],
      textReply("ok"),
    ]);
    await runTurn({
      backend,
      transcript: new ConversationContext({ instructions: "test", window: 32768 }),
      prompt: "go",
      tools: registry.all(),
      registry,
      context: h.ctx,
    });
    assertEquals(ran, false);
    assertEquals(asked, [], "the real gate was never asked");
    const result = backend.requests[1].messages.find((m) => m.role === "tool")!.content;
    assertMatch(result, /^error: sneaky asked for approval in a call it declares needs none/);
  } finally {
    await h.remove();
  }
});

/**
 * The store's own copy (ADR 0590): with the audit off, an output dropped
 * from view is copied to a 0600 file beside the output store, memory keeps
 * only where it is, and the memory tool's recall pages it back whole. When
 * there is no copy (none configured, the file removed, the audit event
 * rotated out) a recall says plainly why only the first and last lines stay.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { ConversationContext } from "../../src/context/context.ts";
import { memoryTool } from "../../src/context/memory_tool.ts";
import { configSchema } from "../../src/config/schema.ts";
import { homePaths } from "../../src/config/home.ts";
import type { ToolContext } from "../../src/tools/tool.ts";
import type { AuditSink } from "../../src/audit/writer.ts";
import type { AuditEvent } from "../../src/audit/catalogue.ts";
import type { DroppedEntry } from "../../src/context/store.ts";

/** About 60 KB of distinct lines, so a lost or repeated page shows. */
const BIG = Array.from(
  { length: 1500 },
  (_, i) => `line ${i + 1}: ${(i * 2654435761 % 4294967296).toString(16).padStart(8, "0")} ok`,
).join("\n");

/** A conversation whose turn 1 printed BIG, then dropped from view; turn 2 is running. */
function droppedConversation(options: { copyFile?: string; auditEvent?: string } = {}) {
  const context = new ConversationContext({
    instructions: "be brief",
    window: 8192,
    memory: true,
    auditHolds: options.auditEvent !== undefined,
    ...(options.copyFile ? { copyFile: options.copyFile } : {}),
  });
  context.begin("print the big file");
  context.add({
    role: "assistant",
    content: "",
    toolCalls: [{ id: "c1", name: "run_command", arguments: { command: "cat big" } }],
  });
  context.add({ role: "tool", content: BIG, toolCallId: "c1", toolName: "run_command" });
  context.add({ role: "assistant", content: "Printed it." });
  // With an audit event given, the audit holds every entry of the turn.
  const events = options.auditEvent
    ? [
      { kind: "prompt", id: `${options.auditEvent}-p`, text: "print the big file" },
      { kind: "response", id: `${options.auditEvent}-r`, text: "" },
      { kind: "tool.result", id: options.auditEvent, tool: "run_command", text: BIG },
      { kind: "response", id: `${options.auditEvent}-r2`, text: "Printed it." },
    ]
    : [];
  context.end(events as unknown as AuditEvent[]);
  assertEquals(context.store.drop(1).length, 1);
  context.begin("what was on line 1234?");
  return context;
}

function toolContext(context: ConversationContext, home: string, auditEnabled = false) {
  const audit: AuditSink = {
    session: "s",
    record(kind) {
      return { kind, id: "e" } as unknown as AuditEvent;
    },
  };
  return {
    cwd: "/",
    root: "/",
    config: configSchema.parse({ audit: { enabled: auditEnabled } }),
    home: homePaths(home),
    audit,
    budgetBytes: 4096,
    session: "s",
    conversation: context,
  } as ToolContext;
}

async function call(ctx: ToolContext, request: string): Promise<string> {
  return (await memoryTool.run({ request }, ctx)).text;
}

/** Page through `recall entry N` to its end; the numbered lines put back together. */
async function recallWhole(
  ctx: ToolContext,
  n: number,
): Promise<{ text: string; pages: string[] }> {
  const lines: string[] = [];
  const pages: string[] = [];
  let request = `recall entry ${n}`;
  for (let guard = 0; guard < 200; guard++) {
    const page = await call(ctx, request);
    pages.push(page);
    for (const line of page.split("\n")) {
      const m = line.match(/^(\d+)\t(.*)$/);
      if (m) {
        assertEquals(Number(m[1]), lines.length + 1, "pages follow on without a gap");
        lines.push(m[2]);
      }
    }
    const more = page.match(/\[more: memory "(recall entry \d+ from line \d+)"\]$/);
    if (!more) return { text: lines.join("\n"), pages };
    request = more[1];
  }
  throw new Error("the recall never reached its end");
}

Deno.test("with the audit off, a 60 KB output dropped from view is copied to a 0600 file and recalled whole", async () => {
  const home = Deno.makeTempDirSync();
  try {
    const copyFile = join(home, "output", "s", "c0ffee.store");
    const context = droppedConversation({ copyFile });
    const dropped = context.store.entry(3) as DroppedEntry;
    assert(!("text" in dropped), "memory no longer holds the dropped output's text");
    assert(dropped.copy, "the dropped output names its copy");
    assertEquals(context.store.heldOutputChars, 0);
    assertEquals(Deno.statSync(copyFile).mode! & 0o777, 0o600);

    const { text, pages } = await recallWhole(toolContext(context, home), 3);
    assertEquals(text, BIG);
    assert(pages.length > 10, `a 60 KB output takes many pages of 4 KiB (${pages.length})`);
    assertStringIncludes(
      pages[0],
      "from the conversation's store (its own copy: the audit log does not hold it)",
    );
    assert(pages.at(-1)!.includes("[end of output]"));
    // A saved and restored conversation (a resumed chat) still finds the copy.
    const resumed = new ConversationContext({
      instructions: "be brief",
      window: 8192,
      memory: true,
    });
    resumed.restore(JSON.parse(JSON.stringify(context.snapshot())));
    resumed.begin("and now?");
    assertEquals((await recallWhole(toolContext(resumed, home), 3)).text, BIG);
    // The prompt and the model's words of the dropped turn are copied too.
    assertStringIncludes(
      await call(toolContext(context, home), "recall entry 1"),
      "print the big file",
    );
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("without its copy a dropped output is its first and last lines, and the recall says why", async () => {
  const home = Deno.makeTempDirSync();
  try {
    // The copy's file was removed (the output store cleaned).
    const copyFile = join(home, "output", "s", "c0ffee.store");
    const removed = droppedConversation({ copyFile });
    Deno.removeSync(copyFile);
    const page = await call(toolContext(removed, home), "recall entry 3");
    assertStringIncludes(
      page,
      "its first and last lines only: the store's own copy of it was removed",
    );
    assertStringIncludes(page, "line 1: ");
    assert(!page.includes("line 700: "), "only the excerpt is left");

    // No copy file given (a store made without one).
    const none = droppedConversation();
    assertStringIncludes(
      await call(toolContext(none, home), "recall entry 3"),
      "the audit is off, and the store kept no copy of it",
    );

    // The audit held it, but its event rotated out of the kept log files.
    const rotated = droppedConversation({ copyFile: join(home, "other"), auditEvent: "gone-1" });
    assert(!(rotated.store.entry(3) as DroppedEntry).copy, "the audit held it: no copy");
    let exists = true;
    try {
      Deno.statSync(join(home, "other"));
    } catch {
      exists = false;
    }
    assert(!exists, "nothing is copied while the audit holds every entry");
    assertStringIncludes(
      await call(toolContext(rotated, home, true), "recall entry 3"),
      "memory: entry 3 is no longer held: the audit log no longer holds it (its event rotated out",
    );
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

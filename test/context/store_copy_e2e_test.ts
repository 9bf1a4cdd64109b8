/**
 * The store's own copy end to end (ADR 0590): an MCP thread given
 * run_command and memory, through a fake Ollama whose window lets a 60 KB
 * output through whole. Each prompt carries 40 KB of notes, and the server
 * reports three tokens for every four characters (dense, as numbers
 * tokenise), so wisp's calibrated measure makes turn 2 condense and drop
 * turn 1 from view. Turn 1 prints about 60 KB (in the real sandbox). Then the
 * model asks the memory tool to recall turn 1's output and pages through it:
 * the pages put back together are the output the model saw in turn 1, byte
 * for byte, read from the `.store` file beside the output store (mode 0600).
 * Twice: with the audit off (the log is never written), and with the audit on
 * and a log so small that turn 1's events rotate out of the kept files.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { connect, mcpScratch, ollamaConfig, structured } from "../faces/mcp/support.ts";
import { SUMMARY_PROMPT } from "../../src/context/summary.ts";
import { measuredTokens } from "./support.ts";

const WINDOW = 131072;
const MAX_TURNS = 8;
/** About 40 KB of notes each prompt carries. */
const NOTES = Array.from({ length: 800 }, (_, i) => `note ${i}: keep the build green today`).join(
  "\n",
);

interface Sent {
  role: string;
  content?: string | null;
}

/** About 60 KB: 8,500 numbers of six digits, after a first line naming the turn. */
function commandOf(n: number): string {
  return `echo turn ${n}; seq ${n}00000 ${n}08499`;
}

function findStoreFiles(dir: string): string[] {
  const found: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) found.push(...findStoreFiles(path));
      else if (entry.name.endsWith(".store")) found.push(path);
    }
  } catch { /* no folder: nothing found */ }
  return found;
}

/**
 * Drive the thread until turn 1 has left the context (and, when `gone` is
 * given, until it says turn 1's events have left the audit log too), then
 * have the model recall entry 3 and check the pages give turn 1's output back
 * whole. Returns what the recall's first page said and the scratch's files.
 */
async function recallTurnOne(
  audit: Record<string, unknown>,
  gone?: (home: string) => boolean,
): Promise<{ firstPage: string; storeModes: number[]; events: unknown[] }> {
  const ollama = startFakeOllama({
    models: [{ name: "granite4.1:8b", contextLength: WINDOW }],
  });
  const s = await mcpScratch(
    ollamaConfig(ollama.url, {
      ollama: { host: ollama.url, contextLength: WINDOW },
      audit,
    }),
  );
  const c = await connect(s);
  let firstOutput: string | undefined;
  let lastConversation: Sent[] = [];
  const recalled: string[] = [];
  const decide = (body: Record<string, unknown>) => {
    const messages = (body.messages ?? []) as Sent[];
    const text = (m: Sent | undefined) => typeof m?.content === "string" ? m.content : "";
    if (text(messages[0]) === SUMMARY_PROMPT) return { text: "Each turn printed numbers." };
    if (!body.tools) return { text: "{}" }; // any other side call of wisp's own
    lastConversation = messages;
    const last = messages.at(-1);
    if (last?.role === "tool") {
      const result = text(last);
      if (result.startsWith("entry ")) {
        recalled.push(result);
        const more = result.match(/\[more: memory "(recall entry \d+ from line \d+)"\]$/);
        if (more) return { toolCalls: [{ name: "memory", arguments: { request: more[1] } }] };
        return { text: "Recalled it." };
      }
      if (result.includes("turn 1\n") && firstOutput === undefined) firstOutput = result;
      return { text: "Done." };
    }
    const task = text(last).match(/^Task (\d+):/);
    if (task) {
      return {
        toolCalls: [{ name: "run_command", arguments: { command: commandOf(Number(task[1])) } }],
      };
    }
    const recall = text(last).match(/^Recall entry (\d+)\./);
    if (recall) {
      return {
        toolCalls: [{ name: "memory", arguments: { request: `recall entry ${recall[1]}` } }],
      };
    }
    return { text: "I do not know." };
  };
  // Every request takes the next queued reply: keep plenty queued (turns, pages, side calls).
  const counted = (body: Record<string, unknown>) => ({
    ...decide(body),
    usage: { input: 3 * measuredTokens(body), output: 5 },
  });
  for (let i = 0; i < MAX_TURNS * 6 + 40; i++) ollama.reply(counted);
  try {
    let thread: string | undefined;
    let dropped = false;
    const done = () => dropped && (gone === undefined || gone(s.home));
    for (let n = 1; n <= MAX_TURNS && !done(); n++) {
      const receipt = structured(
        await c.client.callTool(
          {
            name: "respond",
            arguments: {
              prompt: `Task ${n}: run this turn's command and say when it is done.\n${NOTES}`,
              ...(thread ? { thread_id: thread } : { tools: ["run_command", "memory"] }),
            },
          },
          undefined,
          { timeout: 120_000 },
        ),
      );
      thread = String(receipt.thread_id);
      assertEquals(
        receipt.ran,
        "ran: run_command",
        `turn ${n} ran its command: ${JSON.stringify(receipt)}`,
      );
      dropped = !lastConversation.some((m) =>
        m.role === "user" && m.content?.startsWith("Task 1:")
      );
    }
    assert(dropped, `turn 1 left the context within ${MAX_TURNS} turns`);
    assert(done(), `turn 1 left the audit log within ${MAX_TURNS} turns`);
    assert(firstOutput, "turn 1's output reached the model whole");
    assert(firstOutput.length > 55_000, `turn 1 printed about 60 KB (${firstOutput.length})`);
    assert(!firstOutput.includes("held back"), "the output fitted the budget whole");

    const answer = structured(
      await c.client.callTool(
        { name: "respond", arguments: { prompt: "Recall entry 3.", thread_id: thread } },
        undefined,
        { timeout: 120_000 },
      ),
    );
    assertEquals(answer.reply, "Recalled it.");
    assert(recalled.length >= 1, "the memory tool answered");
    const lines: string[] = [];
    for (const page of recalled) {
      for (const line of page.split("\n")) {
        const m = line.match(/^(\d+)\t(.*)$/);
        if (m) {
          assertEquals(Number(m[1]), lines.length + 1, "the pages follow on without a gap");
          lines.push(m[2]);
        }
      }
    }
    assertEquals(lines.join("\n"), firstOutput.replace(/\n$/, ""), "recalled whole");

    return {
      firstPage: recalled[0],
      // Taken before the scratch goes: the copy files' modes.
      storeModes: findStoreFiles(join(s.home, "output")).map((f) => Deno.statSync(f).mode! & 0o777),
      events: s.events(),
    };
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
}

Deno.test("with the audit off, a 60 KB output dropped from view is recalled whole through the memory tool", async () => {
  const r = await recallTurnOne({ enabled: false });
  assertStringIncludes(
    r.firstPage,
    "from the conversation's store (its own copy: the audit log does not hold it)",
  );
  // The copy is a 0600 file beside the output store; the audit log was never written.
  assertEquals(r.storeModes, [0o600], "one copy file for the one thread, mode 0600");
  assertEquals(r.events, []);
});

/** Every audit log file's text, the live one and the rotated ones. */
function auditText(home: string): string {
  const logs = join(home, "logs");
  let text = "";
  for (const entry of Deno.readDirSync(logs)) {
    if (entry.name.startsWith("audit.jsonl")) text += Deno.readTextFileSync(join(logs, entry.name));
  }
  return text;
}

Deno.test("with the audit on and turn 1's events rotated out of the kept log files, its output is still recalled whole", async () => {
  // A log of 150 KB and one rotated file: each turn writes about 100 KB, so turn 1's events are
  // removed two or three turns on. The store copies them as their file is about to go.
  const r = await recallTurnOne(
    { enabled: true, maxBytes: 150_000, keep: 1 },
    (home) => !auditText(home).includes("Task 1:"),
  );
  assertStringIncludes(
    r.firstPage,
    "from the conversation's store (its own copy: the audit log does not hold it)",
  );
  assertEquals(r.storeModes, [0o600], "one copy file for the one thread, mode 0600");
});

/**
 * The conversation's context, two measures.
 *
 * 1. Composing a request from a 500-entry store (125 turns of a prompt, a
 *    call, its output and a reply, in a window large enough that nothing is
 *    condensed), measured and calibrated as every request is — beside a
 *    baseline in the same run: JSON.stringify of the same messages, which
 *    sending them costs anyway. Goal: ≤ 5 ms a request.
 *
 * 2. The memory the store holds for a 1,000-turn conversation whose every
 *    turn ran a command printing 10 KB, with the audit holding the outputs
 *    (as it does by default) and condensing into the exact summary as the
 *    window fills — beside the baseline of keeping every output whole (the
 *    10 MB the old whole-conversation array held). Heap used after a full
 *    collection, before and after. Goal: ≤ 64 MiB. Then the same with the
 *    audit off, where each dropped entry is copied to the store's own file
 *    (ADR 0590) and memory keeps only where it is. Goal: ≤ 64 MiB.
 *
 *   deno run -A bench/context_bench.ts
 */
import { ConversationContext } from "../src/context/context.ts";
import type { AuditEvent } from "../src/audit/catalogue.ts";
import type { ToolSpec } from "../src/models/backend.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  // Heap figures need a full collection: run again with it exposed.
  const status = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--expose-gc", new URL(import.meta.url).pathname],
    stdin: "null",
  }).spawn().status;
  Deno.exit(status.code);
}

const TOOLS: ToolSpec[] = [{
  name: "run_command",
  description: "Run a shell command and return its exit status and output.",
  parameters: {
    type: "object",
    properties: { command: { type: "string" } },
    required: ["command"],
  },
}];

function output(n: number, bytes: number): string {
  const lines: string[] = [`exit status: 0`, `stdout:`];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `${n}-${i} a line of a command's output, of a middling length`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

/** One turn: prompt, a call, its output, the reply; events as the audit would record them. */
function turn(context: ConversationContext, n: number, text: string, audit: boolean): void {
  context.begin(`Task ${n}: run the command and say when it is done.`);
  context.add({
    role: "assistant",
    content: "",
    toolCalls: [{ id: `c${n}`, name: "run_command", arguments: { command: `make step-${n}` } }],
  });
  context.add({ role: "tool", content: text, toolCallId: `c${n}`, toolName: "run_command" });
  context.add({ role: "assistant", content: `Step ${n} is done.` });
  const events = audit
    ? [{ kind: "tool.result", id: `e${n}`, tool: "run_command", text }] as unknown as AuditEvent[]
    : [];
  context.end(events);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// 1. Composing from 500 entries.
const big = new ConversationContext({ instructions: "be brief. ".repeat(200), window: 1_000_000 });
for (let n = 1; n <= 124; n++) turn(big, n, output(n, 4096), true);
big.begin("Task 125: the last one.");
big.add({
  role: "assistant",
  content: "",
  toolCalls: [{ id: "c125", name: "run_command", arguments: { command: "make last" } }],
});
big.add({ role: "tool", content: output(125, 4096), toolCallId: "c125", toolName: "run_command" });
big.add({ role: "assistant", content: "" });
const entries = big.store.entryCount;
const composeTimes: number[] = [];
const baselineTimes: number[] = [];
for (let run = 0; run < 60; run++) {
  let start = performance.now();
  const messages = await big.request(TOOLS);
  composeTimes.push(performance.now() - start);
  start = performance.now();
  JSON.stringify({ messages, tools: TOOLS });
  baselineTimes.push(performance.now() - start);
}
const compose = median(composeTimes.slice(10));
const baseline = median(baselineTimes.slice(10));

// 2. Memory for 1,000 turns of 10 KB outputs: the audit holding them, then the audit off with
// dropped entries copied to the store's own file (ADR 0590).
async function heldAfterLongConversation(
  audit: boolean,
  copyFile?: string,
): Promise<{ held: number; dropped: number }> {
  gc!();
  const heapBefore = Deno.memoryUsage().heapUsed;
  const long = new ConversationContext({
    instructions: "be brief.",
    window: 32_768,
    auditHolds: audit,
    ...(copyFile ? { copyFile } : {}),
  });
  for (let n = 1; n <= 1000; n++) {
    turn(long, n, output(n, 10 * 1024), audit);
    if (n % 10 === 0) {
      long.begin(`Task ${n}b: compose.`);
      await long.request(TOOLS);
      long.end();
    }
  }
  gc!();
  const held = (Deno.memoryUsage().heapUsed - heapBefore) / (1024 * 1024);
  return { held, dropped: long.store.droppedTurns };
}
const audited = await heldAfterLongConversation(true);
const copyDir = Deno.makeTempDirSync();
const auditOff = await heldAfterLongConversation(false, `${copyDir}/bench.store`);
const copiedMiB = Deno.statSync(`${copyDir}/bench.store`).size / (1024 * 1024);
Deno.removeSync(copyDir, { recursive: true });
const held = audited.held;
const whole = (1000 * output(1, 10 * 1024).length) / (1024 * 1024);

console.log(`| measure | result | goal |`);
console.log(`| --- | --- | --- |`);
console.log(
  `| JSON.stringify of the request (baseline), ${entries} entries | ${baseline.toFixed(2)} ms | |`,
);
console.log(
  `| compose a request from the ${entries}-entry store | ${compose.toFixed(2)} ms | ≤ 5 ms |`,
);
console.log(`| outputs kept whole, 1,000 turns × 10 KB (baseline) | ${whole.toFixed(1)} MiB | |`);
console.log(
  `| heap the context holds after 1,000 turns × 10 KB (${audited.dropped} turns dropped into the summary) | ${
    held.toFixed(1)
  } MiB | ≤ 64 MiB |`,
);
console.log(
  `| the same with the audit off (${auditOff.dropped} turns dropped, ${
    copiedMiB.toFixed(1)
  } MiB copied to the store's file) | ${auditOff.held.toFixed(1)} MiB | ≤ 64 MiB |`,
);
console.log(
  `ratio compose / baseline: ${(compose / baseline).toFixed(2)}×; held / whole: ${
    (held / whole).toFixed(2)
  }×`,
);

/**
 * The MCP server (issue: wisp mcp), each figure beside a baseline measured in
 * the same run:
 *
 * 1. Round trip of requests that need no model, over stdio against the real
 *    `wisp mcp` process (the binary's permission set): tools/list and
 *    resources/read wisp://config, beside the SDK's own ping (no wisp code).
 *    Goal: p50 ≤ 2 ms.
 * 2. 32 threads answering at once with the scripted backend (one tool call
 *    and a reply each), through the MCP server in process, beside the same 32
 *    turns run directly on the turn loop without MCP.
 *
 *   deno run -A bench/mcp_bench.ts
 */
import { ConversationContext } from "../src/context/context.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { homePaths } from "../src/config/home.ts";
import { configSchema } from "../src/config/schema.ts";
import { Session } from "../src/session/session.ts";
import { ScriptedBackend, textReply, toolCallEvent } from "../src/models/scripted.ts";
import type { ChatRequest } from "../src/models/backend.ts";
import { runTurn } from "../src/agent/turn.ts";
import { SessionEngine } from "../src/faces/mcp/engine.ts";
import { AuditLog } from "../src/audit/writer.ts";
import { McpFace } from "../src/faces/mcp/server.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ROUND_TRIPS = Number(Deno.env.get("BENCH_RUNS") ?? 1000);
const THREADS = 32;
const ROUNDS = 9;

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}

const ms = (n: number) => `${n.toFixed(3)} ms`;
const rows: string[][] = [];

// 1. Round trips over stdio.
const home = await Deno.makeTempDir({ prefix: "wisp-mcp-bench-" });
const transport = new StdioClientTransport({
  command: Deno.execPath(),
  args: ["run", "-q", "-P=wisp", "--config", join(ROOT, "deno.json"), join(ROOT, "main.ts"), "mcp"],
  env: {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/root",
    WISP_HOME: home,
  },
  cwd: home,
  stderr: "ignore",
});
const client = new Client({ name: "bench", version: "1" }, { capabilities: {} });
await client.connect(transport);

async function time(what: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 50; i++) await what(); // warm up
  const samples: number[] = [];
  for (let i = 0; i < ROUND_TRIPS; i++) {
    const start = performance.now();
    await what();
    samples.push(performance.now() - start);
  }
  return samples;
}

const ping = await time(() => client.ping());
const list = await time(() => client.listTools());
const config = await time(() => client.readResource({ uri: "wisp://config" }));
await client.close();
const base = quantile(ping, 0.5);
for (
  const [name, samples] of [["ping (baseline)", ping], ["tools/list", list], [
    "read wisp://config",
    config,
  ]] as const
) {
  const p50 = quantile(samples, 0.5);
  rows.push([name, ms(p50), ms(quantile(samples, 0.99)), `${(p50 / base).toFixed(2)}×`]);
}

// 2. 32 threads at once, scripted backend.
function step(request: ChatRequest) {
  return request.messages.some((m) => m.role === "tool")
    ? textReply("It is today.")
    : [toolCallEvent("current_date", {}), {
      type: "done" as const,
      finishReason: "tool_calls" as const,
    }];
}

const config32 = configSchema.parse({ notifications: { enabled: false } });
const paths = homePaths(join(home, "threads"));

function openSession(): Session {
  const audit = new AuditLog({
    path: paths.auditLog,
    enabled: true,
    maxBytes: config32.audit.maxBytes,
    keep: config32.audit.keep,
  });
  return Session.open({ face: "mcp", paths, config: config32, audit, root: home });
}

async function viaMcp(): Promise<number> {
  const session = openSession();
  const backend = new ScriptedBackend(Array.from({ length: THREADS * 2 }, () => step));
  const face = new McpFace({
    open: () =>
      Promise.resolve({
        session,
        engine: new SessionEngine(session, { backendFor: () => backend }),
        configView: () => ({}),
      }),
    defaults: { tools: ["current_date"] },
    maxThreads: THREADS,
    log: () => {},
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await face.connect(serverSide);
  const c = new Client({ name: "bench", version: "1" }, { capabilities: {} });
  await c.connect(clientSide);
  const start = performance.now();
  const results = await Promise.all(
    Array.from(
      { length: THREADS },
      (_, i) =>
        c.callTool({
          name: "respond",
          arguments: { prompt: "What day is it?", thread_id: `t${i}` },
        }),
    ),
  );
  const elapsed = performance.now() - start;
  for (const r of results) {
    const ran = (r as { structuredContent?: { ran?: string } }).structuredContent?.ran;
    if (ran !== "ran: current_date") {
      throw new Error(`a thread did not run its call: ${JSON.stringify(r)}`);
    }
  }
  await c.close();
  session.close();
  return elapsed;
}

async function direct(): Promise<number> {
  const session = openSession();
  const backend = new ScriptedBackend(Array.from({ length: THREADS * 2 }, () => step));
  const tools = session.tools({ only: ["current_date"] });
  const start = performance.now();
  await Promise.all(Array.from({ length: THREADS }, () => {
    const turn = session.beginTurn({ budgetBytes: 16384 });
    return runTurn({
      backend,
      transcript: new ConversationContext({ instructions: "You are wisp.", window: 32768 }),
      prompt: "What day is it?",
      tools,
      registry: session.registry,
      context: turn.context,
    });
  }));
  const elapsed = performance.now() - start;
  session.close();
  return elapsed;
}

const mcpTimes: number[] = [];
const directTimes: number[] = [];
await direct(); // warm up: module caches, the audit file, the JIT
await viaMcp();
for (let i = 0; i < ROUNDS; i++) {
  directTimes.push(await direct());
  mcpTimes.push(await viaMcp());
}
const d = quantile(directTimes, 0.5);
const m = quantile(mcpTimes, 0.5);
rows.push([
  `${THREADS} turns, turn loop alone (baseline)`,
  ms(d),
  ms(Math.max(...directTimes)),
  "1.00×",
]);
rows.push([
  `${THREADS} threads at once through MCP`,
  ms(m),
  ms(Math.max(...mcpTimes)),
  `${(m / d).toFixed(2)}×`,
]);

await Deno.remove(home, { recursive: true });
const header = ["what", "p50 / median", "p99 / max", "ratio"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
for (const row of [header, ...rows]) console.log(row.map((c, i) => c.padEnd(widths[i])).join("  "));
Deno.exit(0);

/**
 * How fast `wisp mcp` is ready for a client (issue 15), each figure beside a
 * baseline measured in the same run:
 *
 * 1. From process start to the reply to `initialize`, for `wisp mcp` started
 *    as the tests start it (from source, the binary's permission set), beside
 *    a bare Deno process under the same flags that reads one line from stdin
 *    and answers it. Goal: ≤ 300 ms from an installed launcher. The ratio is
 *    what wisp adds to a Deno start; the absolute time depends on the machine.
 * 2. tools/call json_shape p50 over stdio on a small document, beside the
 *    SDK's own ping on the same connection. Goal: ≤ 1 ms.
 *
 *   deno run -A bench/mcp_start_bench.ts
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const STARTS = Number(Deno.env.get("BENCH_STARTS") ?? 15);
const CALLS = Number(Deno.env.get("BENCH_RUNS") ?? 1000);
const DENO_FLAGS = ["run", "-q", "-P=wisp", "--config", join(ROOT, "deno.json")];

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}
const ms = (n: number) => `${n.toFixed(n < 10 ? 3 : 1)} ms`;

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench", version: "1" },
  },
}) + "\n";

/** Start `args`, send initialize at once, and time until the first line of stdout. */
async function timeToFirstLine(args: string[], env: Record<string, string>, cwd: string) {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    env,
    cwd,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(INITIALIZE));
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${args.join(" ")} ended before answering`);
    text += new TextDecoder().decode(value);
  }
  const elapsed = performance.now() - started;
  if (!text.includes('"result"')) throw new Error(`no initialize result: ${text.slice(0, 200)}`);
  reader.releaseLock();
  await writer.close().catch(() => {});
  await child.stdout.cancel().catch(() => {});
  await child.status;
  return elapsed;
}

const home = await Deno.makeTempDir({ prefix: "wisp-mcp-start-bench-" });
const env = {
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  HOME: Deno.env.get("HOME") ?? "/root",
  WISP_HOME: home,
};
// The baseline: a Deno process that answers one line, under the same flags.
const bare = join(home, "bare.ts");
Deno.writeTextFileSync(
  bare,
  `const r = Deno.stdin.readable.getReader(); await r.read();\n` +
    `await Deno.stdout.write(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"result":{}}\\n'));\n`,
);

// One warm-up of each, so both read Deno's caches from memory.
await timeToFirstLine([...DENO_FLAGS, bare], env, home);
await timeToFirstLine([...DENO_FLAGS, join(ROOT, "main.ts"), "mcp"], env, home);
const bareTimes: number[] = [];
const wispTimes: number[] = [];
for (let i = 0; i < STARTS; i++) {
  bareTimes.push(await timeToFirstLine([...DENO_FLAGS, bare], env, home));
  wispTimes.push(await timeToFirstLine([...DENO_FLAGS, join(ROOT, "main.ts"), "mcp"], env, home));
}

// 2. tools/call json_shape beside ping, on one connection.
const transport = new StdioClientTransport({
  command: Deno.execPath(),
  args: [...DENO_FLAGS, join(ROOT, "main.ts"), "mcp"],
  env,
  cwd: home,
  stderr: "ignore",
});
const client = new Client({ name: "bench", version: "1" }, { capabilities: {} });
await client.connect(transport);
const doc = JSON.stringify({ user: { id: 7, name: "ada", roles: ["admin", "dev"] }, tags: [] });
for (let i = 0; i < 50; i++) {
  await client.ping();
  await client.callTool({ name: "json_shape", arguments: { text: doc } });
}
const pings: number[] = [];
const shapes: number[] = [];
for (let i = 0; i < CALLS; i++) {
  let t = performance.now();
  await client.ping();
  pings.push(performance.now() - t);
  t = performance.now();
  await client.callTool({ name: "json_shape", arguments: { text: doc } });
  shapes.push(performance.now() - t);
}
await client.close();
await Deno.remove(home, { recursive: true });

const bareP50 = quantile(bareTimes, 0.5);
const wispP50 = quantile(wispTimes, 0.5);
const pingP50 = quantile(pings, 0.5);
const shapeP50 = quantile(shapes, 0.5);
console.table([
  {
    measure: `start → initialize reply (p50 of ${STARTS})`,
    "wisp mcp": ms(wispP50),
    baseline: `${ms(bareP50)} (bare Deno, one line)`,
    ratio: (wispP50 / bareP50).toFixed(2),
    "wisp p90": ms(quantile(wispTimes, 0.9)),
  },
  {
    measure: `tools/call json_shape (p50 of ${CALLS})`,
    "wisp mcp": ms(shapeP50),
    baseline: `${ms(pingP50)} (ping)`,
    ratio: (shapeP50 / pingP50).toFixed(2),
    "wisp p90": ms(quantile(shapes, 0.9)),
  },
]);

/**
 * Every path a caller gives a tool is read as a bounded regular file: a
 * device that never ends (/dev/zero, /dev/urandom), a FIFO (an open waits for
 * a writer), a socket and a folder are each refused with one sentence before
 * anything is read, the server's memory stays small, and the server answers
 * ping while a call is under way.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { connect, mcpScratch, textOf } from "./support.ts";

function isError(result: unknown): boolean {
  return (result as { isError?: boolean }).isError === true;
}

/** Each tool that reads a file the caller names, with the arguments that name it. */
const PATH_TOOLS: [string, (path: string) => Record<string, unknown>][] = [
  ["json_shape", (path) => ({ path })],
  ["summarise_diff", (path) => ({ path })],
  ["dependency_audit", (path) => ({ paths: [path] })],
  ["hot_paths", (path) => ({ path })],
  ["condense_log", (path) => ({ path })],
  ["triage", (path) => ({ path })],
  ["draft_change", (path) => ({ path })],
  ["scan_secrets", (path) => ({ path })],
  ["redact", (path) => ({ path })],
];

/** The server's peak resident memory in KiB (VmHWM), from the kernel. */
function peakKiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  if (!m) throw new Error("no VmHWM in /proc/PID/status");
  return Number(m[1]);
}

Deno.test("devices, FIFOs, sockets and folders given as paths are refused with a sentence; the server stays small", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const fifo = join(s.project, "pipe");
  assert((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success, "mkfifo");
  const socketPath = join(s.project, "sock");
  const listener = Deno.listen({ transport: "unix", path: socketPath });
  Deno.mkdirSync(join(s.project, "folder"));
  const c = await connect(s);
  try {
    const cases: [string, RegExp][] = [
      ["/dev/zero", /is a device, not a regular file/],
      ["/dev/urandom", /is a device, not a regular file/],
      [fifo, /is a named pipe \(FIFO\), not a regular file/],
      [socketPath, /is a socket, not a regular file/],
      [join(s.project, "folder"), /is a folder, not a file/],
    ];
    for (const [tool, args] of PATH_TOOLS) {
      for (const [path, expected] of cases) {
        const result = await c.client.callTool({ name: tool, arguments: args(path) });
        const text = textOf(result);
        assert(isError(result), `${tool} ${path}: ${text}`);
        assertEquals(text.split("\n").length, 1, `${tool} ${path}: one line: ${text}`);
        assertMatch(text, expected, `${tool} ${path}`);
      }
    }
    await c.client.ping();
    const pid = c.transport.pid;
    assert(pid !== null && pid !== undefined, "the server's pid");
    const peak = peakKiB(pid);
    // Reading any of these unbounded grows the server by gigabytes; a bounded
    // refusal leaves it at its start-up size (about 150 MiB).
    assert(peak < 512 * 1024, `the server peaked at ${Math.round(peak / 1024)} MiB`);
  } finally {
    listener.close();
    await c.close();
    await s.remove();
  }
});

/** A JSON Lines file just under json_shape's 16 MiB bound, with enough keys to take a while. */
function bigJsonLines(path: string): void {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < 15 * 1024 * 1024; i++) {
    const line = JSON.stringify({
      id: i,
      kind: `k${i % 5}`,
      tags: ["a", "b", `t${i % 3}`],
      at: { day: i % 28, note: i % 2 === 0 ? null : "text of a middling length" },
    });
    lines.push(line);
    bytes += line.length + 1;
  }
  Deno.writeTextFileSync(path, lines.join("\n"));
}

Deno.test("the server answers ping while a condensing tool works through a large file, and a cancelled one leaves it serving", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  bigJsonLines(join(s.project, "big.jsonl"));
  const c = await connect(s);
  try {
    const order: string[] = [];
    const shape = c.client.callTool(
      { name: "json_shape", arguments: { path: "big.jsonl" } },
      undefined,
      {
        timeout: 600_000,
      },
    ).then((result) => {
      order.push("json_shape");
      return result;
    });
    // The ping is sent after the call; it must be answered before the call ends.
    await c.client.ping();
    order.push("ping");
    const result = await shape;
    assert(!isError(result), textOf(result));
    assertMatch(textOf(result), /"kind": "k0" \| "k1" \| "k2" \| "k3" \| "k4"/);
    assertEquals(order, ["ping", "json_shape"]);

    // Cancelled part-way: the server ends that work and serves the next call.
    const controller = new AbortController();
    const cancelled = c.client.callTool(
      { name: "json_shape", arguments: { path: "big.jsonl" } },
      undefined,
      { signal: controller.signal, timeout: 600_000 },
    ).then(() => "finished", () => "cancelled");
    await c.client.ping();
    controller.abort();
    assertEquals(await cancelled, "cancelled");
    const after = await c.client.callTool({ name: "json_shape", arguments: { text: '{"a":1}' } });
    assertMatch(textOf(after), /"a": integer/);
  } finally {
    await c.close();
    await s.remove();
  }
});

/**
 * A live `wisp chat --json` for tests: a real wisp process with pipes, lines
 * sent as they are needed and out lines awaited as they arrive.
 */
import { wispCommand } from "../../support/wisp.ts";
import { GENEROUS_MS } from "../../support/wait.ts";

export type Line = Record<string, unknown> & { type: string };

export interface LiveChat {
  /** Every out line so far, in order. */
  readonly lines: Line[];
  /** Send an in line (an object as JSON, a string as typed). */
  send(line: Record<string, unknown> | string): Promise<void>;
  /** The first out line from `from` on that `match` accepts. */
  next(match: (line: Line) => boolean, what: string, from?: number): Promise<Line>;
  /** Close wisp's input and wait for it to exit. */
  close(): Promise<{ code: number; stderr: string }>;
  /** Wait for wisp to exit with its input still open. */
  exited(): Promise<{ code: number; stderr: string }>;
  pid: number;
}

export function startChat(
  args: string[],
  options: { home: string; cwd: string; env?: Record<string, string> },
): LiveChat {
  const [cmd, ...rest] = wispCommand();
  const child = new Deno.Command(cmd, {
    args: [...rest, "chat", "--json", ...args],
    cwd: options.cwd,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      TERM: "dumb",
      NO_COLOR: "1",
      WISP_HOME: options.home,
      ...options.env,
    },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: Line[] = [];
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  let stderr = "";
  const reading = (async () => {
    let buffered = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf("\n")) >= 0) {
        const text = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        // A line that is not JSON fails the test where it is read.
        lines.push(JSON.parse(text));
      }
    }
    if (buffered !== "") throw new Error(`stdout ended mid-line: ${buffered}`);
  })();
  const errors = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
  })();
  let over: { code: number; stderr: string } | undefined;
  const done = (async () => {
    const status = await child.status;
    await reading;
    await errors;
    over = { code: status.code, stderr };
    return over;
  })();
  let closed = false;
  return {
    lines,
    pid: child.pid,
    async send(line) {
      const text = typeof line === "string" ? line : JSON.stringify(line);
      await writer.write(encoder.encode(text + "\n"));
    },
    async next(match, what, from = 0) {
      const deadline = Date.now() + GENEROUS_MS;
      for (;;) {
        const found = lines.slice(from).find(match);
        if (found) return found;
        // wisp ended without it: fail now, with what it said.
        if (over) throw new Error(`${what}: wisp exited ${over.code}: ${over.stderr}`);
        if (Date.now() > deadline) {
          throw new Error(
            `${what} did not happen within ${GENEROUS_MS} ms; the last lines: ${
              JSON.stringify(lines.slice(-8))
            }; stderr: ${stderr}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async close() {
      if (!closed) {
        closed = true;
        await writer.close();
      }
      return await done;
    },
    exited: () => done,
  };
}

/** The pids of live processes whose command line contains `marker`. */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).replaceAll("\0", " ");
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      // A zombie has exited; it only waits for its parent to read its status.
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (cmdline.includes(marker) && state !== "Z") found.push(Number(entry.name));
    } catch { /* gone meanwhile */ }
  }
  return found;
}

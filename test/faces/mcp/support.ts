/**
 * Set-up for the MCP server's end-to-end tests: a scratch home whose config
 * points at a fake Ollama server, a scratch project to start wisp in, and
 * the SDK's own Client connected over stdio to the real `wisp mcp` started
 * as the binary would run (test/support/wisp.ts).
 */
import { join } from "node:path";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { wispCommand } from "../../support/wisp.ts";

export interface McpScratch {
  base: string;
  home: string;
  project: string;
  pending: string;
  events(): Record<string, unknown>[];
  remove(): Promise<void>;
}

export async function mcpScratch(config: Record<string, unknown>): Promise<McpScratch> {
  const base = await Deno.makeTempDir({ prefix: "wisp-mcp-" });
  const home = join(base, "home");
  const project = join(base, "project");
  await Deno.mkdir(home, { mode: 0o700 });
  await Deno.mkdir(project);
  await Deno.writeTextFile(join(home, "config.json"), JSON.stringify(config, null, 2));
  return {
    base,
    home,
    project,
    pending: join(home, "pending"),
    events: () => {
      try {
        return Deno.readTextFileSync(join(home, "logs", "audit.jsonl")).trim().split("\n").filter(
          Boolean,
        )
          .map((line) => JSON.parse(line));
      } catch {
        return [];
      }
    },
    remove: () => Deno.remove(base, { recursive: true }),
  };
}

export function ollamaConfig(
  url: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    model: "ollama:granite4.1:8b",
    ollama: { host: url },
    notifications: { enabled: false },
    ...extra,
  };
}

export type Elicit = (
  params: Record<string, unknown>,
  /** The JSON-RPC id the server gave the request. */
  requestId: string | number,
) => Promise<Record<string, unknown>> | Record<string, unknown>;

export interface Connected {
  client: Client;
  transport: StdioClientTransport;
  stderr(): string;
  close(): Promise<void>;
}

/** Start `wisp mcp` in the project and connect the SDK's client; `elicit` declares the capability. */
export async function connect(
  s: McpScratch,
  options: { args?: string[]; elicit?: Elicit; env?: Record<string, string>; name?: string } = {},
): Promise<Connected> {
  const [command, ...rest] = wispCommand();
  const transport = new StdioClientTransport({
    command,
    args: [...rest, "mcp", ...(options.args ?? [])],
    cwd: s.project,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      WISP_HOME: s.home,
      NO_COLOR: "1",
      WISP_LOG: "debug",
      ...options.env,
    },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client(
    { name: options.name ?? "wisp-test", version: "1.0.0" },
    { capabilities: options.elicit ? { elicitation: {} } : {} },
  );
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      return await elicit(request.params as Record<string, unknown>, extra.requestId) as never;
    });
  }
  // Before the connection, so that its initialize request (the server's start) has it too.
  withGenerousTimeout(client);
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    close: async () => {
      await client.close();
    },
  };
}

/**
 * How long a test's request may wait when it names no timeout of its own. The SDK's default
 * (60 s) is a wall-clock bound: a turn that takes seconds on a quiet machine took longer than
 * that on a machine running the suite beside other builds, and the test failed for it. Tests
 * that are about a timeout pass their own.
 */
export const TEST_REQUEST_TIMEOUT_MS = 600_000;

/** Give every request of `client` that names no timeout TEST_REQUEST_TIMEOUT_MS. */
export function withGenerousTimeout(client: Client): void {
  const request = client.request.bind(client);
  client.request = ((req, schema, options) =>
    request(req, schema, {
      timeout: TEST_REQUEST_TIMEOUT_MS,
      ...options,
    })) as typeof client.request;
}

/** Wait until `probe` returns something, polling, with a generous deadline. */
export async function waitFor<T>(
  probe: () => T | undefined,
  what: string,
  ms = 60_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The id of the one request waiting in the pending folder. */
export function pendingIds(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
      /^[0-9a-f]{8}\.json$/.test(n)
    )
      .map((n) => n.slice(0, 8));
  } catch {
    return [];
  }
}

export function structured(result: unknown): Record<string, unknown> {
  return (result as { structuredContent: Record<string, unknown> }).structuredContent;
}

export function textOf(result: unknown): string {
  return ((result as { content: { text: string }[] }).content ?? []).map((c) => c.text).join("");
}

function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_\/.,:=+@%-]+$/.test(arg) ? arg : "'" + arg.replaceAll("'", "'\\''") + "'";
}

/**
 * Run wisp inside a real pseudo-terminal (util-linux `script`) started by the test. The test is
 * the MCP client here, so an approval answered this way is refused; a person's terminal is
 * `wispInTmux` (tmux.ts).
 */
export async function wispAtTerminal(
  home: string,
  args: string[],
): Promise<{ code: number; output: string }> {
  const line = [...wispCommand(), ...args].map(shellQuote).join(" ");
  const out = await new Deno.Command("script", {
    args: ["-qec", line, "/dev/null"],
    env: {
      WISP_HOME: home,
      NO_COLOR: "1",
      TERM: "dumb",
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, output: new TextDecoder().decode(out.stdout).replaceAll("\r\n", "\n") };
}

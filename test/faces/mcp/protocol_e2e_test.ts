/**
 * The protocol channel of the real `wisp mcp`, spoken raw: nothing but
 * JSON-RPC on stdout, an error reply for every malformed message (truncated,
 * wrong types, unknown methods, batches, huge), and the server serving on
 * afterwards; Codex's captured initialize accepted; the server runs until
 * stdin closes.
 */
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { wispCommand } from "../../support/wisp.ts";
import { mcpScratch } from "./support.ts";

const CODEX_INITIALIZE = Deno.readTextFileSync(
  fileURLToPath(new URL("../../fixtures/mcp/codex_initialize.json", import.meta.url)),
).trim();

interface Raw {
  send(line: string | Uint8Array): Promise<void>;
  /** The next message on stdout (each must be one JSON object a line). */
  next(): Promise<Record<string, unknown>>;
  closeInput(): Promise<void>;
  status(): Promise<Deno.CommandStatus>;
  stdoutRest(): Promise<string>;
  stderr(): Promise<string>;
}

function startRaw(home: string, cwd: string, env: Record<string, string> = {}): Raw {
  const [cmd, ...rest] = wispCommand();
  const child = new Deno.Command(cmd, {
    args: [...rest, "mcp"],
    cwd,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      WISP_HOME: home,
      ...env,
    },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.getReader();
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let buffer = "";
  const stderrText = new Response(child.stderr).text();
  return {
    async send(line) {
      await writer.write(typeof line === "string" ? encoder.encode(line) : line);
    },
    async next() {
      for (;;) {
        const nl = buffer.indexOf("\n");
        if (nl !== -1) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          const value = JSON.parse(line); // anything but JSON on stdout fails here
          assert(
            value && typeof value === "object" && value.jsonrpc === "2.0",
            `not JSON-RPC: ${line}`,
          );
          return value;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error(`stdout ended; stderr: ${await stderrText}`);
        buffer += decoder.decode(value, { stream: true });
      }
    },
    async closeInput() {
      await writer.close();
    },
    status: () => child.status,
    async stdoutRest() {
      let rest = buffer;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return rest;
        rest += decoder.decode(value);
      }
    },
    stderr: () => stderrText,
  };
}

Deno.test("malformed JSON-RPC gets an error reply each, and the server keeps serving", async () => {
  const s = await mcpScratch({});
  const raw = startRaw(s.home, s.project);
  try {
    await raw.send(CODEX_INITIALIZE + "\n");
    const init = await raw.next();
    assertEquals(init.id, 0);
    assertEquals((init.result as { serverInfo: { name: string } }).serverInfo.name, "wisp");
    await raw.send('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');

    // Truncated JSON.
    await raw.send('{"jsonrpc":"2.0","id":1,"method":"tools/li\n');
    let reply = await raw.next();
    assertEquals(reply.id, null);
    assertEquals((reply.error as { code: number }).code, -32700);

    // Wrong types: params a string, an id that is an object, a method that is a number.
    await raw.send('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":"respond"}\n');
    reply = await raw.next();
    assertEquals(reply.id, 2);
    assertEquals((reply.error as { code: number }).code, -32600);
    await raw.send('{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}\n');
    reply = await raw.next();
    assertEquals(reply.id, null);
    assertEquals((reply.error as { code: number }).code, -32600);
    await raw.send('{"jsonrpc":"2.0","id":3,"method":42}\n');
    reply = await raw.next();
    assertEquals(reply.id, 3);
    assertEquals((reply.error as { code: number }).code, -32600);

    // Right shape, wrong argument types: the tool's own check answers with an isError result.
    await raw.send(
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"respond","arguments":{"prompt":7}}}\n',
    );
    reply = await raw.next();
    assertEquals(reply.id, 4);
    const bad = reply.result as { isError: boolean; content: { text: string }[] };
    assertEquals(bad.isError, true);
    assertMatch(
      bad.content[0].text,
      /^error: the arguments of respond do not fit its schema: prompt/,
    );

    // An unknown method, and a batch.
    await raw.send('{"jsonrpc":"2.0","id":5,"method":"wisp/approve","params":{}}\n');
    reply = await raw.next();
    assertEquals(reply.id, 5);
    assertEquals((reply.error as { code: number }).code, -32601);
    await raw.send('[{"jsonrpc":"2.0","id":6,"method":"tools/list"}]\n');
    reply = await raw.next();
    assertEquals((reply.error as { code: number }).code, -32600);

    // A message over the limit (9 MiB), sent in pieces.
    const huge = new TextEncoder().encode(
      '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"x":"' +
        "a".repeat(9 * 1024 * 1024) + '"}}\n',
    );
    for (let i = 0; i < huge.length; i += 1 << 20) await raw.send(huge.subarray(i, i + (1 << 20)));
    reply = await raw.next();
    assertEquals(reply.id, null);
    assertMatch((reply.error as { message: string }).message, /over the \d+-byte limit/);

    // Still serving.
    await raw.send('{"jsonrpc":"2.0","id":8,"method":"tools/list"}\n');
    reply = await raw.next();
    assertEquals(reply.id, 8);
    const names = (reply.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    for (const name of ["respond", "close_thread", "scan_secrets", "redact"]) {
      assert(names.includes(name), name);
    }

    // Runs until stdin closes, then exits 0 with nothing more on stdout.
    await raw.closeInput();
    assertEquals((await raw.status()).code, 0);
    assertEquals(await raw.stdoutRest(), "");
  } finally {
    await s.remove();
  }
});

Deno.test("Codex's initialize (experimental capability with an object value) is accepted", async () => {
  const s = await mcpScratch({});
  const raw = startRaw(s.home, s.project);
  try {
    await raw.send(CODEX_INITIALIZE + "\n");
    const init = await raw.next();
    assertEquals(init.error, undefined);
    const result = init.result as {
      protocolVersion: string;
      capabilities: Record<string, unknown>;
    };
    assertEquals(result.protocolVersion, "2025-06-18");
    assert("tools" in result.capabilities && "resources" in result.capabilities);
    await raw.closeInput();
    assertEquals((await raw.status()).code, 0);
    assertEquals(await raw.stderr(), "", "silent unless WISP_LOG asks");
  } finally {
    await s.remove();
  }
});

Deno.test("the process names its client in its title", async () => {
  const s = await mcpScratch({});
  const raw = startRaw(s.home, s.project, { WISP_MCP_CLIENT: "claude-code" });
  try {
    await raw.send(CODEX_INITIALIZE + "\n");
    await raw.next();
    const ps = await new Deno.Command("ps", { args: ["-eo", "args"], stdout: "piped" }).output();
    assertMatch(new TextDecoder().decode(ps.stdout), /^wisp mcp \(claude-code\)/m);
    await raw.closeInput();
    await raw.status();
  } finally {
    await s.remove();
  }
});

Deno.test("a whole turn that runs a command writes nothing but protocol to stdout, even under WISP_LOG=debug", async () => {
  const { startFakeOllama } = await import("../../support/fake_ollama.ts");
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch({
    model: "ollama:granite4.1:8b",
    ollama: { host: ollama.url },
    notifications: { enabled: false },
  });
  const raw = startRaw(s.home, s.project, { WISP_LOG: "debug" });
  try {
    ollama.reply({
      toolCalls: [{
        name: "run_command",
        arguments: { command: "echo to-stdout; echo to-stderr >&2" },
      }],
    });
    ollama.reply({ text: "Printed." });
    await raw.send(CODEX_INITIALIZE.replace(',"elicitation":{}', "") + "\n");
    await raw.next();
    await raw.send('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await raw.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "respond", arguments: { prompt: "echo", tools: ["run_command"] } },
      }) + "\n",
    );
    const reply = await raw.next(); // a non-JSON line before it would fail here
    assertEquals(reply.id, 1);
    const receipt =
      (reply.result as { structuredContent: Record<string, unknown> }).structuredContent;
    assertMatch(String((receipt.calls as Record<string, unknown>[])[0].output), /to-stdout/);
    await raw.closeInput();
    assertEquals(await raw.stdoutRest(), "");
    assertMatch(await raw.stderr(), /wisp mcp: info: serving on stdio/);
  } finally {
    await ollama.close();
    await s.remove();
  }
});

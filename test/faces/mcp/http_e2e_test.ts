/**
 * `wisp mcp --http 127.0.0.1:PORT`: the real process under the binary's
 * permission set, the SDK's streamable HTTP client. The URL and a bearer
 * token are printed once on stderr; a request without that token (or with
 * another) is refused with 401 before MCP sees it; with it, tools work as
 * over stdio. Only loopback addresses are taken.
 */
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { runWisp, wispCommand } from "../../support/wisp.ts";
import { mcpScratch, structured, withGenerousTimeout } from "./support.ts";

Deno.test("over HTTP: the token printed once is required on every request, and the tools answer", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const [cmd, ...args] = wispCommand();
  const child = new Deno.Command(cmd, {
    args: [...args, "mcp", "--http", "127.0.0.1:0"],
    cwd: s.project,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      WISP_HOME: s.home,
      NO_COLOR: "1",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  try {
    // The banner is one line on stderr; read until it is whole.
    let err = "";
    while (!/Bearer [0-9a-f]{64}\n/.test(err)) {
      const { value, done } = await stderr.read();
      assert(!done, `wisp mcp ended before serving: ${err}`);
      err += value;
    }
    const banner = err.split("\n").find((l) => l.includes("Bearer"))!;
    const m = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp); .*Bearer ([0-9a-f]{64})$/.exec(banner);
    assert(m, banner);
    const [, url, token] = m;
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "x", version: "1" },
      },
    });
    for (const auth of [undefined, "Bearer " + "0".repeat(64), token.toUpperCase()]) {
      const refused = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(auth ? { authorization: auth } : {}),
        },
        body: initialize,
      });
      await refused.body?.cancel();
      assertEquals(refused.status, 401, `authorization ${auth ?? "(none)"}`);
    }

    // With the token but a Host that is not the address listened on (DNS rebinding): refused.
    const { port } = new URL(url);
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
    await conn.write(new TextEncoder().encode(
      `POST /mcp HTTP/1.1\r\nHost: rebind.example:${port}\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Content-Length: ${initialize.length}\r\nConnection: close\r\n\r\n${initialize}`,
    ));
    const reply = new TextDecoder().decode(
      (await new Response(conn.readable).arrayBuffer()).slice(0, 64),
    );
    assertMatch(reply, /^HTTP\/1\.1 4\d\d /, "a foreign Host is refused");

    const client = new Client({ name: "http-test", version: "1" }, { capabilities: {} });
    withGenerousTimeout(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      assertEquals(tools.length, 13);
      const shaped = await client.callTool({
        name: "json_shape",
        arguments: { text: '{"port": 1, "host": "a"}' },
      });
      assertMatch(String(structured(shaped).outline), /host/);
    } finally {
      await client.close();
    }
  } finally {
    try {
      child.kill("SIGTERM");
    } catch { /* it has ended already (a failure above says why) */ }
    await stderr.cancel().catch(() => {});
    await child.stdout.cancel().catch(() => {});
    await child.status;
    await s.remove();
  }
});

Deno.test("--http takes loopback addresses only, with one sentence and exit 64", async () => {
  for (const given of ["0.0.0.0:8080", "192.168.1.4:8080", "8080"]) {
    const r = await runWisp(["mcp", "--http", given]);
    assertEquals(r.code, 64, given);
    assertMatch(r.stderr, /^error: --http (listens on loopback only|takes HOST:PORT)/, r.stderr);
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
  }
});

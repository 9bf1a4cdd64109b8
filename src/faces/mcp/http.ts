/**
 * `wisp mcp --http 127.0.0.1:PORT`: the same server over the SDK's
 * streamable HTTP transport (its Web-standard form, which Deno.serve feeds
 * directly), for clients that prefer HTTP and would otherwise need a
 * gateway. Loopback only; a random bearer token, printed once on stderr,
 * is required on every request (a wrong or missing one is a 401 before the
 * SDK sees anything), and the Host header must name the address listened
 * on (the SDK's DNS-rebinding check). One client session at a time, as
 * over stdio: the server is one Session (ADR 0172).
 */
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { UsageError, WispError } from "../../util/errors.ts";
import { randomHex } from "../../util/random_id.ts";

/** Where --http listens. */
export interface HttpAddress {
  hostname: string;
  port: number;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** The address `--http` names, or a usage error saying what it must be. */
export function parseHttpAddress(given: string): HttpAddress {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(given.trim());
  if (!m) {
    throw new UsageError(
      `--http takes HOST:PORT on this machine, such as 127.0.0.1:8765 (it was "${given}")`,
    );
  }
  const hostname = m[1];
  const port = Number(m[2]);
  if (!LOOPBACK.has(hostname)) {
    throw new UsageError(
      `--http listens on loopback only (127.0.0.1, localhost or [::1]), not ${hostname}`,
    );
  }
  if (port > 65535) throw new UsageError(`--http: ${port} is not a port (0 to 65535)`);
  return { hostname: hostname === "[::1]" ? "::1" : hostname, port };
}

/** A bearer token: 32 random bytes as hex. */
export function newToken(): string {
  return randomHex(32);
}

/** Whether `header` is exactly `Bearer <token>`, compared in constant time. */
function bearerMatches(header: string | null, token: string): boolean {
  const expected = `Bearer ${token}`;
  if (header === null || header.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= header.charCodeAt(i) ^ expected.charCodeAt(i);
  return diff === 0;
}

function jsonError(status: number, message: string): Response {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message } }),
    { status, headers: { "content-type": "application/json" } },
  );
}

/** The listening server: its URL, and how to stop it. */
export interface HttpServing {
  url: string;
  transport: WebStandardStreamableHTTPServerTransport;
  /** Resolves when the listener has stopped. */
  finished: Promise<void>;
  close(): Promise<void>;
}

/**
 * Listen on `address` and hand every authorised request on /mcp to one
 * streamable HTTP transport (connect the server to `transport`).
 */
export async function serveHttp(address: HttpAddress, token: string): Promise<HttpServing> {
  // Made once the port is known (port 0 picks one); requests before then are told to retry.
  const ready: { transport?: WebStandardStreamableHTTPServerTransport } = {};
  let listening!: (addr: Deno.NetAddr) => void;
  const listened = new Promise<Deno.NetAddr>((resolve) => listening = resolve);
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname: address.hostname,
      port: address.port,
      onListen: (addr) => listening(addr),
      onError: () => jsonError(500, "the request failed inside wisp mcp"),
    }, async (request) => {
      if (new URL(request.url).pathname !== "/mcp") {
        return jsonError(404, "wisp mcp serves /mcp only");
      }
      if (!bearerMatches(request.headers.get("authorization"), token)) {
        return jsonError(401, "send the bearer token wisp mcp printed when it started");
      }
      if (!ready.transport) return jsonError(503, "wisp mcp is starting; try again");
      return await ready.transport.handleRequest(request);
    });
  } catch (error) {
    const why = error instanceof Deno.errors.AddrInUse
      ? "the address is in use"
      : (error as Error).message;
    throw new WispError(`wisp mcp cannot listen on ${address.hostname}:${address.port}: ${why}`);
  }
  const { port } = await listened;
  const host = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname;
  const made = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    enableDnsRebindingProtection: true,
    allowedHosts: [`${host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`],
  });
  ready.transport = made;
  return {
    url: `http://${host}:${port}/mcp`,
    transport: made,
    finished: server.finished,
    close: async () => {
      await made.close().catch(() => {});
      await server.shutdown();
    },
  };
}

/**
 * What the fake model servers share: a Deno.serve on 127.0.0.1:0 that records
 * every request, and a body that sends prepared bytes in small pieces (split
 * wherever the piece size falls, inside a JSON value or a UTF-8 character),
 * optionally dying part-way as a crashed server does.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The JSON body, parsed; undefined for none. */
  body: unknown;
}

export interface Piecewise {
  /** Bytes per piece; the default splits at odd places (7). */
  chunkBytes?: number;
  /** A pause between pieces, so they reach the client as separate reads. */
  chunkDelayMs?: number;
  /** Error the body after this many bytes: the connection drops mid-reply. */
  dieAfterBytes?: number;
}

export function piecewiseBody(
  bytes: Uint8Array,
  options: Piecewise = {},
): ReadableStream<Uint8Array> {
  const size = Math.max(1, options.chunkBytes ?? 7);
  const end = options.dieAfterBytes !== undefined
    ? Math.min(options.dieAfterBytes, bytes.length)
    : bytes.length;
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset >= end) {
        if (options.dieAfterBytes !== undefined) {
          controller.error(new Error("fake server died mid-reply"));
        } else controller.close();
        return;
      }
      if (offset > 0 && options.chunkDelayMs) {
        await new Promise((r) => setTimeout(r, options.chunkDelayMs));
      }
      const next = Math.min(end, offset + size);
      controller.enqueue(bytes.slice(offset, next));
      offset = next;
    },
  });
}

/**
 * A body that sends its first bytes and then nothing until the client leaves or the server closes.
 * `onClientLeft` hears the client close the connection (the server cancels the body then).
 */
export function hangingBody(
  first: Uint8Array,
  closing: AbortSignal,
  onClientLeft?: () => void,
): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    cancel() {
      onClientLeft?.();
    },
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(first);
        return;
      }
      return new Promise<void>((resolve) => {
        const stop = () => {
          try {
            controller.close();
          } catch { /* the client already left */ }
          resolve();
        };
        if (closing.aborted) stop();
        else closing.addEventListener("abort", stop, { once: true });
      });
    },
  });
}

export async function recordRequest(request: Request): Promise<RecordedRequest> {
  const url = new URL(request.url);
  const text = request.method === "GET" ? "" : await request.text();
  let body: unknown = undefined;
  if (text !== "") {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => headers[key] = value);
  return { method: request.method, path: url.pathname, headers, body };
}

export function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

export interface Served {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serve on an ephemeral loopback port; `closing` aborts as close() begins, to release hanging bodies. */
export function serveLoopback(
  handler: (request: Request) => Response | Promise<Response>,
  closing = new AbortController(),
): Served {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  const port = (server.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      closing.abort();
      await server.shutdown().catch(() => {});
    },
  };
}

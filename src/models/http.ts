/**
 * The one place model traffic leaves wisp: `fetch` with the caller's signal
 * and a time limit combined, the permission fence's refusal turned into a
 * sentence, and a bound on how much a server may send without a line break
 * (both wire formats are line-based, so a server that streams one endless
 * line is cut off rather than filling memory).
 */
import { ModelError } from "./errors.ts";
import { timed } from "../util/log.ts";

export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export interface GuardOptions {
  /** The caller's signal (Ctrl-C); aborting it aborts the request and its body. */
  signal?: AbortSignal;
  /** A limit for the whole exchange (metadata requests; never a streamed chat). */
  timeoutMs?: number;
  maxLineBytes?: number;
  /** Rewrite a non-JSON error body as {"error": text}, so ollama-js never logs to stdout about it. */
  jsonErrors?: boolean;
  /** Check that a successful body is NDJSON: a line that is not JSON fails the stream (ollama-js would skip it). */
  ndjson?: boolean;
}

export class MalformedLine extends Error {
  constructor(line: string) {
    super(
      `the server sent a line that is not JSON: ${
        line.length > 80 ? line.slice(0, 77) + "..." : line
      }`,
    );
    this.name = "MalformedLine";
  }
}

/** A stream that passes bytes through and errors at the first complete line that is not JSON. */
function checkNdjson(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let partial = "";
  const check = (line: string) => {
    if (line.trim() === "") return;
    JSON.parse(line);
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const lines = (partial + decoder.decode(chunk, { stream: true })).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) {
          try {
            check(line);
          } catch {
            controller.error(new MalformedLine(line));
            return;
          }
        }
        controller.enqueue(chunk);
      },
      flush(controller) {
        const rest = partial + decoder.decode();
        try {
          check(rest);
        } catch {
          controller.error(new MalformedLine(rest));
        }
      },
    }),
  );
}

export class LineTooLong extends Error {
  constructor(limit: number) {
    super(`the server sent more than ${limit} bytes without a line break`);
    this.name = "LineTooLong";
  }
}

/** A stream that passes bytes through and errors once a line grows past the limit. */
function boundLines(
  body: ReadableStream<Uint8Array>,
  limit: number,
): ReadableStream<Uint8Array> {
  let sinceBreak = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const last = chunk.lastIndexOf(10);
        sinceBreak = last === -1 ? sinceBreak + chunk.length : chunk.length - last - 1;
        if (sinceBreak > limit) {
          controller.error(new LineTooLong(limit));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * The body, ended with an AbortError the moment `signal` aborts, whether or
 * not fetch's own stream notices: a read waiting on a reply that hangs must
 * end when the person stops it (a pending read was seen to miss the abort on
 * a freshly started process).
 */
function endsOnAbort(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const abortError = () => new DOMException("The signal has been aborted", "AbortError");
  let onAbort: (() => void) | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      onAbort = () => {
        try {
          controller.error(abortError());
        } catch { /* already ended */ }
        reader.cancel().catch(() => {});
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (signal.aborted) return;
        if (done) {
          signal.removeEventListener("abort", onAbort!);
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        signal.removeEventListener("abort", onAbort!);
        try {
          controller.error(error);
        } catch { /* already ended */ }
      }
    },
    cancel(reason) {
      signal.removeEventListener("abort", onAbort!);
      return reader.cancel(reason);
    },
  });
}

/** Up to `maxBytes` of a body as text; the rest is not read (the body is cancelled). */
async function readTextBounded(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // A body that fails part-way still says what it said.
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(bytes.subarray(0, maxBytes));
}

/** A `fetch` for one exchange under the options. */
export function guardedFetch(options: GuardOptions = {}): typeof fetch {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const signals = [options.signal, init.signal ?? undefined].filter((s): s is AbortSignal =>
      s !== undefined
    );
    if (options.timeoutMs !== undefined) signals.push(AbortSignal.timeout(options.timeoutMs));
    const signal = signals.length === 0
      ? undefined
      : signals.length === 1
      ? signals[0]
      : AbortSignal.any(signals);
    const url = input instanceof Request ? input.url : String(input);
    let response: Response;
    try {
      response = await timed(`model request ${url}`, () => fetch(input, { ...init, signal }));
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) {
        throw new ModelError(
          "fence",
          `wisp's permission fence refused a connection to ${
            new URL(url).origin
          }; wisp talks only to model servers on 127.0.0.1, localhost or [::1]`,
        );
      }
      throw error;
    }
    if (
      !response.ok && options.jsonErrors &&
      !(response.headers.get("content-type") ?? "").includes("json")
    ) {
      const text = (await readTextBounded(response.body, 2000)).trim();
      return new Response(
        JSON.stringify({ error: text || `${response.status} ${response.statusText}` }),
        {
          status: response.status,
          statusText: response.statusText,
          headers: { "content-type": "application/json" },
        },
      );
    }
    if (!response.body) return response;
    let body = boundLines(response.body, options.maxLineBytes ?? MAX_LINE_BYTES);
    if (options.ndjson && response.ok) body = checkNdjson(body);
    if (signal) body = endsOnAbort(body, signal);
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

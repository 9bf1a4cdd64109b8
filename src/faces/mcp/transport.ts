/**
 * The stdio transport wisp's MCP server speaks through: newline-delimited
 * JSON-RPC on a byte stream in, a byte sink out.
 *
 * The SDK's own stdio transport drops a line it cannot parse without a reply
 * and closes itself when a line outgrows its buffer. A client deserves an
 * answer either way, and the server must outlive a bad line, so this one
 * answers every malformed message with a JSON-RPC error (parse error,
 * invalid request, message too large) and goes on reading. Only well-formed
 * messages reach the SDK. Every outgoing message passes through `send`, one
 * serialised write at a time, so frames never interleave.
 */
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import { ErrorCode, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/** The largest message taken; a longer line is answered with an error and skipped. */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/** When the input ends, requests already read get this long to be answered before the transport closes. */
const DRAIN_GRACE_MS = 2000;

export type Sink = (bytes: Uint8Array) => Promise<void>;

export type LineOutcome =
  | { kind: "message"; message: JSONRPCMessage }
  | { kind: "reply"; reply: JSONRPCMessage; note: string }
  | { kind: "ignore"; note: string };

function errorReply(id: string | number | null, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage;
}

function idOf(value: unknown): string | number | null {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const id = (value as Record<string, unknown>).id;
    if (typeof id === "string" || (typeof id === "number" && Number.isFinite(id))) return id;
  }
  return null;
}

/**
 * Decide what one line is: a message for the SDK, or an error to send back.
 * Pure: the transport and the tests call it alike.
 */
export function classifyLine(line: string): LineOutcome {
  const text = line.endsWith("\r") ? line.slice(0, -1) : line;
  if (text.trim() === "") return { kind: "ignore", note: "empty line" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      kind: "reply",
      reply: errorReply(null, ErrorCode.ParseError, "Parse error: the line is not valid JSON"),
      note: `parse error: ${(error as Error).message}`,
    };
  }
  if (Array.isArray(value)) {
    return {
      kind: "reply",
      reply: errorReply(
        null,
        ErrorCode.InvalidRequest,
        "Invalid Request: batches are not supported",
      ),
      note: "a batch",
    };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return { kind: "message", message: parsed.data as JSONRPCMessage };
  const object = value && typeof value === "object" ? value as Record<string, unknown> : undefined;
  const isResponse = object !== undefined && !("method" in object) &&
    ("result" in object || "error" in object);
  if (isResponse) {
    // A malformed response to one of our own requests has no one to answer.
    return { kind: "ignore", note: "a malformed response" };
  }
  const isNotification = object !== undefined && typeof object.method === "string" &&
    !("id" in object);
  if (isNotification) return { kind: "ignore", note: "a malformed notification" };
  return {
    kind: "reply",
    reply: errorReply(
      idOf(value),
      ErrorCode.InvalidRequest,
      "Invalid Request: not a JSON-RPC 2.0 request (jsonrpc, id, method and object params)",
    ),
    note: "invalid request",
  };
}

/** Splits a byte stream into lines, each at most `max` bytes; longer lines are reported and skipped. */
export class LineSplitter {
  #parts: Uint8Array[] = [];
  #size = 0;
  #skipping = false;
  #decoder = new TextDecoder();

  constructor(readonly max = MAX_MESSAGE_BYTES) {}

  /** Feed bytes; calls `line` for each whole line and `tooLong` for each skipped one. */
  push(chunk: Uint8Array, line: (text: string) => void, tooLong: (bytes: number) => void): void {
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(10, start);
      const end = nl === -1 ? chunk.length : nl;
      const piece = chunk.subarray(start, end);
      if (!this.#skipping) {
        if (this.#size + piece.length > this.max) {
          this.#skipping = true;
          this.#parts = [];
        } else if (piece.length > 0) {
          // Copy: the reader may reuse its buffer.
          this.#parts.push(piece.slice());
        }
      }
      this.#size += piece.length;
      if (nl === -1) break;
      if (this.#skipping) tooLong(this.#size);
      else line(this.#take());
      this.#skipping = false;
      this.#size = 0;
      this.#parts = [];
      start = nl + 1;
    }
  }

  /** What is left when the stream ends (a last line without a newline). */
  flush(line: (text: string) => void, tooLong: (bytes: number) => void): void {
    if (this.#skipping) tooLong(this.#size);
    else if (this.#size > 0) line(this.#take());
    this.#parts = [];
    this.#size = 0;
    this.#skipping = false;
  }

  #take(): string {
    if (this.#parts.length === 1) return this.#decoder.decode(this.#parts[0]);
    const all = new Uint8Array(this.#size);
    let offset = 0;
    for (const part of this.#parts) {
      all.set(part, offset);
      offset += part.length;
    }
    return this.#decoder.decode(all);
  }
}

export interface LineTransportOptions {
  input: ReadableStream<Uint8Array>;
  output: Sink;
  /** Diagnostics (stderr under WISP_LOG). */
  log?: (level: "debug" | "info" | "error", text: string) => void;
  maxMessageBytes?: number;
  drainGraceMs?: number;
}

const encoder = new TextEncoder();

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  sessionId?: string;
  /** Listeners that see every outgoing message (tests, the approval host). */
  readonly outgoing = new Set<(message: JSONRPCMessage) => void>();

  #writes: Promise<void> = Promise.resolve();
  #closed = false;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #splitter: LineSplitter;
  /** Requests read and not yet answered (by id). */
  #open = new Set<string | number>();
  #drained: (() => void) | undefined;
  /** Resolves when the input has ended and the transport closed. */
  readonly finished: Promise<void>;
  #finish!: () => void;

  constructor(readonly options: LineTransportOptions) {
    this.#splitter = new LineSplitter(options.maxMessageBytes ?? MAX_MESSAGE_BYTES);
    this.finished = new Promise((resolve) => this.#finish = resolve);
  }

  start(): Promise<void> {
    this.#reader = this.options.input.getReader();
    this.#pump();
    return Promise.resolve();
  }

  async #pump(): Promise<void> {
    const reader = this.#reader!;
    const onLine = (text: string) => this.#handleLine(text);
    const onTooLong = (bytes: number) => {
      this.options.log?.(
        "info",
        `refused a message of ${bytes} bytes (the limit is ${this.#splitter.max})`,
      );
      this.#queue(errorReply(
        null,
        ErrorCode.InvalidRequest,
        `Invalid Request: a message of ${bytes} bytes is over the ${this.#splitter.max}-byte limit`,
      ));
    };
    try {
      while (!this.#closed) {
        const { value, done } = await reader.read();
        if (done) break;
        this.#splitter.push(value, onLine, onTooLong);
      }
      this.#splitter.flush(onLine, onTooLong);
    } catch (error) {
      if (!this.#closed) this.onerror?.(error as Error);
    }
    await this.#drain();
    await this.close();
  }

  /** Give the requests already read a moment to be answered (the client may still be reading). */
  async #drain(): Promise<void> {
    if (this.#open.size === 0 || this.#closed) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.#drained = resolve;
      timer = setTimeout(resolve, this.options.drainGraceMs ?? DRAIN_GRACE_MS);
    });
    clearTimeout(timer);
    this.#drained = undefined;
  }

  #handleLine(text: string): void {
    const outcome = classifyLine(text);
    if (outcome.kind === "message") {
      const m = outcome.message as { id?: string | number; method?: unknown };
      if (m.id !== undefined && typeof m.method === "string") this.#open.add(m.id);
      try {
        this.onmessage?.(outcome.message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
      return;
    }
    this.options.log?.("debug", `malformed input: ${outcome.note}`);
    if (outcome.kind === "reply") this.#queue(outcome.reply);
  }

  #queue(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: string | number; method?: unknown };
    if (
      m.id !== undefined && m.method === undefined && this.#open.delete(m.id) &&
      this.#open.size === 0
    ) {
      this.#drained?.();
    }
    for (const listener of this.outgoing) {
      try {
        listener(message);
      } catch { /* a listener never stops a send */ }
    }
    const bytes = encoder.encode(JSON.stringify(message) + "\n");
    const write = this.#writes.then(() => this.options.output(bytes));
    this.#writes = write.catch(() => {});
    return write;
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return this.#queue(message).catch((error) => {
      // The client went away: nothing more can be said to it.
      this.options.log?.("debug", `write failed: ${(error as Error).message}`);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#reader?.cancel();
    } catch { /* already ended */ }
    await this.#writes;
    this.onclose?.();
    this.#finish();
  }
}

/** A sink writing everything to a Deno writer (stdout), handling short writes. */
export function writerSink(writer: { write(p: Uint8Array): Promise<number> }): Sink {
  return async (bytes) => {
    let offset = 0;
    while (offset < bytes.length) offset += await writer.write(bytes.subarray(offset));
  };
}

import type { StreamCapture } from "./capture.ts";

/**
 * Takes bytes off the front of a stream before the capture and the listener
 * see it (the supervisor's start mark, src/exec/supervisor.ts).
 */
export interface HeadFilter {
  /** The part of `chunk` to pass on (possibly empty). */
  take(chunk: Uint8Array): Uint8Array;
  /** At the end of the stream: what it still held back. */
  finish(): Uint8Array;
}

/**
 * Read a stream into its capture. A BYOB reader reads into one buffer, handed
 * back and forth, so draining a gigabyte makes no garbage for the collector.
 */
export async function drain(
  stream: ReadableStream<Uint8Array>,
  capture: StreamCapture,
  cancelled: Promise<void>,
  listen?: (chunk: Uint8Array) => void,
  head?: HeadFilter,
): Promise<void> {
  let reader: ReadableStreamBYOBReader | ReadableStreamDefaultReader<Uint8Array>;
  let byob = true;
  try {
    reader = stream.getReader({ mode: "byob" });
  } catch {
    reader = stream.getReader();
    byob = false;
  }
  let done = false;
  const pass = (chunk: Uint8Array) => {
    if (chunk.length === 0) return;
    capture.push(chunk);
    if (listen) {
      try {
        listen(chunk);
      } catch { /* a listener's failure never changes the capture */ }
    }
  };
  cancelled.then(() => {
    if (!done) reader.cancel().catch(() => {});
  });
  try {
    let buffer = new Uint8Array(DRAIN_CHUNK);
    for (;;) {
      const { value, done: end } = byob
        ? await (reader as ReadableStreamBYOBReader).read(buffer)
        : await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
      if (end || !value) break;
      pass(head ? head.take(value) : value);
      if (byob) buffer = new Uint8Array(value.buffer as ArrayBuffer, 0, DRAIN_CHUNK);
    }
  } catch {
    /* cancelled after the command ended */
  } finally {
    if (head) pass(head.finish());
    done = true;
    try {
      reader.releaseLock();
    } catch { /* released */ }
  }
}

const DRAIN_CHUNK = 64 * 1024;

import type { StreamCapture } from "./capture.ts";

/**
 * Read a stream into its capture. A BYOB reader reads into one buffer, handed
 * back and forth, so draining a gigabyte makes no garbage for the collector.
 */
export async function drain(
  stream: ReadableStream<Uint8Array>,
  capture: StreamCapture,
  cancelled: Promise<void>,
  listen?: (chunk: Uint8Array) => void,
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
      capture.push(value);
      if (listen) {
        try {
          listen(value);
        } catch { /* a listener's failure never changes the capture */ }
      }
      if (byob) buffer = new Uint8Array(value.buffer as ArrayBuffer, 0, DRAIN_CHUNK);
    }
  } catch {
    /* cancelled after the command ended */
  } finally {
    done = true;
    try {
      reader.releaseLock();
    } catch { /* released */ }
  }
}

const DRAIN_CHUNK = 64 * 1024;

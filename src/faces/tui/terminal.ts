/**
 * wisp-tui's hold on the terminal: raw mode and bracketed paste while it
 * runs, the bytes the person types, resizes, and writes. `release` gives the
 * terminal back as it found it (cooked mode, paste mode off, cursor shown),
 * and is safe to call twice.
 */
import type { FrameSink } from "./frame_writer.ts";

const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";
const SHOW_CURSOR = "\x1b[?25h";

/** The terminal as wisp-tui uses it. */
export interface TuiTerminal extends FrameSink {
  /** The bytes typed, until `release`. */
  bytes(): AsyncGenerator<Uint8Array>;
  /** Call `listener` on each resize; returns a function that stops it. */
  onResize(listener: () => void): () => void;
  /** Give the terminal back. */
  release(): void;
}

/** Write all of `bytes` to the terminal (a partial write is continued, not dropped). */
function writeAll(bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
}

/** Take the process's terminal (stdin and stdout must both be terminals). */
export function takeTerminal(): TuiTerminal {
  const encoder = new TextEncoder();
  Deno.stdin.setRaw(true);
  writeAll(encoder.encode(PASTE_ON));
  let released = false;
  const stopReading = new AbortController();
  return {
    write: (bytes) => {
      if (!released) writeAll(bytes);
    },
    size: () => {
      try {
        return Deno.consoleSize();
      } catch {
        return { columns: 80, rows: 24 };
      }
    },
    async *bytes() {
      const buffer = new Uint8Array(4096);
      while (!released) {
        const read = await Deno.stdin.read(buffer).catch(() => null);
        if (read === null || stopReading.signal.aborted) return;
        yield buffer.slice(0, read);
      }
    },
    onResize: (listener) => {
      try {
        Deno.addSignalListener("SIGWINCH", listener);
        return () => Deno.removeSignalListener("SIGWINCH", listener);
      } catch {
        return () => {};
      }
    },
    release: () => {
      if (released) return;
      released = true;
      stopReading.abort();
      try {
        writeAll(encoder.encode(PASTE_OFF + SHOW_CURSOR));
      } catch { /* the terminal is gone */ }
      try {
        Deno.stdin.setRaw(false);
      } catch { /* the terminal is gone */ }
    },
  };
}

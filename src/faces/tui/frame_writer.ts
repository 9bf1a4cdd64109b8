/**
 * The stream ink renders into: everything ink writes while drawing one frame
 * (erase the band, lines for the scrollback, the band again, the cursor) is
 * gathered and sent to the terminal as **one write**, wrapped in a
 * synchronized update (DEC mode 2026), so a terminal that supports it shows
 * only finished frames and one that does not still gets the frame in one
 * piece.
 *
 * A frame ends at the end of the current task: ink writes a frame
 * synchronously, so a microtask after the first write sees all of it.
 * ink's own begin/end-synchronized marks are dropped and one pair is put
 * around the whole frame instead.
 *
 * It also stands in for a Node TTY stream as far as ink asks: `columns`,
 * `rows`, `isTTY`, and `resize` events (the caller reports resizes).
 */
import { EventEmitter } from "node:events";

/** Begin and end a synchronized update. */
export const BEGIN_SYNC = "\x1b[?2026h";
export const END_SYNC = "\x1b[?2026l";

/** What the frame writer needs of the terminal. */
export interface FrameSink {
  /** Write all of `bytes` (one call per frame). */
  write(bytes: Uint8Array): void;
  /** The terminal's size now. */
  size(): { columns: number; rows: number };
}

/** The stream ink writes to; one `sink.write` per frame. */
export class FrameWriter extends EventEmitter {
  readonly isTTY = true;
  readonly writable = true;
  readonly destroyed = false;
  readonly writableEnded = false;
  #pending = "";
  #scheduled = false;
  #frames = 0;
  readonly #encoder = new TextEncoder();

  constructor(
    private readonly sink: FrameSink,
    private readonly onFrame?: (frame: string) => void,
  ) {
    super();
  }

  get columns(): number {
    return this.sink.size().columns;
  }

  get rows(): number {
    return this.sink.size().rows;
  }

  /** How many frames were written so far. */
  get frames(): number {
    return this.#frames;
  }

  /** Node's `write`: gathered until the frame ends. */
  write(chunk: string | Uint8Array, encoding?: unknown, callback?: () => void): boolean {
    const text = typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
    this.#pending += text.replaceAll(BEGIN_SYNC, "").replaceAll(END_SYNC, "");
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(() => this.flush());
    }
    const done = typeof encoding === "function" ? encoding as () => void : callback;
    if (done) queueMicrotask(done);
    return true;
  }

  /** Send what is gathered now, as one frame (nothing when nothing is). */
  flush(): void {
    this.#scheduled = false;
    if (this.#pending === "") return;
    const frame = BEGIN_SYNC + this.#pending + END_SYNC;
    this.#pending = "";
    this.#frames++;
    // Told before the terminal gets it: whoever saw the frame on the screen finds it counted.
    this.onFrame?.(frame);
    this.sink.write(this.#encoder.encode(frame));
  }

  /** The terminal changed size: tell ink. */
  resized(): void {
    this.emit("resize");
  }
}

/**
 * Bounded capture of one output stream. In memory it keeps a head and a tail
 * of `keep` bytes each and counts the rest; the moment a byte would be
 * dropped it opens a spill file and from then on writes the whole stream
 * there as it arrives (capped by the spill writer), so a command printing a
 * gigabyte costs a few times `keep` in memory and nothing is silently lost.
 *
 * `holdBack` keeps the last few bytes uncommitted until the end, for the
 * supervisor's trailer on stderr (src/exec/supervisor.ts).
 */
import { countNewlines, type OutputWriter } from "../audit/output_store.ts";

export interface CapturedStream {
  /** Bytes the stream carried (the supervisor's trailer excluded). */
  bytes: number;
  /** Lines: line feeds, plus one for a last line without one. */
  lines: number;
  /** The first bytes (the whole stream when `complete`). */
  head: Uint8Array;
  /** The last bytes (empty when `complete`). */
  tail: Uint8Array;
  /** head is the whole stream. */
  complete: boolean;
  /** Where the whole stream was spilled, when it did not fit in memory. */
  spill?: { path: string; keptBytes: number; truncated: boolean };
}

export type SpillOpener = () => OutputWriter | undefined;

export class StreamCapture {
  #head: Uint8Array;
  #headLen = 0;
  /** Before the first drop: the bytes after the head, linear. After: a ring. */
  #tail: Uint8Array;
  #tailLen = 0;
  #tailPos = 0;
  #ring = false;
  #total = 0;
  #newlines = 0;
  #lastByte = 10;
  #spill: OutputWriter | undefined;
  #spillFailed = false;
  #pending: Uint8Array | undefined;

  constructor(readonly keep: number, readonly openSpill: SpillOpener, readonly holdBack = 0) {
    this.#head = new Uint8Array(keep);
    this.#tail = new Uint8Array(keep);
  }

  get totalBytes(): number {
    return this.#total;
  }

  get spilled(): boolean {
    return this.#spill !== undefined;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (this.holdBack === 0) {
      this.#commit(chunk);
      return;
    }
    // Commit all but the last `holdBack` bytes seen so far.
    const pending = this.#pending;
    if (chunk.length >= this.holdBack) {
      if (pending) this.#commit(pending);
      const cut = chunk.length - this.holdBack;
      this.#commit(chunk.subarray(0, cut));
      this.#pending = chunk.slice(cut);
      return;
    }
    const merged = new Uint8Array((pending?.length ?? 0) + chunk.length);
    if (pending) merged.set(pending);
    merged.set(chunk, pending?.length ?? 0);
    const over = merged.length - this.holdBack;
    if (over > 0) this.#commit(merged.subarray(0, over));
    this.#pending = merged.slice(Math.max(0, over));
  }

  /** End of stream. `strip` may take a trailer off the held-back bytes. */
  finish(strip?: (tail: Uint8Array) => Uint8Array): CapturedStream {
    if (this.#pending) {
      const rest = strip ? strip(this.#pending) : this.#pending;
      this.#commit(rest);
      this.#pending = undefined;
    }
    const lines = this.#newlines + (this.#total > 0 && this.#lastByte !== 10 ? 1 : 0);
    const head = this.#head.slice(0, this.#headLen);
    let spill: CapturedStream["spill"];
    if (this.#spill) {
      const kept = this.#spill.keptBytes;
      const truncated = this.#spill.truncated;
      const path = this.#spill.path;
      this.#spill.close();
      spill = { path, keptBytes: kept, truncated };
    }
    if (!this.#ring) {
      const rest = this.#tail.subarray(0, this.#tailLen);
      if (this.#tailLen === 0) {
        return { bytes: this.#total, lines, head, tail: new Uint8Array(), complete: true, spill };
      }
      const whole = new Uint8Array(this.#headLen + this.#tailLen);
      whole.set(head);
      whole.set(rest, this.#headLen);
      return {
        bytes: this.#total,
        lines,
        head: whole,
        tail: new Uint8Array(),
        complete: true,
        spill,
      };
    }
    const tail = new Uint8Array(this.#tailLen);
    const first = this.#tail.subarray(this.#tailPos, this.#tailLen);
    tail.set(first);
    tail.set(this.#tail.subarray(0, this.#tailPos), first.length);
    return { bytes: this.#total, lines, head, tail, complete: false, spill };
  }

  #commit(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#total += bytes.length;
    this.#newlines += countNewlines(bytes);
    this.#lastByte = bytes[bytes.length - 1];
    let rest = bytes;
    if (this.#headLen < this.keep) {
      const take = Math.min(this.keep - this.#headLen, rest.length);
      this.#head.set(rest.subarray(0, take), this.#headLen);
      this.#headLen += take;
      rest = rest.subarray(take);
      if (rest.length === 0) return;
    }
    if (!this.#ring) {
      if (this.#tailLen + rest.length <= this.keep) {
        this.#tail.set(rest, this.#tailLen);
        this.#tailLen += rest.length;
        return;
      }
      // A byte is about to be dropped: keep the whole stream on disk from here.
      this.#startSpill();
      this.#ring = true;
      this.#tailPos = this.#tailLen % this.keep;
    }
    this.#spill?.append(rest);
    this.#ringWrite(rest);
  }

  #startSpill(): void {
    if (this.#spill || this.#spillFailed) return;
    try {
      this.#spill = this.openSpill();
    } catch {
      this.#spill = undefined;
    }
    if (!this.#spill) {
      this.#spillFailed = true;
      return;
    }
    this.#spill.append(this.#head.subarray(0, this.#headLen));
    this.#spill.append(this.#tail.subarray(0, this.#tailLen));
  }

  #ringWrite(bytes: Uint8Array): void {
    const cap = this.keep;
    if (bytes.length >= cap) {
      this.#tail.set(bytes.subarray(bytes.length - cap));
      this.#tailPos = 0;
      this.#tailLen = cap;
      return;
    }
    const first = Math.min(cap - this.#tailPos, bytes.length);
    this.#tail.set(bytes.subarray(0, first), this.#tailPos);
    this.#tail.set(bytes.subarray(first), 0);
    this.#tailPos = (this.#tailPos + bytes.length) % cap;
    this.#tailLen = Math.min(cap, this.#tailLen + bytes.length);
  }
}

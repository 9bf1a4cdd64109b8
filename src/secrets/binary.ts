/**
 * Binary input is scanned through its printable runs, as `strings` shows them: a credential
 * compiled into an executable, packed in an archive's uncompressed entry or left in a core dump is
 * still a leak. Each byte maps to one byte, so offsets stay byte offsets and line numbers count the
 * input's own line feeds; every other byte, and every run too short to hold a secret, becomes a
 * space, which ends a token the way the binary's own bytes did.
 */

/** Printable runs shorter than this are noise (opcodes, tables), not text. */
export const MIN_RUN = 6;

const SPACE = 0x20;
const LINE_FEED = 0x0a;

function printable(byte: number): boolean {
  return (byte >= 0x20 && byte < 0x7f) || byte === 0x09;
}

/**
 * Maps a binary stream's chunks to text of the same length, holding back a run that the end of a
 * chunk may cut until it is known to be long enough.
 */
export class PrintableRuns {
  #pending: Uint8Array = new Uint8Array(0);
  /** The last chunk ended inside a run already long enough, which the next chunk may go on. */
  #longRunOpen = false;

  /** The mapped bytes of `chunk` (and of what was held back), except a run still open at its end. */
  push(chunk: Uint8Array, last = false): Uint8Array {
    const bytes = new Uint8Array(this.#pending.length + chunk.length);
    bytes.set(this.#pending);
    bytes.set(chunk, this.#pending.length);
    // A run that goes on from the last chunk's long one counts as long from its first byte.
    let runStart = this.#longRunOpen ? -MIN_RUN : -1;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (printable(byte)) {
        if (runStart === -1) runStart = i;
        continue;
      }
      if (runStart !== -1 && i - runStart < MIN_RUN) bytes.fill(SPACE, runStart, i);
      runStart = -1;
      if (byte !== LINE_FEED) bytes[i] = SPACE;
    }
    const open = runStart !== -1;
    if (open && !last && bytes.length - runStart < MIN_RUN) {
      // A short run at the very end may go on in the next chunk.
      this.#pending = bytes.slice(runStart);
      this.#longRunOpen = false;
      return bytes.subarray(0, runStart);
    }
    if (open && bytes.length - runStart < MIN_RUN) bytes.fill(SPACE, runStart);
    this.#pending = new Uint8Array(0);
    this.#longRunOpen = open;
    return bytes;
  }

  /** What is still held back at the end of the input, mapped. */
  flush(): Uint8Array {
    return this.push(new Uint8Array(0), true);
  }
}

/** The printable runs of bytes held whole, as text of the same length. */
export function printableText(bytes: Uint8Array): string {
  const runs = new PrintableRuns();
  return new TextDecoder().decode(runs.push(bytes, true));
}

/** A stream of binary bytes as a stream of its printable runs (the same length). */
export function printableStream(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const runs = new PrintableRuns();
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const out = runs.push(chunk);
        if (out.length > 0) controller.enqueue(out);
      },
      flush(controller) {
        const out = runs.flush();
        if (out.length > 0) controller.enqueue(out);
      },
    }),
  );
}

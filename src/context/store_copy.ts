/**
 * The conversation store's own copy of the entries the audit log does not
 * hold (the audit is off, or no audit event matched the entry), written when
 * such an entry is dropped from view so that a recall can still return it
 * whole. The text lives in one append-only file per conversation beside the
 * output store (`<home>/output/<session>/<conversation>.store`, mode 0600); memory
 * keeps only where each text starts and how long it is. ADR 0590 records
 * why the copy is written at the drop and why a rotated-out event is only
 * reported at recall.
 */
import { dirname } from "node:path";

/** Where an entry's copied text is: the file, the byte it starts at, its length in bytes. */
export interface CopiedText {
  readonly path: string;
  readonly offset: number;
  readonly bytes: number;
}

/** One conversation's copy file, created on its first write. */
export class StoreCopy {
  #size = 0;
  #created = false;

  constructor(readonly path: string) {}

  /**
   * Append a text and say where it is; undefined when it cannot be written
   * (the entry then keeps its first and last lines only, and a recall says so).
   */
  write(text: string): CopiedText | undefined {
    const bytes = new TextEncoder().encode(text);
    try {
      if (!this.#created) {
        Deno.mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      }
      const file = Deno.openSync(this.path, {
        write: true,
        create: true,
        // The first write of this conversation starts the file afresh.
        truncate: !this.#created,
        append: this.#created,
        mode: 0o600,
      });
      try {
        let written = 0;
        while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
      } finally {
        file.close();
      }
    } catch {
      return undefined;
    }
    this.#created = true;
    const copied = { path: this.path, offset: this.#size, bytes: bytes.length };
    this.#size += bytes.length;
    return copied;
  }
}

/** Read a copied text back; undefined when the file is gone or shorter than recorded. */
export function readCopiedText(copy: CopiedText): string | undefined {
  try {
    const file = Deno.openSync(copy.path, { read: true });
    try {
      file.seekSync(copy.offset, Deno.SeekMode.Start);
      const out = new Uint8Array(copy.bytes);
      let filled = 0;
      while (filled < out.length) {
        const n = file.readSync(out.subarray(filled));
        if (n === null) break;
        filled += n;
      }
      if (filled < out.length) return undefined;
      return new TextDecoder().decode(out);
    } finally {
      file.close();
    }
  } catch {
    return undefined;
  }
}

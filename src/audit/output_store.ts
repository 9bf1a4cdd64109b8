/**
 * The output store: whole tool outputs that did not fit the tool-output
 * budget, kept in `<home>/output/<audit session>/<id>` so the model (through
 * memory) and the person (/show) can page them later instead of running a
 * command again.
 *
 * One output is one file, written as it arrives (append) and capped at 16 MiB:
 * past the cap the writer stops keeping bytes, counts them, and reports the
 * output as cut. Files are 0600 in 0700 folders, like everything in the home.
 */
import { join } from "../util/path.ts";

/** Where the whole of a held-back output is, when it was kept. */
export interface KeptOutput {
  id: string;
  /** Lines of the stored text. */
  lines: number;
  /** The store cut the text (past its own cap); the note says the rest was not kept. */
  truncated?: boolean;
}

/** What the output store must offer for `fitted` to keep a whole output (src/audit/output_store.ts). */
export interface OutputKeeper {
  keep(
    text: string,
    about: { session: string; callId?: string; tool: string },
  ): Promise<KeptOutput>;
}
import { ensurePrivateDir, type HomePaths } from "../config/home.ts";
import { randomHex } from "../util/random_id.ts";

/** The most one stored output keeps. */
const OUTPUT_STORE_CAP_BYTES = 16 * 1024 * 1024;

const ID_PATTERN = /^[A-Za-z0-9_-]{1,80}$/;

export function newOutputId(): string {
  return randomHex(4);
}

/**
 * Count line feeds in a chunk. Four bytes at a time (SWAR: a byte of
 * `word ^ 0x0a0a0a0a` is zero exactly where the byte was a line feed), which
 * keeps a stream of short lines (`yes`) near the speed of a plain read.
 */
export function countNewlines(bytes: Uint8Array): number {
  let n = 0;
  let i = 0;
  const lead = Math.min(bytes.length, (4 - (bytes.byteOffset & 3)) & 3);
  for (; i < lead; i++) if (bytes[i] === 10) n++;
  const words = (bytes.length - i) >>> 2;
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let k = 0; k < words; k++) {
      const x = view[k] ^ 0x0a0a0a0a;
      const zero = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f) >>> 7;
      n += (zero & 1) + ((zero >>> 8) & 1) + ((zero >>> 16) & 1) + ((zero >>> 24) & 1);
    }
    i += words * 4;
  }
  for (; i < bytes.length; i++) if (bytes[i] === 10) n++;
  return n;
}

/** One output being written: append as it arrives, then close. */
export class OutputWriter {
  #file: Deno.FsFile | undefined;
  #kept = 0;
  #dropped = 0;
  #newlines = 0;
  #endsWithNewline = true;

  constructor(readonly id: string, readonly path: string, file: Deno.FsFile, readonly cap: number) {
    this.#file = file;
  }

  /** Bytes kept so far. */
  get keptBytes(): number {
    return this.#kept;
  }

  /** Bytes offered past the cap and not kept. */
  get droppedBytes(): number {
    return this.#dropped;
  }

  get truncated(): boolean {
    return this.#dropped > 0;
  }

  /** Lines of the kept text (a last line without a line feed counts). */
  get lines(): number {
    return this.#newlines + (this.#endsWithNewline ? 0 : 1);
  }

  append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    const room = this.cap - this.#kept;
    const take = room >= bytes.length ? bytes : bytes.subarray(0, Math.max(0, room));
    this.#dropped += bytes.length - take.length;
    if (take.length === 0 || !this.#file) return;
    let offset = 0;
    while (offset < take.length) offset += this.#file.writeSync(take.subarray(offset));
    this.#kept += take.length;
    this.#newlines += countNewlines(take);
    this.#endsWithNewline = take[take.length - 1] === 10;
  }

  appendText(text: string): void {
    this.append(new TextEncoder().encode(text));
  }

  close(): KeptOutput {
    try {
      this.#file?.close();
    } catch { /* already closed */ }
    this.#file = undefined;
    return { id: this.id, lines: this.lines, ...(this.truncated ? { truncated: true } : {}) };
  }
}

export class OutputStore implements OutputKeeper {
  readonly dir: string;

  constructor(
    readonly home: HomePaths,
    readonly session: string,
    readonly cap = OUTPUT_STORE_CAP_BYTES,
  ) {
    if (!ID_PATTERN.test(session)) {
      throw new Error(`audit session id ${JSON.stringify(session)} cannot name a folder`);
    }
    this.dir = join(home.output, session);
  }

  pathOf(id: string): string {
    if (!ID_PATTERN.test(id)) throw new Error(`output id ${JSON.stringify(id)} is not a valid id`);
    return join(this.dir, id);
  }

  /** Start a new output (an existing one of the same id is replaced). */
  create(id = newOutputId()): OutputWriter {
    ensurePrivateDir(this.home.root);
    ensurePrivateDir(this.home.output);
    ensurePrivateDir(this.dir);
    const path = this.pathOf(id);
    const file = Deno.openSync(path, { write: true, create: true, truncate: true, mode: 0o600 });
    return new OutputWriter(id, path, file, this.cap);
  }

  /** Keep a whole text at once (the tool-output budget's path). */
  keep(
    text: string,
    about: { session: string; callId?: string; tool: string },
  ): Promise<KeptOutput> {
    const id = about.callId && ID_PATTERN.test(about.callId) ? about.callId : newOutputId();
    const writer = this.create(id);
    try {
      writer.appendText(text);
    } finally {
      // close() below reports what was kept
    }
    return Promise.resolve(writer.close());
  }

  /** Append to an output that exists. */
  append(id: string, bytes: Uint8Array): void {
    const file = Deno.openSync(this.pathOf(id), { append: true });
    try {
      let offset = 0;
      while (offset < bytes.length) offset += file.writeSync(bytes.subarray(offset));
    } finally {
      file.close();
    }
  }

  /** Bytes [offset, offset+length) of an output (fewer at its end). */
  async readRange(id: string, offset: number, length: number): Promise<Uint8Array> {
    const file = await Deno.open(this.pathOf(id), { read: true });
    try {
      await file.seek(offset, Deno.SeekMode.Start);
      const out = new Uint8Array(Math.max(0, length));
      let filled = 0;
      while (filled < out.length) {
        const n = await file.read(out.subarray(filled));
        if (n === null) break;
        filled += n;
      }
      return out.subarray(0, filled);
    } finally {
      file.close();
    }
  }

  /** Lines [from, from+count) of an output, 1-based, without their line feeds. */
  async readLines(id: string, from: number, count: number): Promise<string[]> {
    const text = new TextDecoder().decode(await Deno.readFile(this.pathOf(id)));
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    return lines.slice(Math.max(0, from - 1), Math.max(0, from - 1) + Math.max(0, count));
  }

  size(id: string): number {
    return Deno.statSync(this.pathOf(id)).size;
  }
}

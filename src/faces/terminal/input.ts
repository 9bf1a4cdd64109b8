/**
 * The one reader of a terminal's standard input, for the faces that talk to
 * a person at a terminal (the plain chat, the approval dialog, the question
 * prompt). Two kinds of read share it:
 *
 *   - `readKey`: one key, in raw mode (no Enter, no echo), for the approval
 *     dialog's `[y]once [s]ession …` line;
 *   - `readLine`: one line as the terminal's own line editing delivers it.
 *
 * Only one `Deno.stdin.read` is ever outstanding. A read that outlives the
 * caller who started it (the dialog's wait was withdrawn, a turn was
 * stopped) is not lost: its bytes are kept for the next caller, so a key
 * typed ahead still reaches the prompt it was meant for.
 *
 * Nothing here decides anything: a caller maps keys and lines to answers.
 */

/** What a read gives back: bytes, or the end of input. */
export type InputRead = { bytes: Uint8Array } | { end: true };

/** The source of bytes and the raw-mode switch, Deno.stdin in use; a test gives its own. */
export interface InputSource {
  read(buffer: Uint8Array): Promise<number | null>;
  setRaw(raw: boolean): void;
}

const decoder = new TextDecoder();

/** Ctrl-C and Ctrl-D as raw mode delivers them. */
export const CTRL_C = 0x03;
export const CTRL_D = 0x04;

/** A key as a dialog reads it: a printable character, Enter, Ctrl-C, Ctrl-D, or the end of input. */
export type Key =
  | { kind: "char"; char: string }
  | { kind: "enter" }
  | { kind: "interrupt" }
  | { kind: "eof-key" }
  | { kind: "end" }
  | { kind: "other" };

/** The key a raw-mode byte sequence starts with. Pure. */
export function keyOf(bytes: Uint8Array): Key {
  if (bytes.length === 0) return { kind: "other" };
  const first = bytes[0];
  if (first === CTRL_C) return { kind: "interrupt" };
  if (first === CTRL_D) return { kind: "eof-key" };
  if (first === 0x0d || first === 0x0a) return { kind: "enter" };
  // An escape sequence (arrows, function keys) is one key that answers nothing.
  if (first === 0x1b || first < 0x20 || first === 0x7f) return { kind: "other" };
  const text = decoder.decode(bytes);
  const char = [...text][0];
  return char === undefined ? { kind: "other" } : { kind: "char", char };
}

/** The one reader of a terminal's standard input. */
export class TerminalInput {
  #inFlight = false;
  #waiter: ((read: InputRead) => void) | undefined;
  #held: Uint8Array[] = [];
  #ended = false;
  #raw = false;

  constructor(private readonly source: InputSource = denoStdin()) {}

  /** Whether the input has ended (Ctrl-D at an empty line, a closed pipe). */
  get ended(): boolean {
    return this.#ended && this.#held.length === 0;
  }

  /**
   * One key typed from now on, in raw mode; raw mode is left before this returns. An abort
   * gives `{ kind: "end" }` at once (the read under it is kept for the next
   * caller).
   */
  async readKey(signal?: AbortSignal): Promise<Key> {
    // Held bytes were typed before the question was shown: they stay for the next line, and
    // never answer it.
    if (this.#ended) return { kind: "end" };
    this.#setRaw(true);
    try {
      const read = await this.#next(signal);
      if (read === "aborted" || "end" in read) return { kind: "end" };
      const key = keyOf(read.bytes);
      // What came with the key beyond its own bytes (a paste, keys typed fast) is kept.
      const rest = read.bytes.subarray(keyLength(read.bytes));
      if (rest.length > 0) this.#held.push(rest);
      return key;
    } finally {
      this.#setRaw(false);
    }
  }

  /**
   * One line, without its newline; undefined at the end of input (or when
   * `signal` aborts). In cooked mode the terminal edits the line; held bytes
   * from an earlier read come first.
   */
  async readLine(signal?: AbortSignal): Promise<string | undefined> {
    let text = "";
    for (;;) {
      const newline = text.indexOf("\n");
      if (newline >= 0) {
        const rest = text.slice(newline + 1);
        if (rest !== "") this.#held.unshift(new TextEncoder().encode(rest));
        return text.slice(0, newline).replace(/\r$/, "");
      }
      const held = this.#takeHeld();
      if (held) {
        text += decoder.decode(held);
        continue;
      }
      if (this.#ended) return text === "" ? undefined : text;
      const read = await this.#next(signal);
      if (read === "aborted") {
        if (text !== "") this.#held.unshift(new TextEncoder().encode(text));
        return undefined;
      }
      if ("end" in read) continue;
      text += decoder.decode(read.bytes);
    }
  }

  /** Leave raw mode if a read left it on (on the way out). */
  restore(): void {
    this.#setRaw(false);
  }

  #takeHeld(): Uint8Array | undefined {
    return this.#held.shift();
  }

  #setRaw(raw: boolean): void {
    if (this.#raw === raw) return;
    try {
      this.source.setRaw(raw);
      this.#raw = raw;
    } catch { /* not a terminal: a line is read as it comes */ }
  }

  /**
   * The next read's result; "aborted" when `signal` fires first. One read is
   * in flight at most: a caller who leaves hands its result on to the next
   * caller, or to the held bytes when none waits yet.
   */
  #next(signal?: AbortSignal): Promise<InputRead | "aborted"> {
    if (signal?.aborted) return Promise.resolve("aborted");
    return new Promise((resolve) => {
      const waiter = (read: InputRead) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(read);
      };
      const onAbort = () => {
        if (this.#waiter === waiter) this.#waiter = undefined;
        resolve("aborted");
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiter = waiter;
      this.#startRead();
    });
  }

  #startRead(): void {
    if (this.#inFlight) return;
    this.#inFlight = true;
    const buffer = new Uint8Array(4096);
    this.source.read(buffer).then(
      (n): InputRead => n === null ? { end: true } : { bytes: buffer.slice(0, n) },
      (): InputRead => ({ end: true }),
    ).then((read) => {
      this.#inFlight = false;
      if ("end" in read) this.#ended = true;
      const waiter = this.#waiter;
      this.#waiter = undefined;
      if (waiter) waiter(read);
      else if ("bytes" in read && read.bytes.length > 0) this.#held.push(read.bytes);
    });
  }
}

/** How many bytes the first key of a raw read takes (a UTF-8 character, or the whole escape sequence). */
function keyLength(bytes: Uint8Array): number {
  const first = bytes[0];
  if (first === 0x1b) return bytes.length;
  if (first < 0x80) return 1;
  if (first >= 0xf0) return Math.min(4, bytes.length);
  if (first >= 0xe0) return Math.min(3, bytes.length);
  if (first >= 0xc0) return Math.min(2, bytes.length);
  return 1;
}

/** Deno's standard input as an InputSource. */
export function denoStdin(): InputSource {
  return {
    read: (buffer) => Deno.stdin.read(buffer),
    setRaw: (raw) => Deno.stdin.setRaw(raw),
  };
}

let shared: TerminalInput | undefined;

/** The process's one TerminalInput over Deno.stdin (every face shares it, so no read is lost). */
export function terminalInput(): TerminalInput {
  shared ??= new TerminalInput();
  return shared;
}

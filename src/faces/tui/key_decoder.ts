/**
 * Turns the bytes a terminal sends in raw mode into wisp-tui's keys.
 *
 * Bytes arrive in chunks that can split anything: a UTF-8 character, an
 * escape sequence, a bracketed paste. The decoder keeps what is unfinished
 * and finishes it with the next chunk. A lone ESC is the one thing a later
 * byte cannot settle: it is the Escape key only if nothing follows, so it
 * stays pending (`pendingEscape`) until the caller, after a short quiet
 * spell (about 25 ms), calls `flush()`.
 *
 * What it knows, as xterm-style terminals send it:
 * - printable text, merged into one `text` key per run;
 * - Enter (CR or LF), Tab, Backspace (DEL or BS), Ctrl with a letter;
 * - ESC then a character: that character with Alt (ESC DEL is Alt-Backspace,
 *   ESC CR Alt-Enter);
 * - CSI and SS3 keys: arrows, Home/End (each of their spellings), Delete,
 *   PageUp/PageDown, Shift-Tab, with xterm's modifier parameter
 *   (`ESC[1;5D` is Ctrl-Left); the `CSI u` form (kitty, and xterm's
 *   modifyOtherKeys `ESC[27;m;code~`) for Enter, Tab, Backspace, Escape and
 *   characters with modifiers, so Shift-Enter arrives as Enter with shift;
 * - a bracketed paste (`ESC[200~` … `ESC[201~`) as one `paste` key, line
 *   ends made `\n`.
 * Other complete sequences (function keys, Insert, cursor position reports,
 * focus reports, kitty and device-attribute replies, mouse reports) are
 * dropped: they are never typed text.
 */
import type { Key } from "./key.ts";

const ESC = 0x1b;
const PASTE_END = [ESC, 0x5b, 0x32, 0x30, 0x31, 0x7e]; // ESC [ 2 0 1 ~

/** Which modifiers a key was pressed with; absent ones are left out. */
type Modifiers = { ctrl?: boolean; alt?: boolean; shift?: boolean };

/** The xterm modifier parameter (1 + bits: 1 shift, 2 alt, 4 ctrl, 8 meta) as flags. */
function modifiers(parameter: number | undefined): Modifiers {
  const bits = (parameter ?? 1) - 1;
  const flags: Modifiers = {};
  if (bits & 1) flags.shift = true;
  if (bits & (2 | 8)) flags.alt = true;
  if (bits & 4) flags.ctrl = true;
  return flags;
}

function named(name: string, flags: Modifiers = {}): Key {
  return { kind: "key", name, ...flags };
}

/** The final byte of a CSI or SS3 key that needs no number: arrows, Home, End, Shift-Tab. */
const LETTER_KEYS: Record<string, string> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
};

/** `ESC[n~` keys by their number. */
const TILDE_KEYS: Record<number, string> = {
  1: "home",
  7: "home",
  4: "end",
  8: "end",
  3: "delete",
  5: "pageup",
  6: "pagedown",
};

/** The keys a `CSI u` code names when it is not a plain character. */
const CODE_KEYS: Record<number, string> = {
  13: "enter",
  9: "tab",
  127: "backspace",
  8: "backspace",
  27: "escape",
};

/** How many bytes the UTF-8 character led by `lead` should take (1 for a stray byte). */
function utf8Length(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf7) return 4;
  if (lead >= 0xe0) return lead <= 0xef ? 3 : 1;
  if (lead >= 0xc0) return 2;
  return 1;
}

/**
 * How many bytes the character at `at` takes: its lead's length, cut short
 * at a byte that cannot continue it (so a broken character never swallows
 * the ESC or control byte after it). May reach past the end of `bytes`.
 */
function charLength(bytes: Uint8Array, at: number): number {
  const wanted = utf8Length(bytes[at]);
  for (let k = 1; k < wanted; k++) {
    const b = bytes[at + k];
    if (b === undefined) return wanted;
    if (b < 0x80 || b > 0xbf) return k;
  }
  return wanted;
}

function isPrintable(byte: number): boolean {
  return byte >= 0x20 && byte !== 0x7f;
}

/** A parsed CSI sequence: its private prefix (`?`, `<`, `>`, `=`), numbers and final byte. */
interface Csi {
  prefix: string;
  numbers: (number | undefined)[];
  final: string;
  /** Bytes the whole sequence took, ESC included. */
  length: number;
}

/** The CSI starting at `at` (at ESC), or "incomplete" when more bytes are needed. */
function parseCsi(bytes: Uint8Array, at: number): Csi | "incomplete" {
  let i = at + 2;
  let body = "";
  while (i < bytes.length) {
    const b = bytes[i];
    if (b >= 0x40 && b <= 0x7e) {
      const prefix = /^[?<>=]/.test(body) ? body[0] : "";
      const rest = prefix ? body.slice(1) : body;
      const numbers = rest === "" ? [] : rest.split(";").map((part) => {
        // `1:2` sub-parameters (kitty) count by their first number.
        const n = parseInt(part.split(":")[0], 10);
        return Number.isNaN(n) ? undefined : n;
      });
      return { prefix, numbers, final: String.fromCharCode(b), length: i - at + 1 };
    }
    if (b < 0x20 || b > 0x7e) {
      // Not a CSI after all (a control byte inside): end it here, unknown.
      return { prefix: "!", numbers: [], final: "", length: i - at };
    }
    body += String.fromCharCode(b);
    i++;
  }
  return "incomplete";
}

/** The key a complete CSI names, `"paste"` for a paste start, or null to drop it. */
function csiKey(csi: Csi): Key | "paste" | null {
  if (csi.prefix !== "") return null; // replies and mouse reports
  const [first, second, third] = csi.numbers;
  switch (csi.final) {
    case "Z":
      return named("tab", { shift: true });
    case "~": {
      if (first === 200) return "paste";
      if (first === 27 && third !== undefined) return codeKey(third, second);
      const name = first === undefined ? undefined : TILDE_KEYS[first];
      return name ? named(name, modifiers(second)) : null;
    }
    case "u":
      return first === undefined ? null : codeKey(first, second);
    default: {
      const name = LETTER_KEYS[csi.final];
      if (!name) return null; // R (cursor report), I/O (focus), c (attributes), F-keys…
      return named(name, modifiers(second));
    }
  }
}

/** A key given by its Unicode code and modifier parameter (`CSI u`, modifyOtherKeys). */
function codeKey(code: number, modifier: number | undefined): Key | null {
  const flags = modifiers(modifier);
  const name = CODE_KEYS[code];
  if (name) return named(name, flags);
  if (code < 0x20 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return null;
  const char = String.fromCodePoint(code);
  if (!flags.ctrl && !flags.alt) {
    return { kind: "text", text: flags.shift ? char.toUpperCase() : char };
  }
  const { shift: _shift, ...withoutShift } = flags;
  return named(flags.ctrl ? char.toLowerCase() : char, withoutShift);
}

/** Ctrl with a letter for the C0 bytes that are not Enter, Tab or Backspace. */
function controlKey(byte: number): Key | null {
  switch (byte) {
    case 0x0d:
    case 0x0a:
      return named("enter");
    case 0x09:
      return named("tab");
    case 0x08:
    case 0x7f:
      return named("backspace");
    case 0x00:
      return named("space", { ctrl: true });
  }
  if (byte >= 0x01 && byte <= 0x1a) return named(String.fromCharCode(0x60 + byte), { ctrl: true });
  if (byte >= 0x1c && byte <= 0x1f) return named(String.fromCharCode(0x40 + byte), { ctrl: true });
  return null;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

function indexOf(bytes: Uint8Array, needle: number[], from: number): number {
  outer: for (let i = from; i + needle.length <= bytes.length; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** A paste's text with CRLF and CR made LF. */
function normalisePaste(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** Decodes a terminal's input bytes into keys, across chunk boundaries. */
export class KeyDecoder {
  /** Bytes not yet decoded: an unfinished character or sequence. */
  #buffer: Uint8Array = new Uint8Array(0);
  /** Inside a bracketed paste: the paste's bytes so far. */
  #paste: Uint8Array[] | null = null;

  /** Decode a chunk; returns the keys it completed, in order. */
  push(bytes: Uint8Array): Key[] {
    this.#buffer = concat(this.#buffer, bytes);
    return this.#decode(false);
  }

  /**
   * Whether an ESC (or an unfinished sequence) waits for more bytes. After a
   * quiet spell the caller calls `flush()` so a lone ESC becomes Escape.
   */
  get pendingEscape(): boolean {
    return this.#paste === null && this.#buffer.length > 0 && this.#buffer[0] === ESC;
  }

  /**
   * Settle what waits as if no more bytes will come: a lone ESC is Escape,
   * ESC `[` or ESC `O` are Alt with that character, an unfinished sequence is
   * dropped and an unfinished character decodes as U+FFFD. An open paste
   * keeps waiting for its end.
   */
  flush(): Key[] {
    return this.#decode(true);
  }

  #decode(final: boolean): Key[] {
    const keys: Key[] = [];
    const bytes = this.#buffer;
    let i = 0;
    const emitText = (text: string) => {
      const last = keys[keys.length - 1];
      if (last?.kind === "text") last.text += text;
      else keys.push({ kind: "text", text });
    };
    while (i < bytes.length) {
      if (this.#paste !== null) {
        const end = indexOf(bytes, PASTE_END, i);
        if (end === -1) {
          // Keep the last bytes back: they may be the start of the end marker.
          const keep = Math.max(i, bytes.length - (PASTE_END.length - 1));
          this.#paste.push(bytes.slice(i, keep));
          i = keep;
          break;
        }
        this.#paste.push(bytes.slice(i, end));
        const whole = this.#paste.reduce(concat, new Uint8Array(0));
        keys.push({ kind: "paste", text: normalisePaste(new TextDecoder().decode(whole)) });
        this.#paste = null;
        i = end + PASTE_END.length;
        continue;
      }
      const b = bytes[i];
      if (b === ESC) {
        const taken = this.#escape(bytes, i, final, keys);
        if (taken === 0) break; // wait for more bytes
        i += taken;
        continue;
      }
      if (!isPrintable(b)) {
        const key = controlKey(b);
        if (key) keys.push(key);
        i++;
        continue;
      }
      // A run of printable bytes, ending before a control byte or an unfinished character.
      let end = i;
      while (end < bytes.length && isPrintable(bytes[end])) {
        const length = charLength(bytes, end);
        if (end + length > bytes.length && !final) break;
        end += length;
      }
      end = Math.min(end, bytes.length);
      if (end === i) break;
      emitText(new TextDecoder().decode(bytes.slice(i, end)));
      i = end;
    }
    this.#buffer = bytes.slice(i);
    return keys;
  }

  /**
   * Decode the escape at `at` into `keys`; returns the bytes it took, or 0
   * when it needs more bytes (never 0 when `final`).
   */
  #escape(bytes: Uint8Array, at: number, final: boolean, keys: Key[]): number {
    const next = bytes[at + 1];
    if (next === undefined) {
      if (!final) return 0;
      keys.push(named("escape"));
      return 1;
    }
    if (next === 0x5b) { // [
      const csi = parseCsi(bytes, at);
      if (csi === "incomplete") {
        if (!final) return 0;
        // ESC [ and nothing after is Alt-[; a cut-off sequence is dropped.
        if (at + 2 === bytes.length) keys.push(named("[", { alt: true }));
        return bytes.length - at;
      }
      const key = csiKey(csi);
      if (key === "paste") this.#paste = [];
      else if (key) keys.push(key);
      return csi.length;
    }
    if (next === 0x4f) { // O: SS3
      const third = bytes[at + 2];
      if (third === undefined) {
        if (!final) return 0;
        keys.push(named("O", { alt: true }));
        return 2;
      }
      const name = LETTER_KEYS[String.fromCharCode(third)];
      if (name) keys.push(named(name));
      return 3; // F1–F4 and keypad keys are dropped
    }
    if (next === ESC) {
      // ESC ESC: the first is Escape; the second starts afresh.
      keys.push(named("escape"));
      return 1;
    }
    if (next === 0x7f || next === 0x08) {
      keys.push(named("backspace", { alt: true }));
      return 2;
    }
    if (!isPrintable(next)) {
      const key = controlKey(next);
      if (key?.kind === "key") keys.push({ ...key, alt: true });
      return 2;
    }
    const length = charLength(bytes, at + 1);
    if (at + 1 + length > bytes.length && !final) return 0;
    const char = new TextDecoder().decode(bytes.slice(at + 1, at + 1 + length));
    keys.push(named(char, { alt: true }));
    return Math.min(1 + length, bytes.length - at);
  }
}

/**
 * A key the person pressed, as wisp-tui's parts take it. The decoder
 * (key_decoder.ts) turns the terminal's bytes into these; the input box, the
 * dialogs, the status bar and the panel each read them, and keys held during
 * a turn are kept as these and applied later in order.
 */

/** A named key (not a printable character). */
export type KeyName =
  | "enter"
  | "tab"
  | "backspace"
  | "delete"
  | "escape"
  | "up"
  | "down"
  | "left"
  | "right"
  | "home"
  | "end"
  | "pageup"
  | "pagedown";

/**
 * - `text`: printable characters typed (one key, or several that arrived together);
 * - `paste`: a bracketed paste's whole text, newlines included;
 * - `key`: a named key, or a letter with Ctrl (`{ name: "c", ctrl: true }`) or Alt.
 */
export type Key =
  | { kind: "text"; text: string }
  | { kind: "paste"; text: string }
  | { kind: "key"; name: KeyName | string; ctrl?: boolean; alt?: boolean; shift?: boolean };

/** Whether `key` is Ctrl with the letter `letter`. */
export function isCtrl(key: Key, letter: string): boolean {
  return key.kind === "key" && key.ctrl === true && key.name === letter;
}

/** Whether `key` is the named key `name` without Ctrl or Alt. */
export function isNamed(key: Key, name: KeyName): boolean {
  return key.kind === "key" && key.name === name && !key.ctrl && !key.alt;
}

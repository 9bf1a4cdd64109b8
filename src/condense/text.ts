/** Text helpers shared by the readers: terminal escapes out, indents, frames (lines are cut in normalise.ts). */
import { CARRIAGE_RETURN, LOWER_A, SPACE, TAB } from "./chars.ts";

// CSI sequences (colours, cursor moves), OSC sequences (hyperlinks, titles), and lone ESC codes.
// deno-lint-ignore no-control-regex
const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;

// deno-lint-ignore no-control-regex
const CSI = /\x1b\[[0-9;?]*[ -\/]*[@-~]/g;

export function stripAnsi(text: string): string {
  if (!text.includes("\x1b")) return text;
  // Colours (CSI) are nearly all of it: a simple pattern first, the full one only for what remains.
  // (A scanner by char code measured slower than this pattern on colour-dense logs.)
  const rest = text.replace(CSI, "");
  return rest.includes("\x1b") ? rest.replace(ANSI, "") : rest;
}

/** Leading spaces (a tab counts as four). */
export function indentOf(line: string): number {
  // By char code, not `for…of`: the string iterator cost more than the rest of some readers.
  let n = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === SPACE) n++;
    else if (c === TAB) n += 4;
    else break;
  }
  return n;
}

/** A JavaScript stack frame's place: `at fn (file:line:col)` or `at file:line:col`, the place one word. */
const JS_FRAME = /^\s*(?:at |❯ )(?:(.*?) \()?(?:file:\/\/)?([^\s()]+?):(\d+):(\d+)\)?\s*$/;

/** JS_FRAME past its `at `: what a frame is when the "at " is already known (TAP's stack lines lack it). */
const FRAME_AFTER_AT = /^(?:(.*?) \()?(?:file:\/\/)?([^\s()]+?):(\d+):(\d+)\)?\s*$/;

/**
 * A place that holds spaces, tried only when JS_FRAME fails: between parentheses any place (Jest
 * prints `at Object.<anonymous> (test dir/a.test.js:5:3)`), without them an absolute path (Deno
 * prints `at file:///home/dev/src dir/a_test.ts:6:10`).
 */
const SPACED_FRAME_AFTER_AT =
  /^(?:(.*?) \((?:file:\/\/)?([^()]+?):(\d+):(\d+)\)|(?:file:\/\/)?((?:\/|[A-Za-z]:[\\/])[^()]*?):(\d+):(\d+))\s*$/;

/** The frame in `rest` (past its `at `) when its place holds spaces. */
function spacedFrame(rest: string): Frame | undefined {
  const m = SPACED_FRAME_AFTER_AT.exec(rest);
  if (!m) return undefined;
  return m[2] !== undefined
    ? { fn: m[1], file: m[2], line: m[3], col: m[4] }
    : { file: m[5], line: m[6], col: m[7] };
}

export interface Frame {
  fn?: string;
  file: string;
  line: string;
  col: string;
}

/**
 * `line.includes(text)`, looked for first by a part of it that starts with a
 * rarer character: a search for a pattern that starts with a space stops at
 * every space, and measured two to three times slower on long lines.
 */
export function hasText(line: string, rarePart: string, text: string): boolean {
  return line.includes(rarePart) && line.includes(text);
}

/** Whether a character code is one JavaScript's `\s` matches (the full set, so tests built on it stay exact). */
export function isJsSpace(c: number): boolean {
  if (c <= SPACE) return c === SPACE || (c >= TAB && c <= CARRIAGE_RETURN);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 ||
    c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** The code of the first character `\s` does not match (-1 when there is none). */
export function firstNonJsSpace(line: string): number {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === SPACE || c === TAB) continue; // the indent: nearly always spaces
    if ((c > SPACE && c < 0xa0) || !isJsSpace(c)) return c;
  }
  return -1;
}

/** `line.trim() === ""` without making the trimmed string (trim removes exactly what `\s` matches). */
export function isBlank(line: string): boolean {
  return firstNonJsSpace(line) === -1;
}

export function jsFrame(line: string): Frame | undefined {
  // A frame starts "at " or "❯ " after its indent: most lines are rejected on that one character.
  const c = firstNonJsSpace(line);
  if (c !== LOWER_A && c !== 0x276f) return undefined;
  const m = JS_FRAME.exec(line);
  if (m) return { fn: m[1], file: m[2], line: m[3], col: m[4] };
  // Not a one-word place: perhaps a place with spaces.
  const start = /^\s*(?:at |❯ )/.exec(line);
  return start ? spacedFrame(line.slice(start[0].length)) : undefined;
}

/** The same as `jsFrame("at " + rest)`, without building that string. */
export function jsFrameAfterAt(rest: string): Frame | undefined {
  const m = FRAME_AFTER_AT.exec(rest);
  if (m) return { fn: m[1], file: m[2], line: m[3], col: m[4] };
  return rest.includes(" ") ? spacedFrame(rest) : undefined;
}

/** A frame in the project's own code (not a dependency or the runtime). */
export function ownFrame(f: Frame): boolean {
  return !f.file.startsWith("node:") && !f.file.includes("node_modules/") &&
    !f.file.startsWith("ext:") && !f.file.startsWith("internal/") && f.file !== "<anonymous>";
}

/** Which frame names a test failure's place: one in a test file, else the first of the project's own. */
/**
 * pickFrame fed one frame at a time: `add` says when the answer can no longer
 * change (a frame in the test file; without a test file, the first test-like
 * frame), so a reader can stop parsing the rest of a long stack.
 */
export class FramePicker {
  #base?: string;
  #slashBase?: string;
  #found?: Frame;
  #testish?: Frame;
  #own?: Frame;
  constructor(testFile?: string) {
    if (testFile) {
      this.#base = testFile.replace(/^\.\//, "");
      this.#slashBase = "/" + this.#base;
    }
  }
  /** Whether the pick is decided. */
  get decided(): boolean {
    return this.#found !== undefined;
  }
  add(f: Frame): boolean {
    if (this.#found || !ownFrame(f)) return this.#found !== undefined;
    if (this.#base !== undefined) {
      if (f.file === this.#base || f.file.endsWith(this.#slashBase!)) this.#found = f;
    }
    if (!this.#testish && TESTISH.test(f.file)) {
      this.#testish = f;
      if (this.#base === undefined) this.#found = f;
    }
    this.#own ??= f;
    return this.#found !== undefined;
  }
  pick(): Frame | undefined {
    return this.#found ?? this.#testish ?? this.#own;
  }
}

const TESTISH = /(^|[/._-])(test|tests|spec|__tests__)([/._-]|$)/i;

/**
 * The frame in a test's body, where the runner names the line the test is defined on (deno test):
 * in the test's file, at or after that line, the lowest such line (the first of equals). A frame
 * at `definedAt` (`line:col`, the very place the test is defined) is the call that ran it, not its
 * body; without its column, a frame on that line is taken only when none is below it. A helper
 * of the test file defined above the test is passed over.
 */
export function frameInBody(
  frames: Frame[],
  file: string,
  defined: number,
  definedAt = "",
): Frame | undefined {
  const base = file.replace(/^\.\//, "");
  const slashBase = "/" + base;
  let inBody: Frame | undefined;
  let onLine: Frame | undefined;
  for (const fr of frames) {
    if (!(fr.file === base || fr.file.endsWith(slashBase))) continue;
    if (`${fr.line}:${fr.col}` === definedAt) continue;
    const n = Number(fr.line);
    // Without the definition's column (deno's TAP block names only its line), a frame on that
    // line may be the call that ran the test: one below it is preferred.
    if (n === defined && definedAt === "") onLine ??= fr;
    else if (n >= defined && (!inBody || n < Number(inBody.line))) inBody = fr;
  }
  return inBody ?? onLine;
}

export function pickFrame(frames: Frame[], testFile?: string): Frame | undefined {
  const own = frames.filter(ownFrame);
  if (testFile) {
    const base = testFile.replace(/^\.\//, "");
    const inTest = own.find((f) => f.file === base || f.file.endsWith("/" + base));
    if (inTest) return inTest;
  }
  return own.find((f) => /(^|[/._-])(test|tests|spec|__tests__)([/._-]|$)/i.test(f.file)) ?? own[0];
}

/**
 * What follows a line's last JavaScript space: the capture of a pattern that
 * ends `\s+(\S+)$`, once the pattern is known to match, cut out without the
 * match's array.
 */
export function trailingToken(line: string): string {
  let k = line.length;
  for (; k > 0; k--) {
    const c = line.charCodeAt(k - 1);
    // Printable ASCII is never a space: the full test only for the rest.
    if (c > SPACE && c < 0x7f) continue;
    if (isJsSpace(c)) break;
  }
  return line.slice(k);
}

/** The code of a line's first character that is not a space or a tab (-1 for a blank line): a cheap first test. */
export function lead(line: string): number {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== SPACE && c !== TAB) return c;
  }
  return -1;
}

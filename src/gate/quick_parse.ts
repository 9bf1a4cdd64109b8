/**
 * A small exact reader for the plain shell most command lines are: words of
 * ordinary characters, single quotes, double quotes holding no expansion,
 * backslash escapes of printable characters, assignments before a program,
 * pipes, `&&`, `||`, `;`, `&`, file redirections and a closing comment.
 *
 * It gives exactly the `ParsedLine` the tree-sitter walker (parse_tree.ts)
 * gives for the same line, or `undefined` at the first thing it is not sure
 * of; the caller then asks tree-sitter. Declining is always safe, so every
 * rule below errs towards declining. The differential tests
 * (test/gate/quick_parse_*_test.ts) hold the two readers together.
 *
 * One thing it copies on purpose: tree-sitter-bash hangs a redirection that
 * follows a command on everything written before it in the same statement
 * (`a | b >x` and `a && b >x` give `a` the `>x` too), outermost first. The
 * gate's rules were written against that reading, so this reader gives the
 * same.
 */
import type { Assignment, ParsedLine, Redirect, SimpleCommand } from "./parse.ts";
import { mergeLits } from "./parse_segments.ts";
import { type Segment, splitUnquoted, type Word } from "./words.ts";

/** Characters a word may hold unquoted; anything else (`$ * ? [ { ~ ( ! #` …) is a doubt. */
const PLAIN_CHAR = /[A-Za-z0-9_.\/:,@%+=^-]/;
/** Printable ASCII and the tab: what a comment may hold. */
const PRINTABLE = /^[\x20-\x7e\t]*$/;

/**
 * Whether quoted text holds only the tab and printable characters of any
 * script: no control characters and no invisible formatting ones (zero
 * widths, direction overrides, the byte-order mark).
 */
function quotable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || (code >= 0x7f && code <= 0x9f)) return false;
    if (
      (code >= 0x200b && code <= 0x200f) || (code >= 0x2028 && code <= 0x202e) ||
      (code >= 0x2060 && code <= 0x206f) || code === 0xfeff
    ) return false;
  }
  return true;
}

/**
 * Words that mean something else where a program's name is expected (the
 * shell's reserved words, and the declaration commands tree-sitter reads on
 * their own terms); a line using one is left to tree-sitter.
 */
const SPECIAL_PROGRAMS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "for",
  "while",
  "until",
  "do",
  "done",
  "case",
  "esac",
  "in",
  "function",
  "select",
  "time",
  "coproc",
  "declare",
  "typeset",
  "export",
  "readonly",
  "local",
  "unset",
  "unsetenv",
]);

/**
 * What a program's name may be made of. tree-sitter-bash reads some names
 * that bash takes as one word in its own way (`risk@x`, `a:b` before more
 * words, a keyword with quotes glued on), so the name is held to the
 * characters of ordinary program names and paths, with no quotes or escapes,
 * and may not start with `-` (`-la - 2>f` loses a word).
 */
const PROGRAM_NAME = /^[A-Za-z0-9_.\/][A-Za-z0-9_.\/-]*$/;

/** A name tree-sitter reads as a variable before `=` at a command's start. */
const ASSIGNMENT_NAME = /^(?:[A-Za-z][A-Za-z0-9_]*|_[A-Za-z0-9_]+)$/;

/** Thrown inside the reader at the first doubt; never leaves this module. */
class Declined extends Error {}

/** A word as scanned: where it is, and whether an unquoted `=` may make it an assignment. */
interface ScannedWord {
  start: number;
  end: number;
  /** The index of the first `=` before any quote or escape, or -1. */
  assignAt: number;
}

/**
 * Read `line` when it is plain shell, giving what the tree-sitter walker
 * gives; `undefined` when it is not sure.
 */
export function quickParse(line: string): ParsedLine | undefined {
  try {
    return new QuickReader(line).read();
  } catch (e) {
    if (e instanceof Declined) return undefined;
    throw e;
  }
}

function decline(): never {
  throw new Declined();
}

class QuickReader {
  pos = 0;
  readonly commands: SimpleCommand[] = [];

  constructor(readonly line: string) {}

  read(): ParsedLine {
    const line = this.line;
    // A statement is an and-or list of pipelines, ended by `;`, `&` or the line's end.
    let statementStart = this.commands.length;
    /** The commands that feed the pipeline's next stage (command() keeps it up to date). */
    let pipeline: number[] = [];
    let expectCommand = true; // after the start, `;`, `&`, `&&`, `||` or `|`
    let mayEnd = true; // nothing is left open
    let lastRedirected = false; // the last command had redirections
    let pipedAfterRedirect = false; // `a >f | b` in this statement
    let stages = 0; // commands in the current pipeline
    while (true) {
      this.skipBlanks();
      if (this.pos >= line.length) break;
      const c = line[this.pos];
      if (c === "#") {
        // A comment may only close a statement; after `|`, `&&` or `||` the line goes on.
        if (!mayEnd) decline();
        this.comment();
        break;
      }
      if (c === ";" || c === "&" || c === "|") {
        const op = this.operator();
        if (expectCommand) decline(); // `;;`, `| |`, a line opening with an operator
        if (op === "|") {
          if (lastRedirected) pipedAfterRedirect = true;
          expectCommand = true;
          mayEnd = false;
          continue;
        }
        // tree-sitter makes `a >f | b && c` and `a | b | c && d` one pipeline whose last stage
        // is a list (`b && c`, `b | c && d`).
        if ((op === "&&" || op === "||") && (pipedAfterRedirect || stages >= 3)) decline();
        pipeline = [];
        stages = 0;
        if (op === "&&" || op === "||") {
          expectCommand = true;
          mayEnd = false;
          continue;
        }
        // `;` or `&`: the statement ends here; `&` sends all of it to the background.
        if (op === "&") {
          for (let id = statementStart; id < this.commands.length; id++) {
            this.commands[id].background = true;
          }
        }
        statementStart = this.commands.length;
        pipedAfterRedirect = false;
        // Another statement may follow, or nothing; `a; ;` or `a & ;` are doubts.
        this.skipBlanks();
        if (this.pos < line.length && /[;&|]/.test(line[this.pos])) decline();
        expectCommand = true;
        mayEnd = true;
        continue;
      }
      if (!expectCommand) decline();
      lastRedirected = this.command(pipeline, statementStart);
      stages++;
      expectCommand = false;
      mayEnd = true;
    }
    if (!mayEnd) decline();
    return { line, ok: true, error: undefined, commands: this.commands, functions: [] };
  }

  skipBlanks(): void {
    while (
      this.pos < this.line.length && (this.line[this.pos] === " " || this.line[this.pos] === "\t")
    ) {
      this.pos++;
    }
  }

  /** A comment runs to the line's end; it must hold nothing unusual. */
  comment(): void {
    if (!PRINTABLE.test(this.line.slice(this.pos))) decline();
    this.pos = this.line.length;
  }

  /** One of `|`, `||`, `&&`, `;`, `&`; anything longer or stranger is a doubt. */
  operator(): string {
    const two = this.line.slice(this.pos, this.pos + 2);
    if (two === "&&" || two === "||") {
      this.pos += 2;
      return two;
    }
    if (two === "|&" || two === ";;" || two === ";&" || two === "&>") decline();
    return this.line[this.pos++];
  }

  /**
   * One simple command: assignments, the program and its arguments, then its
   * redirections. A redirection before the program, a word after a
   * redirection, or a bare assignment with one are left to tree-sitter.
   * Returns whether it had redirections.
   */
  command(pipeline: number[], statementStart: number): boolean {
    const line = this.line;
    const start = this.pos;
    const cmd: SimpleCommand = {
      id: this.commands.length,
      text: "",
      start,
      words: [],
      assignments: [],
      standaloneAssignments: false,
      redirects: [],
      pipeIn: pipeline.length > 0,
      upstream: [...pipeline],
      substitutionOf: null,
      functionName: null,
      heredoc: null,
      herestring: null,
      background: false,
      loop: null,
    };
    // Where the last word ends: the command's text stops there, before its redirections.
    let end = start;
    const redirects: Redirect[] = [];
    while (true) {
      this.skipBlanks();
      if (this.pos >= line.length) break;
      const c = line[this.pos];
      if (c === ";" || (c === "&" && line[this.pos + 1] !== ">") || c === "|" || c === "#") break;
      if (this.atRedirect()) {
        if (cmd.words.length === 0) decline();
        const redirect = this.redirect();
        // tree-sitter drops a bare `-` before a numbered redirection (`cat - 2>&1`).
        if (redirect.fd !== null && cmd.words[cmd.words.length - 1].raw === "-") decline();
        redirects.push(redirect);
        continue;
      }
      if (redirects.length > 0) decline(); // tree-sitter reads `a >f b` its own way
      const scanned = this.word();
      const raw = line.slice(scanned.start, scanned.end);
      // `_2>>f`: whether the digits are a descriptor is tree-sitter's call.
      if (/\d/.test(raw[raw.length - 1]) && /[<>]/.test(line[scanned.end] ?? "")) decline();
      if (cmd.words.length === 0 && scanned.assignAt >= 0) {
        cmd.assignments.push(this.assignment(scanned));
      } else {
        if (cmd.words.length === 0 && (!PROGRAM_NAME.test(raw) || SPECIAL_PROGRAMS.has(raw))) {
          decline();
        }
        cmd.words.push(this.wordOf(scanned.start, scanned.end));
      }
      end = scanned.end;
    }
    if (cmd.words.length === 0 && cmd.assignments.length === 0) decline();
    cmd.standaloneAssignments = cmd.words.length === 0;
    cmd.text = line.slice(start, end).trim();
    this.commands.push(cmd);
    pipeline.push(cmd.id);
    // The redirections apply to this command and to every earlier one of its statement, and a
    // pipe after them is fed by all of those commands.
    if (redirects.length > 0) {
      pipeline.length = 0;
      for (let id = statementStart; id <= cmd.id; id++) {
        this.commands[id].redirects = [...redirects, ...this.commands[id].redirects];
        pipeline.push(id);
      }
    }
    return redirects.length > 0;
  }

  /** Whether a redirection starts here: `>`, `<`, `&>`, or digits right before one. */
  atRedirect(): boolean {
    const rest = this.line.slice(this.pos, this.pos + 12);
    return /^(?:\d*[<>]|&>)/.test(rest);
  }

  redirect(): Redirect {
    const line = this.line;
    const m = /^(\d*)(&>>|&>|>>|>\||>&|<&|>|<)/.exec(line.slice(this.pos, this.pos + 24));
    if (!m) decline();
    const fd = m[1] === "" ? null : Number(m[1]);
    const op = m[2];
    // tree-sitter reads `0<f` as a word and a redirection; a long number is no descriptor.
    if (fd !== null && (fd === 0 || op === "&>" || op === "&>>" || m[1].length > 4)) decline();
    this.pos += m[0].length;
    // `<<`, `<<<`, `<>`, `<(`, `>(`, `>>&` and the like are not plain.
    if (this.pos < line.length && /[<>&(|]/.test(line[this.pos])) decline();
    this.skipBlanks();
    if (this.pos >= line.length) decline();
    if (op === ">&" || op === "<&") {
      // Only a duplication to a numbered descriptor (`2>&1`, `>&2`).
      const digits = /^\d{1,4}(?=$|[ \t;&|])/.exec(line.slice(this.pos));
      if (!digits) decline();
      this.pos += digits[0].length;
      return { op, fd, target: null, dupFd: Number(digits[0]) };
    }
    const scanned = this.word();
    return { op, fd, target: this.wordOf(scanned.start, scanned.end) };
  }

  /**
   * Scan one word, ending at a blank, an operator or the line's end. Quotes
   * and escapes are checked here; anything not plain is a doubt.
   */
  word(): ScannedWord {
    const line = this.line;
    const start = this.pos;
    let assignAt = -1;
    let plainSoFar = true; // no quote or escape before this point
    let quoted = false;
    let escaped = false;
    while (this.pos < line.length) {
      const c = line[this.pos];
      if (
        c === " " || c === "\t" || c === ";" || c === "|" || c === "&" || c === "<" || c === ">"
      ) {
        break;
      }
      if (c === "'") {
        const close = line.indexOf("'", this.pos + 1);
        if (close < 0 || !quotable(line.slice(this.pos + 1, close))) decline();
        this.pos = close + 1;
        plainSoFar = false;
        quoted = true;
      } else if (c === '"') {
        const close = line.indexOf('"', this.pos + 1);
        if (close < 0) decline();
        const body = line.slice(this.pos + 1, close);
        if (!quotable(body) || /[$`\\]/.test(body)) decline();
        this.pos = close + 1;
        plainSoFar = false;
        quoted = true;
      } else if (c === "\\") {
        const next = line[this.pos + 1];
        if (next === undefined || !/[\x20-\x7e]/.test(next)) decline();
        // tree-sitter reads a word that opens with an escaped blank (`\ x`) its own way.
        if (next === " " && this.pos === start) decline();
        this.pos += 2;
        plainSoFar = false;
        escaped = true;
      } else if (PLAIN_CHAR.test(c)) {
        if (c === "=" && plainSoFar && assignAt < 0) assignAt = this.pos;
        this.pos++;
      } else decline();
    }
    if (this.pos === start) decline();
    // tree-sitter splits `'a b'\;` into two words: quotes and escapes in one word are left to it.
    if (quoted && escaped) decline();
    return { start, end: this.pos, assignAt };
  }

  assignment(scanned: ScannedWord): Assignment {
    const name = this.line.slice(scanned.start, scanned.assignAt);
    if (!ASSIGNMENT_NAME.test(name)) decline();
    const valueStart = scanned.assignAt + 1;
    // An empty value right before an operator (`a=|b`, `a=||b`) is read as more than it is.
    if (valueStart === scanned.end && !/^(?:[ \t;]|$)/.test(this.line.slice(valueStart))) decline();
    // tree-sitter ends a value at an escape after a quote (`A='x y'\!`): left to it.
    if (this.line.slice(valueStart, scanned.end).includes("\\")) decline();
    return {
      name,
      value: valueStart < scanned.end ? this.wordOf(valueStart, scanned.end) : null,
    };
  }

  /** The Word for `line[start, end)`, which `word()` has already checked. */
  wordOf(start: number, end: number): Word {
    const line = this.line;
    const segs: Segment[] = [];
    let i = start;
    let unquotedFrom = start;
    const flushUnquoted = (to: number) => {
      if (to > unquotedFrom) segs.push(...splitUnquoted(line.slice(unquotedFrom, to), false));
    };
    while (i < end) {
      const c = line[i];
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c === "'" || c === '"') {
        flushUnquoted(i);
        const close = line.indexOf(c, i + 1);
        segs.push({ kind: "lit", text: line.slice(i + 1, close), quoted: true });
        i = close + 1;
        unquotedFrom = i;
        continue;
      }
      i++;
    }
    flushUnquoted(end);
    return { raw: line.slice(start, end), segs: mergeLits(segs) };
  }
}

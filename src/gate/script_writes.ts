/**
 * What the little languages of text tools write and run: a sed script's `w`
 * files, its `s///w` flags and `e` commands; an awk program's `print > file`,
 * `print | "cmd"`, `system()` and `getline` from a command. Each is read by
 * its own grammar, so a `w` inside a regular expression or a `>` used as a
 * comparison is not taken for a write, and a write spelled any way the
 * language allows is. Pure text in, pure data out.
 */
import type { Segment, Word } from "./words.ts";

/** What a script does beyond reading its input and printing. */
export interface ScriptEffects {
  /** Files it writes, as words (unknown parts of a name are a `*` glob). */
  writes: Word[];
  /** It runs shell commands (sed's `e`, awk's `system`, pipes to or from a command). */
  runs: boolean;
  /**
   * The command lines it runs when they are written in the script (sed's `e CMD`, the
   * replacement of `s///e`, awk's `print | "CMD"`), for a reader that rates payloads; a command
   * taken from the input (`e` alone) is not here, only `runs`.
   */
  commands?: string[];
}

const UNKNOWN: Segment = { kind: "glob", text: "*" };

function word(segs: Segment[], raw: string): Word {
  return { raw, segs: segs.length ? segs : [UNKNOWN] };
}

function lit(text: string): Segment {
  return { kind: "lit", text, quoted: true };
}

// -- sed ----------------------------------------------------------------------

/** Commands that take no argument. */
const SED_BARE = new Set("=dDgGhHnNpPxzF}".split(""));

/**
 * Read a sed script (GNU syntax, which is a superset of the others for what matters here): the
 * files its `w`/`W` commands and `s///w` flags write, and whether an `e` command or flag runs
 * shell commands.
 */
export function sedEffects(script: string, pieces: Segment[] = []): ScriptEffects {
  const out: ScriptEffects = { writes: [], runs: false };
  const s = script;
  let i = 0;
  const n = s.length;
  const restOfLine = (): string => {
    let j = i;
    while (j < n && s[j] !== "\n") j++;
    const text = s.slice(i, j);
    i = j;
    return text;
  };
  const skipBlanks = () => {
    while (i < n && (s[i] === " " || s[i] === "\t")) i++;
  };
  /** Skip a delimited part (`/re/`, `\cREc`); returns false when it does not end. */
  const delimited = (delim: string): boolean => {
    while (i < n) {
      const c = s[i];
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c === "\n" && delim !== "\n") return false;
      i++;
      if (c === delim) return true;
    }
    return false;
  };
  const address = () => {
    skipBlanks();
    if (s[i] === "/") {
      i++;
      delimited("/");
    } else if (s[i] === "\\" && i + 1 < n) {
      const d = s[i + 1];
      i += 2;
      delimited(d);
    } else if (s[i] === "$") i++;
    else while (i < n && /[0-9~+]/.test(s[i])) i++;
    // Regex address flags (I, M).
    while (i < n && (s[i] === "I" || s[i] === "M")) i++;
  };
  for (let guard = 0; i < n && guard < 100_000; guard++) {
    skipBlanks();
    const c = s[i];
    if (c === undefined) break;
    if (c === ";" || c === "\n" || c === "{" || c === "}" || c === "!" || c === " ") {
      i++;
      continue;
    }
    if (c === "#") {
      restOfLine();
      continue;
    }
    if (c === "/" || c === "\\" || c === "$" || /[0-9]/.test(c)) {
      address();
      skipBlanks();
      if (s[i] === ",") {
        i++;
        address();
      }
      continue;
    }
    i++;
    if (SED_BARE.has(c)) continue;
    switch (c) {
      case "s": {
        const d = s[i];
        if (d === undefined || d === "\n" || d === "\\") return out;
        i++;
        if (!delimited(d)) return out;
        const from = i;
        if (!delimited(d)) return out;
        const replacement = s.slice(from, i - 1);
        // Flags: g p i I m M e, a number, then w FILE to the end of the line.
        while (i < n && /[gpiImMe0-9]/.test(s[i])) {
          if (s[i] === "e") {
            out.runs = true;
            // The replacement is run as a command (with the matched text in it).
            (out.commands ??= []).push(replacement);
          }
          i++;
        }
        if (s[i] === "w") {
          i++;
          skipBlanks();
          const file = restOfLine();
          if (file) out.writes.push(sedFile(file, pieces));
        }
        break;
      }
      case "y": {
        const d = s[i];
        if (d === undefined || d === "\n") return out;
        i++;
        if (!delimited(d) || !delimited(d)) return out;
        break;
      }
      case "w":
      case "W": {
        skipBlanks();
        const file = restOfLine();
        if (file) out.writes.push(sedFile(file, pieces));
        break;
      }
      case "e": {
        out.runs = true;
        skipBlanks();
        const command = restOfLine().trim();
        if (command) (out.commands ??= []).push(command);
        break;
      }
      case "r":
      case "R":
      case "a":
      case "i":
      case "c":
      case ":":
        // Text or a file name to the end of the line (a\ continues on the next lines).
        while (i < n) {
          const line = restOfLine();
          if (!line.endsWith("\\") || i >= n) break;
          i++;
        }
        break;
      case "b":
      case "t":
      case "T":
      case "q":
      case "Q":
      case "l":
      case "L":
      case "v":
        while (i < n && s[i] !== ";" && s[i] !== "\n" && s[i] !== "}") i++;
        break;
      default:
        // Not a sed command: sed refuses the script, so it writes and runs nothing.
        return out;
    }
  }
  return out;
}

/**
 * A file name from the script. Pieces of the shell word that were not literal (`$HOME`) stand in
 * the script as `\u0001N\u0001`; they are put back, so the name resolves as the shell would.
 */
function sedFile(name: string, pieces: Segment[]): Word {
  const segs: Segment[] = [];
  for (const [k, text] of name.split("\u0001").entries()) {
    if (k % 2 === 0) {
      if (text) segs.push(lit(text));
    } else segs.push(pieces[Number(text)] ?? UNKNOWN);
  }
  return word(segs, name);
}

// -- awk ----------------------------------------------------------------------

/**
 * Read an awk program: the files its print and printf statements redirect into (`>`, `>>`),
 * and whether it runs commands (`| "cmd"`, `|&`, `"cmd" | getline`, `system(…)`). A target
 * expression is evaluated as far as it can be: string constants, `ENVIRON["NAME"]` (a variable
 * of the command's environment) and variables given with `-v` are known; anything else is an
 * unknown part of the name.
 *
 * `assigned` holds the words of `-v name=value` options (after the `=`).
 */
export function awkEffects(
  program: string,
  assigned: Map<string, Word> = new Map(),
): ScriptEffects {
  const out: ScriptEffects = { writes: [], runs: false };
  const tokens = awkTokens(program);
  if (/\bsystem\s*\(/.test(program.replace(/"(?:[^"\\\n]|\\.)*"/g, '""'))) out.runs = true;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind === "op" && (t.text === "|" || t.text === "|&")) {
      // print | "cmd", "cmd" | getline, cmd |& getline: a command runs either way.
      out.runs = true;
      const after = tokens[k + 1];
      const before = tokens[k - 1];
      if (after?.kind === "string" && tokens[k + 2]?.text !== "getline") {
        (out.commands ??= []).push(after.text);
      } else if (before?.kind === "string" && after?.text === "getline") {
        (out.commands ??= []).push(before.text);
      }
    }
    if (t.kind !== "name" || (t.text !== "print" && t.text !== "printf")) continue;
    // The statement runs to ; } or a newline at its own depth; a > at that depth redirects.
    let depth = 0;
    let j = k + 1;
    for (; j < tokens.length; j++) {
      const u = tokens[j];
      if (u.kind === "open") depth++;
      else if (u.kind === "close") {
        if (depth === 0) break;
        depth--;
      } else if (depth === 0 && u.kind === "end") break;
      else if (u.kind === "op" && (u.text === "|" || u.text === "|&")) {
        out.runs = true;
        if (tokens[j + 1]?.kind === "string") (out.commands ??= []).push(tokens[j + 1].text);
      } else if (depth === 0 && u.kind === "op" && (u.text === ">" || u.text === ">>")) {
        const target: AwkToken[] = [];
        let d = 0;
        for (j = j + 1; j < tokens.length; j++) {
          const v = tokens[j];
          if (v.kind === "open") d++;
          else if (v.kind === "close") {
            if (d === 0) break;
            d--;
          } else if (d === 0 && v.kind === "end") break;
          target.push(v);
        }
        out.writes.push(awkTarget(target, assigned));
        break;
      }
    }
    k = j - 1;
  }
  return out;
}

interface AwkToken {
  kind: "string" | "name" | "op" | "open" | "close" | "end" | "other";
  text: string;
}

/** Split an awk program into the tokens the reader needs; regular expressions are skipped. */
function awkTokens(src: string): AwkToken[] {
  const out: AwkToken[] = [];
  const n = Math.min(src.length, 64 * 1024);
  let i = 0;
  // A `/` starts a regular expression unless it follows an operand.
  const operandBefore = () => {
    const last = out[out.length - 1];
    return !!last &&
      (last.kind === "string" || last.kind === "close" ||
        (last.kind === "name" && !/^(print|printf|return|in|getline)$/.test(last.text)) ||
        (last.kind === "other" && /[0-9$\]]$/.test(last.text)));
  };
  while (i < n) {
    const c = src[i];
    if (c === "\\" && src[i + 1] === "\n") {
      i += 2;
      continue;
    }
    if (c === " " || c === "\t") {
      i++;
      continue;
    }
    if (c === "\n" || c === ";") {
      out.push({ kind: "end", text: c });
      i++;
      continue;
    }
    if (c === "#") {
      while (i < n && src[i] !== "\n") i++;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let text = "";
      while (j < n && src[j] !== '"') {
        if (src[j] === "\\" && j + 1 < n) {
          const e = src[j + 1];
          text += e === "n" ? "\n" : e === "t" ? "\t" : e;
          j += 2;
        } else text += src[j++];
      }
      out.push({ kind: "string", text });
      i = j + 1;
      continue;
    }
    if (c === "/" && !operandBefore()) {
      let j = i + 1;
      let inClass = false;
      while (j < n && src[j] !== "\n") {
        if (src[j] === "\\") j++;
        else if (src[j] === "[") inClass = true;
        else if (src[j] === "]") inClass = false;
        else if (src[j] === "/" && !inClass) break;
        j++;
      }
      out.push({ kind: "other", text: "/re/" });
      i = j + 1;
      continue;
    }
    if (c === "(" || c === "[" || c === "{") {
      out.push({ kind: "open", text: c });
      i++;
      continue;
    }
    if (c === ")" || c === "]" || c === "}") {
      // A closing brace ends a statement as well as a block.
      out.push({ kind: "close", text: c });
      i++;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < n && /\w/.test(src[j])) j++;
      out.push({ kind: "name", text: src.slice(i, j) });
      i = j;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (two === ">>" || two === "|&" || two === "||" || two === ">=" || two === "&&") {
      out.push({ kind: "op", text: two });
      i += 2;
      continue;
    }
    if (c === ">" || c === "|") {
      out.push({ kind: "op", text: c });
      i++;
      continue;
    }
    out.push({ kind: "other", text: c });
    i++;
  }
  return out;
}

/** An awk target expression as a path word: the parts known before it runs, `*` for the rest. */
function awkTarget(tokens: AwkToken[], assigned: Map<string, Word>): Word {
  const segs: Segment[] = [];
  const unknown = () => {
    if (segs[segs.length - 1] !== UNKNOWN) segs.push(UNKNOWN);
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind === "string") segs.push(lit(t.text));
    else if (
      t.kind === "name" && t.text === "ENVIRON" && tokens[k + 1]?.text === "[" &&
      tokens[k + 2]?.kind === "string" && tokens[k + 3]?.text === "]"
    ) {
      segs.push({ kind: "var", name: tokens[k + 2].text, quoted: true, plain: true });
      k += 3;
    } else if (t.kind === "name" && assigned.has(t.text)) {
      segs.push(...assigned.get(t.text)!.segs);
    } else if (t.kind === "open" || t.kind === "close") continue;
    else unknown();
  }
  return word(
    segs,
    tokens.map((t) => (t.kind === "string" ? JSON.stringify(t.text) : t.text)).join(" "),
  );
}

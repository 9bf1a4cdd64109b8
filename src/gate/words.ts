/**
 * A shell word as the gate sees it: the pieces it is made of (literal text
 * with quotes and escapes resolved, variables, substitutions, globs, a
 * leading tilde) and the helpers that turn it into a value when it can be
 * known before the command runs.
 */
import { isAbsolute, normalize, resolve } from "../util/path.ts";
import { homeOfUser } from "./user_homes.ts";

export type Segment =
  | { kind: "lit"; text: string; quoted: boolean }
  | { kind: "var"; name: string; quoted: boolean; plain: boolean }
  | { kind: "sub"; text: string; quoted: boolean }
  | { kind: "arith"; text: string }
  | { kind: "glob"; text: string }
  | { kind: "tilde"; user: string };

export interface Word {
  /** The word as written. */
  raw: string;
  segs: Segment[];
}

export function litWord(text: string): Word {
  return { raw: text, segs: [{ kind: "lit", text, quoted: true }] };
}

/** The word's value when it holds only literal text (quotes and escapes resolved). */
export function literal(word: Word): string | undefined {
  let out = "";
  for (const seg of word.segs) {
    if (seg.kind !== "lit") return undefined;
    out += seg.text;
  }
  return out;
}

/** True when part of the word is only known when the command runs. */
export function isDynamic(word: Word): boolean {
  return word.segs.some((s) => s.kind === "var" || s.kind === "sub" || s.kind === "arith");
}

export function hasGlob(word: Word): boolean {
  return word.segs.some((s) => s.kind === "glob");
}

/**
 * What a person would read: literal text resolved, everything else as
 * written. Used for argv, patterns and matching.
 */
export function display(word: Word): string {
  let out = "";
  for (const seg of word.segs) {
    switch (seg.kind) {
      case "lit":
        out += seg.text;
        break;
      case "var":
        out += seg.plain ? `$${seg.name}` : `\${${seg.name}…}`;
        break;
      case "sub":
      case "arith":
      case "glob":
        out += seg.text;
        break;
      case "tilde":
        out += "~" + seg.user;
        break;
    }
  }
  return out;
}

/** Variables whose values the gate knows (from the environment or the line itself). */
export type Vars = Map<string, { value: string } | { tainted: string }>;

export interface Resolved {
  /** The value, with unknown parts left out. */
  value: string;
  /** Some part could not be known. */
  unknown: boolean;
  /** The value is a glob pattern (as a regular expression source), when it has one. */
  globRegex?: string;
  /** A variable used in the word holds something downloaded or decoded. */
  tainted?: string;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Translate one glob piece (`*`, `?`, `[…]`, `{a,b}`) into regular-expression source. */
export function globToRegex(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const close = text.indexOf("]", i + 2);
      if (close < 0) {
        out += "\\[";
        continue;
      }
      let body = text.slice(i + 1, close);
      if (body.startsWith("!")) body = "^" + body.slice(1);
      out += "[" + body.replace(/\\/g, "\\\\") + "]";
      i = close;
    } else if (c === "{") {
      const close = text.indexOf("}", i);
      if (close < 0) {
        out += "\\{";
        continue;
      }
      const body = text.slice(i + 1, close);
      const range = /^(-?\w+)\.\.(-?\w+)$/.exec(body);
      out += range ? "[^/]*" : "(?:" + body.split(",").map((b) => globToRegex(b)).join("|") + ")";
      i = close;
    } else out += escapeRegex(c);
  }
  return out;
}

let substitutionValue: ((text: string) => string | undefined) | undefined;

/**
 * How to know what a substitution prints when that can be known before it
 * runs (`$(echo ~/.wisp)`); set by the analysis, which can parse.
 */
export function setSubstitutionResolver(fn: (text: string) => string | undefined): void {
  substitutionValue = fn;
}

/** The most wildcards a pattern keeps before it is taken as matching anything. */
const MAX_WILDCARDS = 6;

/**
 * Keep a glob's regular expression cheap to run: adjacent wildcards become
 * one, and a pattern with many is taken as matching anything (which errs on
 * the side of refusing), so no line can make the gate backtrack for long.
 */
function boundedRegex(source: string): string {
  const collapsed = source.replace(
    /(?:\[\^\/\]\*|\.\*)+/g,
    (run) => (run.includes(".*") ? ".*" : "[^/]*"),
  );
  const wildcards = (collapsed.match(/\[\^\/\]\*|\.\*|\[\^\/\]|\[[^\]]*\]/g) ?? []).length;
  return wildcards > MAX_WILDCARDS ? ".*" : collapsed;
}

/** Resolve a word against known variables and the user's home. */
export function resolveWord(word: Word, vars: Vars, userHome: string): Resolved {
  let value = "";
  let unknown = false;
  let regex = "";
  let glob = false;
  // The regular expression is only returned for a glob: other words skip escaping their text.
  const withRegex = word.segs.some((seg) => seg.kind === "glob");
  let tainted: string | undefined;
  for (const seg of word.segs) {
    switch (seg.kind) {
      case "lit":
        value += seg.text;
        if (withRegex) regex += escapeRegex(seg.text);
        break;
      case "tilde": {
        const home = seg.user === "" ? userHome : homeOfUser(seg.user, userHome);
        value += home;
        if (withRegex) regex += escapeRegex(home);
        break;
      }
      case "var": {
        const known = seg.plain ? vars.get(seg.name) : undefined;
        const anyKnown = vars.get(seg.name);
        if (known && "value" in known) {
          value += known.value;
          if (withRegex) regex += escapeRegex(known.value);
        } else if (!seg.plain && anyKnown && "value" in anyKnown && anyKnown.value !== "") {
          // ${HOME:?}, ${HOME%/}, ${HOME:-/}: most likely the variable's value, but not surely.
          value += anyKnown.value;
          if (withRegex) regex += escapeRegex(anyKnown.value) + ".*";
          unknown = true;
        } else {
          if (known && "tainted" in known) tainted = known.tainted;
          const v = vars.get(seg.name);
          if (!seg.plain && v && "tainted" in v) tainted = v.tainted;
          unknown = true;
          if (withRegex) regex += ".*";
        }
        break;
      }
      case "sub": {
        const known = substitutionValue?.(seg.text);
        if (known !== undefined) {
          const v = known.startsWith("~") ? userHome + known.slice(1) : known;
          value += v;
          if (withRegex) regex += escapeRegex(v);
        } else {
          unknown = true;
          if (withRegex) regex += ".*";
        }
        break;
      }
      case "arith":
        unknown = true;
        if (withRegex) regex += ".*";
        break;
      case "glob":
        glob = true;
        value += seg.text;
        if (withRegex) regex += globToRegex(seg.text);
        break;
    }
  }
  if (glob) regex = boundedRegex(regex);
  return { value, unknown, ...(glob ? { globRegex: regex } : {}), ...(tainted ? { tainted } : {}) };
}

/** An absolute, normalised path for a resolved value, relative values taken from cwd. */
export function absolutePath(value: string, cwd: string): string {
  const path = isAbsolute(value) ? normalize(value) : resolve(cwd, value);
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

/** The index of the `}` that closes the `{` at `open`, nesting counted; -1 when none. */
export function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/** Decode the escapes of a $'…' string. */
export function decodeAnsiC(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== "\\" || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[++i];
    const simple: Record<string, string> = {
      n: "\n",
      t: "\t",
      r: "\r",
      a: "\x07",
      b: "\b",
      e: "\x1b",
      E: "\x1b",
      f: "\f",
      v: "\v",
      "\\": "\\",
      "'": "'",
      '"': '"',
      "?": "?",
    };
    if (n in simple) out += simple[n];
    else if (n === "x") {
      const m = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1));
      if (m) {
        out += String.fromCharCode(parseInt(m[0], 16));
        i += m[0].length;
      } else out += "\\x";
    } else if (n === "u" || n === "U") {
      const m = new RegExp(`^[0-9a-fA-F]{1,${n === "u" ? 4 : 8}}`).exec(body.slice(i + 1));
      if (m) {
        out += String.fromCodePoint(parseInt(m[0], 16));
        i += m[0].length;
      } else out += "\\" + n;
    } else if (/[0-7]/.test(n)) {
      const m = /^[0-7]{1,3}/.exec(body.slice(i));
      out += String.fromCharCode(parseInt(m![0], 8));
      i += m![0].length - 1;
    } else if (n === "c" && i + 1 < body.length) {
      out += String.fromCharCode(body.charCodeAt(++i) & 0x1f);
    } else out += "\\" + n;
  }
  return out;
}

/** Resolve backslashes inside double quotes: only \$ \` \" \\ and a newline are escapes. */
export function decodeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, c: string) => c === "\n" ? "" : c);
}

/**
 * Split an unquoted word's text into literal, glob and tilde pieces, with
 * backslash escapes resolved.
 */
export function splitUnquoted(text: string, atStart: boolean): Segment[] {
  const segs: Segment[] = [];
  let lit = "";
  const flush = () => {
    if (lit) segs.push({ kind: "lit", text: lit, quoted: false });
    lit = "";
  };
  let i = 0;
  if (atStart && text.startsWith("~")) {
    const m = /^~([A-Za-z0-9._-]*)(?=\/|$)/.exec(text);
    if (m) {
      segs.push({ kind: "tilde", user: m[1] });
      i = m[0].length;
    }
  }
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      if (i + 1 < text.length) {
        const n = text[++i];
        if (n !== "\n") lit += n;
      }
      continue;
    }
    if (c === "*" || c === "?") {
      flush();
      segs.push({ kind: "glob", text: c });
      continue;
    }
    if (c === "[") {
      const close = text.indexOf("]", i + 2);
      if (close > 0) {
        flush();
        segs.push({ kind: "glob", text: text.slice(i, close + 1) });
        i = close;
        continue;
      }
    }
    if (c === "{") {
      const close = closingBrace(text, i);
      const body = close > 0 ? text.slice(i + 1, close) : "";
      if (close > 0 && (body.includes(",") || /^-?\w+\.\.-?\w+(\.\.-?\d+)?$/.test(body))) {
        flush();
        segs.push({ kind: "glob", text: text.slice(i, close + 1) });
        i = close;
        continue;
      }
    }
    lit += c;
  }
  flush();
  return segs;
}

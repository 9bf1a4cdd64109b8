/**
 * Normalisers: how two names under one kind are found to be the same fact,
 * so a newer value replaces the older one instead of sitting beside it.
 * Each turns a name into a key; the name as written is kept for display.
 *
 *   casefold  case and runs of white space do not matter;
 *   trim      only the white space around and inside does;
 *   single    one fact of the kind per conversation (every name is one);
 *   command   a command line's core: the program and its arguments, without
 *             leading `cd … &&` steps, variable assignments, redirections
 *             and the pipes that only trim its output (`| tail -3`);
 *   path      a path relative to the root of the git repository it lies in
 *             (absolute when it lies in none).
 *
 * Pure apart from `path`, which asks the injected `repoRootOf` where a
 * repository starts.
 */
import { dirname, isAbsolute, normalize, relative, resolve } from "node:path";
import type { NormaliserName } from "./kinds.ts";

/** What a normaliser may need beyond the name. */
export interface NormaliseContext {
  /** The directory relative paths start from. */
  cwd?: string;
  /** The git repository root a directory lies in, or undefined. */
  repoRootOf?: (dir: string) => string | undefined;
}

function collapse(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}

/** Split a command line into top-level words and operators, keeping quotes intact. */
export function shellTokens(line: string): string[] {
  const tokens: string[] = [];
  let word = "";
  let quote: string | undefined;
  const flush = () => {
    if (word !== "") tokens.push(word);
    word = "";
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      word += ch;
      if (ch === "\\" && quote === '"' && i + 1 < line.length) word += line[++i];
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      word += ch;
    } else if (ch === "\\" && i + 1 < line.length) {
      word += ch + line[++i];
    } else if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") {
      flush();
    } else if (ch === "&" && line[i + 1] === "&") {
      flush();
      tokens.push("&&");
      i++;
    } else if (ch === "|" && line[i + 1] === "|") {
      flush();
      tokens.push("||");
      i++;
    } else if (ch === "|" || ch === ";") {
      flush();
      tokens.push(ch);
    } else if (ch === "&" && line[i - 1] !== ">" && line[i + 1] !== ">") {
      flush();
      tokens.push("&");
    } else {
      word += ch;
    }
  }
  flush();
  return tokens;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** A redirection written as one word (`2>&1`, `>out.txt`, `<in`), or one that takes the next word. */
const REDIRECT_WHOLE = /^\d*(>>?|<)(&\d+|\S+)$|^&>>?\S+$/;
const REDIRECT_ALONE = /^(\d*(>>?|<)|&>>?)$/;
/** Steps that only move or prepare, never the command's point. */
const PREPARATION = new Set(["cd", "pushd", "popd", "export", "set", "source", ".", "true"]);
/** Programs that only trim or page another's output. */
const OUTPUT_TRIMMERS = new Set([
  "tail",
  "head",
  "less",
  "more",
  "cat",
  "tee",
  "grep",
  "sort",
  "uniq",
  "wc",
]);

/** The words of one simple command without assignments in front and redirections anywhere. */
function coreWords(words: string[]): string[] {
  const out: string[] = [];
  let skipNext = false;
  for (const word of words) {
    if (skipNext) {
      skipNext = false;
      continue;
    }
    if (out.length === 0 && ASSIGNMENT.test(word)) continue;
    if (REDIRECT_ALONE.test(word)) {
      skipNext = true;
      continue;
    }
    if (REDIRECT_WHOLE.test(word)) continue;
    out.push(word);
  }
  if (out[0] === "env") {
    // `env A=1 B=2 cmd …`: the assignments are not the command.
    let i = 1;
    while (i < out.length && ASSIGNMENT.test(out[i])) i++;
    return out.slice(i);
  }
  return out;
}

/**
 * A command line's core (see the module comment): the last step of its
 * `&&`/`;` chain that is not a preparation, with its pipeline cut before
 * the programs that only trim output, as one space-separated line.
 */
export function commandCore(line: string): string {
  const steps: string[][][] = [[[]]];
  for (const token of shellTokens(line)) {
    if (token === "&&" || token === "||" || token === ";" || token === "&") {
      steps.push([[]]);
    } else if (token === "|") {
      steps[steps.length - 1].push([]);
    } else {
      const pipeline = steps[steps.length - 1];
      pipeline[pipeline.length - 1].push(token);
    }
  }
  const chosen = steps
    .map((pipeline) => pipeline.map(coreWords).filter((words) => words.length > 0))
    .filter((pipeline) => pipeline.length > 0)
    .filter((pipeline) => !PREPARATION.has(pipeline[0][0]));
  const last = chosen[chosen.length - 1];
  if (!last) return collapse(line);
  const kept = [last[0]];
  for (const stage of last.slice(1)) {
    if (OUTPUT_TRIMMERS.has(stage[0])) break;
    kept.push(stage);
  }
  return kept.map((words) => words.join(" ")).join(" | ");
}

/** A path relative to its repository's root (see the module comment). */
export function pathKey(name: string, context: NormaliseContext): string {
  const trimmed = name.trim().replace(/^~(?=\/|$)/, Deno.env.get("HOME") ?? "~");
  const base = context.cwd ?? "/";
  const full = normalize(isAbsolute(trimmed) ? trimmed : resolve(base, trimmed));
  const root = context.repoRootOf?.(isAbsolute(trimmed) ? dirname(full) : base) ??
    context.repoRootOf?.(dirname(full));
  if (root && (full === root || full.startsWith(root.endsWith("/") ? root : root + "/"))) {
    return relative(root, full) || ".";
  }
  return full.length > 1 ? full.replace(/\/+$/, "") : full;
}

/** The key a name has under a normaliser. */
export function normaliseName(
  normaliser: NormaliserName,
  name: string,
  context: NormaliseContext = {},
): string {
  switch (normaliser) {
    case "casefold":
      return collapse(name).toLowerCase();
    case "trim":
      return collapse(name);
    case "single":
      return "";
    case "command":
      return commandCore(name);
    case "path":
      return pathKey(name, context);
  }
}

/** The git repository root `dir` lies in (the nearest folder holding `.git`), or undefined. */
export function gitRootOf(dir: string): string | undefined {
  let current = resolve(dir);
  for (let depth = 0; depth < 64; depth++) {
    try {
      Deno.statSync(resolve(current, ".git"));
      return current;
    } catch { /* not here */ }
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
  return undefined;
}

/**
 * Splitting a command line into its simple commands: each keeps its words
 * (quotes and escapes resolved where they can be), its assignments and
 * redirections, and where its input comes from.
 *
 * Two readers give the same answer. The quick reader (quick_parse.ts) takes
 * the plain shell most lines are and declines anything else; tree-sitter-bash
 * (parse_tree.ts) reads everything, but loading it starts Deno's Node layer
 * and compiles a large WebAssembly grammar, so it is imported only when a line
 * is declined. A line that does not parse cleanly is reported as such: the
 * gate fails closed on it.
 */
import { quickParse } from "./quick_parse.ts";
import type { Word } from "./words.ts";

export interface Assignment {
  name: string;
  value: Word | null;
}

export interface Redirect {
  /** The operator: > >> >| &> &>> < <& >& <<< << <<- */
  op: string;
  fd: number | null;
  /** The target word; null for a here-doc or an fd duplication. */
  target: Word | null;
  /** For >& and <&: the fd duplicated. */
  dupFd?: number;
}

export interface SimpleCommand {
  id: number;
  /** Source text of the command (with its own redirections). */
  text: string;
  start: number;
  /** Program and arguments. Empty for a bare assignment. */
  words: Word[];
  assignments: Assignment[];
  /** Whether the assignments stand alone (X=1; export X=1) or prefix the program. */
  standaloneAssignments: boolean;
  redirects: Redirect[];
  /** stdin comes from a pipe. */
  pipeIn: boolean;
  /** Commands earlier in the same pipeline (they feed this one). */
  upstream: number[];
  /** Runs inside $(…), `…`, <(…) or >(…) of the command `substitutionOf`. */
  substitutionOf: number | null;
  /** Inside the body of a function of this name (runs only when called). */
  functionName: string | null;
  /** Input from a here-doc: its body, and whether the shell expands it. */
  heredoc: { body: string; expands: boolean } | null;
  /** Input from a here-string. */
  herestring: Word | null;
  /** Started in the background (`cmd &`, or inside a list or block that is). */
  background: boolean;
  /** The innermost loop it runs in, if any. */
  loop: Loop | null;
}

/** A loop around a command: one with no end (`while true`, `for ((;;))`), or how many rounds. */
export interface Loop {
  endless: boolean;
  /** Rounds, when the list is written out (`for i in a b c`, `{1..500}`, `$(seq 1 500)`). */
  rounds: number | null;
}

export interface FunctionDef {
  name: string;
  /** Ids of the commands of its body. */
  body: number[];
}

export interface ParsedLine {
  line: string;
  /** False when the parser found an error: the gate refuses to guess. */
  ok: boolean;
  error?: string;
  commands: SimpleCommand[];
  functions: FunctionDef[];
}

/** The longest line the gate parses; a longer one is refused as unparseable. */
export const MAX_LINE_BYTES = 64 * 1024;

/** tree-sitter's reader, once loaded. */
let treeReader: typeof import("./parse_tree.ts") | undefined;
let treeLoading: Promise<void> | undefined;

/**
 * Load the full shell parser once per process (tree-sitter and its grammar,
 * taken through the common paths once). Only lines the quick reader declines
 * need it; `withShellParser` loads it when they come.
 */
export function initShellParser(): Promise<void> {
  if (!treeLoading) {
    treeLoading = (async () => {
      const reader = await import("./parse_tree.ts");
      await reader.loadTreeParser();
      treeReader = reader;
    })();
    treeLoading.catch(() => {
      treeLoading = undefined; // the next call tries again
    });
  }
  return treeLoading;
}

/**
 * Start loading the full parser now when `line` itself needs it (the quick
 * reader declines it), so the load runs beside the caller's other start-up
 * work instead of inside the check. A line the quick reader takes starts
 * nothing; a nested part that needs the parser is still handled by
 * `withShellParser`. A failure is reported by the check that needs the parser.
 */
export function startShellParserFor(line: string): void {
  if (treeReader || treeLoading) return;
  if (line.length > MAX_LINE_BYTES || line.includes("\0")) return; // refused without parsing
  const parsed = quickParse(line);
  if (parsed === undefined || parsed.commands.some(holdsDeclinedPayload)) {
    initShellParser().catch(() => {});
  }
}

/**
 * Whether a word of `command` looks like a line of its own (it holds a blank)
 * that the quick reader declines (`sh -c 'echo $HOME'`): the analysis will
 * likely parse it. Only
 * when the parser starts depends on this guess; what the gate decides does
 * not (withShellParser).
 */
function holdsDeclinedPayload(command: SimpleCommand): boolean {
  for (const word of command.words) {
    for (const seg of word.segs) {
      if (seg.kind !== "lit" || !/\s/.test(seg.text)) continue;
      if (quickParse(seg.text) === undefined) return true;
    }
  }
  return false;
}

/** Whether loading the full shell parser has begun in this process (or is done). */
export function shellParserStarted(): boolean {
  return treeLoading !== undefined;
}

/** Whether the full shell parser is loaded (a declined line can be parsed at once). */
export function shellParserReady(): boolean {
  return treeReader !== undefined;
}

/**
 * A parse needed the full parser before it was loaded. Thrown through the
 * work `withShellParser` runs, which loads the parser and runs it again; no
 * result built on a guess is ever kept.
 */
export class ShellParserNotReady extends Error {
  constructor() {
    super("the shell parser is not loaded; await initShellParser() first");
  }
}

/**
 * Run `work` (synchronous: a whole analysis of a line, with any nested parses
 * of payloads, hooks or substitutions it makes). When one of its parses
 * needed the full parser and it was not loaded, the parse threw
 * `ShellParserNotReady`: the parser is loaded and `work` runs again from the
 * start. So the result is the one a process with the parser loaded from the
 * start gives, and a line made only of plain parts never loads it.
 */
export async function withShellParser<T>(work: () => T): Promise<T> {
  try {
    return work();
  } catch (e) {
    if (!(e instanceof ShellParserNotReady)) throw e;
  }
  await initShellParser();
  return work();
}

/**
 * Parse a line: the quick reader first, tree-sitter when it declines. Throws
 * `ShellParserNotReady` when tree-sitter is needed but not loaded yet (run the
 * caller inside `withShellParser`, or await `initShellParser` first).
 */
export function parseLine(line: string): ParsedLine {
  if (line.length > MAX_LINE_BYTES) {
    return { line, ok: false, error: "the line is too long to check", commands: [], functions: [] };
  }
  if (line.includes("\0")) {
    return { line, ok: false, error: "the line holds a NUL byte", commands: [], functions: [] };
  }
  const quick = quickParse(line);
  if (quick) return quick;
  if (!treeReader) throw new ShellParserNotReady();
  return treeReader.treeParseLine(line);
}

/** Parse with tree-sitter alone (the differential tests compare the two readers with it). */
export function treeParse(line: string): ParsedLine {
  if (!treeReader) throw new ShellParserNotReady();
  return treeReader.treeParseLine(line);
}

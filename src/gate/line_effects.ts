/**
 * Effects of a line as a whole, which no single command shows: a file the
 * line writes and then runs (`echo '…' > x.sh; sh x.sh`), a download or a
 * decoded blob saved and then run (`curl -o f …; chmod +x f; ./f`, also after
 * a copy, a move or unpacking the archive), and processes started in the
 * background without end (`while true; do cmd & done`, a function that
 * starts itself in the background).
 *
 * The analysis (analyse.ts) keeps a LineFiles per line and asks it, command
 * by command, what each runs; a file whose text the line wrote itself is then
 * read as a payload, like `sh -c '…'`. The policy refuses running what was
 * downloaded or decoded; the rules rate running text the line produced but
 * whose content is not known.
 */
import { type Analysis, echoedText, feederKind, type Part, SHELLS } from "./analyse.ts";
import type { ParsedLine } from "./parse.ts";
import { isInterpreter } from "./rules.ts";
import { writeTargets } from "./targets.ts";
import { CODE_SCAN_LIMIT, dangerous, moderate, type Rating, RISKY_CODE } from "./programs.ts";
import {
  absolutePath,
  display,
  isDynamic,
  literal,
  litWord,
  resolveWord,
  type Word,
} from "./words.ts";

/** Where a file the line made came from. */
export type FileOrigin = "downloaded" | "decoded" | "cloned" | "written";

/** A file a part runs that the line itself made before it. */
export interface RanFile {
  /** The file as the line names it. */
  name: string;
  origin: FileOrigin;
  /** Its text, when the line wrote literal text into it. */
  content?: string;
}

interface Made {
  origin: FileOrigin;
  content?: string;
  /** Added to the end of the file (`>>`, `tee -a`). */
  append?: boolean;
}

/** Programs that only pass a file's text on. */
const READERS = /^(cat|head|tail|tac|more|less)$/;

/** Write targets that put a command's output or a copy into a file (not rm, chmod, touch…). */
const FILLS =
  /^(redirects output into|writes \(tee\)|downloads into|(cp|install|ln|rsync|ditto|gcp|moves) into|writes|unpacks into)/;

/** The files (and unpacked folders) a line made, in the order it made them. */
export class LineFiles {
  readonly #files = new Map<string, Made>();
  readonly #folders: Array<{ path: string; origin: FileOrigin }> = [];

  constructor(private readonly userHome: string) {}

  /** Keys a word is known by: its absolute path in each folder the part may run in, or its text. */
  #keys(word: Word, part: Part): string[] {
    const r = resolveWord(word, part.vars, this.userHome);
    if (r.unknown || r.globRegex) return [`word:${display(word)}`];
    return part.cwds.slice(0, 4).map((cwd) => absolutePath(r.value, cwd));
  }

  #find(word: Word, part: Part): Made | undefined {
    for (const key of this.#keys(word, part)) {
      const made = this.#files.get(key);
      if (made) return made;
      for (const f of this.#folders) {
        if (key.startsWith(f.path + "/")) return { origin: f.origin };
      }
    }
    return undefined;
  }

  /** Record what a part writes, once it has been analysed. */
  record(part: Part, parts: Map<number, Part[]>): void {
    if (this.#files.size > 256) return;
    const prog = part.program;
    // Copies and moves carry what their source was; unpacking carries it to a folder.
    let carried: Made | undefined;
    if (/^(cp|mv|install|ln|rsync|ditto|gcp|gmv)$/.test(prog)) {
      const operands = part.words.slice(1).filter((w) => !(literal(w) ?? "").startsWith("-"));
      for (const w of operands.slice(0, -1)) carried ??= this.#find(w, part);
      if (!carried) return;
      // `mv a b`: the last operand is the file itself (or the folder it lands in, below).
      const dest = operands[operands.length - 1];
      if (dest) { for (const key of this.#keys(dest, part)) this.#files.set(key, carried); }
    }
    if (prog === "git" && part.argv.includes("clone")) {
      // A repository cloned from elsewhere: running its scripts runs code from the network.
      const into = writeTargets(part).filter((t) => t.how === "clones into").map((t) => t.word);
      const url = part.argv.slice(part.argv.indexOf("clone") + 1).find((a) => /[:/]/.test(a));
      const name = url?.replace(/\/+$/, "").replace(/\.git$/, "").split(/[/:]/).pop();
      const dirs = into.length
        ? into.flatMap((w) => this.#keys(w, part))
        : name
        ? part.cwds.slice(0, 4).map((cwd) => absolutePath(name, cwd))
        : [];
      for (const d of dirs) this.#folders.push({ path: d, origin: "cloned" });
      return;
    }
    if (/^(tar|gtar|bsdtar|unzip)$/.test(prog)) {
      const upstream = part.cmd.upstream.flatMap((id) => parts.get(id) ?? []);
      const piped = upstream.map((u) => feederKind(u.words)).find((k) => k !== undefined);
      const archive = piped === "downloaded" || piped === "decoded"
        ? { origin: piped as FileOrigin }
        : part.words.slice(1).map((w) => this.#find(w, part)).find((m) => m);
      if (archive && archive.origin !== "written") {
        const into = writeTargets(part).filter((t) => t.how === "unpacks into").map((t) => t.word);
        const dirs = into.length ? into.flatMap((w) => this.#keys(w, part)) : part.cwds.slice(0, 4);
        for (const d of dirs) this.#folders.push({ path: d, origin: archive.origin });
      }
      return;
    }
    const targets = [...writeTargets(part), ...remoteNames(part)].filter((t) => FILLS.test(t.how));
    if (targets.length === 0) return;
    const upstream = part.cmd.upstream.flatMap((id) => parts.get(id) ?? []);
    const fed = feederKind(part.words) ??
      upstream.map((u) => feederKind(u.words)).find((k) => k !== undefined);
    for (const t of targets) {
      const captured = t.how.startsWith("redirects") || t.how.startsWith("writes (tee)");
      // A build's output file (-o app) is not text the line produced.
      if (!carried && !fed && !captured) continue;
      const made = carried ??
        (fed === "downloaded" || fed === "decoded"
          ? { origin: fed }
          : this.#written(part, t.how, upstream));
      for (const key of this.#keys(t.word, part)) {
        if (made.append) {
          // Appended text follows what the line wrote before; after anything else it is unknown.
          const before = this.#files.get(key);
          const content = before?.content !== undefined && made.content !== undefined
            ? `${before.content}\n${made.content}`
            : undefined;
          this.#files.set(key, { origin: "written", content });
        } else this.#files.set(key, made);
      }
    }
  }

  /** Text written by echo or printf, a here-doc into cat or tee, or echo piped into tee. */
  #written(part: Part, how: string, upstream: Part[]): Made {
    const append = how.startsWith("redirects")
      ? part.cmd.redirects.some((r) => r.op.includes(">>"))
      : part.argv.some((a) => /^-[a-z]*a/.test(a) || a === "--append");
    let content: string | undefined;
    if (how.startsWith("redirects")) content = echoed(part);
    if (
      (part.program === "cat" || part.program === "tee") && part.cmd.heredoc &&
      !(part.cmd.heredoc.expands && /[$`]/.test(part.cmd.heredoc.body))
    ) content = part.cmd.heredoc.body;
    if (part.program === "tee" && upstream.length === 1) content = echoed(upstream[0]);
    return { origin: "written", content, append };
  }

  /** The file this part runs, when the line made it before. */
  ranBy(part: Part, parts: Map<number, Part[]>, parsed: ParsedLine): RanFile | undefined {
    if (this.#files.size === 0 && this.#folders.length === 0) return undefined;
    for (const w of runsFiles(part, parts, parsed)) {
      const made = this.#find(w, part);
      if (made) return { name: display(w), ...made };
    }
    return undefined;
  }
}

function echoed(part: Part): string | undefined {
  if (part.program !== "echo" && part.program !== "printf") return undefined;
  if (part.words.some((w) => isDynamic(w))) return undefined;
  return echoedText(part.words);
}

/** curl -O and a plain wget save under the name the URL ends in. */
function remoteNames(part: Part): Array<{ word: Word; how: string }> {
  const argv = part.argv;
  const remote = (part.program === "curl" &&
    argv.some((a) =>
      /^-[a-zA-Z]*O[a-zA-Z]*$/.test(a) || a === "--remote-name" || a === "--remote-name-all"
    )) ||
    (part.program === "wget" &&
      !argv.some((a) => /^-[a-zA-Z]*O/.test(a) || a.startsWith("--output-document")));
  if (!remote) return [];
  const out: Array<{ word: Word; how: string }> = [];
  for (const a of argv.slice(1)) {
    const m = /^[a-z]+:\/\/[^/]+\/(?:.*\/)?([^/?#]+)(?:[?#].*)?$/i.exec(a);
    if (m) out.push({ word: litWord(m[1]), how: "downloads into" });
  }
  return out;
}

/** The files a part runs: the program named by a path, a script a shell or interpreter is given. */
function runsFiles(part: Part, parts: Map<number, Part[]>, parsed: ParsedLine): Word[] {
  const out: Word[] = [];
  const first = part.words[0];
  if (first && part.programPath.includes("/")) out.push(first);
  const prog = part.program;
  const shell = SHELLS.has(prog);
  const sources = prog === "source" || prog === ".";
  if ((shell && part.payloadKind === null) || sources || isInterpreter(prog)) {
    const args = part.words.slice(1);
    for (let i = 0; i < args.length; i++) {
      const l = literal(args[i]);
      if (l !== undefined && (l === "-c" || l === "-e" || l === "-m" || l === "--eval")) break;
      if (l !== undefined && /^[-+]o$/.test(l)) {
        i++;
        continue;
      }
      if (l !== undefined && (l.startsWith("-") || l.startsWith("+")) && !sources) continue;
      out.push(args[i]);
      break;
    }
    // `sh < f`, `cat f | sh`: the script comes in on stdin.
    for (const r of part.cmd.redirects) if (r.op === "<" && r.target) out.push(r.target);
    if (part.cmd.pipeIn) {
      for (const up of part.cmd.upstream.flatMap((id) => parts.get(id) ?? [])) {
        if (READERS.test(up.program)) {
          out.push(...up.words.slice(1).filter((w) => !(literal(w) ?? "").startsWith("-")));
        }
      }
    }
  }
  // sh -c "$(cat f)", eval "$(cat f)", source <(cat f): the file's text becomes the code.
  if (shell || sources || prog === "eval" || isInterpreter(prog)) {
    for (const c of parsed.commands) {
      if (c.substitutionOf !== part.cmd.id) continue;
      const name = literal(c.words[0] ?? litWord(""))?.split("/").pop() ?? "";
      if (READERS.test(name)) {
        out.push(...c.words.slice(1).filter((w) => !(literal(w) ?? "").startsWith("-")));
      }
    }
  }
  return out;
}

// -- processes without end ----------------------------------------------------------

/** Why the line starts processes without end (a fork bomb), or undefined. */
export function endlessSpawning(analysis: Analysis): string | undefined {
  for (const f of analysis.functions) {
    const selfCalls = f.parts.filter((p) => p.program === f.name);
    if (selfCalls.some((p) => p.cmd.background)) {
      return `the function ${f.name} starts itself in the background over and over (a fork bomb)`;
    }
  }
  for (const part of analysis.parts) {
    if (part.cmd.background && part.cmd.loop?.endless) {
      return `it starts ${
        part.program || "a process"
      } in the background on every round of a loop with no end`;
    }
  }
  return undefined;
}

/** How many background processes a loop may start before the line is dangerous. */
const MANY_ROUNDS = 1000;

/** A part started in the background on every round of a loop: moderate, dangerous for many. */
export function backgroundRating(part: Part): Rating | undefined {
  const loop = part.cmd.loop;
  if (!part.cmd.background || !loop) return undefined;
  const what = part.program || "a process";
  if (loop.rounds !== null && loop.rounds > MANY_ROUNDS) {
    return dangerous(`starts ${what} in the background ${loop.rounds} times at once`);
  }
  return moderate(`starts ${what} in the background on every round of a loop`);
}

/**
 * Whether the part runs a file's text as shell: a shell or `source` given it, or the file run
 * as a program with no `#!` line or one naming a shell.
 */
export function runsAsShell(part: Part, content: string): boolean {
  if (SHELLS.has(part.program) || part.program === "source" || part.program === ".") return true;
  if (!part.programPath.includes("/")) return false;
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(content);
  if (!shebang) return true;
  const runner = shebang[1].endsWith("/env") ? shebang[2] ?? "" : shebang[1];
  return SHELLS.has(runner.split("/").pop() ?? "");
}

/** What the rules say of a part that runs a file the line wrote itself. */
export function ranFileRating(part: Part): Rating | undefined {
  const ran = part.ranFile;
  if (ran?.origin === "cloned") {
    return dangerous(`runs ${ran.name}, code from a repository the line just cloned`);
  }
  if (!ran || ran.origin !== "written") return undefined;
  if (ran.content === undefined) {
    // An interpreter given generated code (`esbuild … > out.js; node out.js`) is rated as any
    // script it runs; shell text produced at run time is the evasion.
    if (isInterpreter(part.program)) return undefined;
    return dangerous(
      `runs ${ran.name}, which the line itself fills with text known only when it runs`,
    );
  }
  if (part.payloadKind === null && RISKY_CODE.test(ran.content.slice(0, CODE_SCAN_LIMIT))) {
    return dangerous(
      `runs ${ran.name}, code the line wrote that runs commands, deletes files or reaches the network`,
    );
  }
  return undefined;
}

/** Is this a payload kind made from a file the line wrote? */
export const WRITTEN_FILE_PAYLOAD = "a file the line wrote";

/**
 * Command words that are not plain words, read as bash reads them before it runs anything.
 *
 * - Brace expansion is static: `s{u,}do id` is `sudo sdo id`, `find . -{delete,print}` is
 *   `find . -delete -print`. It is done on every word before the line is rated.
 * - A glob in the program word (`/u*\/b*\/su?o`) is whatever file names match it when the line
 *   runs, so the program cannot be known: the part is rated as a program chosen at run time, and
 *   when the pattern could name a program the gate treats specially (one the policy refuses, a
 *   wrapper, a shell) it is taken to be that program, so that any refused expansion is refused.
 * - A glob in an option's name (`find . -del*`, `rm -[rf][rf]`) becomes whatever file names in
 *   the folder match it, which the line may itself create: such an option is dangerous.
 * - A path to a program outside the system's program folders (`./cat`, `../ls`, `/tmp/x/grep`)
 *   is whatever was put there, not the system program of that name.
 *
 * Pure: nothing here reads the file system.
 */
import { closingBrace, globToRegex, splitUnquoted, type Word } from "./words.ts";
import { PRIVILEGE } from "./programs.ts";
import { cachedRegExp } from "./regexes.ts";

/** The most words one word may expand to; a larger expansion is left as a glob. */
const MAX_BRACE_WORDS = 64;

/** The alternatives of a brace body split at its top-level commas (`a,{b,c}` → `a`, `{b,c}`). */
function topLevelCommas(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out;
}

/** `1..5`, `a..e`, `10..1..3` as bash expands them; undefined when it is not a range or too long. */
function expandRange(body: string): string[] | undefined {
  const m = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  if (!m) return undefined;
  const numeric = /\d/.test(m[1]) && /\d/.test(m[2]);
  if (!numeric && (/\d/.test(m[1]) || /\d/.test(m[2]))) return undefined;
  const from = numeric ? Number(m[1]) : m[1].charCodeAt(0);
  const to = numeric ? Number(m[2]) : m[2].charCodeAt(0);
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  const count = Math.floor(Math.abs(to - from) / step) + 1;
  if (count > MAX_BRACE_WORDS) return undefined;
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const v = from + (to >= from ? k : -k) * step;
    out.push(numeric ? String(v) : String.fromCharCode(v));
  }
  return out;
}

/** The texts a brace segment (`{u,}`, `{1..3}`) stands for; undefined when it is not one. */
function braceAlternatives(text: string): string[] | undefined {
  if (!text.startsWith("{") || closingBrace(text, 0) !== text.length - 1) return undefined;
  const body = text.slice(1, -1);
  const range = expandRange(body);
  if (range) return range;
  const alts = topLevelCommas(body);
  return alts.length > 1 ? alts : undefined;
}

/** One word brace-expanded as bash does it; the word itself when it holds no brace group. */
export function expandWordBraces(word: Word): Word[] {
  const at = word.segs.findIndex((s) => s.kind === "glob" && braceAlternatives(s.text));
  if (at < 0) return [word];
  // The words a word makes multiply with each group: give up before making them.
  let product = 1;
  for (const s of word.segs) {
    if (s.kind !== "glob") continue;
    product *= braceAlternatives(s.text)?.length ?? 1;
    if (product > MAX_BRACE_WORDS) return [word];
  }
  const seg = word.segs[at];
  const alts = braceAlternatives(seg.kind === "glob" ? seg.text : "")!;
  const out: Word[] = [];
  for (const alt of alts) {
    const segs = [
      ...word.segs.slice(0, at),
      ...splitUnquoted(alt, false),
      ...word.segs.slice(at + 1),
    ];
    // The alternative may hold more groups (`{a,b}{c,d}`, `{a,{b,c}}`): expand them in turn.
    for (const w of expandWordBraces({ raw: word.raw, segs })) {
      out.push(w);
      if (out.length > MAX_BRACE_WORDS) return [word];
    }
  }
  // bash drops a word that expands to nothing (`{,}` gives two empty words, then none).
  return out.filter((w) => w.segs.some((s) => s.kind !== "lit" || s.text !== ""));
}

/** Every word of a command brace-expanded. */
export function expandBraces(words: Word[]): Word[] {
  if (!words.some((w) => w.segs.some((s) => s.kind === "glob" && s.text.startsWith("{")))) {
    return words;
  }
  return words.flatMap(expandWordBraces);
}

/** Folders whose programs are the system's own (and a package manager's). */
const SYSTEM_PROGRAM_DIRS =
  /^\/(usr\/(local\/)?)?s?bin\/[^/]+$|^\/opt\/homebrew\/s?bin\/[^/]+$|^\/(opt\/local|run\/current-system\/sw|nix\/var\/nix\/profiles\/default|snap)\/s?bin\/[^/]+$|^\/usr\/(lib|libexec)\/git-core\/[^/]+$/;

/**
 * Whether a program word names the system's program: a bare name (looked up on PATH) or a path
 * into the system's program folders. `./cat`, `../ls`, `bin/git` and `/tmp/x/grep` are not.
 */
export function isSystemProgram(path: string): boolean {
  return !path.includes("/") || SYSTEM_PROGRAM_DIRS.test(path);
}

/** Where a program word without a slash may be found, for matching a glob that has one. */
const BIN_DIRS = ["/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/opt/homebrew/bin"];

/**
 * Programs a glob in the program word is tried against, most telling first: those the policy
 * refuses, then wrappers and shells (which run their arguments), then those whose arguments the
 * policy reads for a refusal.
 */
const GLOB_CANDIDATES: readonly string[] = [
  ...PRIVILEGE,
  "env",
  "command",
  "builtin",
  "exec",
  "eval",
  "nohup",
  "nice",
  "timeout",
  "xargs",
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "rm",
  "dd",
  "chmod",
  "chown",
  "mv",
  "find",
  "rsync",
  "shutdown",
  "reboot",
  "halt",
  "poweroff",
  "mkfs",
  "curl",
  "wget",
  "wisp",
];

/**
 * The program a program word holding a glob may stand for: the first candidate the glob matches,
 * by name or under a system program folder; undefined when the glob names none of them (it is
 * still a program chosen at run time). A glob with no literal text in its last part (`*`, `./*`)
 * matches anything and is not guessed at.
 */
export function globProgramCandidate(word: Word): string | undefined {
  let source = "";
  for (const seg of word.segs) {
    if (seg.kind === "lit") source += seg.text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    else if (seg.kind === "glob") source += globToRegex(seg.text);
    else return undefined;
  }
  const raw = word.segs.map((s) => (s.kind === "lit" || s.kind === "glob" ? s.text : "")).join("");
  const last = raw.slice(raw.lastIndexOf("/") + 1);
  if (!/[A-Za-z0-9]/.test(last.replace(/\[[^\]]*\]/g, ""))) return undefined;
  const re = cachedRegExp(`^${source}$`, "");
  if (!re) return undefined;
  for (const name of GLOB_CANDIDATES) {
    if (!raw.includes("/")) {
      if (re.test(name)) return name;
      continue;
    }
    if (BIN_DIRS.some((d) => re.test(`${d}/${name}`))) return name;
  }
  return undefined;
}

/**
 * An argument whose option name holds a glob (`-del*`, `-[rf][rf]`, `--for?e`): bash turns it
 * into whatever file names match, so it may become any option. A glob only in the value
 * (`--include=*.ts`) or in a word that does not start with a dash is not one.
 */
export function isGlobbedOption(word: Word): boolean {
  const first = word.segs[0];
  if (!first || first.kind !== "lit" || first.quoted || !first.text.startsWith("-")) return false;
  if (first.text === "-" && word.segs.length === 1) return false;
  for (const seg of word.segs) {
    if (seg.kind === "lit" && seg.text.includes("=")) return false;
    if (seg.kind === "glob") return true;
  }
  return false;
}

/**
 * Options a globbed option is tried against, per program, the most consequential first: the
 * ones the rules and the policy read for a refusal or a dangerous rating.
 */
const OPTION_CANDIDATES: Readonly<Record<string, readonly string[]>> = {
  find: [
    "-delete",
    "-exec",
    "-execdir",
    "-ok",
    "-okdir",
    "-fprint",
    "-fprint0",
    "-fprintf",
    "-fls",
  ],
  rm: ["-rf", "-fr", "-r", "-R", "-f", "--recursive", "--force", "--no-preserve-root"],
  chmod: ["-R", "--recursive"],
  chown: ["-R", "--recursive"],
  chgrp: ["-R", "--recursive"],
  rsync: ["--delete", "--delete-after", "--remove-source-files", "-e", "--rsh"],
  git: ["--force", "-f", "--hard", "--delete", "-D", "--mirror"],
  sed: ["-i", "--in-place"],
  tar: ["--to-command", "--use-compress-program", "-I", "--remove-files"],
};

/**
 * The option a globbed option word stands for: the first of the program's consequential options
 * the glob matches; undefined when it matches none of them (it is still dangerous).
 */
export function globOptionCandidate(program: string, word: Word): string | undefined {
  const candidates = OPTION_CANDIDATES[program];
  if (!candidates) return undefined;
  let source = "";
  for (const seg of word.segs) {
    if (seg.kind === "lit") source += seg.text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    else if (seg.kind === "glob") source += globToRegex(seg.text);
    else return undefined;
  }
  const re = cachedRegExp(`^${source}$`, "");
  return re ? candidates.find((c) => re.test(c)) : undefined;
}

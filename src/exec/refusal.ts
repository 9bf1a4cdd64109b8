/**
 * Did the sandbox refuse this? When a confined command fails with a
 * permission or read-only error, read the paths the error names, resolve each
 * as the sandbox does (realpath, longest existing prefix) and compare it with
 * the writable set. The answer is one `sandbox:` line: refused (a named path
 * lies outside the set, or in wisp's home), a guess (an error with no path to
 * check, said to be a guess), or nothing. The command's output is the only
 * evidence there is: neither Seatbelt nor a read-only bind reports anything of
 * its own.
 */
import { isAbsolute, resolve } from "../util/path.ts";
import { isInside, protectionOf, writeAllowed } from "../platform/paths.ts";
import type { WritableSet } from "../platform/types.ts";

export type RefusalVerdict = "refused" | "guess";

export interface Refusal {
  verdict: RefusalVerdict;
  /** The paths named (at most three), realpath'd. */
  paths: string[];
  /** The result's `sandbox:` line. */
  line: string;
}

/** Phrases of a write the sandbox stopped (EPERM on macOS, EROFS under a read-only bind). */
const STRONG =
  /Operation not permitted|Read-only file system|\[Errno (?:1|30)\]|\bEROFS\b|\bEPERM\b|is not writable|are not writable/;
/** Phrases that count only when a path they name is outside the set. */
const WEAK = /Permission denied|\[Errno 13\]|\bEACCES\b/;

const Q_OPEN = `['‘"\`]`;
const Q_CLOSE = `['’"]`;

/** Path patterns, most specific first; group 1 is the path. */
const PATH_PATTERNS: RegExp[] = [
  // mv/cp (GNU): cannot move 'a' to 'b' / cannot create regular file 'b'
  new RegExp(`cannot (?:move|copy) ${Q_OPEN}.+?${Q_CLOSE} to ${Q_OPEN}(.+?)${Q_CLOSE}`),
  // BSD mv: rename a to b: Operation not permitted
  /rename .+? to (\S.*?): (?:Operation not permitted|Read-only file system|Permission denied)/,
  // Python: [Errno 30] Read-only file system: '/etc/x'
  /\[Errno \d+\][^:]*: '(.+?)'/,
  // GNU coreutils and friends: cannot touch|create regular file|create directory|remove 'PATH'
  new RegExp(
    `(?:cannot|can't|could not|unable to) (?:touch|create(?: regular file| directory| symbolic link| hard link)?|remove|open|write(?: to)?|make directory|overwrite|mkdir|unlink|chmod|chown|set permissions of) ${Q_OPEN}(.+?)${Q_CLOSE}`,
    "i",
  ),
  // dash: sh: 1: cannot create /etc/x: Read-only file system
  /cannot create ([^:]+?): /,
  // "PATH is not writable" (Homebrew and others)
  /^(?:Error: |Warning: )?(\/\S.*?) is not writable/,
  // PROG: PATH: error   (bash, BSD tools, sh on macOS)
  /^(?:[\w./+-]+: )(?:line \d+: )?(?:\d+: )?((?:\/|\.{1,2}\/|~\/)[^:]*?): (?:Operation not permitted|Read-only file system|Permission denied)/,
  // any quoted absolute path on the line
  new RegExp(`${Q_OPEN}(/[^'’"\`]+)${Q_CLOSE}`),
];

/** The paths an error output names, in order of appearance, without duplicates. */
export function namedPaths(output: string): { paths: string[]; strong: boolean; weak: boolean } {
  const paths: string[] = [];
  let strong = false;
  let weak = false;
  const lines = output.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const isStrong = STRONG.test(line);
    const isWeak = !isStrong && WEAK.test(line);
    if (!isStrong && !isWeak) continue;
    strong ||= isStrong;
    weak ||= isWeak;
    // Homebrew: "The following directories are not writable by your user:" then an indented list.
    if (/are not writable/.test(line)) {
      for (let j = i + 1; j < lines.length && /^\s+\S/.test(lines[j]); j++) {
        const listed = lines[j].trim();
        if (listed.startsWith("/") && !paths.includes(listed)) paths.push(listed);
      }
      continue;
    }
    for (const pattern of PATH_PATTERNS) {
      const match = pattern.exec(line);
      if (match && match[1] && match[1].trim() !== "") {
        const path = match[1].trim();
        if (!paths.includes(path)) paths.push(path);
        break;
      }
    }
  }
  return { paths, strong, weak };
}

/** The roots listed in about `maxBytes`, with "…" when some are left out. */
export function listRoots(roots: string[], maxBytes = 240): string {
  const shown: string[] = [];
  let used = 0;
  for (const root of roots) {
    if (shown.length > 0 && used + root.length + 2 > maxBytes) {
      shown.push("…");
      break;
    }
    shown.push(root);
    used += root.length + 2;
  }
  return shown.join(", ");
}

export interface DiagnoseInput {
  /** What the command printed (stdout and stderr, as much as is at hand). */
  output: string;
  exitStatus: number | null;
  cwd: string;
  set: WritableSet;
  /** sandbox.allowOutsideSandbox: the line may suggest asking to run outside. */
  allowOutside: boolean;
  /** Resolve a path as the sandbox does (realpath of the longest existing prefix). */
  realpath: (path: string) => string;
}

const SUFFIX = "; if it must, ask again with outsideSandbox true (the person approves each run)";

/** Why the sandbox refuses a write to the real path `real`: wisp's home, a protection, or outside the roots. */
function reasonFor(real: string, set: WritableSet, roots: string): string {
  if (isInside(real, set.home)) {
    return `it is in wisp's own home (${set.home}), which no sandboxed command may change`;
  }
  const protection = protectionOf(real, set);
  if (protection) {
    const where = protection.path === real ? "it is" : `it is inside ${protection.path}, which is`;
    return `${where} protected: ${protection.why}`;
  }
  return `outside the writable roots: ${roots}`;
}

export function diagnoseRefusal(input: DiagnoseInput): Refusal | undefined {
  if (input.exitStatus === 0) return undefined;
  const { paths, strong } = namedPaths(input.output);
  const suffix = input.allowOutside ? SUFFIX : "";
  const roots = listRoots(input.set.roots);
  const resolved = paths.map((p) => {
    const home = Deno.env.get("HOME") ?? "/";
    const expanded = p.startsWith("~/") ? resolve(home, p.slice(2)) : p;
    return input.realpath(isAbsolute(expanded) ? expanded : resolve(input.cwd, expanded));
  });
  const refusedPaths = resolved.filter((p) => !writeAllowed(p, input.set));
  if (refusedPaths.length > 0) {
    const shown = refusedPaths.slice(0, 3);
    const more = refusedPaths.length > 3 ? ` and ${refusedPaths.length - 3} more` : "";
    const why = [...new Set(shown.map((p) => reasonFor(p, input.set, roots)))].join("; ");
    return {
      verdict: "refused",
      paths: shown,
      line: `sandbox: the sandbox refused writing ${
        shown.join(", ")
      }${more} (${why}); the policy allowed the command, the sandbox stopped the write${suffix}`,
    };
  }
  if (strong && paths.length === 0) {
    return {
      verdict: "guess",
      paths: [],
      line:
        `sandbox: the sandbox may have refused a write (a guess: the error names no path to check); ` +
        `writes are allowed only under ${roots}; the policy allowed the command, it ran${suffix}`,
    };
  }
  return undefined;
}

/**
 * The traversal grep and find share: depth first, in name order, skipping
 * hidden names and symbolic links, and honouring .gitignore, .ignore and
 * .rgignore in every folder (and .git/info/exclude of the repository), as
 * ripgrep does. Bounded: entries per folder, files in all, ignore-file size
 * and pattern count, and a deadline; whatever a bound cut is reported.
 *
 * Deno has no openat, so the walk cannot hold folder descriptors; instead
 * each entry is checked with lstat as it is reached and a symbolic link is
 * never followed (docs/adr/0005-search-traversal.md).
 */
import ignore, { type Ignore } from "ignore";
import { isCredentialPath } from "./credential_paths.ts";

const LIMITS = {
  entriesPerFolder: 20_000,
  files: 100_000,
  ignoreFileBytes: 256 * 1024,
  ignorePatterns: 5_000,
};

export interface WalkNotes {
  /** Folders whose listing was cut at entriesPerFolder. */
  bigFolders: string[];
  /** The walk stopped at the file cap or the deadline. */
  stopped?: string;
  /** Ignore files too large or with too many patterns, read only in part. */
  cutIgnoreFiles: string[];
  /** Credential files left out (read_file asks before reading one). */
  credentialFiles: number;
  /** Folders that could not be listed (skipped, as ripgrep does; a scanner must say so). */
  unreadable?: string[];
}

/** What one ignore file says of a path: ignore it, re-include it (a ! pattern), or nothing. */
type Verdict = { ignored: boolean; unignored: boolean };

interface Rules {
  /** The folder the rules are relative to, from the walk's root ("" for the root). */
  base: string;
  test(relativeToBase: string): Verdict;
}

function rulesOf(base: string, matcher: Ignore, prefix = ""): Rules {
  return { base, test: (p) => matcher.test(prefix ? `${prefix}/${p}` : p) };
}

const IGNORE_FILES = [".gitignore", ".ignore", ".rgignore"];

function readIgnoreFile(path: string, notes: WalkNotes): string[] | undefined {
  let text: string;
  try {
    const info = Deno.lstatSync(path);
    if (!info.isFile) return undefined;
    if (info.size > LIMITS.ignoreFileBytes) {
      notes.cutIgnoreFiles.push(path);
      const file = Deno.openSync(path);
      const buffer = new Uint8Array(LIMITS.ignoreFileBytes);
      const n = file.readSync(buffer) ?? 0;
      file.close();
      text = new TextDecoder().decode(buffer.subarray(0, n));
      text = text.slice(0, text.lastIndexOf("\n") + 1);
    } else text = Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "" && !l.startsWith("#"));
  if (lines.length > LIMITS.ignorePatterns) {
    notes.cutIgnoreFiles.push(path);
    return lines.slice(0, LIMITS.ignorePatterns);
  }
  return lines;
}

/**
 * The rules of a folder's own ignore files. `listed` is the folder's listing when the walk has it:
 * only the ignore files it names are read (a failed open of a missing one costs an error object
 * with a stack; three of them per folder dominated a large tree's walk).
 */
function rulesFor(
  dir: string,
  base: string,
  notes: WalkNotes,
  listed?: Deno.DirEntry[],
): Rules | undefined {
  const patterns: string[] = [];
  for (const name of IGNORE_FILES) {
    if (listed && !listed.some((entry) => entry.name === name)) continue;
    const lines = readIgnoreFile(`${dir}/${name}`, notes);
    if (lines) patterns.push(...lines);
  }
  if (patterns.length === 0) return undefined;
  return rulesOf(base, ignore({ allowRelativePaths: true }).add(patterns));
}

/**
 * As git decides: the deepest ignore file with an opinion wins, so a `!`
 * pattern in a nested .gitignore re-includes what a parent ignored.
 */
function ignoredBy(stack: Rules[], relative: string, isDir: boolean): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const rules = stack[i];
    const inside = rules.base === "" ? relative : relative.slice(rules.base.length + 1);
    const verdict = rules.test(isDir ? `${inside}/` : inside);
    if (verdict.unignored) return false;
    if (verdict.ignored) return true;
  }
  return false;
}

/** The repository root above `dir` (the folder holding .git), if any. */
export function repositoryRoot(dir: string): string | undefined {
  let current = dir;
  while (true) {
    try {
      Deno.lstatSync(`${current}/.git`);
      return current;
    } catch { /* not here */ }
    const parent = current.slice(0, current.lastIndexOf("/")) || "/";
    if (parent === current) return undefined;
    current = parent;
  }
}

export interface WalkOptions {
  /** Absolute, real path of the folder to walk. */
  root: string;
  deadline: number;
  /** Also list folders (find). */
  folders?: boolean;
  /** Also walk names that start with a dot (`.env`, `.github/`), except `.git` (the secret scan). */
  hidden?: boolean;
  /** Also yield credential files instead of counting them (the secret scan looks inside them). */
  credentialFiles?: boolean;
  /**
   * A root that an ignore file above it lists is walked anyway, without the rules from above
   * (the secret scan: a folder named on the command line was asked for).
   */
  namedRootWins?: boolean;
  /** Bounds other than LIMITS (the secret scan lifts the caps on entries and files). */
  limits?: Partial<Pick<typeof LIMITS, "entriesPerFolder" | "files">>;
  /**
   * Look up each file's size (the default). Without it a file's entry has size 0 and the listing's
   * type is trusted: the secret scan reads every file whole or in windows and learns its size from
   * the open file, so a second look per file was a system call each for nothing.
   */
  sizes?: boolean;
}

export interface WalkEntry {
  /** Path from the root, with / separators. */
  relative: string;
  absolute: string;
  isDir: boolean;
  size: number;
}

/**
 * Rules from the repository root down to the walk's root (their .gitignore
 * files apply inside it too), plus .git/info/exclude.
 */
function inheritedRules(root: string, notes: WalkNotes): Rules[] {
  const repo = repositoryRoot(root);
  if (!repo || repo === root) {
    const exclude = repo ? readIgnoreFile(`${repo}/.git/info/exclude`, notes) : undefined;
    return exclude?.length ? [rulesOf("", ignore({ allowRelativePaths: true }).add(exclude))] : [];
  }
  // The repository root and each folder between it and the walk's root:
  // their rules apply inside, read with the walk's root as a prefix.
  const stack: Rules[] = [];
  const folders: string[] = [];
  for (
    let dir = root.slice(0, root.lastIndexOf("/"));
    dir.length >= repo.length;
    dir = dir.slice(0, dir.lastIndexOf("/"))
  ) {
    folders.unshift(dir);
    if (dir === repo) break;
  }
  for (const dir of folders) {
    const patterns = dir === repo
      ? [...(readIgnoreFile(`${dir}/.git/info/exclude`, notes) ?? [])]
      : [];
    for (const name of IGNORE_FILES) {
      patterns.push(...(readIgnoreFile(`${dir}/${name}`, notes) ?? []));
    }
    if (patterns.length === 0) continue;
    stack.push(
      rulesOf("", ignore({ allowRelativePaths: true }).add(patterns), root.slice(dir.length + 1)),
    );
  }
  return stack;
}

/** Whether rules inherited from above the root ignore the root itself. */
function rootIgnored(inherited: Rules[]): boolean {
  for (let i = inherited.length - 1; i >= 0; i--) {
    let verdict: Verdict;
    try {
      verdict = inherited[i].test(""); // the rules' own prefix: the root, as a folder
    } catch {
      continue; // rules without a prefix (the repository's own root) cannot ignore it
    }
    if (verdict.unignored) return false;
    if (verdict.ignored) return true;
  }
  return false;
}

export function* walk(options: WalkOptions, notes: WalkNotes): Generator<WalkEntry> {
  let files = 0;
  const entriesPerFolder = options.limits?.entriesPerFolder ?? LIMITS.entriesPerFolder;
  const maxFiles = options.limits?.files ?? LIMITS.files;
  let base = inheritedRules(options.root, notes);
  if (options.namedRootWins && rootIgnored(base)) base = [];
  // Each folder's own ignore files are read once it is listed (and only those it holds).
  const stack: Array<{ dir: string; relative: string; rules: Rules[] }> = [
    { dir: options.root, relative: "", rules: base },
  ];
  while (stack.length > 0) {
    const { dir, relative, rules: inherited } = stack.pop()!;
    let names: Deno.DirEntry[] = [];
    let cut = false;
    try {
      let count = 0;
      for (const entry of Deno.readDirSync(dir)) {
        if (++count > entriesPerFolder) {
          notes.bigFolders.push(relative || ".");
          cut = true;
          break;
        }
        names.push(entry);
      }
    } catch {
      notes.unreadable?.push(relative || ".");
      continue; // unreadable: skipped, as ripgrep does
    }
    names = names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // A listing cut short may leave out an ignore file that is there: then every one is tried.
    const own = rulesFor(dir, relative, notes, cut ? undefined : names);
    const rules = own ? [...inherited, own] : inherited;
    const subdirs: Array<{ dir: string; relative: string; rules: Rules[] }> = [];
    for (const entry of names) {
      if (entry.isSymlink) continue;
      if (entry.name.startsWith(".") && (!options.hidden || entry.name === ".git")) continue;
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      const abs = `${dir}/${entry.name}`;
      if (ignoredBy(rules, rel, entry.isDirectory)) continue;
      if (Date.now() > options.deadline) {
        notes.stopped = "the time limit";
        return;
      }
      if (entry.isDirectory) {
        subdirs.push({ dir: abs, relative: rel, rules });
        if (options.folders) yield { relative: rel, absolute: abs, isDir: true, size: 0 };
        continue;
      }
      if (!entry.isFile) continue;
      if (!options.credentialFiles && isCredentialPath(rel)) {
        notes.credentialFiles++;
        continue;
      }
      if (++files > maxFiles) {
        notes.stopped = `${maxFiles.toLocaleString("en")} files`;
        return;
      }
      let size = 0;
      if (options.sizes === false) {
        yield { relative: rel, absolute: abs, isDir: false, size };
        continue;
      }
      try {
        const info = Deno.lstatSync(abs);
        if (!info.isFile) continue; // replaced by a link since the listing
        size = info.size;
      } catch {
        continue;
      }
      yield { relative: rel, absolute: abs, isDir: false, size };
    }
    // Depth first in name order: push in reverse so the first name is walked first.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
}

export function newNotes(): WalkNotes {
  return { bigFolders: [], cutIgnoreFiles: [], credentialFiles: 0 };
}

/** The notes as sentences under a result. */
export function describeNotes(notes: WalkNotes): string[] {
  const out: string[] = [];
  if (notes.stopped) {
    out.push(`note: the search stopped at ${notes.stopped}; narrow the path or the pattern`);
  }
  if (notes.bigFolders.length > 0) {
    out.push(
      `note: only the first ${LIMITS.entriesPerFolder.toLocaleString("en")} entries of ${
        notes.bigFolders.slice(0, 3).join(", ")
      } were searched`,
    );
  }
  if (notes.cutIgnoreFiles.length > 0) {
    out.push(
      `note: ignore files read in part (too large): ${notes.cutIgnoreFiles.slice(0, 3).join(", ")}`,
    );
  }
  if (notes.credentialFiles > 0) {
    out.push(
      `note: ${notes.credentialFiles} credential file${
        notes.credentialFiles > 1 ? "s were" : " was"
      } left out; read_file asks before reading one`,
    );
  }
  return out;
}

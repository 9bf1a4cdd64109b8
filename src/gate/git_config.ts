/**
 * Reading git's config files as git reads them, for the settings that name a program: the
 * repository a command runs in (found from its folder as git finds it: `.git` as a folder or a
 * `gitdir:` file, a worktree's common folder, a bare repository), a folder named by `--git-dir`
 * or GIT_DIR, a file named by GIT_CONFIG_GLOBAL and the like, and every file they include
 * (`[include]` and `[includeIf …]`, whatever the condition: the gate does not decide it).
 *
 * A file is read again only when its inode, size or times change; what cannot be read is said,
 * so the rules can fail closed.
 */
import { pathExists } from "../platform/exists.ts";
import { dirname, isAbsolute, join, resolve } from "../util/path.ts";
import { normaliseGitKey } from "./hooks.ts";

/** One setting as a file gives it. */
export interface GitSetting {
  key: string;
  value: string;
  /** The file it came from. */
  file: string;
}

/** What reading a config (and its includes) gave. */
export interface GitConfigRead {
  settings: GitSetting[];
  /** Files that exist but could not be read or parsed, with why. */
  problems: string[];
}

/** The most bytes of one config file read; a longer one is a problem, not a partial read. */
const MAX_CONFIG_BYTES = 1 << 20;
const MAX_INCLUDE_DEPTH = 10;

/**
 * Parse git's config format: `[section]`, `[section "sub"]`, the old `[section.sub]`,
 * `key = value` or a bare `key` (true), values with `"…"` quoting, `\` escapes, `\` at a line's
 * end continuing it, and `#`/`;` comments. Throws on a line git would refuse.
 */
export function parseGitConfig(text: string, file = ""): GitSetting[] {
  const out: GitSetting[] = [];
  let section = "";
  let i = 0;
  const n = text.length;
  const skipSpace = () => {
    while (i < n && (text[i] === " " || text[i] === "\t")) i++;
  };
  const skipLine = () => {
    while (i < n && text[i] !== "\n") i++;
    i++;
  };
  while (i < n) {
    skipSpace();
    const c = text[i];
    if (c === undefined) break;
    if (c === "\n" || c === "\r") {
      i++;
      continue;
    }
    if (c === "#" || c === ";") {
      skipLine();
      continue;
    }
    if (c === "[") {
      const close = text.indexOf("]", i);
      if (close < 0) throw new Error(`${file}: a section header has no ]`);
      const header = text.slice(i + 1, close);
      const m = /^\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*$/.exec(header);
      if (!m) throw new Error(`${file}: the section header [${header}] is not one git reads`);
      section = m[2] !== undefined
        ? `${m[1].toLowerCase()}.${m[2].replace(/\\(.)/g, "$1")}`
        : m[1].toLowerCase();
      i = close + 1;
      // A setting may follow the header on the same line.
      continue;
    }
    const km = /^[A-Za-z][A-Za-z0-9-]*/.exec(text.slice(i, i + 256));
    if (!km) throw new Error(`${file}: a line does not start with a key`);
    const name = km[0];
    i += name.length;
    skipSpace();
    let value = "true";
    if (text[i] === "=") {
      i++;
      value = readValue();
    } else if (
      i < n && text[i] !== "\n" && text[i] !== "\r" && text[i] !== "#" && text[i] !== ";"
    ) {
      throw new Error(`${file}: the key ${name} is followed by something that is not =`);
    } else skipLine();
    if (section === "") throw new Error(`${file}: a setting comes before any section`);
    out.push({ key: normaliseGitKey(`${section}.${name}`), value, file });
  }
  return out;

  function readValue(): string {
    let v = "";
    let quoted = false;
    let pendingSpace = "";
    skipSpace();
    while (i < n) {
      const ch = text[i];
      if (ch === "\n" && !quoted) break;
      if (ch === "\n") throw new Error(`${file}: a quoted value runs past the end of its line`);
      if (!quoted && (ch === "#" || ch === ";")) {
        while (i < n && text[i] !== "\n") i++;
        break;
      }
      if (ch === "\\") {
        const next = text[i + 1];
        if (next === "\n") {
          i += 2;
          continue;
        }
        if (next === "\r" && text[i + 2] === "\n") {
          i += 3;
          continue;
        }
        const map: Record<string, string> = { n: "\n", t: "\t", b: "\b", '"': '"', "\\": "\\" };
        if (next === undefined || !(next in map)) {
          throw new Error(`${file}: a value has an escape git does not know`);
        }
        v += pendingSpace + map[next];
        pendingSpace = "";
        i += 2;
        continue;
      }
      if (ch === '"') {
        quoted = !quoted;
        v += pendingSpace;
        pendingSpace = "";
        i++;
        continue;
      }
      if (!quoted && (ch === " " || ch === "\t" || ch === "\r")) {
        pendingSpace += ch === "\r" ? "" : ch;
        i++;
        continue;
      }
      v += pendingSpace + ch;
      pendingSpace = "";
      i++;
    }
    i++;
    return v;
  }
}

interface CacheEntry {
  key: string;
  settings: GitSetting[] | undefined;
  problem?: string;
}

const cache = new Map<string, CacheEntry>();

/** A file's identity and times; undefined when it is missing (asked without an exception). */
function statKey(path: string): string | undefined {
  if (!pathExists(path)) return undefined;
  try {
    const s = Deno.statSync(path);
    return `${s.ino}:${s.dev}:${s.size}:${s.mtime?.getTime()}:${s.ctime?.getTime()}`;
  } catch {
    return undefined;
  }
}

/** One file's own settings, from the cache while it is unchanged; undefined when it is missing. */
function readOne(path: string): { settings?: GitSetting[]; problem?: string } {
  const key = statKey(path);
  if (key === undefined) return {};
  const hit = cache.get(path);
  if (hit && hit.key === key) return { settings: hit.settings, problem: hit.problem };
  let entry: CacheEntry;
  try {
    const bytes = Deno.readFileSync(path);
    if (bytes.length > MAX_CONFIG_BYTES) throw new Error(`${path} is larger than 1 MiB`);
    entry = { key, settings: parseGitConfig(new TextDecoder().decode(bytes), path) };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    entry = { key, settings: undefined, problem: `${path} cannot be read (${why})` };
  }
  if (cache.size > 256) cache.clear();
  cache.set(path, entry);
  return { settings: entry.settings, problem: entry.problem };
}

/** A config file with every file it includes, in order. */
export function readGitConfigFile(path: string, userHome: string): GitConfigRead {
  const out: GitConfigRead = { settings: [], problems: [] };
  const visit = (file: string, depth: number) => {
    if (depth > MAX_INCLUDE_DEPTH) {
      out.problems.push(`${file} includes files too deeply to follow`);
      return;
    }
    const r = readOne(file);
    if (r.problem) out.problems.push(r.problem);
    for (const s of r.settings ?? []) {
      out.settings.push(s);
      if (/^include(if\..+)?\.path$/i.test(s.key) && s.value !== "") {
        const target = s.value.startsWith("~/")
          ? join(userHome, s.value.slice(2))
          : isAbsolute(s.value)
          ? s.value
          : resolve(dirname(file), s.value);
        visit(target, depth + 1);
      }
    }
  };
  visit(path, 0);
  return out;
}

/** The repository folder git would use from `dir`, or undefined when there is none. */
export function findGitDir(dir: string): string | undefined {
  let current = resolve(dir);
  for (let k = 0; k < 256; k++) {
    const dotGit = join(current, ".git");
    if (pathExists(dotGit)) return gitDirAt(dotGit, current);
    // A bare repository: the folder itself holds HEAD, objects and config.
    if (pathExists(join(current, "HEAD")) && pathExists(join(current, "objects"))) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
  return undefined;
}

const linkCache = new Map<string, { key: string; target: string }>();

/** A small file's first line (`gitdir: …`, a commondir), from the cache while unchanged. */
function firstLine(path: string): string | undefined {
  const key = statKey(path);
  if (key === undefined) return undefined;
  const hit = linkCache.get(path);
  if (hit && hit.key === key) return hit.target;
  let target = "";
  try {
    target = new TextDecoder().decode(Deno.readFileSync(path)).slice(0, 4096).split("\n")[0].trim();
  } catch { /* unreadable: nothing */ }
  if (linkCache.size > 256) linkCache.clear();
  linkCache.set(path, { key, target });
  return target;
}

/** `.git` as a folder, or the folder a `gitdir:` file names. */
function gitDirAt(dotGit: string, worktree: string): string {
  const line = firstLine(dotGit);
  if (line === undefined) return dotGit;
  const m = /^gitdir:\s*(.+)$/.exec(line);
  if (!m) return dotGit; // a folder (its first line reads as empty) or not a link file
  return isAbsolute(m[1]) ? m[1] : resolve(worktree, m[1]);
}

/** The config of a repository folder: its own file and, for a worktree, the common folder's. */
export function readRepositoryConfig(gitDir: string, userHome: string): GitConfigRead {
  const files = [join(gitDir, "config")];
  const common = firstLine(join(gitDir, "commondir"));
  if (common) files.unshift(join(isAbsolute(common) ? common : resolve(gitDir, common), "config"));
  const out: GitConfigRead = { settings: [], problems: [] };
  for (const f of files) {
    const r = readGitConfigFile(f, userHome);
    out.settings.push(...r.settings);
    out.problems.push(...r.problems);
  }
  return out;
}

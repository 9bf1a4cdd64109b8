/**
 * Reads a git work tree's state in process, without running git: the commit
 * HEAD names, and whether any tracked file differs from the index (what
 * `git status` calls modified or deleted; untracked files do not count).
 *
 * The index is read directly (versions 2 and 3; version 4 and anything
 * unreadable give `modified: undefined`). A file whose size and mtime match
 * its index entry is taken as unchanged, as git does; one whose mtime alone
 * differs is hashed as a git blob and compared.
 */
import { gitBlobId } from "./sha1.ts";

// Plain string path helpers: node:path costs start-up time `--version` cannot spare.
function join(...parts: string[]): string {
  return parts.join("/").replace(/\/{2,}/g, "/");
}

function dirname(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  const index = trimmed.lastIndexOf("/");
  return index <= 0 ? "/" : trimmed.slice(0, index);
}

function resolve(base: string, path?: string): string {
  const joined = path === undefined ? base : path.startsWith("/") ? path : `${base}/${path}`;
  const absolute = joined.startsWith("/") ? joined : `${Deno.cwd()}/${joined}`;
  const out: string[] = [];
  for (const part of absolute.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return "/" + out.join("/");
}

export interface GitState {
  workTree: string;
  commit?: string;
  branch?: string;
  modified?: boolean;
}

/** The .git folder of the work tree containing `start`, or undefined. */
export function findGitDir(start: string): { gitDir: string; workTree: string } | undefined {
  let dir = resolve(start);
  while (true) {
    const candidate = join(dir, ".git");
    try {
      const info = Deno.statSync(candidate);
      if (info.isDirectory) return { gitDir: candidate, workTree: dir };
      if (info.isFile) {
        const text = Deno.readTextFileSync(candidate);
        const match = /^gitdir:\s*(.+)$/m.exec(text);
        if (match) return { gitDir: resolve(dir, match[1].trim()), workTree: dir };
      }
    } catch { /* not here */ }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** The commondir of a linked worktree holds refs and packed-refs. */
function commonDir(gitDir: string): string {
  const text = readText(join(gitDir, "commondir"));
  return text ? resolve(gitDir, text.trim()) : gitDir;
}

function resolveRef(gitDir: string, ref: string): string | undefined {
  const common = commonDir(gitDir);
  for (const base of [gitDir, common]) {
    const loose = readText(join(base, ref));
    if (loose && /^[0-9a-f]{40,64}\s*$/.test(loose)) return loose.trim();
  }
  const packed = readText(join(common, "packed-refs"));
  if (packed) {
    for (const line of packed.split("\n")) {
      const [hash, name] = line.split(" ");
      if (name === ref && /^[0-9a-f]{40,64}$/.test(hash)) return hash;
    }
  }
  return undefined;
}

function readHead(gitDir: string): { commit?: string; branch?: string } {
  const head = readText(join(gitDir, "HEAD"))?.trim();
  if (!head) return {};
  if (head.startsWith("ref: ")) {
    const ref = head.slice(5).trim();
    return {
      commit: resolveRef(gitDir, ref),
      branch: ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : ref,
    };
  }
  return /^[0-9a-f]{40,64}$/.test(head) ? { commit: head } : {};
}

interface IndexEntry {
  path: string;
  mtimeSeconds: number;
  mtimeNanoseconds: number;
  size: number;
  mode: number;
  /** The blob id's 20 bytes (hex only when a file must be compared by content). */
  shaBytes: Uint8Array;
  skipWorktree: boolean;
  assumeValid: boolean;
}

/** Parse the entries of a version 2 or 3 index; undefined for anything else. */
function parseIndex(bytes: Uint8Array): IndexEntry[] | undefined {
  if (bytes.length < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const signature = String.fromCharCode(...bytes.subarray(0, 4));
  const version = view.getUint32(4);
  if (signature !== "DIRC" || (version !== 2 && version !== 3)) return undefined;
  const count = view.getUint32(8);
  const entries: IndexEntry[] = [];
  const decoder = new TextDecoder();
  let offset = 12;
  for (let i = 0; i < count; i++) {
    if (offset + 62 > bytes.length) return undefined;
    const start = offset;
    const mtimeSeconds = view.getUint32(offset + 8);
    const mtimeNanoseconds = view.getUint32(offset + 12);
    const mode = view.getUint32(offset + 24);
    const size = view.getUint32(offset + 36);
    const shaBytes = bytes.subarray(offset + 40, offset + 60);
    const flags = view.getUint16(offset + 60);
    offset += 62;
    let skipWorktree = false;
    if (flags & 0x4000) {
      const extended = view.getUint16(offset);
      skipWorktree = (extended & 0x4000) !== 0;
      offset += 2;
    }
    const end = bytes.indexOf(0, offset);
    if (end < 0) return undefined;
    const raw = bytes.subarray(offset, end);
    // Most paths are ASCII: building the string directly is much cheaper than a decoder call.
    const path = raw.every((b) => b < 0x80) ? String.fromCharCode(...raw) : decoder.decode(raw);
    // Entries are padded with 1–8 NULs to a multiple of 8 bytes.
    const length = end - start + 1;
    offset = start + Math.ceil(length / 8) * 8;
    entries.push({
      path,
      mtimeSeconds,
      mtimeNanoseconds,
      size,
      mode,
      shaBytes,
      skipWorktree,
      assumeValid: (flags & 0x8000) !== 0,
    });
  }
  return entries;
}

function shaHex(entry: IndexEntry): string {
  let hex = "";
  for (const b of entry.shaBytes) hex += (b < 16 ? "0" : "") + b.toString(16);
  return hex;
}

/** Whether a tracked file differs from its index entry. */
function entryModified(
  workTree: string,
  entry: IndexEntry,
  indexMtimeMs = Infinity,
): boolean {
  if (entry.skipWorktree || entry.assumeValid) return false;
  const kind = entry.mode >>> 12;
  if (kind === 0o16) return false; // a submodule: not ours to read
  const path = join(workTree, entry.path);
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch {
    return true; // deleted
  }
  if (kind === 0o12) {
    if (!info.isSymlink) return true;
    return gitBlobId(new TextEncoder().encode(Deno.readLinkSync(path))) !== shaHex(entry);
  }
  if (!info.isFile) return true;
  if (info.size % 2 ** 32 !== entry.size) return true;
  const executable = (info.mode ?? 0) & 0o100 ? 0o755 : 0o644;
  if (executable !== (entry.mode & 0o777)) return true;
  const mtimeMs = info.mtime?.getTime() ?? 0;
  const sameMtime = Math.floor(mtimeMs / 1000) === entry.mtimeSeconds &&
    Math.abs((mtimeMs % 1000) * 1e6 - entry.mtimeNanoseconds) < 1e6;
  // As git does: matching stat data means unchanged, unless the file was
  // written no earlier than the index itself ("racy git"), when only the
  // content can tell.
  if (sameMtime && mtimeMs < indexMtimeMs) return false;
  return gitBlobId(Deno.readFileSync(path)) !== shaHex(entry);
}

export function readGitState(start: string): GitState | undefined {
  const found = findGitDir(start);
  if (!found) return undefined;
  const head = readHead(found.gitDir);
  let modified: boolean | undefined;
  try {
    const indexPath = join(found.gitDir, "index");
    const entries = parseIndex(Deno.readFileSync(indexPath));
    const indexMtimeMs = Deno.statSync(indexPath).mtime?.getTime() ?? Infinity;
    if (entries) {
      modified = entries.some((entry) => entryModified(found.workTree, entry, indexMtimeMs));
    }
  } catch (error) {
    // No index yet (a fresh repository) means nothing tracked is modified.
    modified = error instanceof Deno.errors.NotFound ? false : undefined;
  }
  return { workTree: found.workTree, ...head, modified };
}

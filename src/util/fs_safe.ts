/**
 * File operations that hold up when the file system changes under them:
 * between checking a path and using it, a file can become a symlink, a folder
 * can be swapped, another process can rewrite the file. Deno has no openat and
 * no O_NOFOLLOW (docs/adr/0151-race-free-files-in-deno.md), so each operation
 * here works on canonical paths (every component a real directory at the time
 * of the check) and checks identity — device and inode — before and after it
 * acts:
 *
 * - a file is opened, then the descriptor's identity is compared with what
 *   lstat saw at the path; a swap between the two is caught;
 * - a new file is created with O_CREAT|O_EXCL (createNew), which never follows
 *   a symlink at the last component;
 * - a replacement is written to a temporary file in the same folder and
 *   renamed over the old one, after checking that the folder is still the one
 *   that was checked and the file is still the version that was read; rename
 *   replaces a name and never follows it;
 * - a file with several hard links, or owned by someone else, is rewritten in
 *   place so that every link sees the change and the owner stays.
 *
 * Every file is opened close-on-exec (Deno's default), so no child process
 * inherits a descriptor.
 */
import { basename, dirname, isAbsolute, join, resolve } from "./path.ts";

/** A file's identity and version as the kernel reports it. */
export interface FileStamp {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number | null;
  nlink: number;
  mode: number;
  uid: number | null;
  isFile: boolean;
  isSymlink: boolean;
  isDirectory: boolean;
}

function stampOf(info: Deno.FileInfo): FileStamp {
  return {
    dev: info.dev ?? 0,
    ino: info.ino ?? 0,
    size: info.size,
    mtimeMs: info.mtime?.getTime() ?? null,
    nlink: info.nlink ?? 1,
    mode: (info.mode ?? 0o644) & 0o7777,
    uid: info.uid ?? null,
    isFile: info.isFile,
    isSymlink: info.isSymlink,
    isDirectory: info.isDirectory,
  };
}

export function sameFile(a: FileStamp, b: FileStamp): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** Same file, same size, same modification time: nobody wrote it in between. */
function sameVersion(a: FileStamp, b: FileStamp): boolean {
  return sameFile(a, b) && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** The file changed (or moved) between reading it and replacing it; nothing was written. */
export class ConcurrentChange extends Error {
  constructor(readonly path: string, detail: string) {
    super(`${path} changed while the edit was being prepared (${detail})`);
    this.name = "ConcurrentChange";
  }
}

/** An operation the checks refused (a symlink where none may be, not a regular file, …). */
export class UnsafePath extends Error {
  /** What is wrong with it, without the path: "is not a regular file". */
  readonly detail: string;
  constructor(readonly path: string, detail: string) {
    super(`${path} ${detail}`);
    this.name = "UnsafePath";
    this.detail = detail;
  }
}

export function lstatOrNull(path: string): FileStamp | null {
  try {
    return stampOf(Deno.lstatSync(path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return null;
    }
    throw error;
  }
}

/**
 * The canonical form of a path that may not exist yet: its longest existing
 * prefix with symlinks resolved, then the rest as given (`..` and `.` already
 * normalised). /tmp/x/new on a Mac is /private/tmp/x/new.
 */
export function canonicalPath(path: string, cwd = Deno.cwd()): string {
  const absolute = resolve(cwd, path);
  let existing = absolute;
  const rest: string[] = [];
  while (true) {
    try {
      const real = Deno.realPathSync(existing);
      return rest.length === 0 ? real : join(real, ...rest.reverse());
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory)) {
        throw error;
      }
      const parent = dirname(existing);
      if (parent === existing) return absolute;
      rest.push(basename(existing));
      existing = parent;
    }
  }
}

/**
 * Whether `path` is `root` or inside it. Both are absolute; trailing slashes
 * on `root` (as a person may write a folder in a setting) do not count.
 */
export function isWithin(path: string, root: string): boolean {
  const folder = root.length > 1 ? root.replace(/\/+$/, "") : root;
  return path === folder || path.startsWith(folder === "/" ? "/" : folder + "/");
}

// ---------------------------------------------------------------------------
// Reading

export interface OpenedForRead {
  file: Deno.FsFile;
  stamp: FileStamp;
  /** The file's canonical path (links followed). */
  realPath: string;
}

/**
 * Open a regular file for reading, following links (reads are not confined),
 * but never opening a FIFO, a device or a folder — which could block or lie —
 * and checking that the descriptor is the file that was checked.
 */
export function openForRead(path: string): OpenedForRead {
  const realPath = Deno.realPathSync(path);
  const info = Deno.lstatSync(realPath);
  const before = stampOf(info);
  if (before.isDirectory) throw new UnsafePath(path, "is a folder, not a file");
  if (!before.isFile) throw new UnsafePath(path, `is ${notRegularKind(info)}, not a regular file`);
  const file = Deno.openSync(realPath, { read: true });
  try {
    const opened = stampOf(file.statSync());
    if (!opened.isFile || !sameFile(before, opened)) {
      throw new UnsafePath(path, "was replaced while it was being opened; try again");
    }
    return { file, stamp: opened, realPath };
  } catch (error) {
    file.close();
    throw error;
  }
}

/** What a file that is not a regular one is, for a sentence. */
export function notRegularKind(info: Deno.FileInfo): string {
  if (info.isCharDevice || info.isBlockDevice) return "a device";
  if (info.isFifo) return "a named pipe (FIFO)";
  if (info.isSocket) return "a socket";
  if (info.isSymlink) return "a symbolic link";
  return "a special file";
}

/** Read a whole regular file already open, up to `max` bytes (more is an error). */
export function readAllBounded(file: Deno.FsFile, max: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buffer = new Uint8Array(64 * 1024);
  while (true) {
    const n = file.readSync(buffer);
    if (n === null || n === 0) break;
    total += n;
    if (total > max) throw new RangeError(`larger than ${max} bytes`);
    chunks.push(buffer.slice(0, n));
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Writing

/** Where a write will land: a canonical folder (checked to be a real folder) and a name in it. */
export interface WriteTarget {
  dir: string;
  name: string;
  /** dir/name. */
  path: string;
  /** The folder's identity when it was checked. */
  dirStamp: FileStamp;
  /** The file as it was when checked, or null when it does not exist yet. */
  existing: FileStamp | null;
}

/**
 * Resolve a path to the place a write lands. A symlink at the last component
 * is followed once to its canonical target (the write goes to the real file,
 * which is what the confinement check must see); the folder must exist and be
 * a real folder.
 */
export function resolveWriteTarget(path: string, cwd: string): WriteTarget {
  if (!isAbsolute(path)) path = resolve(cwd, path);
  let dir = canonicalPath(dirname(path), cwd);
  let name = basename(path);
  let existing = lstatOrNull(join(dir, name));
  if (existing?.isSymlink) {
    let real: string;
    try {
      real = Deno.realPathSync(join(dir, name));
    } catch {
      throw new UnsafePath(
        path,
        "is a symlink to a file that does not exist; write the real path instead",
      );
    }
    dir = dirname(real);
    name = basename(real);
    existing = lstatOrNull(real);
  }
  if (existing && existing.isDirectory) throw new UnsafePath(path, "is a folder, not a file");
  if (existing && !existing.isFile) throw new UnsafePath(path, "is not a regular file");
  const dirStamp = lstatOrNull(dir);
  if (!dirStamp) throw new UnsafePath(path, `is in a folder that does not exist (${dir})`);
  if (!dirStamp.isDirectory) {
    throw new UnsafePath(path, `is in ${dir}, which is not a folder`);
  }
  return { dir, name, path: join(dir, name), dirStamp, existing };
}

/**
 * Create the folders of a target that do not exist yet, one component at a
 * time under a canonical existing folder. A component that appears meanwhile
 * must be a real folder, never a symlink.
 */
export function makeFolders(canonicalDir: string): void {
  const missing: string[] = [];
  let at = canonicalDir;
  while (lstatOrNull(at) === null) {
    missing.push(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const dir of missing.reverse()) {
    try {
      Deno.mkdirSync(dir);
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    const made = lstatOrNull(dir);
    if (!made || !made.isDirectory || made.isSymlink) {
      throw new UnsafePath(
        dir,
        "was replaced by something other than a folder while it was being made",
      );
    }
  }
}

function checkFolderUnchanged(target: WriteTarget): void {
  let real: string;
  try {
    real = Deno.realPathSync(target.dir);
  } catch {
    throw new ConcurrentChange(target.path, "its folder disappeared");
  }
  const now = lstatOrNull(target.dir);
  if (real !== target.dir || !now || !sameFile(now, target.dirStamp)) {
    throw new ConcurrentChange(target.path, "its folder was moved or replaced");
  }
}

function checkFileUnchanged(target: WriteTarget, expected: FileStamp | null): void {
  const now = lstatOrNull(target.path);
  if (expected === null) {
    if (now !== null) throw new ConcurrentChange(target.path, "a file appeared at that name");
    return;
  }
  if (now === null) throw new ConcurrentChange(target.path, "it was removed");
  if (now.isSymlink) throw new ConcurrentChange(target.path, "it was replaced by a symlink");
  if (!sameVersion(now, expected)) {
    throw new ConcurrentChange(target.path, "it was written by something else");
  }
}

/** Write every byte of `bytes` to `file`, however many calls that takes. */
export function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
}

export interface WriteOutcome {
  /** How the bytes got there. */
  how: "created" | "replaced" | "in place" | "appended";
  bytesAfter: number;
}

/** Hooks for tests: run between steps, to play the part of a concurrent writer. */
export interface WriteHooks {
  beforeCommit?: () => void;
}

/**
 * Create a new file with O_EXCL (a name that appeared meanwhile, symlink or
 * not, is refused rather than followed).
 */
export function createNewFile(
  target: WriteTarget,
  bytes: Uint8Array,
  hooks: WriteHooks = {},
): WriteOutcome {
  hooks.beforeCommit?.();
  checkFolderUnchanged(target);
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(target.path, { write: true, createNew: true });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new ConcurrentChange(target.path, "a file appeared at that name");
    }
    throw error;
  }
  try {
    writeAll(file, bytes);
    file.syncSync();
  } finally {
    file.close();
  }
  return { how: "created", bytesAfter: bytes.length };
}

/**
 * Replace an existing file's whole content, keeping its mode: by a temporary
 * file in the same folder and a rename (readers see the old file or the new
 * one, never half), or in place when the file has several hard links, belongs
 * to someone else, or its folder cannot take a temporary file. `expected` is
 * the version the new content was made from; any other version is refused.
 */
export function replaceFile(
  target: WriteTarget,
  expected: FileStamp,
  bytes: Uint8Array,
  hooks: WriteHooks = {},
): WriteOutcome {
  // A rename needs only the folder's permission; a file its owner made
  // read-only must stay as protected as it would be from a plain write.
  assertWritable(target, expected);
  const myUid = safeUid();
  const inPlace = expected.nlink > 1 ||
    (myUid !== null && expected.uid !== null && expected.uid !== myUid);
  if (!inPlace) {
    const temp = join(target.dir, `.${target.name}.wisp-${crypto.randomUUID().slice(0, 8)}.tmp`);
    let file: Deno.FsFile | undefined;
    try {
      file = Deno.openSync(temp, { write: true, createNew: true, mode: 0o600 });
    } catch (error) {
      if (!(error instanceof Deno.errors.PermissionDenied)) throw error;
      file = undefined; // the folder takes no new file: fall back to writing in place
    }
    if (file) {
      try {
        const made = stampOf(file.statSync());
        writeAll(file, bytes);
        file.syncSync();
        file.close();
        file = undefined;
        // chmod goes by name; check the name still is the file we made first.
        const atName = lstatOrNull(temp);
        if (!atName || atName.isSymlink || !sameFile(atName, made)) {
          throw new ConcurrentChange(target.path, "its temporary file was tampered with");
        }
        // The mode is kept, less set-user/group-ID, which the kernel also drops when a file is written.
        Deno.chmodSync(temp, expected.mode & ~0o6000);
        hooks.beforeCommit?.();
        checkFolderUnchanged(target);
        checkFileUnchanged(target, expected);
        Deno.renameSync(temp, target.path);
        return { how: "replaced", bytesAfter: bytes.length };
      } catch (error) {
        try {
          file?.close();
        } catch { /* closed */ }
        try {
          Deno.removeSync(temp);
        } catch { /* gone */ }
        throw error;
      }
    }
  }
  return writeInPlace(target, expected, bytes, hooks);
}

function writeInPlace(
  target: WriteTarget,
  expected: FileStamp,
  bytes: Uint8Array,
  hooks: WriteHooks,
): WriteOutcome {
  hooks.beforeCommit?.();
  checkFolderUnchanged(target);
  checkFileUnchanged(target, expected);
  const file = Deno.openSync(target.path, { write: true });
  try {
    const opened = stampOf(file.statSync());
    if (!opened.isFile || !sameVersion(opened, expected)) {
      throw new ConcurrentChange(target.path, "it was replaced while being opened");
    }
    file.truncateSync(0);
    writeAll(file, bytes);
    file.syncSync();
  } finally {
    file.close();
  }
  return { how: "in place", bytesAfter: bytes.length };
}

/**
 * Add bytes at the end of a file with O_APPEND, creating it (O_EXCL) when it
 * does not exist. The descriptor is checked to be the file that was checked.
 */
export function appendToFile(
  target: WriteTarget,
  bytes: Uint8Array,
  hooks: WriteHooks = {},
): WriteOutcome {
  if (target.existing === null) {
    const created = createNewFile(target, bytes, hooks);
    return { how: "created", bytesAfter: created.bytesAfter };
  }
  hooks.beforeCommit?.();
  checkFolderUnchanged(target);
  const file = Deno.openSync(target.path, { append: true });
  try {
    const opened = stampOf(file.statSync());
    if (!opened.isFile || !sameFile(opened, target.existing)) {
      throw new ConcurrentChange(target.path, "it was replaced while being opened");
    }
    writeAll(file, bytes);
    file.syncSync();
    return { how: "appended", bytesAfter: stampOf(file.statSync()).size };
  } finally {
    file.close();
  }
}

/** Refuse a file this process could not open for writing (no side effect: no truncation). */
function assertWritable(target: WriteTarget, expected: FileStamp): void {
  let probe: Deno.FsFile;
  try {
    probe = Deno.openSync(target.path, { write: true });
  } catch (error) {
    if (error instanceof Deno.errors.PermissionDenied) {
      throw new UnsafePath(
        target.path,
        `is read-only to you (mode ${expected.mode.toString(8).padStart(4, "0")}); nothing changed`,
      );
    }
    if (error instanceof Deno.errors.NotFound) {
      throw new ConcurrentChange(target.path, "it was removed");
    }
    throw error;
  }
  try {
    if (!sameFile(stampOf(probe.statSync()), expected)) {
      throw new ConcurrentChange(target.path, "it was replaced while being opened");
    }
  } finally {
    probe.close();
  }
}

function safeUid(): number | null {
  try {
    return Deno.uid();
  } catch {
    return null;
  }
}

/** Remove a file, if there is one to remove; a file already gone is not an error. */
export function removeQuietly(path: string | undefined): void {
  if (!path) return;
  try {
    Deno.removeSync(path);
  } catch { /* already gone */ }
}

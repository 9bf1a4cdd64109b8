/**
 * wisp's own node_modules, unshared. Deno lays out `node_modules` (with
 * `nodeModulesDir: "auto"`) by hard-linking each file from its npm cache, and
 * every other project laid out from the same cache shares those inodes. A
 * read-only bind protects a path, not an inode: a confined command writing
 * through another project's `node_modules` inside a writable root would
 * rewrite wisp's own modules, which the next wisp runs unsandboxed. So wisp
 * gives each of its own files that has another link a private copy (copy
 * beside it, rename over it), once after each layout, and records that in a
 * stamp inside node_modules (which no confined command can write). A file wisp
 * cannot replace and could write is reported instead (docs/adr/0240).
 */
import { join } from "../util/path.ts";

const STAMP = ".wisp-private-links";

export interface OwnLinksResult {
  /** Files given a private copy in this call. */
  copied: number;
  /** Files that still share their inode and that this user could write: not protected. */
  shared: string[];
}

/** What identifies one layout of node_modules: Deno rewrites its setup cache on each. */
function layoutKey(nodeModules: string): string | undefined {
  for (const name of [".deno/.setup-cache.bin", ".deno"]) {
    try {
      const info = Deno.statSync(join(nodeModules, name));
      return `v1 ${name} ${info.mtime?.getTime() ?? 0} ${info.size}`;
    } catch { /* try the next */ }
  }
  return undefined;
}

function userId(): number | null {
  try {
    return Deno.uid();
  } catch {
    return null;
  }
}

/** Whether this user could write the file (owner, root, or group/other write bits). */
function writableByUs(info: Deno.FileInfo, uid: number | null): boolean {
  if (uid === 0 || (uid !== null && info.uid === uid)) return true;
  return ((info.mode ?? 0) & 0o022) !== 0;
}

function privatise(path: string, info: Deno.FileInfo): boolean {
  const temp = `${path}.wisp-private-${crypto.randomUUID().slice(0, 8)}`;
  try {
    Deno.copyFileSync(path, temp);
    if (info.mode !== null) Deno.chmodSync(temp, info.mode & 0o7777);
    Deno.renameSync(temp, path);
    return true;
  } catch {
    try {
      Deno.removeSync(temp);
    } catch { /* never made */ }
    return false;
  }
}

function walk(dir: string, uid: number | null, result: OwnLinksResult): void {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    // Symbolic links point within node_modules (or at the project): no inode of their own.
    if (entry.isDirectory) walk(path, uid, result);
    else if (entry.isFile) {
      let info: Deno.FileInfo;
      try {
        info = Deno.lstatSync(path);
      } catch {
        continue;
      }
      if ((info.nlink ?? 1) <= 1) continue;
      if (!writableByUs(info, uid)) continue; // nobody here can write it through any name
      if (privatise(path, info)) result.copied++;
      else result.shared.push(path);
    }
  }
}

const done = new Map<string, OwnLinksResult>();

/**
 * Give every hard-linked file of `source`/node_modules a private copy, unless
 * the stamp says this layout was done already. Once per process per folder.
 */
export function unshareOwnModules(source: string): OwnLinksResult {
  const cached = done.get(source);
  if (cached) return cached;
  const nodeModules = join(source, "node_modules");
  const result: OwnLinksResult = { copied: 0, shared: [] };
  const key = layoutKey(nodeModules);
  if (key === undefined) {
    done.set(source, result); // no node_modules: a compiled build, or nothing laid out yet
    return result;
  }
  const stampPath = join(nodeModules, STAMP);
  let stamp: string | undefined;
  try {
    stamp = Deno.readTextFileSync(stampPath);
  } catch { /* first time */ }
  if (stamp !== key) {
    walk(nodeModules, userId(), result);
    if (result.shared.length === 0) {
      try {
        Deno.writeTextFileSync(stampPath, key);
      } catch { /* not ours to write: walk again next process */ }
    }
  }
  done.set(source, result);
  return result;
}

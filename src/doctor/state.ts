/**
 * Doctor's check of the state wisp keeps in its home: each file or folder is
 * the owner's alone (files 0600, folders 0700, nothing readable or writable
 * by group or others, owned by the user running wisp), and each file wisp
 * reads back parses as the module that owns it reads it. One finding per kind
 * of state, naming the first files at fault and the command that fixes them.
 *
 * The modes are read from the file system, never inferred from whether a read
 * succeeds: root reads a file of mode 0000 without complaint, so a check that
 * only tried to read would pass as root and fail for everyone else.
 *
 * This module knows no formats: the catalogue (state_files.ts) gives each
 * kind of state its reader. It imports nothing beyond the standard library, so
 * a test can run it as an ordinary user.
 */
import { join, relative } from "node:path";
import type { Finding } from "./finding_type.ts";

/** One kind of state in the home: a file, or a folder of files. */
export interface StateItem {
  /** The finding's name ("approvals", "pending requests"). */
  name: string;
  /** The file or folder. */
  path: string;
  kind: "file" | "folder";
  /** What it holds, for the detail when all is well ("remembered approvals"). */
  holds: string;
  /**
   * Reads one file the way wisp reads it; returns a short note about what it
   * holds ("3 remembered approvals"), or nothing. When wisp cannot use the
   * file it throws: for a file item, a whole sentence naming the file (and,
   * after "; ", what to do); for a file in a folder, just the fault ("not a
   * request wisp reads"), which the detail puts after the file's name.
   */
  read?: (path: string) => string | undefined;
  /** For a folder: which files `read` applies to, by their path inside it (default: none). */
  reads?: (relativePath: string) => boolean;
  /** What to do with a file that does not parse, when its reader does not say. */
  damagedFix: string;
}

/** How many faults a detail names before it counts the rest. */
const NAMED = 3;
/** A folder with more entries than this is checked this far and said so. */
const MAX_ENTRIES = 20_000;

interface Fault {
  path: string;
  problem: string;
}

interface Walk {
  files: number;
  modeFaults: Fault[];
  ownerFaults: Fault[];
  linkFaults: Fault[];
  readFaults: Fault[];
  notes: string[];
  truncated: boolean;
}

function octal(mode: number): string {
  return (mode & 0o777).toString(8).padStart(3, "0");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The user running wisp; undefined where the platform has none (then ownership is not checked). */
function currentUid(): number | undefined {
  try {
    return Deno.uid() ?? undefined;
  } catch {
    return undefined;
  }
}

function checkEntry(path: string, info: Deno.FileInfo, walk: Walk, uid: number | undefined): void {
  const mode = info.mode;
  const want = info.isDirectory ? "700" : "600";
  if (mode !== null && (mode & 0o077) !== 0) {
    walk.modeFaults.push({ path, problem: `mode ${octal(mode)}, not ${want}` });
  } else if (mode !== null && info.isDirectory && (mode & 0o700) !== 0o700) {
    walk.modeFaults.push({ path, problem: `mode ${octal(mode)}: wisp cannot add to it` });
  } else if (mode !== null && info.isFile && (mode & 0o600) !== 0o600) {
    walk.modeFaults.push({ path, problem: `mode ${octal(mode)}: wisp cannot read or replace it` });
  }
  if (uid !== undefined && info.uid !== null && info.uid !== uid) {
    walk.ownerFaults.push({ path, problem: `owned by uid ${info.uid}, not by you (uid ${uid})` });
  }
}

function gone(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return false;
  } catch (error) {
    return error instanceof Deno.errors.NotFound;
  }
}

function readOne(item: StateItem, path: string, walk: Walk): void {
  if (!item.read) return;
  try {
    const note = item.read(path);
    if (note) walk.notes.push(note);
  } catch (error) {
    if (gone(path)) return; // answered or tidied away meanwhile (pending requests come and go)
    const message = messageOf(error);
    walk.readFaults.push({ path, problem: message });
  }
}

/** Check every entry below a folder (links are not followed: a link is reported, not read). */
function walkFolder(item: StateItem, walk: Walk, uid: number | undefined): void {
  const pending = [item.path];
  let seen = 0;
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch (error) {
      // The folder's own mode says why (and is reported); the OS's words add nothing.
      const why = error instanceof Deno.errors.PermissionDenied ? "no permission" : "unreadable";
      walk.readFaults.push({ path: dir, problem: `cannot be listed (${why})` });
      continue;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (++seen > MAX_ENTRIES) {
        walk.truncated = true;
        return;
      }
      const full = join(dir, entry.name);
      let info: Deno.FileInfo;
      try {
        info = Deno.lstatSync(full);
      } catch {
        continue; // removed while we looked (a pending request answered meanwhile)
      }
      if (info.isSymlink) {
        walk.linkFaults.push({ path: full, problem: "a symbolic link, which wisp never makes" });
        continue;
      }
      checkEntry(full, info, walk, uid);
      if (info.isDirectory) {
        pending.push(full);
        continue;
      }
      walk.files++;
      if (info.isFile && item.reads?.(relative(item.path, full))) readOne(item, full, walk);
    }
  }
}

/** Faults inside a folder, by their path inside it: "a.json (mode 644, not 600), … and 2 more". */
function named(faults: Fault[], root: string): string {
  const shown = faults.slice(0, NAMED).map((f) =>
    `${f.path === root ? "the folder itself" : relative(root, f.path)} (${f.problem})`
  );
  const more = faults.length > NAMED ? ` and ${faults.length - NAMED} more` : "";
  return shown.join(", ") + more;
}

/** "<path> has the wrong mode (mode 755, not 700), and inside it a (…)"; `what` is [one, many]. */
function describe(faults: Fault[], root: string, what: [string, string]): string {
  const own = faults.find((f) => f.path === root);
  const inside = faults.filter((f) => f.path !== root);
  if (!own) return `${root}: files in it ${what[1]}: ${named(inside, root)}`;
  const head = `${root} ${what[0]} (${own.problem})`;
  return inside.length > 0 ? `${head}, and inside it ${named(inside, root)}` : head;
}

/** The finding for one kind of state. */
export function stateFinding(item: StateItem): Finding {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(item.path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { ok: true, name: item.name, detail: `no ${item.holds} yet (no ${item.path})` };
    }
    return {
      ok: false,
      name: item.name,
      detail: `${item.path} cannot be examined (${messageOf(error)})`,
      fix: "check the owner and mode of wisp's home, or set WISP_HOME",
    };
  }
  const wantFolder = item.kind === "folder";
  if (info.isSymlink || info.isDirectory !== wantFolder) {
    const is = info.isSymlink ? "a symbolic link" : info.isDirectory ? "a folder" : "not a folder";
    return {
      ok: false,
      name: item.name,
      detail: `${item.path} is ${is}, where wisp keeps ${wantFolder ? "a folder" : "a file"}`,
      fix: `move it aside (mv ${item.path} ${item.path}.aside); wisp makes a new one`,
    };
  }
  const uid = currentUid();
  const walk: Walk = {
    files: wantFolder ? 0 : 1,
    modeFaults: [],
    ownerFaults: [],
    linkFaults: [],
    readFaults: [],
    notes: [],
    truncated: false,
  };
  checkEntry(item.path, info, walk, uid);
  if (wantFolder) walkFolder(item, walk, uid);
  else readOne(item, item.path, walk);

  // Every kind of fault is named, so fixing one does not merely uncover the next.
  const faults: string[] = [];
  const fixes: string[] = [];
  if (walk.ownerFaults.length > 0) {
    faults.push(describe(walk.ownerFaults, item.path, ["is not yours", "are not yours"]));
    fixes.push(`give it back to yourself (chown -R "$(id -un)" ${item.path}) or set WISP_HOME`);
  }
  if (walk.modeFaults.length > 0) {
    faults.push(
      describe(walk.modeFaults, item.path, ["has the wrong mode", "have the wrong mode"]),
    );
    fixes.push(
      wantFolder
        ? `run chmod -R u+rwX,go-rwx ${item.path} so that it is yours alone`
        : `run chmod 600 ${item.path} so that it is yours alone`,
    );
  }
  if (walk.linkFaults.length > 0) {
    faults.push(`in ${item.path}, ${named(walk.linkFaults, item.path)}`);
    fixes.push("remove the links named; wisp keeps only files of its own here");
  }
  if (walk.readFaults.length > 0) {
    if (wantFolder) {
      faults.push(`in ${item.path}, ${named(walk.readFaults, item.path)}`);
      fixes.push(item.damagedFix);
    } else {
      // One file: the reader's own sentence, its fix after "; ".
      const message = walk.readFaults[0].problem;
      const at = message.indexOf("; ");
      faults.push(at > 0 ? message.slice(0, at) : message);
      fixes.push(at > 0 ? message.slice(at + 2) : item.damagedFix);
    }
  }
  if (faults.length > 0) {
    return { ok: false, name: item.name, detail: faults.join("; "), fix: fixes.join(", then ") };
  }
  const count = wantFolder ? `: ${walk.files} ${walk.files === 1 ? "file" : "files"}` : "";
  const limit = walk.truncated ? ` (checked the first ${MAX_ENTRIES} entries)` : "";
  const notes = walk.notes.length > 0 ? `; ${walk.notes.join(", ")}` : "";
  return {
    ok: true,
    name: item.name,
    detail: `${item.path}${count}, yours alone${limit}${notes}`,
  };
}

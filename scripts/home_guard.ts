/**
 * The test task's guard on the person's own wisp home: every test runs with a
 * scratch home, so the real one (~/.wisp, and $WISP_HOME when the caller set
 * one) must be exactly as it was after the suite. A snapshot records each
 * entry under a home (its kind, size, mode, modification time and, for a
 * file of reasonable size, a digest of its bytes); comparing two snapshots names what changed.
 */
import { join, relative } from "node:path";

/** One entry under a home, by its path relative to the home ("" is the home itself). */
export interface Entry {
  kind: "file" | "folder" | "link" | "other";
  size: number;
  mode: number;
  mtimeMs: number;
  digest?: string;
}

/** A home's entries, or null when the home does not exist. */
export type Snapshot = Map<string, Entry> | null;

/** The homes to watch: ~/.wisp, and $WISP_HOME when it is set (once each). */
export function realHomes(
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
): string[] {
  const homes: string[] = [];
  const home = env("HOME");
  if (home) homes.push(join(home, ".wisp"));
  const override = env("WISP_HOME");
  if (override && !homes.includes(override)) homes.push(override);
  return homes;
}

/** Files larger than this are compared by size and time only (a log may be large). */
const DIGEST_LIMIT = 16 << 20;

async function entryOf(path: string): Promise<Entry> {
  const info = await Deno.lstat(path);
  const kind = info.isFile
    ? "file"
    : info.isDirectory
    ? "folder"
    : info.isSymlink
    ? "link"
    : "other";
  const entry: Entry = {
    kind,
    size: info.size,
    mode: info.mode ?? 0,
    mtimeMs: info.mtime?.getTime() ?? 0,
  };
  if (kind === "file" && info.size <= DIGEST_LIMIT) {
    const bytes = await Deno.readFile(path);
    const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    entry.digest = Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
  } else if (kind === "link") {
    entry.digest = await Deno.readLink(path);
  }
  return entry;
}

/** Every entry under `home` (links are not followed), or null if it does not exist. */
export async function snapshot(home: string): Promise<Snapshot> {
  try {
    await Deno.lstat(home);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  const entries = new Map<string, Entry>();
  const walk = async (path: string): Promise<void> => {
    const entry = await entryOf(path);
    entries.set(relative(home, path), entry);
    if (entry.kind !== "folder") return;
    for await (const child of Deno.readDir(path)) await walk(join(path, child.name));
  };
  await walk(home);
  return entries;
}

function differs(a: Entry, b: Entry): string | undefined {
  if (a.kind !== b.kind) return `became a ${b.kind}`;
  if (a.digest !== b.digest || a.size !== b.size) return "changed";
  if (a.mode !== b.mode) {
    return `mode ${(a.mode & 0o7777).toString(8)} → ${(b.mode & 0o7777).toString(8)}`;
  }
  // A folder's time moves when an entry is added or removed, which is named
  // on its own; a file rewritten with the same bytes is still a write.
  if (a.kind !== "folder" && a.mtimeMs !== b.mtimeMs) return "rewritten";
  return undefined;
}

/** What changed between two snapshots of `home`, one line each ("" when nothing did). */
export function describeChanges(home: string, before: Snapshot, after: Snapshot): string[] {
  if (before === null && after === null) return [];
  if (before === null) return [`${home} was created`];
  if (after === null) return [`${home} was removed`];
  const lines: string[] = [];
  const name = (path: string) => path === "" ? home : join(home, path);
  for (const [path, entry] of before) {
    const now = after.get(path);
    if (!now) lines.push(`${name(path)} was removed`);
    else {
      const how = differs(entry, now);
      if (how) lines.push(`${name(path)} ${how}`);
    }
  }
  for (const path of after.keys()) {
    if (!before.has(path)) lines.push(`${name(path)} was created`);
  }
  return lines;
}

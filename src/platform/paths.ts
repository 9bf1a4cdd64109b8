/**
 * The writable set and the path arithmetic behind it. The sandbox matches
 * real paths (the kernel resolves every symlink of a write's target), so
 * every root is realpath'd here, and a path that does not exist yet resolves
 * through its longest existing prefix. edit_file uses the same set, so a file
 * edit and a command agree on where writes may land.
 */
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import type { Config } from "../config/schema.ts";
import { expandTilde } from "../config/home.ts";
import type { WritableSet } from "./types.ts";

export type Env = (name: string) => string | undefined;

function safeEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** realpath of `path`, or of its longest existing prefix with the rest appended. */
export function realpathLongest(path: string, base = "/"): string {
  const absolute = resolve(base, path);
  const rest: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = Deno.realPathSync(current);
      return rest.length === 0 ? real : join(real, ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return absolute;
      rest.push(current.slice(parent === "/" ? 1 : parent.length + 1));
      current = parent;
    }
  }
}

/** Whether `path` is `root` or lies under it (both absolute and normalised). */
export function isInside(path: string, root: string): boolean {
  if (root === "/") return path.startsWith("/");
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Drop duplicates and roots inside other roots; parents first. */
export function normaliseRoots(roots: string[]): string[] {
  const unique = [...new Set(roots)].sort((a, b) => a.length - b.length || a.localeCompare(b));
  const kept: string[] = [];
  for (const root of unique) {
    if (!kept.some((parent) => isInside(root, parent))) kept.push(root);
  }
  return kept;
}

/** The per-user cache directory: XDG_CACHE_HOME or ~/.cache on Linux; the Darwin user cache dir on a Mac. */
export function userCacheDir(os: string, env: Env): string | undefined {
  const home = env("HOME");
  if (os === "darwin") {
    // $TMPDIR is /var/folders/xx/yyyy/T/ and the per-user cache dir its sibling C/.
    const tmp = env("TMPDIR");
    const m = tmp ? /^(.*\/var\/folders\/[^/]+\/[^/]+)\/T\/?$/.exec(tmp) : null;
    if (m) return `${m[1]}/C`;
    return home ? join(home, "Library", "Caches") : undefined;
  }
  const xdg = env("XDG_CACHE_HOME");
  if (xdg && isAbsolute(xdg)) return xdg;
  return home ? join(home, ".cache") : undefined;
}

/** The temporary directories every command may write. */
export function tempDirs(os: string, env: Env): string[] {
  const dirs: string[] = [];
  const tmp = env("TMPDIR");
  if (tmp && isAbsolute(tmp)) dirs.push(tmp);
  dirs.push("/tmp");
  if (os === "darwin") dirs.push("/private/tmp");
  else dirs.push("/var/tmp");
  return dirs;
}

export interface WritableSetInput {
  config: Config;
  /** The launch directory: the writable root. A per-command cwd never widens it. */
  root: string;
  /** wisp's home folder (HomePaths.root). */
  home: string;
  os?: string;
  env?: Env;
}

/**
 * The writable set for a confined command: the launch directory, the
 * temporary directories, the per-user cache directory and
 * commandPolicy.sandbox.writablePaths, realpath'd; wisp's home realpath'd
 * apart, for the profile to deny after the roots.
 */
export function writableSet(input: WritableSetInput): WritableSet {
  const os = input.os ?? Deno.build.os;
  const env = input.env ?? safeEnv;
  const candidates: string[] = [input.root, ...tempDirs(os, env)];
  const cache = userCacheDir(os, env);
  if (cache) candidates.push(cache);
  const missing: string[] = [];
  const home = env("HOME");
  for (const configured of input.config.commandPolicy.sandbox.writablePaths) {
    const expanded = home ? expandTilde(configured, home) : configured;
    if (!isAbsolute(expanded)) continue; // relative paths have no fixed meaning; the docs say so
    candidates.push(expanded);
  }
  const roots: string[] = [];
  for (const candidate of candidates) {
    const real = realpathLongest(candidate, input.root);
    let exists = true;
    try {
      Deno.statSync(real);
    } catch {
      exists = false;
    }
    if (!exists) {
      missing.push(real);
      if (os !== "darwin") continue; // bubblewrap can only bind what exists
    }
    roots.push(real);
  }
  const normalised = normaliseRoots(roots);
  const homeReal = realpathLongest(input.home, input.root);
  return {
    roots: normalised,
    home: homeReal,
    homeInsideRoot: normalised.some((root) => isInside(homeReal, root)),
    missing,
  };
}

/** Whether a write to the real path `real` is allowed by the set: inside a root and not in the home. */
export function writeAllowed(real: string, set: WritableSet): boolean {
  if (isInside(real, set.home)) return false;
  return set.roots.some((root) => isInside(real, root));
}

/**
 * Directories between a root and the home (exclusive of both) that lie inside
 * a writable root. A confined command could rename one of them and so move
 * the home aside and plant another in its place; the Linux profile binds each
 * onto itself, which makes it a mount point that cannot be renamed.
 */
export function homeAncestorsInside(set: WritableSet): string[] {
  const ancestors: string[] = [];
  let current = dirname(set.home);
  while (current !== dirname(current)) {
    if (set.roots.some((root) => isInside(current, root) && current !== root)) ancestors.push(current);
    current = dirname(current);
  }
  return ancestors.reverse();
}

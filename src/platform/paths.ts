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
  if (xdg && isAbsolute(xdg) && !tooWide(xdg, env)) return xdg;
  return home ? join(home, ".cache") : undefined;
}

/**
 * A path from the environment that would make the set absurdly wide — the
 * root, or the user's home or a folder above it — is not taken as a root.
 */
function tooWide(path: string, env: Env): boolean {
  const normal = resolve(path);
  if (normal === "/") return true;
  const home = env("HOME");
  return !!home && isInside(resolve(home), normal);
}

/** The temporary directories every command may write. */
export function tempDirs(os: string, env: Env): string[] {
  const dirs: string[] = [];
  const tmp = env("TMPDIR");
  if (tmp && isAbsolute(tmp) && !tooWide(tmp, env)) dirs.push(tmp);
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
  // The launch directory and the system's temporary folders are roots as
  // they are. Any other root is refused when a symlink on its way lies inside
  // one of them: a command could have planted it to aim the next command's
  // writable set anywhere (rm -rf out; ln -s ~/.ssh out).
  const base = [input.root, ...(os === "darwin" ? ["/private/tmp"] : ["/tmp", "/var/tmp"])]
    .map((p) => realpathLongest(p, input.root));
  const roots: string[] = [];
  const refused: string[] = [];
  for (const [i, candidate] of candidates.entries()) {
    const absolute = resolve(input.root, candidate);
    if (i > 0 && plantedLink(absolute, base)) {
      refused.push(absolute);
      continue;
    }
    const real = realpathLongest(absolute, input.root);
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
    refused,
    masked: os === "linux" ? existingSockets(daemonSockets(env, uid())) : [],
  };
}

function uid(): number | null {
  try {
    return Deno.uid();
  } catch {
    return null;
  }
}

/** Whether a symlink on the way to `path` sits inside one of `base` (where a command could plant it). */
export function plantedLink(path: string, base: string[]): boolean {
  const parts = resolve(path).split("/").filter(Boolean);
  let current = "";
  for (const part of parts) {
    const parent = current || "/";
    current = `${current}/${part}`;
    let isLink = false;
    try {
      isLink = Deno.lstatSync(current).isSymlink;
    } catch {
      return false; // nothing further exists, so no link further on
    }
    if (isLink) {
      const where = realpathLongest(parent);
      if (base.some((root) => isInside(where, root))) return true;
    }
  }
  return false;
}

/**
 * Sockets of daemons that would do a write for a confined command, outside
 * the sandbox: a container engine (docker run -v /:/host), the service
 * manager (systemd-run), the message buses, and the display servers (X11,
 * Wayland: a client can type into a terminal). The Linux profile hides each
 * one that exists behind /dev/null (docs/adr/0112).
 */
export function daemonSockets(env: Env, userId: number | null): string[] {
  const paths = [
    "/run/docker.sock",
    "/var/run/docker.sock",
    "/run/podman/podman.sock",
    "/run/containerd/containerd.sock",
    "/run/systemd/private",
    "/run/initctl", // a FIFO: init reads runlevel changes (reboot, halt) from it
    "/run/dbus/system_bus_socket",
    "/var/run/dbus/system_bus_socket",
  ];
  const runtime = env("XDG_RUNTIME_DIR") ?? (userId !== null ? `/run/user/${userId}` : undefined);
  if (runtime && isAbsolute(runtime)) {
    paths.push(
      `${runtime}/bus`,
      `${runtime}/systemd/private`,
      `${runtime}/docker.sock`,
      `${runtime}/podman/podman.sock`,
    );
  }
  // Display servers: a client can type into any window, a terminal's included.
  paths.push(...socketsIn("/tmp/.X11-unix", /^X\d+$/));
  if (runtime && isAbsolute(runtime)) paths.push(...socketsIn(runtime, /^wayland-\d+$/));
  const docker = env("DOCKER_HOST");
  if (docker?.startsWith("unix://")) paths.push(docker.slice("unix://".length));
  const bus = env("DBUS_SESSION_BUS_ADDRESS");
  for (const m of bus?.matchAll(/unix:path=([^,;]+)/g) ?? []) paths.push(m[1]);
  return paths;
}

function socketsIn(dir: string, name: RegExp): string[] {
  const found: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (name.test(entry.name)) found.push(join(dir, entry.name));
    }
  } catch { /* no such folder */ }
  return found;
}

/** The sockets (and FIFOs) of `paths` that exist, realpath'd, without duplicates. */
export function existingSockets(paths: string[]): string[] {
  const found = new Set<string>();
  for (const path of paths) {
    try {
      const real = Deno.realPathSync(path);
      const info = Deno.statSync(real);
      if (info.isSocket || info.isFifo) found.add(real);
    } catch { /* not there */ }
  }
  return [...found];
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
    if (set.roots.some((root) => isInside(current, root) && current !== root)) {
      ancestors.push(current);
    }
    current = dirname(current);
  }
  return ancestors.reverse();
}

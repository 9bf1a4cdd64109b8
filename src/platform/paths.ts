/**
 * The writable set and the path arithmetic behind it. The sandbox matches
 * real paths (the kernel resolves every symlink of a write's target), so
 * every root is realpath'd here, and a path that does not exist yet resolves
 * through its longest existing prefix. edit_file uses the same set, so a file
 * edit and a command agree on where writes may land.
 */
import { dirname, isAbsolute, join, resolve, sep } from "../util/path.ts";
import type { Config } from "../config/schema.ts";
import { expandTilde } from "../config/home.ts";
import type { WritableSet } from "./types.ts";
import { buildCaches } from "./caches.ts";
import { protectedPaths, type Protection, type RuntimePaths, wispRuntime } from "./protected.ts";
import { unshareOwnModules } from "./own_links.ts";
import { hostOs } from "./os.ts";
import { namesStartingWith } from "./folder_names.ts";

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

/**
 * realpathLongest for many paths at once, without an exception per missing
 * path (each costs tens of microseconds in Deno): a folder is listed once and
 * a name not in its listing is known missing. `real` gives the real path and
 * whether it exists.
 */
export class PathResolver {
  #listings = new Map<string, Set<string> | null>();
  #asked = new Set<string>();
  #resolved = new Map<string, { real: string; exists: boolean }>();

  /** A folder's names, listed the second time it is asked about (a big /tmp asked once is not). */
  #listing(dir: string): Set<string> | null {
    let names = this.#listings.get(dir);
    if (names === undefined) {
      if (!this.#asked.has(dir)) {
        this.#asked.add(dir);
        return null;
      }
      try {
        names = new Set([...Deno.readDirSync(dir)].map((e) => e.name));
      } catch {
        names = null; // unreadable: ask the kernel per name
      }
      this.#listings.set(dir, names);
    }
    return names;
  }

  /** The real path of absolute `path` (through its longest existing prefix) and whether it exists. */
  real(path: string): { real: string; exists: boolean } {
    const absolute = resolve(path);
    const known = this.#resolved.get(absolute);
    if (known) return known;
    let answer: { real: string; exists: boolean };
    const parent = dirname(absolute);
    if (parent === absolute) answer = { real: absolute, exists: true };
    else {
      const up = this.real(parent);
      const name = absolute.slice(parent === "/" ? 1 : parent.length + 1);
      const joined = join(up.real, name);
      const names = up.exists ? this.#listing(up.real) : undefined;
      if (!up.exists || (names && !names.has(name))) answer = { real: joined, exists: false };
      else {
        try {
          answer = { real: Deno.realPathSync(joined), exists: true };
        } catch {
          answer = { real: joined, exists: false };
          try {
            // A dangling link: a write through it creates its target, which is what counts.
            if (Deno.lstatSync(joined).isSymlink) answer.real = realpathLongest(joined);
          } catch { /* plainly missing */ }
        }
      }
    }
    this.#resolved.set(absolute, answer);
    return answer;
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
  /** wisp's own code and runtime (tests name a stand-in; the default is this process's). */
  runtime?: RuntimePaths;
}

let ownRuntime: RuntimePaths | undefined;

/**
 * The writable set for a confined command: the launch directory, the
 * temporary directories, the known build caches (src/platform/caches.ts; on a
 * Mac also the per-user cache folder) and commandPolicy.sandbox.writablePaths,
 * realpath'd; wisp's home realpath'd apart, and the protected paths that lie
 * inside or above a root (src/platform/protected.ts), for the profile to deny
 * after the roots.
 */
export function writableSet(input: WritableSetInput): WritableSet {
  const os = input.os ?? hostOs();
  const env = input.env ?? safeEnv;
  const candidates: string[] = [input.root, ...tempDirs(os, env)];
  const cache = userCacheDir(os, env);
  // On Linux the cache folder as a whole holds programs that run later
  // (virtualenvs, Deno's and Playwright's caches): only known build caches.
  // The Darwin per-user cache folder (next to $TMPDIR) is the system's scratch.
  if (cache && os === "darwin") candidates.push(cache);
  const caches = buildCaches(os, env, os === "darwin" ? undefined : cache);
  const firstConfigured = candidates.length + caches.length;
  candidates.push(...caches);
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
  const resolver = new PathResolver();
  for (const [i, candidate] of candidates.entries()) {
    const absolute = resolve(input.root, candidate);
    const isCache = i < firstConfigured && caches.includes(candidate);
    if (isCache && !resolver.real(absolute).exists) continue; // not made yet: nothing to say
    if (i > 0 && plantedLink(absolute, base)) {
      if (!isCache) refused.push(absolute);
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
      if (isCache) continue; // a build cache not made yet: nothing to say
      missing.push(real);
      if (os !== "darwin") continue; // bubblewrap can only bind what exists
    }
    roots.push(real);
  }
  const normalised = normaliseRoots(roots);
  const homeReal = realpathLongest(input.home, input.root);
  const runtime = input.runtime ?? (ownRuntime ??= wispRuntime());
  const guarded = protectionsFor(
    protectedPaths({ os, env, root: realpathLongest(input.root), roots: normalised, runtime }),
    normalised,
    unprotectedRoots(input.config, env, input.root),
    os,
    resolver,
  );
  const shared = [...guarded.shared];
  if (runtime.source) shared.push(...unshareOwnModules(runtime.source).shared);
  const pinned = protectedAncestorsInside({
    roots: normalised,
    protected: guarded.protected,
    unguarded: guarded.unguarded,
  }).filter(isDirectory); // a missing folder cannot be renamed; creating it stays allowed
  return {
    roots: normalised,
    home: homeReal,
    homeInsideRoot: normalised.some((root) => isInside(homeReal, root)),
    missing,
    refused,
    masked: existingSockets(daemonSockets(env, uid())),
    protected: guarded.protected,
    unguarded: guarded.unguarded,
    unprotected: guarded.unprotected,
    shared,
    pinned,
  };
}

function isDirectory(path: string): boolean {
  try {
    return Deno.lstatSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** commandPolicy.sandbox.unprotectedPaths, expanded and realpath'd. */
function unprotectedRoots(config: Config, env: Env, root: string): string[] {
  const home = env("HOME");
  const roots: string[] = [];
  for (const configured of config.commandPolicy.sandbox.unprotectedPaths ?? []) {
    const expanded = home ? expandTilde(configured, home) : configured;
    if (isAbsolute(expanded)) roots.push(realpathLongest(expanded, root));
  }
  return roots;
}

/**
 * The protections that matter for these roots: realpath'd, inside a root or
 * above one (a path outside every root is read-only already), not lifted by
 * unprotectedPaths, nested ones dropped. On Linux only existing paths can be
 * bound; the missing ones inside a root are returned as unguarded. Protected
 * files with more than one link are named: a write through the other name
 * reaches the same file.
 */
function protectionsFor(
  candidates: Protection[],
  roots: string[],
  lifted: string[],
  os: string,
  resolver = new PathResolver(),
): { protected: Protection[]; unguarded: Protection[]; unprotected: string[]; shared: string[] } {
  const byPath = new Map<string, Protection>();
  const unguarded = new Map<string, Protection>();
  const unprotected = new Set<string>();
  const shared: string[] = [];
  for (const candidate of candidates) {
    const { real, exists } = resolver.real(candidate.path);
    const paths = os === "darwin" && real !== candidate.path ? [real, candidate.path] : [real];
    for (const path of paths) {
      const relevant = roots.some((root) => isInside(path, root) || isInside(root, path));
      if (!relevant) continue;
      if (lifted.some((l) => isInside(path, l) || isInside(candidate.path, l))) {
        unprotected.add(path);
        continue;
      }
      let info: Deno.FileInfo | undefined;
      if (exists) {
        try {
          info = Deno.statSync(path);
        } catch { /* gone meanwhile */ }
      }
      if (!info && os !== "darwin") {
        if (!unguarded.has(path)) unguarded.set(path, { path, why: candidate.why });
        continue;
      }
      if (info?.isFile && (info.nlink ?? 1) > 1) shared.push(path);
      if (!byPath.has(path)) byPath.set(path, { path, why: candidate.why });
    }
  }
  const kept = normaliseRoots([...byPath.keys()]);
  const keptSet = new Set(kept);
  return {
    protected: kept.map((p) => byPath.get(p)!),
    unguarded: [...unguarded.values()].filter((u) =>
      !kept.some((p) => isInside(u.path, p)) && !byPath.has(u.path)
    ),
    unprotected: [...unprotected],
    shared: [...new Set(shared)].filter((p) => keptSet.has(p) || kept.some((k) => isInside(p, k))),
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

/** How the folders of /tmp that hold such sockets begin (the pattern below decides). */
const TMP_SOCKET_PREFIXES = ["ssh-", "com.apple.launchd.", "nvim", "kitty", "zellij-", "emacs"];

/**
 * Sockets of host programs that would act for a confined command, outside
 * the sandbox: container engines and virtual machines (docker run -v /:/host),
 * the service manager (systemd-run), the message buses, the display servers
 * (a client can type into a terminal), terminal multiplexers and terminals
 * with remote control (tmux, screen, WezTerm, kitty, Zellij: a new window runs
 * anything), editors' servers (Emacs, Neovim, VS Code: they evaluate what they
 * are sent), and the agents that sign or decrypt as the person (ssh-agent,
 * gpg-agent, the keyrings, password managers' SSH agents). Each one that
 * exists is hidden from confined commands: behind /dev/null on Linux, by a
 * deny rule on a Mac (docs/adr/0112, docs/adr/0264). The list is also in
 * docs/sandbox.md.
 */
export function daemonSockets(env: Env, userId: number | null): string[] {
  const paths = [
    "/run/docker.sock",
    "/var/run/docker.sock",
    "/run/podman/podman.sock",
    "/run/containerd/containerd.sock",
    "/run/k3s/containerd/containerd.sock",
    "/run/crio/crio.sock",
    "/run/buildkit/buildkitd.sock",
    "/run/libvirt/libvirt-sock",
    "/var/run/libvirt/libvirt-sock",
    "/var/lib/incus/unix.socket",
    "/var/lib/lxd/unix.socket",
    "/var/snap/lxd/common/lxd/unix.socket",
    "/run/snapd.socket",
    "/run/systemd/private",
    "/run/initctl", // a FIFO: init reads runlevel changes (reboot, halt) from it
    "/run/dbus/system_bus_socket",
    "/var/run/dbus/system_bus_socket",
  ];
  const home = env("HOME");
  const user = env("USER") ?? env("LOGNAME");
  const runtime = env("XDG_RUNTIME_DIR") ?? (userId !== null ? `/run/user/${userId}` : undefined);
  if (runtime && isAbsolute(runtime)) {
    paths.push(
      `${runtime}/bus`,
      `${runtime}/systemd/private`,
      `${runtime}/docker.sock`,
      `${runtime}/podman/podman.sock`,
      `${runtime}/buildkit/buildkitd.sock`,
      `${runtime}/libvirt/libvirt-sock`,
      ...socketsIn(runtime, /^wayland-\d+$|^nvim\.|^vscode-.*\.sock$/),
      ...socketsUnder(`${runtime}/gnupg`, 2),
      ...socketsUnder(`${runtime}/keyring`, 1),
      ...socketsUnder(`${runtime}/emacs`, 1),
      ...socketsUnder(`${runtime}/wezterm`, 1),
      ...socketsUnder(`${runtime}/zellij`, 3),
    );
  }
  // The shared temporary folder: display servers, multiplexers, agents, editors.
  paths.push(...socketsIn("/tmp/.X11-unix", /^X\d+$/));
  const tmuxTmp = env("TMUX_TMPDIR");
  for (const tmp of new Set(["/tmp", ...(tmuxTmp && isAbsolute(tmuxTmp) ? [tmuxTmp] : [])])) {
    if (userId !== null) paths.push(...socketsUnder(`${tmp}/tmux-${userId}`, 1));
  }
  // Only the names that can match are read: a shared /tmp may hold thousands (folder_names.ts).
  for (const name of namesStartingWith("/tmp", TMP_SOCKET_PREFIXES)) {
    if (/^ssh-|^com\.apple\.launchd\.|^nvim|^kitty|^zellij-|^emacs\d+$/.test(name)) {
      paths.push(...socketsUnder(`/tmp/${name}`, 3));
    }
  }
  if (user) {
    paths.push(
      ...socketsUnder(`/run/screen/S-${user}`, 1),
      ...socketsUnder(`/tmp/screens/S-${user}`, 1),
    );
  }
  if (home && isAbsolute(home)) {
    paths.push(
      // Docker Desktop, OrbStack, Rancher Desktop, Colima, Lima, Podman machines
      ...socketsUnder(`${home}/.docker/run`, 1),
      ...socketsUnder(`${home}/.docker/desktop`, 1),
      ...socketsUnder(`${home}/.orbstack/run`, 1),
      ...socketsUnder(`${home}/.rd`, 1),
      ...socketsUnder(`${home}/.colima`, 2),
      ...socketsUnder(`${home}/.lima`, 3),
      ...socketsUnder(`${home}/.local/share/containers/podman/machine`, 3),
      // gpg-agent without a runtime folder, and password managers' SSH agents
      ...socketsUnder(`${home}/.gnupg`, 1),
      `${home}/.1password/agent.sock`,
      `${home}/.bitwarden-ssh-agent.sock`,
      `${home}/Library/Group Containers/2BUA8C4S2C.com.1password/t/agent.sock`,
    );
  }
  // Addresses the environment names.
  for (const name of ["SSH_AUTH_SOCK", "WEZTERM_UNIX_SOCKET", "NVIM", "NVIM_LISTEN_ADDRESS"]) {
    const value = env(name);
    if (value && isAbsolute(value)) paths.push(value);
  }
  for (const name of ["VSCODE_IPC_HOOK_CLI", "VSCODE_IPC_HOOK", "VSCODE_GIT_IPC_HANDLE"]) {
    const value = env(name);
    if (value && isAbsolute(value)) paths.push(value);
  }
  const gnupg = env("GNUPGHOME");
  if (gnupg && isAbsolute(gnupg)) paths.push(...socketsUnder(gnupg, 1));
  const tmux = env("TMUX")?.split(",")[0];
  if (tmux && isAbsolute(tmux)) paths.push(tmux);
  const screen = env("SCREENDIR");
  if (screen && isAbsolute(screen)) paths.push(...socketsUnder(screen, 1));
  const kitty = env("KITTY_LISTEN_ON");
  if (kitty?.startsWith("unix:/")) paths.push(kitty.slice("unix:".length));
  for (const name of ["DOCKER_HOST", "CONTAINER_HOST"]) {
    const value = env(name);
    if (value?.startsWith("unix://")) paths.push(value.slice("unix://".length));
  }
  const bus = env("DBUS_SESSION_BUS_ADDRESS");
  for (const m of bus?.matchAll(/unix:path=([^,;]+)/g) ?? []) paths.push(m[1]);
  return paths;
}

function entriesOf(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name);
  } catch {
    return []; // no such folder, or not ours to list
  }
}

function socketsIn(dir: string, name: RegExp): string[] {
  return entriesOf(dir).filter((n) => name.test(n)).map((n) => join(dir, n));
}

/**
 * Every socket or FIFO in `dir`, and in its folders down to `depth` levels
 * (1: the folder itself). Links are not followed into other folders.
 */
function socketsUnder(dir: string, depth: number): string[] {
  const found: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return found;
  }
  // Every entry: a cap let a server whose socket sorted past it stay reachable (fail closed).
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      if (depth > 1) found.push(...socketsUnder(path, depth - 1));
    } else if (!entry.isFile) {
      found.push(path); // sockets, FIFOs and links: existingSockets keeps the sockets and FIFOs
    }
  }
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

/** Whether a write to the real path `real` is allowed by the set: inside a root, not in the home, not protected. */
export function writeAllowed(real: string, set: WritableSet): boolean {
  if (isInside(real, set.home)) return false;
  if (protectionOf(real, set)) return false;
  return set.roots.some((root) => isInside(real, root));
}

/** The protection that covers the real path `real`, if one does (created or not). */
export function protectionOf(real: string, set: WritableSet): Protection | undefined {
  return [...(set.protected ?? []), ...(set.unguarded ?? [])].find((p) => isInside(real, p.path));
}

/**
 * Directories between a root and a protected path (exclusive of both) that
 * lie inside the root: renamed, they would carry the protection away and let
 * a fresh one be planted in its place, so the Linux profile pins each (binds
 * it onto itself) and the Seatbelt profile denies writes to each as a literal.
 */
function protectedAncestorsInside(
  set: Pick<WritableSet, "roots" | "protected" | "unguarded">,
): string[] {
  const found = new Set<string>();
  for (const p of [...(set.protected ?? []), ...(set.unguarded ?? [])]) {
    let current = dirname(p.path);
    while (current !== dirname(current)) {
      if (set.roots.some((root) => isInside(current, root) && current !== root)) found.add(current);
      current = dirname(current);
    }
  }
  return [...found].sort((a, b) => a.length - b.length || a.localeCompare(b));
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

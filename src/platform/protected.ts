/**
 * The protected list: places a confined command may not write even when they
 * lie inside a writable root, because something outside the sandbox runs what
 * they hold later — wisp itself, Deno, your shell, git, your editor, the
 * service manager. A write there would be a command run unsandboxed and
 * unasked, one step removed. The Linux profile binds each one that exists and
 * lies inside a root read-only after the roots; the Seatbelt profile denies
 * each (existing or not) after its allow rules. docs/sandbox.md lists them;
 * docs/adr/0240 says why each is here.
 *
 * `commandPolicy.sandbox.unprotectedPaths` lifts the protection from an entry
 * at or under a path it names, with a warning at every launch; nothing else
 * does (`writablePaths` only adds roots, and protections win over roots).
 */
import { dirname, fromFileUrl, isAbsolute, join, resolve } from "../util/path.ts";
import type { Env } from "./paths.ts";

/** One protected path and the reason a refusal names. */
export interface Protection {
  /** Absolute path (realpath'd once it is in a WritableSet). */
  path: string;
  /** Why it is protected, as a refusal line says it ("git runs its hooks …"). */
  why: string;
}

/** Where wisp's own code and runtime live. */
export interface RuntimePaths {
  /** The source tree wisp runs from (the folder holding main.ts), when it runs from source. */
  source?: string;
  /** The running executable: the Deno binary, or the compiled wisp binary. */
  execPath?: string;
}

/** wisp's runtime as this process sees it (the source tree only when it exists on disk). */
export function wispRuntime(): RuntimePaths {
  const runtime: RuntimePaths = {};
  try {
    const url = new URL("../..", import.meta.url);
    if (url.protocol === "file:") {
      const source = fromFileUrl(url).replace(/\/$/, "");
      // A compiled binary's modules live in a virtual folder that is not on disk.
      if (Deno.statSync(join(source, "main.ts")).isFile) runtime.source = source;
    }
  } catch { /* not on disk: compiled */ }
  try {
    runtime.execPath = Deno.execPath();
  } catch { /* no --allow-read of it: nothing to add */ }
  return runtime;
}

/** Deno's cache: $DENO_DIR, else the per-user cache Deno picks on this OS. */
export function denoDir(os: string, env: Env): string | undefined {
  const configured = env("DENO_DIR");
  if (configured && isAbsolute(configured)) return configured;
  const home = env("HOME");
  if (os === "darwin") return home ? join(home, "Library", "Caches", "deno") : undefined;
  const xdg = env("XDG_CACHE_HOME");
  if (xdg && isAbsolute(xdg)) return join(xdg, "deno");
  return home ? join(home, ".cache", "deno") : undefined;
}

/**
 * Files and folders in the user's home whose content a later, unsandboxed
 * process runs or obeys. Each entry says why.
 */
export const HOME_PROTECTED: ReadonlyArray<Readonly<{ path: string; why: string }>> = [
  // Shells read these at start-up and run every line: the next terminal you open.
  { path: ".profile", why: "your login shell runs it" },
  { path: ".bashrc", why: "bash runs it in every new shell" },
  { path: ".bash_profile", why: "bash runs it at login" },
  { path: ".bash_login", why: "bash runs it at login" },
  { path: ".bash_logout", why: "bash runs it at logout" },
  { path: ".zshenv", why: "zsh runs it in every shell, scripts included" },
  { path: ".zshrc", why: "zsh runs it in every new shell" },
  { path: ".zprofile", why: "zsh runs it at login" },
  { path: ".zlogin", why: "zsh runs it at login" },
  { path: ".zlogout", why: "zsh runs it at logout" },
  { path: ".config/fish", why: "fish runs its config.fish and conf.d at start-up" },
  { path: ".config/nushell", why: "nushell runs its config at start-up" },
  { path: ".config/environment.d", why: "systemd sets your session's environment from it" },
  { path: ".pam_environment", why: "PAM sets your login environment from it" },
  { path: ".xprofile", why: "the display manager runs it at login" },
  { path: ".xinitrc", why: "startx runs it" },
  { path: ".xsessionrc", why: "the X session runs it at login" },
  // Terminal multiplexers and editors run commands from their configuration.
  { path: ".tmux.conf", why: "tmux runs its run-shell lines when it starts" },
  { path: ".config/tmux", why: "tmux runs its run-shell lines when it starts" },
  { path: ".vimrc", why: "vim runs it when it starts" },
  { path: ".vim", why: "vim loads its plugins when it starts" },
  { path: ".config/nvim", why: "neovim runs its init and plugins when it starts" },
  { path: ".emacs", why: "emacs runs it when it starts" },
  { path: ".emacs.d", why: "emacs runs its init when it starts" },
  // git: hooks, pagers, editors, filters and fsmonitor are programs it starts.
  { path: ".gitconfig", why: "git runs the programs it names (hooks, pager, filters, fsmonitor)" },
  { path: ".config/git", why: "git runs the programs it names (hooks, pager, filters, fsmonitor)" },
  // ssh: ProxyCommand and LocalCommand run programs; authorized_keys lets someone in.
  { path: ".ssh", why: "ssh runs ProxyCommand and LocalCommand from it and trusts its keys" },
  // Programs you run by name, found on PATH before the system's.
  { path: ".local/bin", why: "your shell finds programs there by name" },
  { path: "bin", why: "your shell finds programs there by name" },
  { path: ".cargo/bin", why: "your shell finds programs there by name" },
  { path: ".deno/bin", why: "your shell finds programs there by name" },
  { path: ".bun/bin", why: "your shell finds programs there by name" },
  // The service manager and the desktop start these without asking.
  { path: ".config/systemd", why: "systemd starts the user services it defines" },
  { path: ".config/autostart", why: "the desktop starts its entries at login" },
  // Package managers run scripts and helpers their configuration names.
  { path: ".npmrc", why: "npm runs the script-shell and hooks it names" },
  { path: ".yarnrc", why: "yarn runs the yarn-path it names" },
  { path: ".yarnrc.yml", why: "yarn runs the yarnPath and plugins it names" },
  { path: ".config/pip", why: "pip installs from the indexes it names" },
  { path: ".pip", why: "pip installs from the indexes it names" },
  { path: ".pydistutils.cfg", why: "Python builds obey it" },
  { path: ".cargo/config.toml", why: "cargo runs the runners, linkers and aliases it names" },
  { path: ".cargo/config", why: "cargo runs the runners, linkers and aliases it names" },
  { path: ".docker/config.json", why: "docker runs the credential helpers it names" },
  // direnv: the allow list decides which .envrc files run on cd.
  { path: ".config/direnv", why: "direnv runs its direnvrc on every cd" },
  { path: ".local/share/direnv", why: "direnv's allow list decides which .envrc files run" },
  // Editors' user settings name interpreters, terminals and tasks to run.
  { path: ".config/Code/User", why: "VS Code runs the tasks, terminals and interpreters it names" },
  {
    path: "Library/Application Support/Code/User",
    why: "VS Code runs the tasks, terminals and interpreters it names",
  },
  // macOS: launchd starts these agents at login.
  { path: "Library/LaunchAgents", why: "launchd starts the agents it holds at login" },
];

/** Places outside the home that a later process runs from. */
export const SYSTEM_PROTECTED: ReadonlyArray<Readonly<{ path: string; why: string }>> = [
  { path: "/var/spool/cron", why: "cron runs the crontabs it holds" },
  { path: "/var/at/tabs", why: "cron runs the crontabs it holds" },
];

/** Files and folders in a project whose content a later process runs. */
const PROJECT_PROTECTED: ReadonlyArray<Readonly<{ path: string; why: string }>> = [
  { path: ".envrc", why: "direnv runs it when you cd into the folder" },
  {
    path: ".vscode",
    why: "VS Code runs its tasks and launch configurations on opening the folder",
  },
  { path: ".idea", why: "JetBrains IDEs run its run configurations and startup tasks" },
  // Deno lays node_modules out as hard links into its cache: a write here is a write there.
  {
    path: "node_modules/.deno",
    why: "Deno's package folder, whose files are hard links into Deno's cache",
  },
];

/** Why each part of a repository is protected: git runs what it names. */
export const GIT_WHY = {
  config: "git runs the programs a repository's config names (fsmonitor, hooksPath, filters)",
  hooks: "git runs a repository's hooks on your next commit, checkout or push",
  info: "git reads a repository's info/attributes and exclude (filters it runs)",
  dotgit: "git follows the gitdir line of a worktree's .git file to its config and hooks",
};

/** A folder wider than a protection should be: the root, or the home or above it. */
function tooWide(path: string, env: Env): boolean {
  const normal = resolve(path);
  if (normal === "/") return true;
  const home = env("HOME");
  return !!home && (resolve(home) === normal || resolve(home).startsWith(normal + "/"));
}

function lstat(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}

/** The repository folders of the worktree at `top` (its .git a folder or a `gitdir:` file). */
function gitDirsOf(
  top: string,
): { dotGit: string; gitDir: string; commonDir: string } | undefined {
  const dotGit = join(top, ".git");
  const info = lstat(dotGit);
  if (!info) return undefined;
  let gitDir = dotGit;
  if (info.isFile) {
    try {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(Deno.readTextFileSync(dotGit));
      if (!m) return undefined;
      gitDir = resolve(top, m[1]);
    } catch {
      return undefined;
    }
  } else if (!info.isDirectory) return undefined;
  let commonDir = gitDir;
  try {
    commonDir = resolve(gitDir, Deno.readTextFileSync(join(gitDir, "commondir")).trim());
  } catch { /* not a linked worktree */ }
  return { dotGit, gitDir, commonDir };
}

/**
 * core.hooksPath from a repository's config (husky and others point it into
 * the worktree), read with a plain pattern: a value the pattern misses keeps
 * the default hooks folder protected all the same.
 */
function configuredHooksPath(configPath: string): string | undefined {
  let text: string;
  try {
    text = Deno.readTextFileSync(configPath);
  } catch {
    return undefined;
  }
  let section = "";
  let found: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[\s*([A-Za-z0-9.-]+)[^\]]*\]/.exec(line);
    if (header) section = header[1].toLowerCase();
    const m = /^\s*hookspath\s*=\s*"?([^"#;]*?)"?\s*(?:[#;].*)?$/i.exec(line);
    if (section === "core" && m && m[1]) found = m[1];
  }
  if (!found) return undefined;
  return found.startsWith("~/") ? undefined : found;
}

/** The worktree top above `dir` (the nearest folder holding .git), if any. */
function repositoryTop(dir: string): string | undefined {
  let current = resolve(dir);
  for (;;) {
    if (lstat(join(current, ".git"))) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** The protections of one worktree: its .git file, config, hooks, info, and the project files. */
function projectProtections(top: string): Protection[] {
  const found: Protection[] = PROJECT_PROTECTED.map((p) => ({
    path: join(top, p.path),
    why: p.why,
  }));
  const git = gitDirsOf(top);
  if (!git) return found;
  if (git.dotGit !== git.gitDir) found.push({ path: git.dotGit, why: GIT_WHY.dotgit });
  for (const dir of new Set([git.gitDir, git.commonDir])) {
    found.push({ path: join(dir, "config"), why: GIT_WHY.config });
    found.push({ path: join(dir, "config.worktree"), why: GIT_WHY.config });
  }
  found.push({ path: join(git.commonDir, "hooks"), why: GIT_WHY.hooks });
  found.push({ path: join(git.commonDir, "info"), why: GIT_WHY.info });
  const hooksPath = configuredHooksPath(join(git.commonDir, "config"));
  if (hooksPath) found.push({ path: resolve(top, hooksPath), why: GIT_WHY.hooks });
  return found;
}

export interface ProtectedInput {
  os: string;
  env: Env;
  /** The launch directory (realpath'd). */
  root: string;
  /** The writable roots (realpath'd): a repository at the top of one is protected too. */
  roots: string[];
  runtime: RuntimePaths;
}

/**
 * Every protected path for a launch, not yet realpath'd or filtered: wisp's
 * runtime, Deno's cache, PATH's folders, the home's start-up files, and the
 * project files of the launch folder's repository and of every root that is
 * the top of a worktree.
 */
export function protectedPaths(input: ProtectedInput): Protection[] {
  const { os, env } = input;
  const found: Protection[] = [];
  const own = "wisp's own code and runtime, which runs outside the sandbox";
  if (input.runtime.source) found.push({ path: input.runtime.source, why: own });
  if (input.runtime.execPath) {
    found.push({ path: input.runtime.execPath, why: own });
    const folder = dirname(input.runtime.execPath);
    if (!tooWide(folder, env)) found.push({ path: folder, why: own });
  }
  const deno = denoDir(os, env);
  if (deno) {
    found.push({ path: deno, why: "Deno's cache, which holds code wisp and Deno programs run" });
  }
  for (const entry of (env("PATH") ?? "").split(":")) {
    // Relative entries ("", ".") mean the working directory: no fixed place to protect.
    if (!isAbsolute(entry) || tooWide(entry, env)) continue;
    found.push({ path: entry, why: "a folder on PATH, where your shell finds programs by name" });
  }
  const home = env("HOME");
  if (home && isAbsolute(home)) {
    for (const p of HOME_PROTECTED) found.push({ path: join(home, p.path), why: p.why });
  }
  for (const p of SYSTEM_PROTECTED) found.push({ ...p });
  const tops = new Set<string>();
  const launchTop = repositoryTop(input.root);
  tops.add(launchTop ?? input.root);
  for (const root of input.roots) if (lstat(join(root, ".git"))) tops.add(root);
  for (const top of tops) found.push(...projectProtections(top));
  return found;
}

/**
 * Where a write lands and what that means. A write is rated by its
 * destination, whatever program makes it (a redirection, `tee`, `sort -o`,
 * `sed`'s `w`, `git diff --output`, `curl -o`, `cp` into a folder, …; the
 * targets come from targets.ts): into the system's folders, into a file of
 * the home that a program runs or obeys later (the sandbox's protected list,
 * src/platform/protected.ts), into any other dotfile of the home, or into a
 * repository's hooks and config, it is dangerous. Writes into wisp's own home
 * are the policy's (policy.ts refuses them). Links the line makes itself are
 * followed: `ln -s /etc e; echo x >> e/hosts` writes /etc/hosts.
 */
import { basename } from "../util/path.ts";
import type { Analysis, Part } from "./analyse.ts";
import { GIT_WHY, HOME_PROTECTED, SYSTEM_PROTECTED } from "../platform/protected.ts";
import { absolutePath, literal, resolveWord } from "./words.ts";
import { cachedRegExp } from "./regexes.ts";

/** System locations: a write there changes the machine, not the project. */
function isSystemPath(path: string): boolean {
  if (
    /^\/(tmp|private\/tmp|var\/tmp|var\/folders|private\/var\/folders|dev\/(null|stdout|stderr|tty|fd\/\d+))(\/|$)/
      .test(path)
  ) return false;
  return /^\/(etc|usr|bin|sbin|lib|lib32|lib64|libx32|boot|opt|System|Library|private\/etc|var|Applications|root|srv)(\/|$)/
    .test(path);
}

/** Start-up files the sandbox's list leaves out because no sandbox run can reach them. */
const MORE_STARTUP =
  /^(\.(kshrc|mkshrc|cshrc|tcshrc|login|logout|inputrc)|Library\/(LaunchDaemons|StartupItems)(\/.*)?)$/;

/** Dot-folders of the home that only hold caches: writing there changes no behaviour. */
const CACHE_DIRS = new Set([".cache", ".npm", ".pnpm-store", ".yarn", ".gradle", ".m2", ".wisp"]);

/**
 * Why a write to `abs` (absolute, normalised) is dangerous, or undefined when it lands in an
 * ordinary place (the project, a temporary folder, the home's own documents).
 */
export function riskyDestination(abs: string, userHome: string): string | undefined {
  const home = userHome.replace(/\/+$/, "");
  if (home && abs.startsWith(home + "/")) {
    const rel = abs.slice(home.length + 1);
    for (const p of HOME_PROTECTED) {
      if (rel === p.path || rel.startsWith(p.path + "/")) return p.why;
    }
    if (MORE_STARTUP.test(rel)) return "it runs at login or in every new shell";
    const first = rel.split("/")[0];
    if (first.startsWith(".") && !CACHE_DIRS.has(first)) {
      return "a dotfile of your home, whose settings programs obey";
    }
  }
  for (const p of SYSTEM_PROTECTED) {
    if (abs === p.path || abs.startsWith(p.path + "/")) return p.why;
  }
  const git = /(^|\/)\.git\/(hooks|config|config\.worktree|info)(\/|$)/.exec(abs);
  if (git) {
    return git[2] === "hooks" ? GIT_WHY.hooks : git[2] === "info" ? GIT_WHY.info : GIT_WHY.config;
  }
  if (basename(abs) === ".envrc") return "direnv runs it when you cd into the folder";
  if (abs === "/") return "the root of the file system";
  if (/^\/(proc|sys)\//.test(abs)) return "a setting of the running kernel";
  if (isSystemPath(abs)) return "a system file or folder";
  // Another user's dotfiles (their shell start-up files, their ssh keys).
  // Another user's start-up files, keys and the like (the same list, in their home).
  const other = /^\/(?:home|Users)\/[^/]+\/(.+)$/.exec(abs);
  if (other && !abs.startsWith(home + "/")) {
    for (const p of HOME_PROTECTED) {
      if (other[1] === p.path || other[1].startsWith(p.path + "/")) {
        return `another user's: ${p.why}`;
      }
    }
    if (MORE_STARTUP.test(other[1])) {
      return "another user's: it runs at login or in every new shell";
    }
  }
  return undefined;
}

/**
 * The same for a glob or a name partly unknown (`~/.*rc`, `"/etc/" $1`): dangerous when it may
 * name such a place. `regex` is the value as a regular expression source (absolute).
 */
export function riskyDestinationGlob(regex: string, userHome: string): string | undefined {
  const re = cachedRegExp(`^${regex}$`, "");
  if (!re) return "a name the gate cannot read";
  const home = userHome.replace(/\/+$/, "");
  for (const probe of probes(home)) {
    if (!re.test(probe)) continue;
    const why = riskyDestination(probe, userHome);
    const shown = probe.startsWith(home + "/") ? `~${probe.slice(home.length)}` : probe;
    if (why) return `it may name ${shown.replace(/\/x$/, "/…")}: ${why}`;
  }
  return undefined;
}

let probeCache: { home: string; list: string[] } | undefined;
function probes(home: string): string[] {
  if (probeCache?.home === home) return probeCache.list;
  const list = [
    ...HOME_PROTECTED.map((p) => `${home}/${p.path}`),
    ...HOME_PROTECTED.map((p) => `${home}/${p.path}/x`),
    `${home}/.x`,
    "/etc/x",
    "/usr/local/bin/x",
    "/usr/bin/x",
    "/Library/LaunchDaemons/x",
  ];
  probeCache = { home, list };
  return list;
}

// -- links the line makes -------------------------------------------------------

/** `ln -s TARGET NAME` (or NAME left out): later paths through NAME lead to TARGET. */
export function recordLink(part: Part, userHome: string, links: Map<string, string>): void {
  if (
    part.program !== "ln" ||
    !part.argv.slice(1).some((a) => /^-[a-zA-Z]*s/.test(a) || a === "--symbolic")
  ) return;
  const pos = part.words.slice(1).filter((w) => !(literal(w) ?? "").startsWith("-"));
  if (pos.length < 1) return;
  const target = resolveWord(pos[0], part.vars, userHome);
  const name = pos.length >= 2 ? resolveWord(pos[pos.length - 1], part.vars, userHome) : undefined;
  if (target.unknown || target.globRegex) return;
  for (const cwd of part.cwds) {
    // A relative link target is relative to the link's folder; the line's folder is as good a
    // guess as any when the link sits in it, which is the common case.
    const to = absolutePath(target.value, cwd);
    const at = name && !name.unknown
      ? absolutePath(name.value, cwd)
      : absolutePath(basename(target.value), cwd);
    if (links.size < 64) links.set(at, to);
  }
}

/** Follow the links the line made itself. */
export function throughLinks(path: string, links: Map<string, string>): string {
  for (const [at, to] of links) {
    if (path === at || path.startsWith(at + "/")) return to + path.slice(at.length);
  }
  return path;
}

const linkCache = new WeakMap<Analysis, Map<Part, Map<string, string>>>();

/** The links the line made before this part runs (in the order the line is written). */
export function linksBefore(analysis: Analysis, part: Part): Map<string, string> {
  if (!analysis.parts.some((p) => p.program === "ln")) return new Map();
  let byPart = linkCache.get(analysis);
  if (!byPart) {
    byPart = new Map();
    const links = new Map<string, string>();
    for (const p of analysis.parts) {
      byPart.set(p, new Map(links));
      recordLink(p, analysis.userHome, links);
    }
    linkCache.set(analysis, byPart);
  }
  return byPart.get(part) ?? new Map();
}

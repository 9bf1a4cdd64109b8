/**
 * The build caches a confined command may write. The per-user cache folder as
 * a whole is not scratch space: virtualenvs, pre-commit's environments,
 * Deno's and Playwright's caches hold programs that run later outside the
 * sandbox. Only the caches below are writable — each holds downloads or build
 * output a tool fetches or rebuilds by itself, which a build inside the
 * sandbox needs to be fast or to work at all (go build fails without its
 * cache). A cache that does not exist is not made writable on Linux
 * (bubblewrap binds only what exists); docs/adr/0241 says why these.
 */
import { isAbsolute, join } from "../util/path.ts";
import type { Env } from "./paths.ts";

/** Folders under the per-user cache folder ($XDG_CACHE_HOME or ~/.cache; ~/Library/Caches). */
const CACHE_FOLDER_ENTRIES: ReadonlyArray<Readonly<{ path: string; tool: string }>> = [
  { path: "pip", tool: "pip's downloads and built wheels" },
  { path: "uv", tool: "uv's downloads and built wheels" },
  { path: "go-build", tool: "go's build cache" },
  { path: "yarn", tool: "yarn 1's package cache" },
  { path: "pnpm", tool: "pnpm's metadata cache" },
  { path: "ccache", tool: "ccache's compiler cache" },
  { path: "sccache", tool: "sccache's compiler cache" },
  { path: "node-gyp", tool: "node-gyp's Node headers" },
  { path: "bazel", tool: "bazel's output and repository caches" },
  { path: "composer", tool: "composer's package cache" },
  { path: "Yarn", tool: "yarn 1's package cache (macOS)" },
  { path: "Mozilla.sccache", tool: "sccache's compiler cache (macOS)" },
];

/** Caches elsewhere in the home. */
const HOME_CACHE_ENTRIES: ReadonlyArray<Readonly<{ path: string; tool: string }>> = [
  { path: ".npm/_cacache", tool: "npm's content-addressed package cache" },
  { path: ".npm/_logs", tool: "npm's debug logs" },
  { path: ".cargo/registry", tool: "cargo's crate downloads" },
  { path: ".cargo/git", tool: "cargo's git checkouts of dependencies" },
  { path: "go/pkg/mod", tool: "go's module cache" },
  { path: ".m2/repository", tool: "maven's artifact repository" },
  { path: ".gradle/caches", tool: "gradle's dependency and build caches" },
  { path: ".ivy2/cache", tool: "ivy's (sbt's) artifact cache" },
  { path: ".nuget/packages", tool: "NuGet's package folder" },
  { path: ".local/share/pnpm/store", tool: "pnpm's content-addressed store" },
  { path: "Library/pnpm/store", tool: "pnpm's content-addressed store (macOS)" },
  { path: ".pnpm-store", tool: "pnpm's content-addressed store" },
  { path: ".yarn/berry/cache", tool: "yarn's package cache" },
  { path: ".bun/install/cache", tool: "bun's package cache" },
  { path: ".ccache", tool: "ccache's compiler cache (older layout)" },
];

/**
 * The build caches' paths for this user (not realpath'd, existing or not):
 * each entry of both lists under the cache folder (on Linux the one
 * userCacheDir found, on a Mac ~/Library/Caches) and the home.
 */
export function buildCaches(os: string, env: Env, linuxCacheFolder: string | undefined): string[] {
  const home = env("HOME");
  const paths: string[] = [];
  const cacheFolder = os === "darwin"
    ? (home && isAbsolute(home) ? join(home, "Library", "Caches") : undefined)
    : linuxCacheFolder;
  if (cacheFolder) { for (const e of CACHE_FOLDER_ENTRIES) paths.push(join(cacheFolder, e.path)); }
  if (home && isAbsolute(home)) {
    for (const e of HOME_CACHE_ENTRIES) {
      paths.push(join(home, e.path));
    }
  }
  return paths;
}

/**
 * The sandbox's writable roots, as edit_file confines writes to them.
 *
 * STOPGAP: the platform layer (src/platform/) owns the one function that
 * computes these for the sandbox profile; edit_file must use the very same
 * list. Until that function lands, this computes the list the spec names —
 * the launch directory, the temporary directory (and /tmp, /private/tmp on a
 * Mac), the user cache directory, and commandPolicy.sandbox.writablePaths —
 * each canonicalised (symlinks resolved, longest existing prefix). Replace the
 * body with a call to the platform's function when it exists.
 */
import { join } from "node:path";
import type { Config } from "../config/schema.ts";
import { expandTilde, userHomeDir } from "../config/home.ts";
import { canonicalPath } from "../util/fs_safe.ts";

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

export function userCacheDir(os = Deno.build.os): string | null {
  try {
    if (os === "darwin") return join(userHomeDir(), "Library", "Caches");
    const xdg = env("XDG_CACHE_HOME");
    return xdg && xdg.startsWith("/") ? xdg : join(userHomeDir(), ".cache");
  } catch {
    return null;
  }
}

export function writableRoots(config: Config, launchDir: string): string[] {
  const candidates: string[] = [launchDir];
  const tmp = env("TMPDIR");
  if (tmp && tmp.startsWith("/")) candidates.push(tmp);
  candidates.push("/tmp");
  if (Deno.build.os === "darwin") candidates.push("/private/tmp");
  const cache = userCacheDir();
  if (cache) candidates.push(cache);
  for (const path of config.commandPolicy.sandbox.writablePaths) {
    try {
      candidates.push(expandTilde(path));
    } catch {
      candidates.push(path);
    }
  }
  const roots = new Set<string>();
  for (const candidate of candidates) {
    try {
      roots.add(canonicalPath(candidate, launchDir));
    } catch { /* an unreadable root grants nothing */ }
  }
  return [...roots];
}

/**
 * The home's path joins under the names config/ has used since ADR 0640; the
 * arithmetic itself lives in src/util/path.ts (docs/adr/0680).
 */
import { isAbsolute, join, normalize, resolve } from "../util/path.ts";

/** A normalised path: `..` and `.` resolved, repeated slashes collapsed, a trailing slash kept. */
export const normalisePath: (path: string) => string = normalize;

/** The parts joined by `/` and normalised (empty parts are skipped), as node:path's join. */
export const joinPath: (...parts: string[]) => string = join;

/** An absolute, normalised path without a trailing slash, relative ones taken from `cwd`. */
export function resolvePath(path: string, cwd: () => string = Deno.cwd): string {
  return isAbsolute(path) ? resolve(path) : resolve(cwd(), path);
}

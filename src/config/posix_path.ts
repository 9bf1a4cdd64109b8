/**
 * Joining and resolving POSIX paths for wisp's home, without `node:path`:
 * the first `node:` module a process loads starts Deno's Node compatibility
 * layer, which `wisp config` would otherwise pay for two path joins
 * (docs/adr/0640-config-read-without-npm.md). The results are node:path's
 * (test/config/posix_path_test.ts compares them).
 */

/** Collapse `//`, `.` and `..` the way path normalisation does; `absolute` keeps `..` from rising past `/`. */
function normaliseSegments(path: string, absolute: boolean): string {
  const kept: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (kept.length > 0 && kept[kept.length - 1] !== "..") kept.pop();
      else if (!absolute) kept.push("..");
      continue;
    }
    kept.push(segment);
  }
  return kept.join("/");
}

/** A normalised path: `..` and `.` resolved, repeated slashes collapsed, a trailing slash kept. */
export function normalisePath(path: string): string {
  if (path === "") return ".";
  const absolute = path.startsWith("/");
  const trailing = path.endsWith("/");
  let body = normaliseSegments(path, absolute);
  if (body === "" && !absolute) body = ".";
  if (body !== "" && trailing) body += "/";
  return absolute ? `/${body}` : body;
}

/** The parts joined by `/` and normalised (empty parts are skipped), as node:path's join. */
export function joinPath(...parts: string[]): string {
  const joined = parts.filter((part) => part !== "").join("/");
  return joined === "" ? "." : normalisePath(joined);
}

/** An absolute, normalised path without a trailing slash, relative ones taken from `cwd`. */
export function resolvePath(path: string, cwd: () => string = Deno.cwd): string {
  const absolute = path.startsWith("/") ? path : `${cwd()}/${path}`;
  return `/${normaliseSegments(absolute, true)}`;
}

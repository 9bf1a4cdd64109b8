/**
 * POSIX path arithmetic for wisp's own code, without `node:path`.
 *
 * The first `node:` module a process loads starts Deno's Node compatibility
 * layer (tens of runtime modules and several milliseconds), and `wisp sandbox
 * -- CMD` reached it only through path joins (docs/adr/0680). These helpers
 * give what `node:path`'s POSIX functions give for every input, quirks
 * included (test/util/path_test.ts compares them on a battery of paths), so a
 * module switches by changing its import line and nothing else. wisp runs on
 * macOS and Linux: `/` is the only separator.
 */

/** The separator. */
export const sep = "/";

/**
 * The segments of `path` with `.` and empty ones dropped and `..` taken back
 * where it can be; `rooted` stops `..` at the root instead of keeping it.
 */
function collapse(path: string, rooted: boolean): string {
  const kept: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") {
      kept.push(segment);
    } else if (kept.length > 0 && kept[kept.length - 1] !== "..") {
      kept.pop();
    } else if (!rooted) {
      kept.push("..");
    }
  }
  return kept.join("/");
}

/** Whether `path` starts at the root. */
export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}

/** `path` with `.`, `..` and repeated slashes resolved; a trailing slash is kept, `""` is `.`. */
export function normalize(path: string): string {
  if (path === "") return ".";
  const rooted = isAbsolute(path);
  let body = collapse(path, rooted);
  if (body === "" && !rooted) body = ".";
  if (body !== "" && path.endsWith("/")) body += "/";
  return rooted ? `/${body}` : body;
}

/** The non-empty parts joined by `/` and normalised; `.` when nothing is left. */
export function join(...parts: string[]): string {
  const joined = parts.filter((part) => part !== "").join("/");
  return joined === "" ? "." : normalize(joined);
}

/**
 * The absolute, normalised path the parts name, read right to left up to the
 * first absolute one (the working directory when none is), without a
 * trailing slash.
 */
export function resolve(...parts: string[]): string {
  let path = "";
  for (let i = parts.length - 1; i >= 0 && !isAbsolute(path); i--) {
    if (parts[i] !== "") path = path === "" ? parts[i] : `${parts[i]}/${path}`;
  }
  if (!isAbsolute(path)) path = path === "" ? Deno.cwd() : `${Deno.cwd()}/${path}`;
  return `/${collapse(path, true)}`;
}

/** Where the last name of `path` ends: past any trailing slashes, keeping at least one character. */
function nameEnd(path: string): number {
  let end = path.length;
  while (end > 1 && path[end - 1] === "/") end--;
  return end;
}

/** The folder part of `path`: `.` for a bare name, `/` at the root. */
export function dirname(path: string): string {
  if (path === "") return ".";
  const slash = path.lastIndexOf("/", nameEnd(path) - 1);
  if (slash === -1) return ".";
  if (slash === 0) return "/";
  // A path that starts with exactly `//name` keeps both slashes (POSIX leaves `//` to the system).
  if (slash === 1 && path[0] === "/") return "//";
  return path.slice(0, slash);
}

/** The last name of `path` (trailing slashes ignored); `""` for the root. */
export function basename(path: string): string {
  const end = nameEnd(path);
  if (end === 1 && path[0] === "/") return "";
  return path.slice(path.lastIndexOf("/", end - 1) + 1, end);
}

/**
 * The path a `file:` URL names, percent-escapes decoded. Anything else — another
 * scheme, a host, an escaped `/` — is an error, as a file path cannot say it.
 */
export function fromFileUrl(url: string | URL): string {
  const parsed = url instanceof URL ? url : new URL(url);
  if (parsed.protocol !== "file:") throw new TypeError(`${parsed.href} is not a file: URL`);
  if (parsed.hostname !== "") {
    throw new TypeError(`${parsed.href} names a host; a file path cannot`);
  }
  if (/%2f/i.test(parsed.pathname)) {
    throw new TypeError(`${parsed.href} holds an escaped /; a file path cannot`);
  }
  return decodeURIComponent(parsed.pathname);
}

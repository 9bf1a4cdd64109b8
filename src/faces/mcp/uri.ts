/**
 * Parsing wisp:// resource URIs into what they name, with their paging
 * query. Pure: a malformed URI comes back as an error sentence, which the
 * server turns into an invalidParams protocol error.
 */

export type ResourceTarget =
  | { kind: "tools" }
  | { kind: "tools.md" }
  | { kind: "config" }
  | { kind: "audit" }
  | { kind: "audit.session"; session: string }
  | { kind: "threads" }
  | { kind: "thread"; thread: string }
  | { kind: "thread.audit"; thread: string }
  | { kind: "thread.outputs"; thread: string }
  | { kind: "thread.output"; thread: string; output: string }
  | { kind: "thread.summary"; thread: string }
  | { kind: "facts" }
  | { kind: "thread.facts"; thread: string }
  | { kind: "thread.context"; thread: string };

export interface ParsedUri {
  target: ResourceTarget;
  /** 1-based; 1 when absent. */
  page: number;
  /** Only on audit collections; undefined when absent. */
  limit?: number;
  /** The URI without its query: what page links are built on. */
  base: string;
}

export type UriResult = { ok: true; value: ParsedUri } | { ok: false; error: string };

/** Thread ids: what a client may name a thread. */
export const THREAD_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SESSION_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const OUTPUT_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const AUDIT_LIMIT_MIN = 1;
const AUDIT_LIMIT_MAX = 500;

function isAudit(target: ResourceTarget): boolean {
  return target.kind === "audit" || target.kind === "audit.session" ||
    target.kind === "thread.audit";
}

/** Collections that take ?page= (everything but the single documents). */
function isPaged(target: ResourceTarget): boolean {
  return !(target.kind === "tools" || target.kind === "tools.md" || target.kind === "config" ||
    target.kind === "thread");
}

function targetOf(path: string[]): ResourceTarget | string {
  const [head, ...rest] = path;
  if (head === "tools" && rest.length === 0) return { kind: "tools" };
  if (head === "tools.md" && rest.length === 0) return { kind: "tools.md" };
  if (head === "config" && rest.length === 0) return { kind: "config" };
  if (head === "facts" && rest.length === 0) return { kind: "facts" };
  if (head === "audit") {
    if (rest.length === 0) return { kind: "audit" };
    if (rest.length === 1) {
      if (!SESSION_PATTERN.test(rest[0])) return `"${rest[0]}" is not an audit session id`;
      return { kind: "audit.session", session: rest[0] };
    }
  }
  if (head === "threads") {
    if (rest.length === 0) return { kind: "threads" };
    const thread = rest[0];
    if (!THREAD_ID_PATTERN.test(thread)) return `"${thread}" is not a thread id`;
    if (rest.length === 1) return { kind: "thread", thread };
    if (rest.length === 2) {
      if (rest[1] === "audit") return { kind: "thread.audit", thread };
      if (rest[1] === "outputs") return { kind: "thread.outputs", thread };
      if (rest[1] === "summary") return { kind: "thread.summary", thread };
      if (rest[1] === "facts") return { kind: "thread.facts", thread };
      if (rest[1] === "context") return { kind: "thread.context", thread };
    }
    if (rest.length === 3 && rest[1] === "output") {
      if (!OUTPUT_PATTERN.test(rest[2])) return `"${rest[2]}" is not an output id`;
      return { kind: "thread.output", thread, output: rest[2] };
    }
  }
  return "no such resource; wisp://tools lists what there is (resources/list and resources/templates/list)";
}

function positiveInteger(text: string): number | undefined {
  if (!/^[1-9][0-9]{0,8}$/.test(text)) return undefined;
  return Number(text);
}

export function parseWispUri(uri: string): UriResult {
  const fail = (why: string): UriResult => ({ ok: false, error: `${uri}: ${why}` });
  if (typeof uri !== "string" || !uri.startsWith("wisp://")) return fail("not a wisp:// URI");
  if (uri.length > 2048) return fail("the URI is too long");
  const rest = uri.slice("wisp://".length);
  const hash = rest.indexOf("#");
  if (hash !== -1) return fail("a wisp:// URI has no fragment");
  const q = rest.indexOf("?");
  const pathText = q === -1 ? rest : rest.slice(0, q);
  const query = q === -1 ? "" : rest.slice(q + 1);
  const path = pathText.split("/");
  if (path.some((p) => p === "")) return fail("the path has an empty segment");
  const target = targetOf(path.map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return "\u0000";
    }
  }));
  if (typeof target === "string") return fail(target);
  let page = 1;
  let limit: number | undefined;
  if (query !== "") {
    const seen = new Set<string>();
    for (const pair of query.split("&")) {
      const eq = pair.indexOf("=");
      const key = eq === -1 ? pair : pair.slice(0, eq);
      const value = eq === -1 ? "" : pair.slice(eq + 1);
      if (seen.has(key)) return fail(`${key} is given twice`);
      seen.add(key);
      if (key === "page") {
        if (!isPaged(target)) return fail("this resource is not paged");
        const n = positiveInteger(value);
        if (n === undefined) return fail(`page must be a whole number from 1 (it is "${value}")`);
        page = n;
      } else if (key === "limit") {
        if (!isAudit(target)) return fail("limit applies only to audit collections");
        const n = positiveInteger(value);
        if (n === undefined || n < AUDIT_LIMIT_MIN || n > AUDIT_LIMIT_MAX) {
          return fail(
            `limit must be a whole number from ${AUDIT_LIMIT_MIN} to ${AUDIT_LIMIT_MAX} (it is "${value}")`,
          );
        }
        limit = n;
      } else {
        return fail(
          `unknown query parameter "${key}" (page${isAudit(target) ? " and limit" : ""} are known)`,
        );
      }
    }
  }
  return { ok: true, value: { target, page, limit, base: `wisp://${pathText}` } };
}

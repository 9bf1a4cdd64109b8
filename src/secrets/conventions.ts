/**
 * The conventions other scanners taught people to write, honoured so that a repository set up for
 * one of them works here: inline allow comments (`gitleaks:allow`, detect-secrets' `pragma:
 * allowlist secret` and `pragma: allowlist nextline secret` in each spelling it reads, and wisp's
 * own `wisp:allow` and `wisp:allow-next-line`), and a fingerprint of where a finding sits that never holds its value
 * (for ignore files and baselines, docs/adr/0360-secrets-conventions.md).
 */

// detect-secrets reads `allowlist` or its older `whitelist`, and a space or `-` before `secret`.
const ALLOW_SAME_LINE =
  /gitleaks:allow|pragma:[ \t]*(?:allow|white)list[ \t-]+secret|wisp:allow(?!-)/i;
const ALLOW_NEXT_LINE =
  /pragma:[ \t]*(?:allow|white)list[ \t-]+nextline[ \t-]+secret|wisp:allow-next-line/i;

/** Cheap test before any line is looked at: most texts carry no allow comment at all. */
export function mayHaveAllowComments(text: string): boolean {
  return /allow/i.test(text);
}

function lineAround(text: string, at: number): [number, number] {
  const start = text.lastIndexOf("\n", at - 1) + 1;
  let end = text.indexOf("\n", at);
  if (end === -1) end = text.length;
  return [start, end];
}

/**
 * Whether the finding at `start` is allowed by a comment: on the line where it starts, or a
 * next-line marker on the line before.
 */
export function allowedInline(text: string, start: number): boolean {
  const [lineStart, lineEnd] = lineAround(text, start);
  if (ALLOW_SAME_LINE.test(text.slice(lineStart, lineEnd))) return true;
  if (lineStart === 0) return false;
  const [prevStart, prevEnd] = lineAround(text, lineStart - 1);
  return ALLOW_NEXT_LINE.test(text.slice(prevStart, prevEnd));
}

/** 64-bit FNV-1a as 16 hex digits: a stable label for text that is not secret. */
function fnv1a64(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c ^ (h1 >>> 7), 0x01000193) >>> 0;
  }
  return h1.toString(16).padStart(8, "0") + h2.toString(16).padStart(8, "0");
}

/**
 * A finding's context: a hash of its kind and of its line with the value cut out (its length
 * kept), trimmed. It stays the same when lines move and never depends on the value, so a baseline
 * or an ignore file that holds it tells nothing about the secret.
 */
export function contextOf(text: string, start: number, end: number, kind: string): string {
  const [lineStart, lineEnd] = lineAround(text, start);
  const before = text.slice(lineStart, start);
  const after = end <= lineEnd ? text.slice(end, lineEnd) : "";
  return fnv1a64(`${kind}\0${before.trimStart()}\0${end - start}\0${after.trimEnd()}`);
}

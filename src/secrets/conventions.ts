/**
 * The conventions other scanners taught people to write, honoured so that a repository set up for
 * one of them works here: inline allow comments (`gitleaks:allow`, detect-secrets' `pragma:
 * allowlist secret` and `pragma: allowlist nextline secret` in each spelling it reads, TruffleHog's
 * `trufflehog:ignore`, ggshield's `ggignore`, secretlint's `secretlint-disable-line` and
 * `-next-line`, the security linters' `# nosec` and ruff's `noqa: S105`–`S107`, and wisp's own
 * `wisp:allow` and `wisp:allow-next-line`), and a fingerprint of where a finding sits that never
 * holds its value (for ignore files and baselines, docs/adr/0360-secrets-conventions.md).
 */

// detect-secrets reads `allowlist` or its older `whitelist`, and a space or `-` before `secret`.
// `nosec` is bandit's and gosec's (`# nosec B105`, `// #nosec G101`); ruff's S105–S107 are its
// hard-coded password checks (a bare `noqa` silences style checks too, and is not read).
const ALLOW_SAME_LINE =
  /gitleaks:allow|pragma:[ \t]*(?:allow|white)list[ \t-]+secret|wisp:allow(?!-)|trufflehog:ignore|\bggignore\b|secretlint-disable-line|#[ \t]*nosec\b|noqa:[ \t]*(?:[A-Z]+\d+[ \t]*,[ \t]*)*S10[5-7]\b/i;
const ALLOW_NEXT_LINE =
  /pragma:[ \t]*(?:allow|white)list[ \t-]+nextline[ \t-]+secret|wisp:allow-next-line|secretlint-disable-next-line/i;

/** Cheap test before any line is looked at: most texts carry no allow comment at all. */
export function mayHaveAllowComments(text: string): boolean {
  return /allow|ignore|disable|nosec|noqa/i.test(text);
}

function lineAround(text: string, at: number): [number, number] {
  const start = text.lastIndexOf("\n", at - 1) + 1;
  let end = text.indexOf("\n", at);
  if (end === -1) end = text.length;
  return [start, end];
}

/** How many lines a statement is followed over, each way: bounds the work on a long file. */
const STATEMENT_LINES = 40;

/** The code of a line that carries an allow comment: what comes before the comment. */
function codeBeforeAllow(line: string): string | null {
  const marker = ALLOW_SAME_LINE.exec(line);
  if (!marker) return null;
  return line.slice(0, marker.index).replace(/(?:#|\/\/|\/\*|<!--|--|;|'|%|\{#|REM)\s*$/i, "")
    .trimEnd();
}

/** A line's end that opens a value continued below: a bracket, a block scalar, triple quotes. */
const OPENS_VALUE = /(?:[([{=:]|[|>][-+]?|"""|''')$/;

/** A line that only closes what a head line opened: `"""`, `)`, `]`, `}`, with `,` or `;`. */
const CLOSES_VALUE = /^\s*(?:"""|'''|[)\]}])[)\]};,]*\s*(?:#|\/\/|\/\*|<!--|--)/;

/**
 * Whether the finding at `start`…`end` is allowed by a comment. A comment applies to the statement
 * it is written on: the lines the finding spans, lines joined to them by a trailing `\`, the head
 * line that opens a value continued below it (`KEY = (`, `key: |`, `"""`), and a line that only
 * closes it. A next-line marker applies to the statement's first line.
 */
export function allowedInline(text: string, start: number, end = start): boolean {
  let [first, last] = lineAround(text, start);
  if (end > last) last = lineAround(text, end - 1)[1];
  const endsWithBackslash = (from: number, to: number) => /\\\s*$/.test(text.slice(from, to));
  for (let n = 0; n < STATEMENT_LINES && first > 0; n++) {
    const [prevStart, prevEnd] = lineAround(text, first - 1);
    if (!endsWithBackslash(prevStart, prevEnd)) break;
    first = prevStart;
  }
  for (let n = 0; n < STATEMENT_LINES && last < text.length; n++) {
    if (!endsWithBackslash(lineAround(text, last)[0], last)) break;
    last = lineAround(text, last + 1)[1];
  }
  if (ALLOW_SAME_LINE.test(text.slice(first, last))) return true;
  if (last < text.length) {
    const [nextStart, nextEnd] = lineAround(text, last + 1);
    const next = text.slice(nextStart, nextEnd);
    if (CLOSES_VALUE.test(next) && ALLOW_SAME_LINE.test(next)) return true;
  }
  if (first === 0) return false;
  const [prevStart, prevEnd] = lineAround(text, first - 1);
  const previous = text.slice(prevStart, prevEnd);
  if (ALLOW_NEXT_LINE.test(previous)) return true;
  const head = codeBeforeAllow(previous);
  return head !== null && OPENS_VALUE.test(head);
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

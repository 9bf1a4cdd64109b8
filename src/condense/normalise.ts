/**
 * One line of an output as the tool printed it, before any reader sees it.
 * CI systems and wrappers dress every line: colours and other escapes, a CR
 * line end (or a progress line redrawn with CRs), a timestamp (GitHub
 * Actions and Azure `2026-12-01T10:00:00.1234567Z `, GitLab's
 * `…Z 00O+ `, a container log's `…Z stdout F `, `ts`' `Dec 01 10:00:00 `,
 * a bracketed `[10:00:00] `), Buildkite's `_bk;t=…` marks, a Docker build
 * step's `#12 3.456 `, npm's `npm ERR! ` / `npm error ` around what a
 * script printed. This layer takes those off, once per line, in front of
 * every reader, so no reader knows about any of them.
 *
 * Only a leading prefix of a known shape is removed, one of each kind, in
 * the order the systems add them; the tool's own text is never touched.
 */
import { stripAnsi } from "./text.ts";
import { HASH, isDigit, LOWER_N, OPEN_BRACKET, SPACE, UPPER_A, UPPER_S } from "./chars.ts";

// Buildkite's timestamps and other application program commands: ESC _ … BEL (or ESC \).
// deno-lint-ignore no-control-regex
const APC = /\x1b_[^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** An ISO-8601 time stamp at the start, and what log collectors put after it. */
const ISO_PREFIX =
  /^\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?\]?(?: (?:[0-9a-f]{2}[OE]\+?|(?:stdout|stderr) [FP]))? /;
/** A time of day alone (`ts -s`, Jenkins' timestamper), bare or bracketed. */
const CLOCK_PREFIX = /^\[?\d\d:\d\d:\d\d(?:[.,]\d{1,9})?\]? /;
/** `ts`' default: `Dec 01 10:00:00 `. */
const TS_PREFIX = /^(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d /;
/** A Docker (BuildKit) build step's line: `#12 3.456 `. */
const DOCKER_STEP = /^#\d+ \d+\.\d+ /;
/** npm's prefix on what a failed script or build printed (npm 6 `npm ERR! `, npm 10 `npm error `). */
const NPM_PREFIX = /^npm (?:ERR!|error) ?/;

/**
 * The line without escapes, CR redraws, and CI or wrapper prefixes.
 * `controls` false says the line is known to hold no escape and no CR (the
 * scan tests a whole window's text for them once), so only prefixes are looked for.
 */
export function normaliseLine(raw: string, controls = true): string {
  let line = raw;
  if (!controls) return withoutPrefixes(line);
  if (line.includes("\x1b")) {
    if (line.includes("\x1b_")) line = line.replace(APC, "");
    // The cursor sent back to the line's start (`ESC[1G`, bats's pretty formatter) redraws it as a
    // CR does: what follows the last such move is what the terminal showed, when it wrote any.
    if (line.includes("\x1b[1G") || line.includes("\x1b[G")) line = afterCursorHome(line);
    line = stripAnsi(line);
  }
  if (line.includes("\r")) {
    if (line.endsWith("\r")) line = line.slice(0, -1);
    // A progress line redrawn in place: what the terminal showed last.
    const cr = line.lastIndexOf("\r");
    if (cr >= 0) line = line.slice(cr + 1);
  }
  return withoutPrefixes(line);
}

/** The part of a line after its last move to column 1, unless nothing visible follows the move. */
function afterCursorHome(line: string): string {
  const at = Math.max(line.lastIndexOf("\x1b[1G") + 4, line.lastIndexOf("\x1b[G") + 3);
  const tail = line.slice(at);
  return stripAnsi(tail).trim() === "" ? line : tail;
}

/** A line without its CI or wrapper prefixes (its escapes and CRs already gone). */
function withoutPrefixes(raw: string): string {
  let line = raw;
  if (line.length < 9) return line;
  // The first character decides which prefixes may be there: nearly every line is rejected here.
  const c = line.charCodeAt(0);
  if (isDigit(c) || c === OPEN_BRACKET) {
    if (isDigit(line.charCodeAt(1)) || isDigit(line.charCodeAt(2))) {
      const m = ISO_PREFIX.exec(line) ?? CLOCK_PREFIX.exec(line);
      if (m) line = line.slice(m[0].length);
    }
  } else if (c >= UPPER_A && c <= UPPER_S && line.charCodeAt(3) === SPACE) {
    const m = TS_PREFIX.exec(line);
    if (m) line = line.slice(m[0].length);
  }
  if (line.charCodeAt(0) === HASH) {
    const m = DOCKER_STEP.exec(line);
    if (m) line = line.slice(m[0].length);
  }
  if (line.charCodeAt(0) === LOWER_N && line.startsWith("npm ")) {
    const m = NPM_PREFIX.exec(line);
    if (m) line = line.slice(m[0].length);
  }
  return line;
}

/**
 * A whole output's lines, each normalised. What follows the last line feed is
 * a line only when something is left of it (a final colour reset is not).
 */
export function outputLines(text: string): string[] {
  const lines = text.split("\n");
  const last = lines.pop()!;
  for (let i = 0; i < lines.length; i++) lines[i] = normaliseLine(lines[i]);
  const end = normaliseLine(last);
  if (end !== "") lines.push(end);
  return lines;
}

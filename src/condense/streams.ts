/**
 * Labelled streams: an output in which a wrapper put a label in front of
 * another tool's lines, read as one stream per label.
 *
 * Monorepo runners label every line with the package and task
 * (`packages/a test: …` from pnpm, `@scope/a:test: …` from turbo, `a: …`
 * from lerna `--stream`), `concurrently` with a name or index in brackets
 * (`[lint] …`, `[0] …`), `kubectl logs --prefix` with the pod and container
 * (`[pod/x/c] …`), `docker compose` with the container's name padded to a
 * column and a bar (`web-1    | …`). Run in parallel, their lines
 * interleave: read as they stand, no reader knows its own lines, and read
 * with the label merely cut off, one package's block would run into
 * another's.
 *
 * Contract: `labelledStreams(lines, first?)` says whether the lines carry such
 * labels and, if so, splits them into streams — the lines of each label,
 * the label and its separator taken off (and any CI prefix after it,
 * normalise.ts), in their order; and one stream of every line no label
 * took. Each window index is in exactly one stream. A label counts only
 * where it looks like a wrapper's and not a tool's own words:
 *
 * - it starts at least MIN_LINES lines of the window, or is of the same
 *   distinct kind as a label that does (`[0]` beside `[1]`; not a plain
 *   `word:`, which a tool's own line may be);
 * - it is not a level or outcome word (`[INFO]`, `error:`, `FAIL:` are the
 *   tool's own), not a number alone before a colon or bar (a source
 *   excerpt's line number), not a place (`a.py:3:`), and has a letter or
 *   digit (`[----------]` is GoogleTest's);
 * - in the colon form, some line of it carries the label in front of a
 *   blank or indented rest: a wrapper labels every line the tool printed,
 *   where a program naming itself (`make: …`, `/usr/bin/ld: …`) never
 *   writes an empty or indented message; and its lines start with
 *   different kinds of character (a summary's `Tests:       3 failed` of
 *   several runs all start with a digit).
 *
 * Lines without labels: undefined, and the caller reads them as they are.
 */
import { normaliseLine } from "./normalise.ts";
import {
  CLOSE_BRACKET,
  COLON,
  DIGIT_0,
  DIGIT_9,
  DOT,
  OPEN_BRACKET,
  PIPE,
  SLASH,
  SPACE,
  TAB,
} from "./chars.ts";

/** A label must start at least this many lines of a window. */
const MIN_LINES = 3;
/** A label is looked for only this far into a line. */
const MAX_LABEL = 80;

/** Words a tool writes before its own messages (case is ignored): never a wrapper's label. */
const TOOL_WORDS = new Set([
  "error",
  "errors",
  "err",
  "warning",
  "warnings",
  "warn",
  "note",
  "info",
  "information",
  "debug",
  "trace",
  "fatal",
  "critical",
  "notice",
  "hint",
  "help",
  "fail",
  "failed",
  "failure",
  "failures",
  "pass",
  "passed",
  "ok",
  "skip",
  "skipped",
  "todo",
  "success",
  "verbose",
  "log",
  "xpass",
  "xfail",
  // Captured streams a runner names before a test's output (Vitest's `stdout | test`).
  "stdout",
  "stderr",
]);

/** pnpm's `packages/cart test`: a folder, a blank, a script's name. */
const PACKAGE_SCRIPT = /^[\p{L}\p{N}@._/-]+ [\p{L}\p{N}@._:-]+$/u;
/** turbo's `@scope/cart:test`: a package's name, a colon, a task's name (no `(`, `+`: not a linker's `b.c:(.text+0x0)`). */
const PACKAGE_TASK = /^[\p{L}\p{N}@._/-]+(?::[\p{L}\p{N}@._-]+)+$/u;

/** kubectl's `pod/web-1/app` (`[1/3]`, a build's progress, has no letter). */
const POD_CONTAINER =
  /^[\p{L}\p{N}._-]+\/[\p{L}\p{N}._-]*\p{L}[\p{L}\p{N}._-]*\/[\p{L}\p{N}._-]+$/u;

/** What a bracketed label is made of: no parentheses or quotes (pytest's `[XPASS(strict)]`). */
const BRACKET_LABEL = /^[\p{L}\p{N}._:/@#+-]+$/u;

/** The three ways wrappers separate a label from the line. */
type Form = "colon" | "bracket" | "bar";

/**
 * A colon-form label's lines must start (past their indentation) with at
 * least this many classes of character (letter, digit, each other one): a
 * tool's lines vary, where a summary's `Tests:       3 failed` repeated over
 * several runs does not.
 */
const MIN_LEADS = 3;

/** What the first pass learns of a label. */
interface Seen {
  count: number;
  form: Form;
  /** Some line of it has an empty or indented rest. */
  continued: boolean;
  /** The different classes of its rests' first characters (up to MIN_LEADS). */
  leads: string;
}

/** One stream of a split window: its lines and, for each, its index in the window. */
export interface LabelledStream {
  /** The label ("" for the lines no label took). */
  label: string;
  lines: string[];
  at: number[];
}

/** Where a line's label ends: the label, its form, and where the rest of the line starts. */
interface Labelled {
  label: string;
  form: Form;
  rest: number;
}

/**
 * The window's lines as streams, one per label and one of the unlabelled
 * lines (first, label ""), when some label counts; otherwise undefined.
 */
export function labelledStreams(
  lines: string[],
  first?: Uint16Array,
): LabelledStream[] | undefined {
  // First pass: which labels count. Most windows have none and end here.
  const seen = new Map<string, Seen>();
  // Each line's label key and where its rest starts, kept for the second pass (made once: a
  // labelled window has a label on nearly every line).
  let keyAt: (string | undefined)[] | undefined;
  let restAt: Int32Array | undefined;
  for (let i = 0; i < lines.length; i++) {
    // `first` (the lines' first characters, when the caller has them) passes over blank and
    // indented lines without a call: no label starts there.
    if (first && (first[i] === 0 || first[i] === SPACE || first[i] === TAB)) continue;
    const line = lines[i];
    const found = labelOf(line);
    if (!found) continue;
    const key = found.form + "\u0000" + found.label;
    keyAt ??= new Array(lines.length);
    restAt ??= new Int32Array(lines.length);
    keyAt[i] = key;
    restAt[i] = found.rest;
    let entry = seen.get(key);
    if (!entry) {
      entry = { count: 0, form: found.form, continued: false, leads: "" };
      seen.set(key, entry);
    }
    entry.count++;
    if (!entry.continued && restIsBlankOrIndented(line, found.rest)) entry.continued = true;
    if (entry.leads.length < MIN_LEADS) {
      const lead = leadClassOf(line, found.rest);
      if (lead !== "" && !entry.leads.includes(lead)) entry.leads += lead;
    }
  }
  const counted = new Set<string>();
  const kinds = new Set<string>();
  for (const [key, entry] of seen) {
    if (entry.count < MIN_LINES) continue;
    if (entry.form === "colon" && (!entry.continued || entry.leads.length < MIN_LEADS)) continue;
    counted.add(key);
    kinds.add(kindOf(key));
  }
  if (counted.size === 0 || !keyAt || !restAt) return undefined;
  // Once a wrapper's labels are known, a label of the same distinct kind is its too, however few
  // lines it starts (a task that printed one line beside one that printed many).
  for (const key of seen.keys()) {
    const kind = kindOf(key);
    if (kind !== "" && kinds.has(kind)) counted.add(key);
  }
  const unlabelled: LabelledStream = { label: "", lines: [], at: [] };
  const streams = new Map<string, LabelledStream>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const key = keyAt[i];
    if (key === undefined || !counted.has(key)) {
      unlabelled.lines.push(line);
      unlabelled.at.push(i);
      continue;
    }
    let stream = streams.get(key);
    if (!stream) {
      stream = { label: key.slice(key.indexOf("\u0000") + 1), lines: [], at: [] };
      streams.set(key, stream);
    }
    // What the tool printed may carry a CI prefix of its own (`npm error `, a timestamp).
    stream.lines.push(normaliseLine(line.slice(restAt[i]), false));
    stream.at.push(i);
  }
  return [unlabelled, ...streams.values()];
}

/**
 * The kind of a label (its key: form, NUL, label) that tells one wrapper's
 * labels from other text: brackets, a padded bar, `dir/pkg script:`
 * (a blank inside) or `pkg:task:` (a colon inside). A plain `word:` has
 * none (""): a line of a tool's own may start so (`TypeError: …`).
 */
function kindOf(key: string): string {
  const [form, label] = key.split("\u0000");
  if (form === "bar") return form;
  if (form === "bracket") {
    // concurrently's indexes (`[0]`), kubectl's `[pod/x/c]`; not a word (mypy's `[operator]`).
    if (isNumber(label)) return "bracket index";
    return POD_CONTAINER.test(label) ? "bracket pod" : "";
  }
  if (PACKAGE_SCRIPT.test(label)) return "colon blank";
  if (PACKAGE_TASK.test(label)) return "colon colon";
  return "";
}

/** The wrapper label a line may start with, before anything is known of the other lines. */
function labelOf(line: string): Labelled | undefined {
  const c = line.charCodeAt(0);
  if (Number.isNaN(c) || c === SPACE || c === TAB) return undefined;
  if (c === OPEN_BRACKET) return bracketed(line);
  const end = Math.min(line.length, MAX_LABEL);
  let k = 1;
  while (k < end && line.charCodeAt(k) !== SPACE && line.charCodeAt(k) !== TAB) k++;
  if (k >= end && k < line.length) return undefined;
  // `label: rest` (the colon ends the first word).
  if (line.charCodeAt(k - 1) === COLON && k >= 3) {
    return colonLabel(line.slice(0, k - 1), k, line);
  }
  if (k >= line.length) return undefined;
  // `label   | rest` (compose): the word, spaces, a bar.
  let j = k;
  while (j < end && line.charCodeAt(j) === SPACE) j++;
  if (line.charCodeAt(j) === PIPE && separatorEnds(line, j + 1)) {
    const label = line.slice(0, k);
    if (!isNumber(label) && !isToolWord(label) && hasWordCharacter(label)) {
      return { label, form: "bar", rest: restAfter(line, j + 1) };
    }
    return undefined;
  }
  // `dir/pkg script: rest` (pnpm): a path, one space, the script's name and a colon.
  if (j !== k + 1 || !(k === 1 && c === DOT) && !hasSlash(line, k)) return undefined;
  let m = j;
  while (m < end && line.charCodeAt(m) !== SPACE && line.charCodeAt(m) !== TAB) m++;
  if (m - j < 2 || line.charCodeAt(m - 1) !== COLON) return undefined;
  return colonLabel(line.slice(0, m - 1), m, line);
}

/** A colon-form label ending at `after` (the colon just before it), if it is a wrapper's label. */
function colonLabel(label: string, after: number, line: string): Labelled | undefined {
  if (!separatorEnds(line, after)) return undefined;
  if (isNumber(label) || isToolWord(label) || !hasWordCharacter(label)) return undefined;
  if (endsWithPlace(label)) return undefined;
  return { label, form: "colon", rest: restAfter(line, after) };
}

/** `[label] rest`: a label without blanks, with a letter or digit, not a tool's word. */
function bracketed(line: string): Labelled | undefined {
  const end = Math.min(line.length, MAX_LABEL);
  let k = 1;
  while (k < end) {
    const d = line.charCodeAt(k);
    if (d === CLOSE_BRACKET) break;
    if (d === SPACE || d === TAB || d === OPEN_BRACKET) return undefined;
    k++;
  }
  if (k >= end || k === 1 || line.charCodeAt(k) !== CLOSE_BRACKET) return undefined;
  if (!separatorEnds(line, k + 1)) return undefined;
  const label = line.slice(1, k);
  if (isToolWord(label) || !hasWordCharacter(label) || !BRACKET_LABEL.test(label)) return undefined;
  return { label, form: "bracket", rest: restAfter(line, k + 1) };
}

/** The separator's end: a space follows it, or the line ends there. */
function separatorEnds(line: string, at: number): boolean {
  return at >= line.length || line.charCodeAt(at) === SPACE;
}

/** Where the rest starts: past the one space after the separator (the tool's own indentation kept). */
function restAfter(line: string, at: number): number {
  return at < line.length ? at + 1 : at;
}

/**
 * Whether what follows the label is an empty line of the tool's (the separator's space and
 * nothing after it) or an indented one: a wrapper labelled a line the tool printed. A bare
 * `Word:` ending the line is a heading, not a label.
 */
function restIsBlankOrIndented(line: string, rest: number): boolean {
  if (rest >= line.length) return line.charCodeAt(line.length - 1) === SPACE;
  const c = line.charCodeAt(rest);
  return c === SPACE || c === TAB;
}

/** Whether the line's first `end` characters hold a slash (no string made: this runs on most lines). */
function hasSlash(line: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (line.charCodeAt(i) === SLASH) return true;
  return false;
}

/**
 * The class of the rest's first non-blank character: `a` a letter, `0` a
 * digit, else the character itself ("" for a blank rest).
 */
function leadClassOf(line: string, rest: number): string {
  for (let k = rest; k < line.length; k++) {
    const c = line.charCodeAt(k);
    if (c === SPACE || c === TAB) continue;
    if (c >= DIGIT_0 && c <= DIGIT_9) return "0";
    return /\p{L}/u.test(line[k]) ? "a" : line[k];
  }
  return "";
}

function isToolWord(label: string): boolean {
  return label.length <= 11 && TOOL_WORDS.has(label.toLowerCase());
}

function isNumber(label: string): boolean {
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if ((c < DIGIT_0 || c > DIGIT_9) && c !== DOT) return false;
  }
  return true;
}

function hasWordCharacter(label: string): boolean {
  return /[\p{L}\p{N}]/u.test(label);
}

/** `file.py:3`, `a.c:3:1`, `C:\x`: a place ends the label, so the line is a tool's diagnostic. */
function endsWithPlace(label: string): boolean {
  const colon = label.lastIndexOf(":");
  if (colon === -1) return false;
  const tail = label.slice(colon + 1);
  if (tail === "" || isNumber(tail)) return true;
  // A drive letter or a path after the colon (`C:\dir`, `x:/dir`) is a place too.
  return colon === 1 || tail.charCodeAt(0) === SLASH;
}

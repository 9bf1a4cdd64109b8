/**
 * What a condensing reader reports: one problem a build, a linter or a test
 * run printed, in a shape small enough to hand to a person or another agent.
 */
export interface Finding {
  kind: "error" | "warning" | "test_failure";
  /** `file:line[:col]`, as the tool printed the path. */
  location?: string;
  /** The test's full name, where the failure belongs to a test. */
  test?: string;
  /**
   * The test file the test belongs to, where the tool names it apart from the test (Jest's `FAIL
   * file` heading). Part of the test's identity: two files may hold tests of the same name.
   */
  file?: string;
  message: string;
  /** The few lines that belong to it (assertion values, a code frame), at most DETAIL_LINES. */
  detail?: string[];
}

const DETAIL_LINES = 8;
/** Longest message kept; longer ones are cut with an ellipsis. */
const MESSAGE_CHARS = 400;

export function location(file: string, line?: string | number, col?: string | number): string {
  if (line === undefined || line === "") return file;
  if (col === undefined || col === "") return `${file}:${line}`;
  return `${file}:${line}:${col}`;
}

export function clip(text: string, max = MESSAGE_CHARS): string {
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : trimmed.slice(0, max - 1) + "…";
}

/**
 * The line each finding's block starts at, in the lines its reader was given
 * (the heading, `--- FAIL`, `Traceback`, the one line of a one-line
 * diagnostic): kept beside the finding, not in it, so the shape callers see
 * and serialise stays the same. The scanner reads it to tell a block a window
 * may have cut (it starts in the lines the next window reads again) from one
 * the window holds whole (ADR 0700).
 */
const blockStarts = new WeakMap<Finding, number>();

/** The line `f`'s block starts at in its reader's lines, where the reader said. */
export function blockStart(f: Finding): number | undefined {
  return blockStarts.get(f);
}

/**
 * Records that `f`'s block starts at line `at` of its reader's lines (a reader
 * that reads part of its lines again as a text of their own, and moves the
 * findings back to its lines). Undefined forgets it.
 */
export function setBlockStart(f: Finding, at: number | undefined): Finding {
  if (at === undefined) blockStarts.delete(f);
  else blockStarts.set(f, at);
  return f;
}

/** What a reader knows of a finding besides its kind and message. */
export interface FindingExtra {
  location?: string;
  test?: string;
  file?: string;
  detail?: string[];
  /**
   * The line (an index in the reader's lines) where the reader began the
   * failure's block: the earliest line the finding was read from, heading
   * included. Not part of the finding (see `blockStart`). Too early is safe
   * (the finding is kept as a window read it); too late loses a finding the
   * next window cannot read from its start.
   */
  at?: number;
}

/** A finding with empty optional fields left out and the message clipped. */
export function finding(
  kind: Finding["kind"],
  message: string,
  extra: FindingExtra = {},
): Finding {
  const f: Finding = { kind, message: clip(message) };
  if (extra.at !== undefined) blockStarts.set(f, extra.at);
  if (extra.location) f.location = extra.location;
  if (extra.test) f.test = extra.test;
  if (extra.file) f.file = extra.file;
  const detail = (extra.detail ?? []).slice(0, DETAIL_LINES * 4).filter((l) => l.trim() !== "")
    .slice(0, DETAIL_LINES);
  if (detail.length > 0) f.detail = detail.map((l) => clip(l, 200));
  return f;
}

/**
 * A test's identity: its name, and its file where the finding knows the file apart from the name
 * (a name alone may repeat across files).
 */
export function testIdentity(f: Finding): string | undefined {
  if (!f.test) return undefined;
  return f.file ? `${f.file}\u0000${f.test}` : f.test;
}

/**
 * The identity two reports of one failure share: a test failure is its test
 * (its file and name; or, without a name, its place); anything else is its place and message.
 */
export function findingKey(f: Finding): string {
  if (f.test) return `t|${f.kind}|${testIdentity(f)}`;
  // One output repeats a message exactly; no normalising needed (and none paid for on every finding).
  return `${f.kind}|${f.location ?? ""}|${f.test ?? ""}|${f.message}`;
}

/**
 * What separates a test's name from the suite, class, file or package around it. Not a blank:
 * `handles empty input` and `empty input` are two tests.
 */
export const NAME_SEPARATORS = ["::", " > ", " › ", "/", "."];

/**
 * A test's name without the invocation a runner adds to a parameterised test's
 * (JUnit 5's `discounts(long, int)[2]`, an index alone `[2]`): the name a summary
 * gives all its invocations (`PricingTest.discounts`).
 */
export function withoutInvocation(test: string): string {
  return test.replace(/(?:\([^()]*\))?\[\d+\]$/, "");
}

/** Whether `short` is `long`, or the end of `long` after one of the name separators. */
function nameEndsWith(long: string, short: string): boolean {
  if (long === short) return true;
  if (!long.endsWith(short)) return false;
  const before = long.slice(0, long.length - short.length);
  return NAME_SEPARATORS.some((sep) => before.endsWith(sep));
}

/** Whether location `short` is `long` or its start (`a.js` of `a.js:2:1`, `a.js:2` of `a.js:2:1`). */
function locationStarts(long: string | undefined, short: string | undefined): boolean {
  if (!short) return true;
  if (!long) return false;
  const l = bareLocation(long);
  const s = bareLocation(short);
  return l === s || l.startsWith(s + ":");
}

/** A location as `moreOrLess` compares it: `./a.js` and `a.js` name one file (Jest's heading writes the first, its frames the second). */
export function bareLocation(location: string): string {
  return location.startsWith("./") ? location.slice(2) : location;
}

/**
 * The search key under which reports of one failure that name it more or less
 * fully meet (see `moreOrLess`): a test's last name segment, or an error's
 * message.
 */
export function partialKey(f: Finding): string {
  if (!f.test) return `${f.kind}|${f.message}`;
  // An invocation's parameters may hold separators (`(java.lang.String)[1]`): the method's name is the key.
  const test = withoutInvocation(f.test);
  let at = 0;
  for (const sep of NAME_SEPARATORS) {
    const i = test.lastIndexOf(sep);
    if (i >= 0) at = Math.max(at, i + sep.length);
  }
  return `t|${f.kind}|${test.slice(at)}`;
}

/**
 * Whether `a` and `b` report one failure, one of them naming it less fully:
 * a window of a long output that holds a failure's block but not the heading
 * before it gives the test without its file (Jest's `FAIL file`), or by its
 * short name (pytest's `ERROR at setup of test_x` without the summary's
 * `file.py::test_x`), or an error at its file without the line. Returns the
 * fuller of the two, or undefined when they are different failures (two
 * files' tests of one name, two places of one message).
 */
export function moreOrLess(a: Finding, b: Finding): Finding | undefined {
  if (a.kind !== b.kind) return undefined;
  if (a.test || b.test) {
    if (!a.test || !b.test) return undefined;
    if (a.file && b.file && a.file !== b.file) return undefined;
    const fuller = a.test.length !== b.test.length
      ? (a.test.length > b.test.length ? a : b)
      : (a.file ? a : b);
    const other = fuller === a ? b : a;
    // A summary's method name (`PricingTest.discounts`) names one invocation less fully.
    const invocationOf = other.test === withoutInvocation(other.test!) &&
      nameEndsWith(withoutInvocation(fuller.test!), other.test!);
    if (!nameEndsWith(fuller.test!, other.test!) && !invocationOf) return undefined;
    if (other.file && !fuller.file) return undefined; // each names what the other lacks
    return fuller;
  }
  if (a.message !== b.message) return undefined;
  if (locationStarts(a.location, b.location)) return a;
  if (locationStarts(b.location, a.location)) return b;
  return undefined;
}

/** Drops later duplicates, keeping the first report (and its detail). */
export function dedupe(findings: Finding[]): Finding[] {
  const seen = new Map<string, Finding>();
  const out: Finding[] = [];
  for (const f of findings) {
    const key = findingKey(f);
    const earlier = seen.get(key);
    if (earlier) {
      if (!earlier.location && f.location) earlier.location = f.location;
      if (!earlier.detail && f.detail) earlier.detail = f.detail;
      continue;
    }
    seen.set(key, f);
    out.push(f);
  }
  return out;
}

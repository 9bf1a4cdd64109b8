/**
 * The exact readers, in the order they run, and `readAll`, which runs them
 * all over the output's lines. Readers of test
 * runners come first (their blocks hold lines that look like compiler
 * diagnostics), the generic compiler form and make last; the generic reader
 * skips lines an earlier reader accounted for, and duplicates are dropped.
 */
import { blockStart, dedupe, type Finding, setBlockStart } from "../findings.ts";
import { outputLines } from "../normalise.ts";
import { type LabelledStream, labelledStreams } from "../streams.ts";
import { computeShape, type LineShape, type ReadContext, type Reader } from "./reader.ts";
import { swift } from "./swift.ts";
import { cargoTest } from "./cargo_test.ts";
import { rust } from "./rust.ts";
import { pytest } from "./pytest.ts";
import { unittest } from "./unittest.ts";
import { doctest } from "./doctest.ts";
import { go } from "./go.ts";
import { jest } from "./jest.ts";
import { vitest } from "./vitest.ts";
import { mocha } from "./mocha.ts";
import { nodeTest } from "./node_test.ts";
import { tap } from "./tap.ts";
import { deno } from "./deno.ts";
import { phpunit } from "./phpunit.ts";
import { exunit } from "./exunit.ts";
import { bats } from "./bats.ts";
import { busted } from "./busted.ts";
import { shunit2 } from "./shunit2.ts";
import { jasmine } from "./jasmine.ts";
import { ava } from "./ava.ts";
import { uvu } from "./uvu.ts";
import { tsc } from "./tsc.ts";
import { eslint } from "./eslint.ts";
import { java } from "./java.ts";
import { ruby } from "./ruby.ts";
import { shellcheck } from "./shellcheck.ts";
import { compiler } from "./compiler.ts";
import { crash } from "./crash.ts";
import { sanitizer } from "./sanitizer.ts";
import { pythonLint } from "./python_lint.ts";
import { cmake } from "./cmake.ts";
import { gtest } from "./gtest.ts";
import { gccJson } from "./gcc_json.ts";
import { sarif } from "./sarif.ts";
import { formatters } from "./formatters.ts";
import { make } from "./make.ts";
import { esbuild } from "./esbuild.ts";
import { biome } from "./biome.ts";
import { miette } from "./miette.ts";
import { markdownlint } from "./markdownlint.ts";
import { junit } from "./junit.ts";
import { unfinished } from "./unfinished.ts";
import {
  ANNOTATIONS,
  annotations,
  runnerFinding,
  withoutRepeatedAnnotations,
  withoutRunnerMarks,
} from "./annotations.ts";

export type { ReadContext, Reader } from "./reader.ts";

export const READERS: readonly Reader[] = [
  // CI annotations first: `##[error]a.py:3: …` is the CI's line, not a diagnostic at `##[error]a.py`.
  annotations,
  // JUnit XML first: its failures' text holds stack frames and tracebacks other readers would take.
  junit,
  swift,
  cargoTest,
  rust,
  pytest,
  unittest,
  doctest,
  go,
  jest,
  vitest,
  mocha,
  nodeTest,
  tap,
  deno,
  phpunit,
  exunit,
  bats,
  busted,
  shunit2,
  jasmine,
  ava,
  uvu,
  tsc,
  eslint,
  java,
  ruby,
  shellcheck,
  pythonLint,
  gtest,
  cmake,
  gccJson,
  sarif,
  formatters,
  esbuild,
  biome,
  miette,
  markdownlint,
  sanitizer,
  crash,
  compiler,
  make,
  // Last: what it reports stands only where no other reader explained the lines.
  unfinished,
];

/**
 * Readers whose findings say a program died or stopped (a traceback, a test that never reported, a
 * script's last command): none of that happened in a run that exited 0, so triage leaves them out
 * there.
 */
export const FAILED_RUN_READERS: ReadonlySet<string> = new Set(["crash", "unfinished"]);

export interface ReadResult {
  /** 1 for each line some reader accounted for (or blank): the same as `explained`, cheaper to test. */
  marks: Uint8Array;
  findings: Finding[];
  /** The name of the reader that found each finding, by index. */
  foundBy: string[];
  /** Indexes of the lines (of `outputLines(text)`) some reader accounted for; blank lines count as accounted for. */
  explained: Set<number>;
  /** The lines the indexes refer to. */
  lines: string[];
  /** The readers that recognised something (a finding or a line of their format). */
  readers: string[];
  /**
   * The heading lines (ReadContext.heading) in effect at line `at`, in line order: for each
   * reader, its last heading before `at` of each level up to the deepest still open. A window
   * that starts at `at` is given them first.
   */
  headingsAt(at: number): number[];
}

/** Runs the readers over lines already split (and stripped of escapes). */
export interface ReadOptions {
  /** Readers not to run (triage leaves out "crash" for a command that exited 0: it did not die). */
  skip?: ReadonlySet<string>;
  /** The lines' shape when the caller has it (the scan sets each line's once, as the line arrives). */
  shape?: LineShape;
  /** The lines end the output (see ReadContext.final); a window of a longer output is not final. */
  final?: boolean;
  /** How many wrappers' labels were taken off these lines already (streams.ts); a bound on nesting. */
  labelDepth?: number;
  /** How many of the first lines are headings carried from before them (ReadContext.carried). */
  carried?: number;
}

/** Labels inside labels are read this deep (a runner started by a runner), no deeper. */
const MAX_LABEL_DEPTH = 3;

export function readLines(lines: string[], opts: ReadOptions = {}): ReadResult {
  const depth = opts.labelDepth ?? 0;
  if (depth < MAX_LABEL_DEPTH) {
    const streams = labelledStreams(lines, opts.shape?.first);
    if (streams) return readStreams(lines, streams, { ...opts, labelDepth: depth + 1 });
  }
  let shape = opts.shape ?? computeShape(lines);
  // A CI runner's `##[error]` in front of a tool's line: the readers read the tool's line.
  const marked = withoutRunnerMarks(lines, shape.first);
  const read = marked ? marked.lines : lines;
  if (marked) shape = computeShape(read);
  const ctx = new WindowContext(
    new Uint8Array(lines.length),
    shape,
    opts.final === true,
    opts.carried ?? 0,
  );
  const findings: Finding[] = [];
  const readerOf = new Map<Finding, string>();
  const ran: string[] = [];
  for (let r = 0; r < READERS.length; r++) {
    const reader = READERS[r];
    if (opts.skip?.has(reader.name)) continue;
    ctx.accounted = 0;
    ctx.reader = r;
    const found = reader.read(read, ctx);
    if (found.length > 0 || ctx.accounted > 0) ran.push(reader.name);
    for (const f of found) {
      findings.push(f);
      readerOf.set(f, reader.name);
    }
  }
  if (marked) {
    // A marked line no reader took is the runner's statement in its own right.
    for (const [i, level] of marked.levels) {
      if (ctx.marks[i] === 1) continue;
      ctx.marks[i] = 1;
      const f = runnerFinding(level, read[i], i);
      if (!f) continue;
      findings.push(f);
      readerOf.set(f, ANNOTATIONS);
      if (!ran.includes(ANNOTATIONS)) ran.push(ANNOTATIONS);
    }
  }
  markBlank(ctx.shape.lead, ctx.marks);
  // dedupe keeps the first report's object, so each kept finding still names its reader.
  const kept = dedupe(withoutRepeatedAnnotations(findings, readerOf));
  const headings = ctx.headings;
  return new Read(
    kept,
    kept.map((f) => readerOf.get(f)!),
    ctx.marks,
    lines,
    ran,
    (at) => headingsIn(headings, at),
  );
}

/**
 * A window whose lines a wrapper labelled: the readers over each label's
 * lines as an output of its own (so one package's block never runs into
 * another's), and over the unlabelled lines; the marks put back at the
 * window's lines. A test failure under a label names the label as its `file`
 * where the tool named none (nameLabelsApart).
 */
function readStreams(lines: string[], streams: LabelledStream[], opts: ReadOptions): ReadResult {
  const marks = new Uint8Array(lines.length);
  const findings: Finding[] = [];
  const readerOf = new Map<Finding, string>();
  const labelOf = new Map<Finding, string>();
  const ran = new Set<string>();
  const reads: ReadResult[] = [];
  const carried = opts.carried ?? 0;
  for (const stream of streams) {
    const read = readLines(stream.lines, {
      ...opts,
      shape: undefined,
      carried: lowerBound(stream.at, carried),
    });
    reads.push(read);
    for (let j = 0; j < stream.at.length; j++) marks[stream.at[j]] = read.marks[j];
    for (let k = 0; k < read.findings.length; k++) {
      // Where the block starts, from the label's lines to the window's (the scan compares it with
      // the next window's start).
      const at = blockStart(read.findings[k]);
      if (at !== undefined) setBlockStart(read.findings[k], stream.at[at]);
      findings.push(read.findings[k]);
      readerOf.set(read.findings[k], read.foundBy[k]);
      labelOf.set(read.findings[k], stream.label);
    }
    for (const r of read.readers) ran.add(r);
  }
  nameLabelsApart(findings, labelOf);
  const kept = dedupe(withoutRepeatedAnnotations(findings, readerOf));
  // Each label's headings in effect, from its lines to the window's.
  const headingsAt = (at: number) =>
    streams.flatMap((stream, k) =>
      reads[k].headingsAt(lowerBound(stream.at, at)).map((j) => stream.at[j])
    ).sort((a, b) => a - b);
  return new Read(kept, kept.map((f) => readerOf.get(f)!), marks, lines, [...ran], headingsAt);
}

/** The first index of ascending `xs` whose value is at least `x` (xs.length when none is). */
function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The headings in effect at line `at`, from the flat list a window's readers
 * reported (reader, line, level; each reader's in line order): per reader, a
 * heading closes those of its level and deeper before it, and an end closes them
 * and opens none.
 */
function headingsIn(headings: readonly number[], at: number): number[] {
  const open = new Map<number, number[]>();
  for (let k = 0; k < headings.length; k += 3) {
    const [reader, line, level] = [headings[k], headings[k + 1], headings[k + 2]];
    if (line >= at) continue;
    let stack = open.get(reader);
    if (!stack) open.set(reader, stack = []);
    const closes = level < 0 ? -1 - level : level;
    if (stack.length > closes) stack.length = closes;
    if (level >= 0) stack.push(line);
  }
  return [...new Set([...open.values()].flat())].sort((a, b) => a - b);
}

/**
 * A test failure read from a label's lines, whose tool named no file apart
 * from the test, takes the label (its package, task or container) as its
 * file: the same name under two labels is two failures. Every window that
 * reads the label gives the same identity, so a long output's windows agree.
 */
function nameLabelsApart(findings: Finding[], labelOf: Map<Finding, string>): void {
  for (const f of findings) {
    if (f.kind !== "test_failure" || !f.test || f.file) continue;
    const label = labelOf.get(f);
    if (label) f.file = label;
  }
}

/**
 * The context each reader of a window is given: one object for all of them,
 * its methods on the prototype. A closure made per reader and window was a
 * new call target every time, and a reader's optimised code that had called
 * the last one was thrown away and compiled again (ADR 0684).
 */
class WindowContext implements ReadContext {
  /** Lines the reader running now said it accounted for. */
  accounted = 0;
  /** The index in READERS of the reader running now. */
  reader = 0;
  /** Headings reported, three numbers each: the reader, the line, the level (-1 - level: its end). */
  readonly headings: number[] = [];
  constructor(
    readonly marks: Uint8Array,
    readonly shape: LineShape,
    readonly final: boolean,
    readonly carried: number,
  ) {}

  heading(i: number, level: number): void {
    this.headings.push(this.reader, i, level);
  }

  headingEnds(i: number, level: number): void {
    // Kept as a level below zero: it closes the levels from `level` down and opens none.
    this.headings.push(this.reader, i, -1 - level);
  }

  explain(from: number, to: number = from): void {
    this.accounted += to - from + 1;
    const marks = this.marks;
    const end = Math.min(to, marks.length - 1);
    for (let k = Math.max(0, from); k <= end; k++) marks[k] = 1;
  }

  explained(i: number): boolean {
    return this.marks[i] === 1;
  }
}

/**
 * Blank lines (no lead character) count as explained. A function of its own:
 * readLines runs once a window, too seldom for a loop inside it to be
 * optimised before the scan ends, and this one runs over every line.
 */
function markBlank(lead: Uint16Array, marks: Uint8Array): void {
  for (let i = 0; i < marks.length; i++) if (lead[i] === 0) marks[i] = 1;
}

/**
 * A ReadResult whose set of explained lines is built only when asked for
 * (triage itself reads the marks). A class, not an object literal with a
 * getter: a literal makes a new getter closure, and with it a new hidden
 * class holding the window's lines, on every call, and those stay reachable
 * until a full collection (on a long scan, hundreds of MiB; ADR 0650).
 */
class Read implements ReadResult {
  #explained?: Set<number>;
  constructor(
    readonly findings: Finding[],
    readonly foundBy: string[],
    readonly marks: Uint8Array,
    readonly lines: string[],
    readonly readers: string[],
    readonly headingsAt: (at: number) => number[],
  ) {}

  get explained(): Set<number> {
    if (!this.#explained) {
      const set = new Set<number>();
      for (let i = 0; i < this.marks.length; i++) if (this.marks[i] === 1) set.add(i);
      this.#explained = set;
    }
    return this.#explained;
  }
}

/** Reads a whole output: its lines end it. */
export function readAll(text: string, opts: ReadOptions = {}): ReadResult {
  return readLines(outputLines(text), { final: true, ...opts });
}

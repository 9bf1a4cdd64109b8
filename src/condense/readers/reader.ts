/** The shape every exact reader has. */
import type { Finding } from "../findings.ts";
import { SPACE, TAB } from "../chars.ts";

/** What a reader may tell the caller besides its findings: which lines it accounted for. */
export interface ReadContext {
  /** Lines from..to (inclusive) belong to this format, whether or not they hold a finding. */
  explain(from: number, to?: number): void;
  /** Whether an earlier reader already accounted for line i. */
  explained(i: number): boolean;
  /** The lines' first characters, computed once (see LineShape). */
  shape?: LineShape;
  /**
   * Whether nothing follows these lines: they end the output. Only then may a reader take "the
   * output stops here" as a fact (a test that never reported); a window of a longer output is
   * followed by more lines. Unset: not known, so not the end.
   */
  final?: boolean;
  /**
   * Line i opens a part of the output that the lines after it belong to (level 0: pytest's
   * `FAILURES` rule, mocha's `N failing`) or a block inside the part (level 1: a failure's
   * title), until a later heading of the same or a lower level. A window of a long output that
   * starts after a heading is given the headings in effect there as its first lines (`carried`),
   * so it reads its lines as part of what they belong to (ADR 0705). Report headings in line order.
   */
  heading?(i: number, level: number): void;
  /**
   * The part (level 0) or block (level 1, …) a heading opened ends before line i: a window that
   * starts after it is given no heading of that level or deeper (mocha's list, after its last entry).
   */
  headingEnds?(i: number, level: number): void;
  /**
   * How many of the first lines are headings carried from before the window (0 or unset: none).
   * The lines after them may start inside the part or block a heading opened (mocha's entries
   * from the middle of the list); a finding whose block starts at a carried heading was reported
   * by the window that read its head, and is dropped.
   */
  carried?: number;
}

export interface Reader {
  name: string;
  /**
   * The reader's findings in these lines. Every reader runs over every output:
   * each first tests the line's first characters (LineShape) and looks no
   * further at lines that cannot start its format's structures, so a reader
   * whose format is absent costs little. (A pre-pass looking for each format's
   * telltale strings in the text cost more than the readers themselves.)
   */
  read(lines: string[], ctx?: ReadContext): Finding[];
}

export const NO_CONTEXT: ReadContext = { explain() {}, explained: () => false };

/**
 * Each line's first character and first non-blank character (0 for an empty
 * or blank line), computed once for all readers: testing these typed arrays
 * costs a reader almost nothing per line, where touching every line's string
 * in each of twenty readers would dominate the time on a long output.
 */
export interface LineShape {
  first: Uint16Array;
  lead: Uint16Array;
  /** The last character (0 for an empty line). */
  last: Uint16Array;
}

/** The shape of each of these lines (see LineShape). */
export function computeShape(lines: string[]): LineShape {
  const shape: LineShape = {
    first: new Uint16Array(lines.length),
    lead: new Uint16Array(lines.length),
    last: new Uint16Array(lines.length),
  };
  for (let i = 0; i < lines.length; i++) setShape(shape, i, lines[i]);
  return shape;
}

/** Line i's entries of a shape, from the line (its arrays are zero there, as new ones are, or are set over). */
export function setShape(shape: LineShape, i: number, line: string): void {
  if (line.length === 0) {
    shape.first[i] = 0;
    shape.lead[i] = 0;
    shape.last[i] = 0;
    return;
  }
  const c = line.charCodeAt(0);
  shape.first[i] = c;
  shape.last[i] = line.charCodeAt(line.length - 1);
  if (c !== SPACE && c !== TAB) {
    shape.lead[i] = c;
    return;
  }
  for (let k = 1; k < line.length; k++) {
    const d = line.charCodeAt(k);
    if (d !== SPACE && d !== TAB) {
      shape.lead[i] = d;
      return;
    }
  }
  shape.lead[i] = 0;
}

const shapes = new WeakMap<string[], LineShape>();

/** The shape of these lines: the context's, else computed once per array. */
export function shapeOf(lines: string[], ctx: ReadContext): LineShape {
  if (ctx.shape && ctx.shape.first.length === lines.length) return ctx.shape;
  let shape = shapes.get(lines);
  if (!shape) {
    shape = computeShape(lines);
    shapes.set(lines, shape);
  }
  return shape;
}

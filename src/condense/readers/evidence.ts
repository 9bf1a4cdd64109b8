/**
 * Which lines of a failed assertion's text to keep as a finding's detail.
 * An assertion library prints its values in one of two shapes: a diff (a
 * legend such as `+ actual - expected`, then the whole value with the
 * differing lines marked `+` and `-`), or named values (`Expected: 42`,
 * `Received: 43`, `got`, `want`, `left`, `right`). The marked lines and the
 * named values are the evidence; the unmarked lines of a long diff are only
 * context, and keeping the first few of them would keep none of the values.
 */

/** A diff's line that differs: `+ 'b'`, `-   sum: 3`, `+43` (never a `+++`/`---` rule). */
const DIFF_LINE = /^[+-](?![+-]{2})(?:\s|\S)/;
/** A diff's legend: `+ actual - expected`, `- Expected  - 1`, `+ Received`. */
const LEGEND = /^[+-] (?:actual|expected|received)\b/i;
/** A value named by the tool: `Expected: 42`, `actual: 2`, `got: x`, `want: y`, `left: 1`. */
const NAMED_VALUE = /^(?:expected|actual|received|got|want|left|right)\b\s*[:=]/i;

/** The first letters a named value can start with (`expected`, `actual`, `received`, `got`, `want`, `left`, `right`). */
const NAMED_FIRST = new Set("eEaArRgGwWlL");

/** Whether a line is a diff's legend or marked line, or a named value: by its first character first. */
function isEvidence(line: string): boolean {
  const c = line[0];
  if (c === "+" || c === "-") return LEGEND.test(line) || DIFF_LINE.test(line);
  return c !== undefined && NAMED_FIRST.has(c) && NAMED_VALUE.test(line);
}

/**
 * At most `max` lines of `text` (the assertion's lines after its message): the diff's legend and
 * marked lines, or the named values, in their order; when there are none, the first lines.
 */
export function assertionEvidence(text: string[], max: number): string[] {
  const marked = text.filter(isEvidence);
  // One marked line alone (a `- 1` count, a stray bullet) says less than the first lines.
  if (marked.length < 2) return text.slice(0, max);
  return marked.slice(0, max);
}

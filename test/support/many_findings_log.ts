/**
 * Logs of very many findings, made up for the test and the bench of the
 * scan's bookkeeping (scan.ts, kept_index.ts): a build that prints hundreds of
 * thousands of compiler diagnostics, a test run with thousands of failures.
 * Each shape stresses one way findings can resemble each other. Written to a
 * file piece by piece, so the writer holds no more than one piece.
 */

/** The shapes of log `writeManyFindingsLog` writes. */
export const MANY_FINDINGS_SHAPES = [
  /** gcc warnings, each its own variable at its own place, with gcc's code frame. */
  "distinct-warnings",
  /** One warning text (`unused variable 'tmp'`) at many places. */
  "one-message",
  /** Many warnings at a few places, some texts repeated at one place. */
  "one-place",
  /** gcc errors, each its own, some repeated exactly later in the log. */
  "errors",
  /** pytest's short summary: one test name failing in many files, and distinct tests. */
  "test-failures",
  /** pytest's FAILURES sections, one per failing test, then the short summary naming each. */
  "pytest-sections",
] as const;

/** One of MANY_FINDINGS_SHAPES. */
export type ManyFindingsShape = typeof MANY_FINDINGS_SHAPES[number];

/** The lines of finding number `i` of a log of `shape`. */
function entry(shape: ManyFindingsShape, i: number): string {
  const file = `src/f${i % 1000}.c`;
  const line = 10 + Math.floor(i / 1000);
  const col = 3 + (i % 7);
  switch (shape) {
    case "distinct-warnings":
      return `${file}:${line}:${col}: warning: unused variable 'v${i}' [-Wunused-variable]\n` +
        `  ${line} |   int v${i};\n      |       ^~~\n`;
    case "one-message":
      return `${file}:${line}:${col}: warning: unused variable 'tmp' [-Wunused-variable]\n` +
        `  ${line} |   int tmp;\n      |       ^~~\n`;
    case "one-place":
      return `src/main.c:${10 + (i % 3)}:5: warning: comparison of integer expressions ` +
        `of different signedness: 'int' and 'size_t' (case ${i % 5000}) [-Wsign-compare]\n`;
    case "errors":
      // Every fourth error repeats one printed 41 entries earlier (a header compiled twice).
      return i % 4 === 3 && i >= 40
        ? entry("errors", i - 41)
        : `${file}:${line}:${col}: error: 'n${i}' undeclared (first use in this function)\n`;
    case "test-failures":
      // Half the failures are one test name in many files; the rest are tests of their own.
      return i % 2 === 0
        ? `FAILED tests/pkg${i}/test_io.py::test_round_trip - AssertionError: case ${i}\n`
        : `FAILED tests/pkg${i % 50}/test_calc.py::TestCalc::test_case_${i} - ` +
          `assert ${i} == ${i + 1}\n`;
    case "pytest-sections":
      return `FAILED tests/test_m${i % 50}.py::test_case_${i} - assert ${i} == ${i + 1}\n`;
  }
}

/** The FAILURES section pytest prints for failure `i` of a "pytest-sections" log. */
function pytestSection(i: number): string {
  return `${"_".repeat(30)} test_case_${i} ${"_".repeat(30)}\n\n` +
    `    def test_case_${i}():\n>       assert ${i} == ${i + 1}\nE       assert ${i} == ${
      i + 1
    }\n\n` +
    `tests/test_m${i % 50}.py:${(i % 300) + 1}: AssertionError\n`;
}

/** The line a pytest summary starts with (the reader reads the summary below it). */
const PYTEST_SUMMARY_HEADING =
  "=========================== short test summary info ============================\n";

/**
 * Writes a log of `count` findings of `shape` to `path`; returns the bytes
 * written. A test-failure log is a pytest summary: its heading, the entries,
 * its closing count (after the FAILURES sections, for "pytest-sections").
 */
export function writeManyFindingsLog(
  path: string,
  shape: ManyFindingsShape,
  count: number,
): number {
  const file = Deno.openSync(path, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  let written = 0;
  const write = (text: string) => {
    written += file.writeSync(encoder.encode(text));
  };
  try {
    if (shape === "pytest-sections") {
      write(`${"=".repeat(35)} FAILURES ${"=".repeat(35)}\n`);
      for (let i = 0; i < count; i++) write(pytestSection(i));
    }
    if (shape === "test-failures" || shape === "pytest-sections") write(PYTEST_SUMMARY_HEADING);
    let parts: string[] = [];
    let size = 0;
    for (let i = 0; i < count; i++) {
      const text = entry(shape, i);
      parts.push(text);
      size += text.length;
      if (size >= 1024 * 1024) {
        write(parts.join(""));
        parts = [];
        size = 0;
      }
    }
    write(parts.join(""));
    if (shape === "test-failures" || shape === "pytest-sections") {
      write(`========================= ${count} failed in 12.34s =========================\n`);
    } else write(`make: *** [Makefile:12: all] Error 1\n`);
  } finally {
    file.close();
  }
  return written;
}

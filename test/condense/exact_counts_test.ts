/**
 * The headline's counts are exact: a log of N findings, of any format with a
 * summary, gives N, whether it is read as one text or in windows of any size,
 * and past the findings kept (counted, not kept). A report of one failure in
 * two windows (a pytest section and its summary entry, a block cut by a
 * window's end) is counted once; a part of the output longer than a window's
 * context (pytest's FAILURES, mocha's failing list, deno's ERRORS) is read as
 * that part in every window (ADR 0705).
 */
import { assertEquals } from "../support/assert.ts";
import {
  COUNTED_FORMATS,
  countedFindings,
  countedLog,
  type CountedOptions,
} from "../support/counted_logs.ts";
import { KEPT_FINDINGS, type Scanned, scanText, TriageScanner } from "../../src/condense/scan.ts";

/** Every finding a scan counted: those kept and those past them. */
function counted(s: Scanned): number {
  return s.findings.length + s.overflow.errors + s.overflow.test_failures + s.overflow.warnings;
}

/** `text` pushed as bytes in pieces of `size`, as a file is read. */
function scanBytes(text: string, size: number, windowChars?: number): Scanned {
  const scanner = new TriageScanner({ windowChars });
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += size) scanner.pushBytes(bytes.subarray(at, at + size));
  return scanner.end();
}

function checkCounts(ns: number[], windows: (number | undefined)[], o: CountedOptions = {}) {
  for (const format of COUNTED_FORMATS) {
    for (const n of ns) {
      const text = countedLog(format, n, o);
      const want = countedFindings(format, n);
      for (const windowChars of windows) {
        const got = counted(scanText(text, { windowChars }));
        assertEquals(got, want, `${format}, ${n} findings, windows of ${windowChars ?? "default"}`);
      }
    }
  }
}

Deno.test("a log of N findings gives N, read whole or in small windows", () => {
  checkCounts([1, 2, 37, 400], [undefined, 16 * 1024, 64 * 1024]);
});

Deno.test("past the kept findings every one is still counted once, in windows", () => {
  // More than are kept: the rest are counted, and a later report naming one of them more or less
  // fully (a summary entry after its section) is not counted again.
  checkCounts([KEPT_FINDINGS + 150], [64 * 1024]);
});

Deno.test("thousands of pytest failures and errors, or of ESLint messages in one file, read from a file: the headline's count is exact", () => {
  // (One file's 6,000 ESLint messages put its heading further back than a window's context reaches.)
  for (
    const format of ["pytest", "pytest-errors", "pytest-no-summary", "eslint-one-file"] as const
  ) {
    const n = 3 * KEPT_FINDINGS;
    const scanned = scanBytes(countedLog(format, n), 64 * 1024, 64 * 1024);
    assertEquals(scanned.findings.length, KEPT_FINDINGS);
    assertEquals(counted(scanned), countedFindings(format, n), format);
  }
});

/**
 * Every byte through the readers (scan.ts): windows change no finding, the
 * middle of a long output is read, line numbers count the whole output, and
 * what is kept stays bounded with the rest counted.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { combinedLogs } from "./readers_golden.ts";
import { joinScans, KEPT_FINDINGS, scanText, TriageScanner } from "../../src/condense/scan.ts";
import { findingKey } from "../../src/condense/findings.ts";
import { triage } from "../../src/condense/triage.ts";
import { PLANTED } from "../support/big_log.ts";

Deno.test("read in windows, every fixture's finding is still found; windows of 64 and 256 KiB find exactly the same", () => {
  for (const [name, text] of Object.entries(combinedLogs())) {
    const whole = scanText(text).findings.map(findingKey);
    assert(whole.length > 100, `${name}: ${whole.length} findings`);
    for (const windowChars of [16 * 1024, 64 * 1024, 256 * 1024]) {
      const parts = scanText(text, { windowChars }).findings.map(findingKey);
      const missing = whole.filter((k) => !parts.includes(k));
      assertEquals(missing, [], `${name}, windows of ${windowChars}: lost findings`);
      // The same set (each window's findings come in its readers' order, so the order may differ).
      // (64 KiB since each finding knows where its block starts, ADR 0700.)
      if (windowChars >= 64 * 1024) {
        assertEquals([...parts].sort(), [...whole].sort(), `${name}: windows changed findings`);
      }
    }
  }
});

Deno.test("bytes in any pieces: a character or a line cut between pieces reads as one", () => {
  const text =
    "=== RUN   TestÉtiquette\n    label_test.go:9: got «é», want «e»\n--- FAIL: TestÉtiquette (0.00s)\nFAIL\n";
  const bytes = new TextEncoder().encode(text);
  for (const size of [1, 2, 3, 7, 64]) {
    const s = new TriageScanner();
    for (let i = 0; i < bytes.length; i += size) s.pushBytes(bytes.subarray(i, i + size));
    const got = s.end();
    assertEquals(got.findings.map((f) => [f.test, f.location, f.message]), [[
      "TestÉtiquette",
      "label_test.go:9",
      "got «é», want «e»",
    ]]);
    assertEquals(got.bytes, bytes.length);
    assertEquals(got.lines, 4);
  }
});

Deno.test("the middle of a long output is read; evidence lines are numbered in the whole output", async () => {
  const filler = (from: number, n: number) =>
    Array.from(
      { length: n },
      (_, k) => `=== RUN   TestFill${from + k}\n--- PASS: TestFill${from + k} (0.00s)\n`,
    )
      .join("");
  const failing =
    `=== RUN   ${PLANTED.test}\n    ${PLANTED.location}: ${PLANTED.message}\n--- FAIL: ${PLANTED.test} (0.01s)\n`;
  const text = filler(0, 20_000) + failing + filler(20_000, 20_000) + "FAIL\n";
  const s = new TriageScanner({ windowChars: 64 * 1024 });
  // In uneven pieces, as a pipe delivers them.
  for (let i = 0; i < text.length; i += 10_007) s.pushText(text.slice(i, i + 10_007));
  const scanned = s.end();
  assertEquals(scanned.lines, 80_004);
  const result = await triage(scanned, { exitStatus: 1 });
  assertEquals(result.outcome, "failures");
  assertEquals(result.findings.map((f) => [f.test, f.location, f.message]), [[
    PLANTED.test,
    PLANTED.location,
    PLANTED.message,
  ]]);
  // With nothing found, the evidence is the last lines with their numbers in the whole text.
  const quiet = scanText(filler(0, 30_000).replace(/^--- PASS.*\n/gm, "") + "killed\n", {
    windowChars: 32 * 1024,
  });
  assertEquals(quiet.tail[quiet.tail.length - 1], { line: 30_001, text: "killed" });
  assertEquals(quiet.tail[0], { line: 29_982, text: "=== RUN   TestFill29981" });
});

Deno.test("bounded whatever the size: findings past the kept number and unexplained chunks are counted, not kept", async () => {
  const n = KEPT_FINDINGS + 500;
  const errors = Array.from(
    { length: n },
    (_, k) => `src/m${k}.c:${k + 1}:2: error: unknown type name 'T${k}'`,
  );
  const noise = Array.from(
    { length: 40_000 },
    (_, k) => `progress note ${k} of the build, nothing to see`,
  );
  const scanned = scanText([...errors, ...noise].join("\n") + "\n", {
    windowChars: 128 * 1024,
    maxChunks: 8,
  });
  assertEquals(scanned.findings.length, KEPT_FINDINGS);
  assertEquals(scanned.overflow.errors, 500);
  assert(scanned.chunkCount > 8, `${scanned.chunkCount} chunks`);
  assertEquals(scanned.chunks.length, 8);
  assert(scanned.chunks[0].startsWith("progress note 0 "), scanned.chunks[0].slice(0, 40));
  assert(scanned.chunks[7].trimEnd().endsWith("progress note 39999 of the build, nothing to see"));
  const result = await triage(scanned, { cap: 10 });
  assertEquals(result.counts.errors, n);
  assertEquals(result.heldBack, n - 10);
  assert(result.headline.includes(`(showing 10 of ${n})`), result.headline);
  assert(result.headline.includes("500 more findings counted but not kept"), result.headline);
});

Deno.test("stdout and stderr scanned apart read as one output, stderr's lines numbered after stdout's", () => {
  const out = scanText("building\nsrc/a.c:3:1: error: expected ';'\n");
  const err = scanText("make: *** [Makefile:4: all] Error 1\n");
  const both = joinScans(out, err);
  assertEquals(both.lines, 3);
  assertEquals(both.tail.map((l) => l.line), [1, 2, 3]);
  assertEquals(both.findings.map((f) => f.location ?? f.message), ["src/a.c:3:1", "Makefile:4"]);
});

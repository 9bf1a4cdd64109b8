/**
 * A log of very many findings: the scan keeps the first KEPT_FINDINGS and
 * counts every other one exactly, past the keys it remembers too; and the
 * index that meets a report with the kept finding it names more or less
 * fully (kept_index.ts) finds what trying every kept finding in order finds.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { seededRandom } from "../support/random.ts";
import { type ManyFindingsShape, writeManyFindingsLog } from "../support/many_findings_log.ts";
import { KEPT_FINDINGS, KNOWN_KEYS, type Scanned, TriageScanner } from "../../src/condense/scan.ts";
import { type Finding, moreOrLess } from "../../src/condense/findings.ts";
import { KeptIndex } from "../../src/condense/kept_index.ts";

/** More findings than the scan remembers keys for. */
const COUNT = KNOWN_KEYS + 10_000;

/** The scan of a generated log of `count` findings of `shape`, read a file piece at a time. */
function scanGenerated(shape: ManyFindingsShape, count: number): Scanned {
  const dir = Deno.makeTempDirSync({ prefix: "wisp-many-" });
  try {
    const path = join(dir, `${shape}.log`);
    writeManyFindingsLog(path, shape, count);
    const scanner = new TriageScanner();
    const file = Deno.openSync(path);
    const buf = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const n = file.readSync(buf);
        if (n === null) break;
        scanner.pushBytes(buf.subarray(0, n));
      }
    } finally {
      file.close();
    }
    return scanner.end();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("distinct warnings past the remembered keys: the first are kept, every other counted", () => {
  const scanned = scanGenerated("distinct-warnings", COUNT);
  assertEquals(scanned.findings.length, KEPT_FINDINGS);
  assertEquals(scanned.findings[0].location, "src/f0.c:10:3");
  assertEquals(scanned.findings[0].message, "unused variable 'v0' [-Wunused-variable]");
  const last = KEPT_FINDINGS - 1;
  assertEquals(scanned.findings[last].message, `unused variable 'v${last}' [-Wunused-variable]`);
  // make's closing line is an error found after the kept ones were full.
  assertEquals(scanned.overflow, { errors: 1, test_failures: 0, warnings: COUNT - KEPT_FINDINGS });
});

Deno.test("one warning text at many places: each place is its own finding, counted once", () => {
  const scanned = scanGenerated("one-message", COUNT);
  assertEquals(scanned.findings.length, KEPT_FINDINGS);
  assertEquals(new Set(scanned.findings.map((f) => f.location)).size, KEPT_FINDINGS);
  assertEquals(scanned.overflow, { errors: 1, test_failures: 0, warnings: COUNT - KEPT_FINDINGS });
});

Deno.test("one test name failing in many files: each file's failure is its own, counted once", () => {
  const scanned = scanGenerated("test-failures", COUNT);
  assertEquals(scanned.findings.length, KEPT_FINDINGS);
  assertEquals(scanned.findings[0].test, "tests/pkg0/test_io.py::test_round_trip");
  assertEquals(scanned.findings[2].test, "tests/pkg2/test_io.py::test_round_trip");
  assertEquals(scanned.overflow, {
    errors: 0,
    test_failures: COUNT - KEPT_FINDINGS,
    warnings: 0,
  });
});

Deno.test("repeated errors are counted once while remembered, and again past the remembered keys", () => {
  const scanned = scanGenerated("errors", COUNT);
  // The log's rule (many_findings_log.ts): entry i with i % 4 === 3 and i >= 40 repeats entry i - 41.
  const distinctIndex = new Map<number, number>();
  let errors = 0;
  for (let i = 0; i < COUNT; i++) {
    if (i % 4 === 3 && i >= 40) {
      // A repeat is counted only when its first report came after the keys were full.
      if (distinctIndex.get(i - 41)! >= KNOWN_KEYS) errors++;
    } else {
      distinctIndex.set(i, distinctIndex.size);
      errors++;
    }
  }
  assert(errors < COUNT, "the log repeats some errors");
  assertEquals(scanned.findings.length, KEPT_FINDINGS);
  assertEquals(scanned.overflow, {
    errors: errors + 1 - KEPT_FINDINGS,
    test_failures: 0,
    warnings: 0,
  });
});

Deno.test("many warnings at few places: one per place and text", () => {
  // 3 places × 5,000 texts, repeated: 15,000 distinct.
  const scanned = scanGenerated("one-place", 60_000);
  assertEquals(scanned.findings.length, KEPT_FINDINGS);
  assertEquals(scanned.overflow, { errors: 1, test_failures: 0, warnings: 15_000 - KEPT_FINDINGS });
});

/** What the index replaced: the first kept finding, in keeping order, that `f` names more or less fully. */
function firstByTrying(kept: Finding[], f: Finding): Finding | undefined {
  return kept.find((k) => moreOrLess(k, f) !== undefined);
}

/** A finding drawn from small sets of names, files and places, so that many resemble each other. */
function randomFinding(random: () => number): Finding {
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  if (random() < 0.5) {
    const f: Finding = { kind: "test_failure", message: pick(["boom", "x != y"]) };
    f.test = pick([
      "test_a",
      "test_b",
      "Suite.test_a",
      "pkg/Suite.test_a",
      "tests/t.py::test_a",
      "tests/t.py::Suite::test_b",
      "A > test_a",
      "A › B › test_a",
      "TestX/sub",
      "sub",
    ]);
    const file = pick([undefined, "a.test.js", "b.test.js", "./a.test.js"]);
    if (file) f.file = file;
    return f;
  }
  const f: Finding = { kind: pick(["error", "warning"]), message: pick(["m1", "m2"]) };
  const location = pick([
    undefined,
    "a.c",
    "a.c:3",
    "a.c:3:5",
    "./a.c:3",
    "a.c:4",
    "b.c:3:5",
    "C:\\src\\a.c:3",
    "C:\\src\\a.c",
  ]);
  if (location) f.location = location;
  return f;
}

Deno.test("the kept index meets the same kept finding as trying each in order", () => {
  const random = seededRandom(21);
  for (let round = 0; round < 200; round++) {
    const kept: Finding[] = [];
    const index = new KeptIndex();
    for (let step = 0; step < 60; step++) {
      const f = randomFinding(random);
      const expected = firstByTrying(kept, f);
      const met = index.meet(f);
      assertEquals(met?.kept, expected, `round ${round}, step ${step}: ${JSON.stringify(f)}`);
      if (met) {
        assertEquals(met.fuller, moreOrLess(met.kept, f));
        if (met.fuller === f) {
          // As the scan does: the kept finding takes the fuller names.
          if (met.kept.test) {
            met.kept.test = f.test;
            if (f.file) met.kept.file = f.file;
          } else met.kept.location = f.location;
          index.renamed(met.kept);
        }
      } else {
        kept.push(f);
        index.add(f);
      }
    }
  }
});

Deno.test("a pytest run of thousands of failures: each summary entry meets its own section", () => {
  const count = 2500;
  const scanned = scanGenerated("pytest-sections", count);
  assertEquals(scanned.findings.length, KEPT_FINDINGS);
  assertEquals(scanned.overflow, { errors: 0, test_failures: count - KEPT_FINDINGS, warnings: 0 });
  for (const i of [0, 1, 1234, KEPT_FINDINGS - 1]) {
    const f = scanned.findings[i];
    assertEquals(f.test, `tests/test_m${i % 50}.py::test_case_${i}`);
    // The place comes from the test's own section (the summary line names none).
    assertEquals(f.location, `tests/test_m${i % 50}.py:${(i % 300) + 1}`);
    assertEquals(f.message, `assert ${i} == ${i + 1}`);
  }
});

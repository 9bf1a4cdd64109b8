/**
 * flaky_tests: a test command run N times (each run through the gate and the
 * runner, as triage runs one), every run read by the exact readers, and the
 * tests compared across runs (every byte of each run read as it arrives, so
 * a failure in the middle of a long output counts): a test that failed in some runs and not in
 * others is flaky; one that failed in every run is failing, not flaky. A run
 * whose failures no reader could name (a crash, an unknown format) is counted
 * and said, never guessed at.
 */
import { readAll } from "./readers/index.ts";
import { type Finding, testIdentity } from "./findings.ts";

export interface RunOutcome {
  exitStatus: number | null;
  /** The output as kept (bounded: a long one keeps its head and tail). */
  text: string;
  /** Every byte of the output as the readers read it while it ran; when present, read instead of `text`. */
  scanned?: { findings: Finding[] };
}

export interface TestVerdict {
  test: string;
  failedRuns: number[];
  /** The first failure's place and message. */
  location?: string;
  message: string;
}

export interface FlakyReport {
  runs: number;
  exitStatuses: (number | null)[];
  flaky: TestVerdict[];
  failing: TestVerdict[];
  /** Runs that failed (exit status not 0) with no test failure a reader could name. */
  unexplainedRuns: number[];
  text: string;
}

export function compareRuns(outcomes: RunOutcome[]): FlakyReport {
  const byTest = new Map<string, TestVerdict>();
  const unexplainedRuns: number[] = [];
  outcomes.forEach((outcome, index) => {
    const run = index + 1;
    const found = outcome.scanned?.findings ?? readAll(outcome.text).findings;
    const failures: Finding[] = found.filter((f) => f.kind === "test_failure" && f.test);
    if (failures.length === 0 && outcome.exitStatus !== 0) unexplainedRuns.push(run);
    for (const f of failures) {
      // Keyed by file and name: two files may hold tests of one name.
      const key = testIdentity(f)!;
      const v = byTest.get(key) ??
        { test: f.test!, failedRuns: [], location: f.location, message: f.message };
      if (!v.failedRuns.includes(run)) v.failedRuns.push(run);
      byTest.set(key, v);
    }
  });
  const n = outcomes.length;
  const verdicts = [...byTest.values()];
  const flaky = verdicts.filter((v) => v.failedRuns.length < n).sort((a, b) =>
    b.failedRuns.length - a.failedRuns.length
  );
  const failing = verdicts.filter((v) => v.failedRuns.length === n);
  const lines = [
    `${n} runs (exit ${
      outcomes.map((o) => o.exitStatus ?? "none").join(", ")
    }): ${flaky.length} flaky, ${failing.length} failing every time`,
  ];
  for (const v of flaky.slice(0, 20)) {
    lines.push(
      `  flaky ${v.test}: failed in runs ${v.failedRuns.join(", ")} of ${n}${
        v.location ? ` at ${v.location}` : ""
      }: ${v.message}`,
    );
  }
  for (const v of failing.slice(0, 20)) {
    lines.push(`  failing ${v.test}${v.location ? ` at ${v.location}` : ""}: ${v.message}`);
  }
  if (unexplainedRuns.length > 0) {
    lines.push(
      `  runs ${unexplainedRuns.join(", ")} failed with no test failure a reader could name`,
    );
  }
  return {
    runs: n,
    exitStatuses: outcomes.map((o) => o.exitStatus),
    flaky,
    failing,
    unexplainedRuns,
    text: lines.join("\n"),
  };
}

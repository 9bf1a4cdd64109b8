/**
 * A window of a long output may hold a failure's block without the heading
 * before it, or its heading without the block: the reader then names the
 * failure less fully (a test without its file, by its short name; an error at
 * its file without the line). Such a report is the failure already counted,
 * not another (findings.ts `moreOrLess`, scan.ts).
 */
import { assertEquals } from "../support/assert.ts";
import { type Finding, findingKey, moreOrLess } from "../../src/condense/findings.ts";
import { scanText } from "../../src/condense/scan.ts";

const test = (name: string, file?: string): Finding => ({
  kind: "test_failure",
  test: name,
  ...(file ? { file } : {}),
  message: "failed",
});

Deno.test("reports of one failure named more or less fully meet; different failures do not", () => {
  const full = test("test_calc.py::test_uses_broken");
  assertEquals(moreOrLess(test("test_uses_broken"), full), full);
  const dotted = test("demo.CalcTest.parsesText");
  assertEquals(moreOrLess(dotted, test("CalcTest.parsesText")), dotted);
  const filed = test("sum > adds", "a.test.js");
  assertEquals(moreOrLess(test("sum > adds"), filed), filed);
  // Two files' tests of one name, and two tests whose names only end alike, are two failures.
  assertEquals(
    moreOrLess(test("sum > adds", "a.test.js"), test("sum > adds", "b.test.js")),
    undefined,
  );
  assertEquals(moreOrLess(test("handles empty input"), test("empty input")), undefined);
  assertEquals(moreOrLess(test("TestA/empty"), test("TestB/empty")), undefined);
  // Each naming what the other lacks (a file on one, the suite on the other) is not settled.
  assertEquals(moreOrLess(test("adds", "a.test.js"), test("sum > adds")), undefined);
  const at = (location?: string): Finding => ({
    kind: "error",
    message: "Cannot find module",
    ...(location ? { location } : {}),
  });
  assertEquals(moreOrLess(at("a.js"), at("a.js:2:1")), at("a.js:2:1"));
  assertEquals(moreOrLess(at("./a.js"), at("a.js:2:1")), at("a.js:2:1"));
  assertEquals(moreOrLess(at(), at("a.js:2")), at("a.js:2"));
  assertEquals(moreOrLess(at("a.js:2"), at("b.js:2")), undefined);
  assertEquals(moreOrLess(at("a.js:2"), at("a.js:20")), undefined);
});

Deno.test("a window cut anywhere in a failing run finds what the whole run finds", () => {
  const dir = new URL("../fixtures/condense/", import.meta.url);
  const windowChars = 16 * 1024;
  const filler = "x".repeat(99) + "\n";
  for (
    const name of [
      "pytest/fail.log",
      "jest/fail.log",
      "jest/two_files.log",
      "jest/many_files.log",
      "vitest/fail.log",
      "go/multi_verbose.log",
    ]
  ) {
    const log = Deno.readTextFileSync(new URL(name, dir));
    // Enough filler that the first window ends inside the log, then one more line at a time: each
    // of the log's lines is, in turn, where a window ends.
    const lead = Math.max(0, Math.floor((windowChars - log.length) / 100));
    const steps = Math.ceil(log.length / 100) + 2;
    for (let step = 0; step < steps; step++) {
      for (const shift of [0, 37, 71]) {
        const text = "=".repeat(shift) + "\n" + filler.repeat(lead + step) + log;
        const whole = scanText(text).findings.map(findingKey).sort();
        const windows = scanText(text, { windowChars }).findings.map(findingKey).sort();
        assertEquals(windows, whole, `${name}, ${lead + step} lines before it, shift ${shift}`);
      }
    }
  }
});

/**
 * Logs as CI systems write them: one layer (normalise.ts) takes off what CI
 * and wrappers add to every line, so each reader reads the tool's own lines.
 * The lines here are made up for the test in each system's documented shape.
 */
import { assertEquals } from "../support/assert.ts";
import { normaliseLine, outputLines } from "../../src/condense/normalise.ts";
import { readAll } from "../../src/condense/readers/index.ts";
import { triageText } from "../../src/condense/triage.ts";

const TOOL_LINES = [
  "=== RUN   TestParseAmount",
  '    amount_test.go:31: ParseAmount("1,5") = 15, want 1.5',
  "--- FAIL: TestParseAmount (0.00s)",
  "FAIL",
  "FAIL\texample.com/pay\t0.012s",
];

/** Each system's dress for one line (i numbers the line). */
const DRESS: Record<string, (line: string, i: number) => string> = {
  "GitHub Actions": (l, i) => `2026-12-01T10:00:0${i}.1234567Z ${l}`,
  "GitLab (stream and partial-line marks)": (l, i) =>
    `2026-12-01T10:00:0${i}.123456Z 01${i % 2 ? "E" : "O"}${i === 1 ? "+" : ""} ${l}`,
  "Buildkite": (l, i) => `\x1b_bk;t=176458200${i}000\x07${l}`,
  "ts (moreutils)": (l, i) => `Dec 01 10:00:0${i} ${l}`,
  "ts -s": (l, i) => `00:00:0${i} ${l}`,
  "Jenkins timestamper": (l, i) => `[2026-12-01T10:00:0${i}.123Z] ${l}`,
  "container log": (l, i) => `2026-12-01T10:00:0${i}.000000001Z stdout F ${l}`,
  "docker build": (l, i) => `#14 ${i}.25${i} ${l}`,
  "colour and CRLF": (l) => `\x1b[31m${l}\x1b[0m\r`,
  "a redrawn progress line": (l) => `[1/3] building\r[3/3] building\r${l}`,
};

Deno.test("every CI dress comes off: the go reader finds the same failure in each", () => {
  const plain = readAll(TOOL_LINES.join("\n") + "\n").findings;
  assertEquals(plain.map((f) => [f.test, f.location]), [["TestParseAmount", "amount_test.go:31"]]);
  for (const [system, dress] of Object.entries(DRESS)) {
    const dressed = TOOL_LINES.map(dress).join("\n") + "\n";
    assertEquals(outputLines(dressed), TOOL_LINES, system);
    assertEquals(readAll(dressed).findings, plain, system);
  }
});

Deno.test("npm's prefixes come off what a script printed: a compiler error under npm ERR! is read", () => {
  for (const prefix of ["npm ERR! ", "npm error "]) {
    const text = [
      `${prefix}code 1`,
      `${prefix}path /home/dev/addon`,
      `${prefix}../src/binding.cc:12:5: error: 'napi_value' was not declared in this scope`,
      `${prefix}gyp ERR! build error`,
    ].join("\n");
    const f = readAll(text).findings;
    assertEquals(f.map((x) => [x.kind, x.location]), [["error", "../src/binding.cc:12:5"]], prefix);
  }
});

Deno.test("only a leading prefix of a known shape comes off; the tool's own text is never touched", () => {
  for (
    const line of [
      "src/main.c:12:5: error: expected ';'",
      "2026-12-01 report generated", // a date, no time
      "12:30 meeting notes", // no seconds
      "[INFO] Building shop 1.0",
      "#include <stdio.h>",
      "Dec 2026 is the month",
      "thread 'main' panicked at src/main.rs:3:5:",
    ]
  ) assertEquals(normaliseLine(line), line, line);
  // A time stamp is taken once: a second one is the tool's own text.
  assertEquals(
    normaliseLine("2026-12-01T10:00:00Z 2026-12-01T09:59:59Z request done"),
    "2026-12-01T09:59:59Z request done",
  );
});

Deno.test("a failed GitHub Actions step's log: the headline and findings are the tool's", () => {
  const log = [
    "##[group]Run npm test",
    "npm test",
    "##[endgroup]",
    "src/cart.c:40:12: error: 'total' undeclared (first use in this function)",
    "make: *** [Makefile:8: cart.o] Error 1",
    "##[error]Process completed with exit code 2.",
  ].map((l, i) => `2026-12-01T10:00:0${i}.0000000Z ${l}`).join("\n");
  const r = triageText(log, { exitStatus: 2 });
  assertEquals(r.outcome, "failures");
  assertEquals(r.findings.map((f) => f.location), ["src/cart.c:40:12", "Makefile:8"]);
});

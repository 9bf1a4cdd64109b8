import { assertEquals, assertThrows } from "../support/assert.ts";
import { decodeField, parseExamples, percentile, summarise } from "../../src/gate/measure.ts";

Deno.test("measure: labelled lines are read, comments and blanks skipped, here-docs decoded", () => {
  const ex = parseExamples(
    "# comment\n\nsafe\tls\ndeny\tsudo ls\r\ndangerous\t\"sh <<'EOF'\\nrm x\\nEOF\"\nmoderate\tprintf 'a\\n'\n",
    "f",
  );
  assertEquals(ex.map((e) => [e.label, e.line, e.lineNo]), [
    ["safe", "ls", 3],
    ["deny", "sudo ls", 4],
    ["dangerous", "sh <<'EOF'\nrm x\nEOF", 5],
    ["moderate", "printf 'a\\n'", 6],
  ]);
  assertEquals(decodeField('"wisp" "chat"'), '"wisp" "chat"');
  assertThrows(() => parseExamples("safe ls\n", "f"));
  assertThrows(() => parseExamples("risky\tls\n", "f"));
});

Deno.test("measure: exact, over and under; only dangerous or deny under-ratings fail", () => {
  const row = (
    label: "safe" | "moderate" | "dangerous" | "deny",
    verdict: typeof label,
    micros = 10,
  ) => ({
    example: { label, line: `${label}->${verdict}`, lineNo: 1 },
    verdict,
    reasons: [],
    micros,
  });
  const s = summarise([
    row("safe", "safe", 5),
    row("safe", "moderate", 7),
    row("moderate", "safe", 9),
    row("dangerous", "moderate", 11),
    row("deny", "dangerous", 13),
    row("deny", "deny", 100),
  ]);
  assertEquals([s.total, s.exact, s.over, s.under], [6, 2, 1, 3]);
  assertEquals(s.failures.map((r) => r.example.line), ["dangerous->moderate", "deny->dangerous"]);
  assertEquals([s.safeLines, s.safeOver], [2, 1]);
  assertEquals(s.medianMicros, 9);
  assertEquals(percentile([1, 2, 3, 4], 99), 4);
});

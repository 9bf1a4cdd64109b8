/**
 * Binary input's printable runs: the same length as the input, short runs and
 * control bytes blanked, line feeds kept, and the same result however the
 * stream is cut into chunks.
 */
import { assertEquals } from "../support/assert.ts";
import { MIN_RUN, PrintableRuns, printableText } from "../../src/secrets/binary.ts";
import { notScannedReason, planScan, scanClosingLines } from "../../src/cli/scan.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("printable runs keep long text, blank short runs and control bytes, keep line feeds", () => {
  const input = new Uint8Array([
    ...bytes("ab"),
    0,
    ...bytes("long enough"),
    1,
    2,
    0x0a,
    ...bytes("xyz"),
    0xff,
    ...bytes("tail text"),
  ]);
  const text = printableText(input);
  assertEquals(text.length, input.length);
  assertEquals(text, "   long enough  \n    tail text");
});

Deno.test("printable runs are the same however the stream is chunked", () => {
  const parts: number[] = [];
  let seed = 7;
  for (let i = 0; i < 4000; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    // Mostly printable, with control bytes often enough to make runs of every length.
    parts.push(seed % 9 === 0 ? seed % 32 : 0x20 + (seed % 95));
  }
  const input = Uint8Array.from(parts);
  const whole = printableText(input);
  for (const size of [1, 2, MIN_RUN - 1, MIN_RUN, 7, 64, 1000]) {
    const runs = new PrintableRuns();
    const out: number[] = [];
    for (let at = 0; at < input.length; at += size) {
      out.push(...runs.push(input.subarray(at, at + size)));
    }
    out.push(...runs.flush());
    assertEquals(new TextDecoder().decode(Uint8Array.from(out)), whole, `chunks of ${size}`);
  }
});

Deno.test("an input that cannot be read gets a sentence; an unexpected error is not swallowed", () => {
  assertEquals(
    notScannedReason("secret.env", new Deno.errors.PermissionDenied("denied")),
    "secret.env cannot be read; check its permissions",
  );
  assertEquals(
    notScannedReason("x", new Deno.errors.NotFound("gone")),
    "x does not exist; check the path",
  );
  assertEquals(notScannedReason("x", new TypeError("a bug")), null);
});

Deno.test("scan's plan: a terminal on stdin with no files and a format clash are usage errors; --thorough implies --personal", () => {
  assertEquals(planScan([], {}, true), {
    usage: "give files to scan, or pipe text to standard input (git diff --cached | wisp scan)",
  });
  assertEquals(planScan(["a"], { json: true, format: "sarif" }, false), {
    usage: "--format takes one of text, json, sarif (and --json means json)",
  });
  assertEquals(planScan([], { thorough: true, history: false }, false), {
    format: "text",
    options: { personal: true, thorough: true, history: false },
  });
  assertEquals(planScan(["a"], { json: true }, true), {
    format: "json",
    options: { personal: false, thorough: false, history: true },
  });
});

Deno.test("scan's closing lines: what was found where, the history leaks, the known left out; nothing when nothing was read", () => {
  const summary = (totals: Record<string, number>) =>
    Object.entries(totals).map(([k, n]) => `${n} ${k}`).join(", ");
  assertEquals(scanClosingLines({ totals: {}, inputs: 0, history: 0, known: 0 }, summary), []);
  assertEquals(scanClosingLines({ totals: {}, inputs: 1, history: 0, known: 0 }, summary), [
    "no secrets found",
  ]);
  assertEquals(
    scanClosingLines({ totals: { "aws key": 2 }, inputs: 3, history: 1, known: 1 }, summary),
    [
      "2 aws key in 3 inputs (1 on removed lines: leaked in history)",
      "1 known finding left out (baseline, ignore file)",
    ],
  );
});

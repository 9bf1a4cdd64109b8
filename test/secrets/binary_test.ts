/**
 * Binary input's printable runs: the same length as the input, short runs and
 * control bytes blanked, line feeds kept, and the same result however the
 * stream is cut into chunks.
 */
import { assertEquals } from "../support/assert.ts";
import { MIN_RUN, PrintableRuns, printableText } from "../../src/secrets/binary.ts";
import { notScannedReason } from "../../src/cli/scan.ts";

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

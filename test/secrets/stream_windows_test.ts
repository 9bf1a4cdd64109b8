/**
 * Large input read synchronously in windows decoded from the bytes: whatever
 * the bytes (multi-byte characters cut by a read, invalid UTF-8, a line longer
 * than a window), the findings are those of one pass over the decoded whole.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { scanReaderSync } from "../../src/secrets/stream.ts";
import { scanText } from "../../src/secrets/scanner.ts";
import type { SecretFinding } from "../../src/secrets/types.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(655));

/** A reader over bytes that returns at most `step` bytes a read, as a read may. */
function readerOf(bytes: Uint8Array, step: number) {
  let at = 0;
  return {
    readSync(into: Uint8Array): number | null {
      if (at >= bytes.length) return null;
      const n = Math.min(into.length, step, bytes.length - at);
      into.set(bytes.subarray(at, at + n));
      at += n;
      return n;
    },
  };
}

function summary(findings: SecretFinding[]): string[] {
  return findings.map((f) => `${f.line}:${f.column}:${f.kind}:${f.start}:${f.end}`);
}

/** Lines of filler in several scripts, tokens on their own lines and inside a very long one. */
function sample(): { bytes: Uint8Array; tokens: number } {
  const parts: Uint8Array[] = [];
  const encoder = new TextEncoder();
  let tokens = 0;
  for (let i = 0; i < 90; i++) {
    const filler = ["plain ascii words", "fïllér ✓ naïve", "日本語のテキスト", "emoji 🔑🗝️"][i % 4];
    let line = `${i} ${filler.repeat(v.int(1, 30))} GITHUB_TOKEN=${v.githubPat()}\n`;
    tokens++;
    if (i === 40) {
      // One line longer than a window, with a token near its middle.
      line = `${"long ✓ ".repeat(900)} API_TOKEN=${v.githubPat()} ${"tail é ".repeat(900)}\n`;
    }
    parts.push(encoder.encode(line));
    // Invalid UTF-8 (a lone continuation byte, a cut sequence) now and then.
    if (i % 7 === 3) parts.push(new Uint8Array([0x80, 0x41, 0xe2, 0x82, 0x0a]));
  }
  const size = parts.reduce((n, p) => n + p.length, 0);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, tokens };
}

Deno.test("windows decoded from bytes find what one pass over the decoded text finds", () => {
  const { bytes, tokens } = sample();
  const whole = scanText(new TextDecoder().decode(bytes));
  assertEquals(whole.length, tokens);
  for (const [windowChars, overlapChars, step] of [[4096, 1500, 333], [9000, 2500, 8192]]) {
    const found: SecretFinding[] = [];
    const result = scanReaderSync(
      readerOf(bytes, step),
      { windowChars, overlapChars },
      (f) => found.push(...f),
    );
    assertEquals(summary(found), summary(whole), `window ${windowChars}, reads of ${step}`);
    assertEquals(result.bytes, bytes.length);
  }
});

Deno.test("an input of one byte per character keeps its offsets across many windows", () => {
  let text = "";
  for (let i = 0; i < 400; i++) {
    text += `row ${i} ${"x".repeat(v.int(10, 200))} key=${v.githubPat()}\n`;
  }
  const whole = scanText(text);
  assert(whole.length >= 400, `${whole.length}`);
  const found: SecretFinding[] = [];
  scanReaderSync(
    readerOf(new TextEncoder().encode(text), 5000),
    { windowChars: 6000, overlapChars: 1000 },
    (f) => found.push(...f),
  );
  assertEquals(summary(found), summary(whole));
});

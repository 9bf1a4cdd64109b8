/**
 * Diff-aware location, windowed streaming (small windows, so values straddle
 * the edges) and redaction numbering.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import {
  addedLines,
  looksLikeDiff,
  redactStream,
  redactText,
  scanDiff,
  scanStream,
  scanText,
  type SecretFinding,
} from "../../src/secrets/index.ts";
import { scanReaderSync } from "../../src/secrets/stream.ts";
import { scanFile, WHOLE_FILE_BYTES } from "../../src/secrets/scan_input.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(11));

function streamOf(text: string | Uint8Array): ReadableStream<Uint8Array> {
  return new Blob([text as BlobPart]).stream() as ReadableStream<Uint8Array>;
}

Deno.test("a diff's added lines are located in the new file, its removed ones in the old file as history", () => {
  const removed = v.githubPat();
  const added = v.githubPat();
  const key = v.opensshKey();
  const keyLines = key.split("\n");
  const diff = [
    "diff --git a/app/config.py b/app/config.py",
    "index 1111111..2222222 100644",
    "--- a/app/config.py",
    "+++ b/app/config.py",
    "@@ -10,4 +10,5 @@ class Config:",
    "     DEBUG = False",
    `-    TOKEN = "${removed}"`,
    "+    TOKEN = os.environ['TOKEN']",
    "     RETRIES = 3",
    `+    BACKUP_TOKEN = "${added}"`,
    "     TIMEOUT = 5",
    "diff --git a/keys/deploy b/keys/deploy",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/keys/deploy",
    `@@ -0,0 +1,${keyLines.length} @@`,
    ...keyLines.map((l) => "+" + l),
    "",
  ].join("\n");
  assert(looksLikeDiff(diff));
  const all = scanDiff(diff);
  const where = (f: SecretFinding) =>
    `${f.path}:${f.line}:${f.column} ${f.kind}${f.history ? " history" : ""}`;
  assertEquals(all.map(where), [
    "app/config.py:11:14 github-pat history",
    "app/config.py:13:21 github-pat",
    "keys/deploy:1:1 openssh-private-key",
  ]);
  assertEquals(diff.slice(all[0].start, all[0].end), removed, "offsets point into the diff");
  const found = scanDiff(diff, { history: false });
  assertEquals(found.map(where), all.slice(1).map(where));
  assertEquals(diff.slice(found[0].start, found[0].end), added, "offsets point into the diff");
  assert(
    diff.slice(found[1].start, found[1].end).startsWith("-----BEGIN OPENSSH PRIVATE KEY-----\n+"),
  );
  assertEquals(addedLines(diff).filter((l) => l.path === "app/config.py").map((l) => l.line), [
    11,
    13,
  ]);
  assert(!looksLikeDiff(`TOKEN=${added}\n`));
});

Deno.test("a renamed file's removed lines are located at its old path and old line numbers", () => {
  const old = v.stripeSecret();
  const diff = [
    "diff --git a/billing/settings.py b/payments/settings.py",
    "similarity index 91%",
    "rename from billing/settings.py",
    "rename to payments/settings.py",
    "--- a/billing/settings.py",
    "+++ b/payments/settings.py",
    "@@ -3,3 +3,3 @@ import os",
    " CURRENCY = 'EUR'",
    `-STRIPE_KEY = "${old}"`,
    "+STRIPE_KEY = os.environ['STRIPE_KEY']",
    " TIMEOUT = 30",
    "",
  ].join("\n");
  const [f, ...rest] = scanDiff(diff);
  assertEquals(rest, []);
  assertEquals([f.path, f.line, f.kind, f.history], ["billing/settings.py", 4, "stripe-key", true]);
});

Deno.test("a removed line that starts with --- is not taken for a file header", () => {
  const token = v.githubPat();
  const diff = [
    "--- a/notes.md",
    "+++ b/notes.md",
    "@@ -1,2 +1,2 @@",
    "--- old heading",
    `+++ new heading ${token}`,
    " body",
  ].join("\n");
  const found = scanDiff(diff);
  assertEquals(found.map((f) => `${f.path}:${f.line}`), ["notes.md:1"]);
});

/** A long text with values planted every few hundred characters, including multi-line keys. */
function plantedText(): { text: string; values: string[] } {
  const values: string[] = [];
  let text = "";
  for (let i = 0; i < 120; i++) {
    text += `line ${i} ${"filler ".repeat(v.int(1, 40))}\n`;
    const value = i % 10 === 0 ? v.pem("RSA PRIVATE KEY", 600) : v.githubPat();
    values.push(value);
    text += i % 10 === 0 ? `${value}\n` : `TOKEN_${i}=${value}\n`;
  }
  return { text, values };
}

function summary(findings: SecretFinding[]): string[] {
  return findings.map((f) => `${f.line}:${f.column}:${f.kind}:${f.start}:${f.end}`);
}

Deno.test("streaming in small windows finds exactly what one pass over the whole text finds", async () => {
  const { text } = plantedText();
  const whole = scanText(text);
  assertEquals(whole.length, 120);
  for (const [windowChars, overlapChars] of [[2000, 1200], [5000, 1500], [1 << 20, 64 << 10]]) {
    const streamed: SecretFinding[] = [];
    const result = await scanStream(
      streamOf(text),
      { windowChars, overlapChars },
      (f) => streamed.push(...f),
    );
    assertEquals(summary(streamed), summary(whole), `window ${windowChars}`);
    assertEquals(result.counts, { "github-pat": 108, "private-key": 12 });
  }
});

Deno.test("a large file read synchronously in windows finds what one pass over its text finds", async () => {
  // Multi-byte characters on every line, so a read or a window edge falls inside one.
  const { text: planted } = plantedText();
  const text = planted.replaceAll("filler", "fïllér ✓");
  const bytes = new TextEncoder().encode(text);
  const whole = scanText(text);
  assertEquals(whole.length, 120);
  for (const [windowChars, overlapChars, readBytes] of [[2000, 1200, 777], [5000, 1500, 4096]]) {
    let at = 0;
    // A reader that returns less than asked, as a read may.
    const reader = {
      readSync(into: Uint8Array): number | null {
        if (at >= bytes.length) return null;
        const n = Math.min(into.length, readBytes, bytes.length - at);
        into.set(bytes.subarray(at, at + n));
        at += n;
        return n;
      },
    };
    const found: SecretFinding[] = [];
    const result = scanReaderSync(reader, { windowChars, overlapChars }, (f) => found.push(...f));
    assertEquals(summary(found), summary(whole), `window ${windowChars}`);
    assertEquals(result.counts, { "github-pat": 108, "private-key": 12 });
    assertEquals(result.bytes, bytes.length);
  }
  // Through scanFile: a file over the size read whole takes this way, and a large diff does not.
  const dir = await Deno.makeTempDir();
  try {
    const big = "x".repeat(100) + "\n";
    const filler = big.repeat(Math.ceil((WHOLE_FILE_BYTES + 1) / big.length));
    await Deno.writeTextFile(`${dir}/big.log`, filler + text);
    const fromFile: SecretFinding[] = [];
    const result = await scanFile(`${dir}/big.log`, {}, (f) => fromFile.push(...f));
    const lineBase = filler.split("\n").length - 1;
    assertEquals(
      fromFile.map((f) => `${f.line - lineBase}:${f.column}:${f.kind}`),
      whole.map((f) => `${f.line}:${f.column}:${f.kind}`),
    );
    assertEquals([result.diff, result.binary], [false, false]);
    const removed = v.githubPat();
    const diff =
      `--- a/notes.txt\n+++ b/notes.txt\n@@ -1,1 +1,1 @@\n-token ${removed}\n+token none\n` +
      filler.replaceAll(/^/gm, " ").slice(0, -1);
    await Deno.writeTextFile(`${dir}/big.diff`, diff);
    const diffFound: SecretFinding[] = [];
    const diffResult = await scanFile(`${dir}/big.diff`, {}, (f) => diffFound.push(...f));
    assertEquals(diffResult.diff, true);
    assertEquals(diffFound.map((f) => [f.path, f.history]), [["notes.txt", true]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("streamed redaction equals whole-text redaction, numbering included", async () => {
  const { text, values } = plantedText();
  const repeated = text + `again ${values[1]}\n`;
  const whole = redactText(repeated);
  let streamed = "";
  const result = await redactStream(
    streamOf(repeated),
    { windowChars: 3000, overlapChars: 1600 },
    (c) => {
      streamed += c;
    },
  );
  assertEquals(streamed, whole.text);
  assertEquals(result.counts, whole.counts);
  for (const value of values) assert(!streamed.includes(value));
  assertStringIncludes(streamed, "again [REDACTED:github-pat#1]");
});

Deno.test("binary input is skipped, not scanned and not written", async () => {
  const bytes = new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0,
    0,
    1,
    2,
    ...new TextEncoder().encode(v.githubPat()),
  ]);
  const seen: SecretFinding[] = [];
  const scanned = await scanStream(streamOf(bytes), {}, (f) => seen.push(...f));
  assertEquals([scanned.binary, seen.length], [true, 0]);
  let written = "";
  const redacted = await redactStream(streamOf(bytes), {}, (c) => written += c);
  assertEquals([redacted.binary, written], [true, ""]);
});

Deno.test("redaction: numbered markers per kind, the same value the same number", () => {
  const a = v.email();
  let b = v.email();
  while (b === a) b = v.email();
  const token = v.githubPat();
  const text = `from ${a} to ${b}, cc ${a}\nGITHUB_TOKEN=${token}\n`;
  const out = redactText(text, { personal: true });
  assertEquals(
    out.text,
    "from [REDACTED:email#1] to [REDACTED:email#2], cc [REDACTED:email#1]\nGITHUB_TOKEN=[REDACTED:github-pat#1]\n",
  );
  assertEquals(out.counts, { email: 3, "github-pat": 1 });
  assertEquals(redactText(text).counts, { "github-pat": 1 }, "personal data only when asked");
});

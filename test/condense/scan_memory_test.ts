/**
 * The scan's ways of doing less (ADR 0650) give what the plain ways give:
 * the name cut out of a matched line is the pattern's capture; a line known
 * to hold no escape or CR normalises as any line does; windows decoded whole
 * join characters and lines cut between pieces, drop a byte-order mark only
 * at the very start, and hold a line without a line feed only up to a bound;
 * a read's set of explained lines is still there when asked for.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { trailingToken } from "../../src/condense/text.ts";
import { passedName } from "../../src/condense/readers/go.ts";
import { normaliseLine } from "../../src/condense/normalise.ts";
import { readLines } from "../../src/condense/readers/index.ts";
import { TriageScanner } from "../../src/condense/scan.ts";
import { fixtureLogNames, FIXTURES } from "./readers_golden.ts";

const FIXTURE_LINES = fixtureLogNames().flatMap((n) =>
  Deno.readTextFileSync(join(FIXTURES, n)).split("\n")
);

/** Lines built to catch a cut in the wrong place: other spaces, parentheses and colons in names. */
const TRICKY = [
  "=== RUN   TestA",
  "=== RUN\tTestTabbed",
  "=== CONT  TestB/sub_case#01",
  "=== RUN   Test\u00a0NoBreakSpace",
  "=== RUN   TestÉtiquette",
  "=== RUN   Test(paren):colon",
  "    --- PASS: TestTable/two_(2) (0.00s)",
  "--- SKIP: TestSkipped (1.25s)",
  "--- PASS: Test:with:colons (0.01s)",
  "\t--- PASS: TestX/y (10.5s)",
  "--- PASS: Test(a)_(b) (0.00s)",
];

Deno.test("trailingToken is the capture of `\\s+(\\S+)$` wherever that pattern matches", () => {
  let matched = 0;
  for (const line of [...FIXTURE_LINES, ...TRICKY]) {
    const m = /\s+(\S+)$/.exec(line);
    if (!m) continue;
    matched++;
    assertEquals(trailingToken(line), m[1], JSON.stringify(line));
  }
  assert(matched > 1000, `${matched} lines matched`);
});

Deno.test("passedName is the name go's PASS pattern captures, on every line it matches", () => {
  const PASS = /^\s*--- (?:PASS|SKIP): (\S+) \([\d.]+s\)$/;
  let matched = 0;
  for (const line of [...FIXTURE_LINES, ...TRICKY]) {
    const m = PASS.exec(line);
    if (!m) continue;
    matched++;
    assertEquals(passedName(line), m[1], JSON.stringify(line));
  }
  assert(matched >= 5, `${matched} lines matched`);
});

Deno.test("a line with no escape and no CR normalises the same when the scan says so", () => {
  const dressed = [
    "2026-12-01T10:00:00.1234567Z npm ERR! src/a.c:1:2: error: x",
    "[10:00:00] make: *** [all] Error 1",
    "Dec 01 10:00:00 FAIL src/a.test.ts",
    "#12 3.456 error TS2304: Cannot find name 'x'.",
    "npm error Missing script: test",
  ];
  for (const line of [...FIXTURE_LINES, ...dressed]) {
    if (line.includes("\x1b") || line.includes("\r")) continue;
    assertEquals(normaliseLine(line, false), normaliseLine(line), JSON.stringify(line));
  }
});

Deno.test("the set of explained lines is built from the marks when asked for", () => {
  const read = readLines(["src/a.c:3:1: error: expected ';'", "", "progress note"]);
  assertEquals([...read.explained], [0, 1]);
  assertEquals([...read.marks], [1, 1, 0]);
});

Deno.test("decoded window by window: a byte-order mark goes only at the very start, characters cut between pieces join", () => {
  const enc = new TextEncoder();
  // Each window is about 64 characters here; the second starts with a line that begins with U+FEFF.
  const text = "\ufeff" + "a".repeat(70) + "\n" + "\ufeffé".repeat(40) + "\nlast line\n";
  const bytes = enc.encode(text);
  for (const size of [1, 3, 64, bytes.length]) {
    const s = new TriageScanner({ windowChars: 64 });
    for (let i = 0; i < bytes.length; i += size) s.pushBytes(bytes.subarray(i, i + size));
    const got = s.end();
    assertEquals(got.lines, 3);
    assertEquals(got.bytes, bytes.length);
    assertEquals(got.tail.map((l) => l.text), ["a".repeat(70), "\ufeffé".repeat(40), "last line"]);
  }
});

Deno.test("a line with no line feed is held up to a bound, then cut there, no character split", () => {
  const enc = new TextEncoder();
  // 2-byte characters, so a cut at an even byte count falls inside none; 9 MiB in all, no line feed.
  const piece = enc.encode("é".repeat(512 * 1024));
  const s = new TriageScanner();
  for (let i = 0; i < 9; i++) s.pushBytes(piece);
  const got = s.end();
  assertEquals(got.bytes, 9 * piece.length);
  // Cut at 4 MiB (the bound for the default window): 4 + 4 + 1 MiB.
  assertEquals(got.lines, 3);
  for (const l of got.tail) assert(!l.text.includes("\ufffd"), "a character was split");
  // And an odd cut: a 3-byte character across the bound is carried whole into the next line.
  const odd = new TriageScanner();
  const euro = enc.encode("€".repeat(2 * 1024 * 1024));
  odd.pushBytes(euro);
  const oddGot = odd.end();
  assertEquals(oddGot.bytes, euro.length);
  assertEquals(oddGot.lines, 2);
  // The second line starts with the whole character the bound fell inside.
  assert(oddGot.tail[1].text.startsWith("€€"), oddGot.tail[1].text.slice(0, 4));
});

Deno.test("bytes decoded in pieces read as the same text pushed whole: lines across pieces, long lines, characters cut", () => {
  // Lines of many lengths (one far longer than a piece), two- and three-byte characters, a CR, a failure
  // the readers must find, and lines no reader explains (so the chunks show every line's text).
  const rows: string[] = [];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 6000; i++) {
    const len = Math.floor(next() * 160);
    rows.push(`row ${i} ` + "é€x ".repeat(len).slice(0, len) + (i % 97 === 0 ? "\r" : ""));
    if (i === 3000) rows.push("y".repeat(150 * 1024));
    if (i === 4000) rows.push("src/ledger.c:12:3: error: balance is not declared");
  }
  const text = rows.join("\n") + "\n";
  const bytes = new TextEncoder().encode(text);
  const opts = { windowChars: 200 * 1024, maxChunks: 100_000 };
  const whole = new TriageScanner(opts);
  whole.pushText(text);
  const expected = whole.end();
  assertEquals(expected.findings.length, 1);
  for (const size of [4096, 65_537, 256 * 1024, bytes.length]) {
    const s = new TriageScanner(opts);
    for (let i = 0; i < bytes.length; i += size) s.pushBytes(bytes.subarray(i, i + size));
    assertEquals(s.end(), expected, `pushed ${size} bytes at a time`);
  }
});

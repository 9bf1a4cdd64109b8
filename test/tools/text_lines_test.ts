import { assert, assertEquals } from "../support/assert.ts";
import { type ByteReader, countBreaks, readPage, splitLines } from "../../src/tools/text_lines.ts";

const enc = new TextEncoder();

/** A reader over bytes that hands out at most `step` bytes a call, counting what it gave. */
function source(
  text: string | Uint8Array,
  step = 1 << 16,
): { read: ByteReader; given: () => number } {
  const bytes = typeof text === "string" ? enc.encode(text) : text;
  let at = 0;
  return {
    read: (buffer) => {
      if (at >= bytes.length) return null;
      const n = Math.min(step, buffer.length, bytes.length - at);
      buffer.set(bytes.subarray(at, at + n));
      at += n;
      return n;
    },
    given: () => at,
  };
}

Deno.test("splitLines: \\n, \\r\\n and lone \\r each end a line; a final break starts no line", () => {
  assertEquals(splitLines("a\nb\r\nc\rd"), [
    { text: "a", ending: "\n" },
    { text: "b", ending: "\r\n" },
    { text: "c", ending: "\r" },
    { text: "d", ending: "" },
  ]);
  assertEquals(splitLines("x\n"), [{ text: "x", ending: "\n" }]);
  assertEquals(splitLines(""), []);
  assertEquals(splitLines("\r\r\n\n"), [
    { text: "", ending: "\r" },
    { text: "", ending: "\r\n" },
    { text: "", ending: "\n" },
  ]);
  assertEquals(countBreaks("a\r\nb\rc\n"), 3);
});

const SAMPLES = [
  "one\ntwo\nthree\n",
  "one\r\ntwo\r\nthree",
  "one\rtwo\rthree\r",
  "mixed\r\nends\rhere\nand\r\n\r\nthere\r",
  "\n\n\n",
  "no break at all",
  "ünïcödé\r\n→ arrows ←\r日本語\n",
];

Deno.test("readPage: numbers lines exactly as splitLines, whatever the chunk boundaries", () => {
  for (const sample of SAMPLES) {
    const expected = splitLines(sample).map((l) => l.text);
    for (const chunk of [1, 2, 3, 5, 64]) {
      for (const step of [1, 2, 7, 1 << 16]) {
        const { read } = source(sample, step);
        const page = readPage(read, { offset: 1, limit: 1000, room: 10_000, chunkSize: chunk });
        assertEquals(
          page.lines.map((l) => l.text),
          expected,
          `${JSON.stringify(sample)} chunk ${chunk} step ${step}`,
        );
        assertEquals(page.lines.map((l) => l.number), expected.map((_, i) => i + 1));
        assertEquals(page.next, null);
      }
    }
  }
});

Deno.test("readPage: pages by offset and limit, and says where the next page starts", () => {
  const text = "a\r\nb\r\nc\r\nd\r\n";
  for (const chunk of [1, 2, 3, 4, 100]) {
    const p1 = readPage(source(text).read, { offset: 1, limit: 2, room: 1000, chunkSize: chunk });
    assertEquals(p1.lines.map((l) => l.text), ["a", "b"]);
    assertEquals(p1.next, 3);
    const p2 = readPage(source(text).read, { offset: 3, limit: 2, room: 1000, chunkSize: chunk });
    assertEquals(p2.lines.map((l) => [l.number, l.text]), [[3, "c"], [4, "d"]]);
    assertEquals(p2.next, null, `the \\n of the last \\r\\n is not another line (chunk ${chunk})`);
    const past = readPage(source(text).read, { offset: 9, limit: 2, room: 1000, chunkSize: chunk });
    assertEquals(past.lines, []);
    assertEquals(past.next, null);
  }
});

Deno.test("readPage: stops reading once the page is full (early stop)", () => {
  const line = "x".repeat(99) + "\n";
  const big = line.repeat(100_000); // 10 MB
  const src = source(big, 4096);
  const page = readPage(src.read, { offset: 1, limit: 10, room: 100_000, chunkSize: 4096 });
  assertEquals(page.lines.length, 10);
  assertEquals(page.next, 11);
  assert(src.given() <= 4096, `read ${src.given()} bytes for a 1 KB page`);
});

Deno.test("readPage: the page stays within its room and continues where it stopped", () => {
  const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1} ${"y".repeat(30)}`).join("\n") +
    "\n";
  const page = readPage(source(text).read, { offset: 1, limit: 1000, room: 200, chunkSize: 16 });
  const rendered = page.lines.map((l) => `${l.number}\t${l.text}\n`).join("");
  assert(enc.encode(rendered).length <= 200);
  assert(page.lines.length >= 4);
  assertEquals(page.next, page.lines.length + 1);
});

Deno.test("readPage: a line longer than the room is cut, its length counted, memory bounded", () => {
  const text = "z".repeat(1_000_000) + "\nafter\n";
  const page = readPage(source(text, 8192).read, {
    offset: 1,
    limit: 10,
    room: 500,
    chunkSize: 8192,
  });
  assertEquals(page.lines.length, 1);
  assert(page.lines[0].cut);
  assertEquals(page.lines[0].bytes, 1_000_000);
  assert(page.lines[0].text.length < 500);
  assertEquals(page.next, 2);
});

Deno.test("readPage: a NUL byte means binary", () => {
  const bytes = new Uint8Array([0x61, 0x0a, 0x00, 0x62]);
  assert(readPage(source(bytes).read, { offset: 1, limit: 10, room: 1000 }).binary);
  assert(!readPage(source("plain\n").read, { offset: 1, limit: 10, room: 1000 }).binary);
  // Past the first chunk: a NUL in a line shown is binary, one in a line only counted is not.
  const text = "a\n".repeat(100) + "b\0b\n" + "c\n".repeat(100);
  const shown = readPage(source(text).read, { offset: 95, limit: 10, room: 1000, chunkSize: 16 });
  assert(shown.binary);
  assertEquals(shown.lines, []);
  const skipped = readPage(source(text).read, { offset: 150, limit: 2, room: 1000, chunkSize: 16 });
  assert(!skipped.binary);
  assertEquals(skipped.lines.map((l) => l.text), ["c", "c"]);
  // A 1-byte first chunk holds only "x"; the NUL is then found in the line shown.
  assert(readPage(source("x\0").read, { offset: 1, limit: 10, room: 1000, chunkSize: 1 }).binary);
});

Deno.test("readPage: every offset, every chunk size, agrees with splitLines", () => {
  for (const sample of SAMPLES) {
    const all = splitLines(sample).map((l) => l.text);
    for (let offset = 1; offset <= all.length + 1; offset++) {
      for (const chunk of [1, 2, 3, 7]) {
        const page = readPage(source(sample).read, {
          offset,
          limit: 2,
          room: 10_000,
          chunkSize: chunk,
        });
        const label = `${JSON.stringify(sample)} offset ${offset} chunk ${chunk}`;
        assertEquals(page.lines.map((l) => l.text), all.slice(offset - 1, offset + 1), label);
        assertEquals(page.next, offset + 1 < all.length ? offset + 2 : null, label);
      }
    }
  }
});

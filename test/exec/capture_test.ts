import { assert, assertEquals } from "../support/assert.ts";
import { StreamCapture } from "../../src/exec/capture.ts";
import {
  splitTrailer,
  START_MARK,
  StartMarkReader,
  TRAILER_MAX_BYTES,
} from "../../src/exec/supervisor.ts";
import { countNewlines, OutputStore } from "../../src/audit/output_store.ts";
import { homePaths } from "../../src/config/home.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("a stream that fits is kept whole, with its line count", () => {
  const c = new StreamCapture(16, () => undefined);
  c.push(enc("ab\ncd"));
  c.push(enc("\nef"));
  const r = c.finish();
  assert(r.complete);
  assertEquals(dec(r.head), "ab\ncd\nef");
  assertEquals(r.lines, 3);
  assertEquals(r.bytes, 8);
});

Deno.test("past head and tail, the first bytes and the last are kept and the whole spills as it arrives", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = new OutputStore(homePaths(dir), "sess0001");
    let opened = 0;
    const c = new StreamCapture(8, () => {
      opened++;
      return store.create("spill");
    });
    const text = Array.from({ length: 100 }, (_, i) => `${i}\n`).join("");
    for (let i = 0; i < text.length; i += 7) c.push(enc(text.slice(i, i + 7)));
    const r = c.finish();
    assertEquals(opened, 1);
    assert(!r.complete);
    assertEquals(dec(r.head), text.slice(0, 8));
    assertEquals(dec(r.tail), text.slice(-8));
    assertEquals(r.lines, 100);
    assertEquals(Deno.readTextFileSync(r.spill!.path), text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the held-back end of stderr gives up the supervisor's trailer and nothing else", () => {
  const c = new StreamCapture(64, () => undefined, TRAILER_MAX_BYTES);
  const body = "error: x\n".repeat(5);
  // The longest trailer there is: it fits the bytes held back.
  for (const ch of body + "\x1ewisp-exit 143 timeout signal\n") c.push(enc(ch));
  let trailer: unknown;
  const r = c.finish((tail) => {
    const s = splitTrailer(tail);
    trailer = s.trailer;
    return s.rest;
  });
  assertEquals(dec(r.head), body);
  assertEquals(trailer, { status: 143, reason: "timeout", kind: "signal" });
});

Deno.test("a trailer that is not at the very end is the command's text", () => {
  const s = splitTrailer(enc("\x1ewisp-exit 0 - exit\nmore\n"));
  assertEquals(s.trailer, undefined);
  assertEquals(dec(s.rest), "\x1ewisp-exit 0 - exit\nmore\n");
});

Deno.test("line feeds are counted four bytes at a time, at any alignment", () => {
  const data = enc("y\n".repeat(1000) + "abc\ndef\n\n");
  for (let offset = 0; offset < 5; offset++) {
    const view = data.subarray(offset);
    let expected = 0;
    for (const b of view) if (b === 10) expected++;
    assertEquals(countNewlines(view), expected);
  }
});

Deno.test("the output store caps what it keeps and reads ranges and lines back", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = new OutputStore(homePaths(dir), "sess0002", 10);
    const w = store.create("abc");
    w.appendText("one\ntwo\nthree\n");
    const kept = w.close();
    assertEquals(kept, { id: "abc", lines: 3, truncated: true });
    assertEquals(dec(await store.readRange("abc", 4, 3)), "two");
    assertEquals(await store.readLines("abc", 2, 5), ["two", "th"]);
    assertEquals(Deno.statSync(store.pathOf("abc")).mode! & 0o777, 0o600);
    const whole = await store.keep("x\ny\n", {
      session: "sess0002",
      callId: "call1",
      tool: "read_file",
    });
    assertEquals(whole, { id: "call1", lines: 2 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the start mark is taken off stderr's front whichever way its bytes arrive, and only there", () => {
  const read = (chunks: string[]) => {
    let starts = 0;
    const reader = new StartMarkReader(() => starts++);
    let passed = "";
    for (const chunk of chunks) passed += dec(reader.take(enc(chunk)));
    passed += dec(reader.finish());
    return { passed, starts };
  };
  // Byte by byte, in one piece, with the command's output in the same chunk.
  assertEquals(read([...START_MARK, ..."err\n"]), { passed: "err\n", starts: 1 });
  assertEquals(read([START_MARK + "err\n"]), { passed: "err\n", starts: 1 });
  // Not at the front (a launcher's own error first): passed whole, no start.
  assertEquals(read(["bwrap: no\n", START_MARK]), {
    passed: "bwrap: no\n" + START_MARK,
    starts: 0,
  });
  // A stream that ends inside what could have been the mark keeps its bytes.
  assertEquals(read(["\x1ewisp-st"]), { passed: "\x1ewisp-st", starts: 0 });
  assertEquals(read([]), { passed: "", starts: 0 });
  // A second mark after the first is the command's output.
  assertEquals(read([START_MARK, START_MARK]), { passed: START_MARK, starts: 1 });
});

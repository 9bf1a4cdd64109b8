/**
 * The pure parts of the background process table: the poll buffers (newest
 * output kept, drops counted, no split characters, the supervisor's trailer
 * cut) and the lifetime rule.
 */
import { assertEquals } from "../support/assert.ts";
import { PollBuffer, resolveLifetime, TrailedBuffer } from "../../src/exec/background.ts";
import { TRAILER_MARK } from "../../src/exec/supervisor.ts";
import { renderTaken } from "../../src/tools/process.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("a poll buffer hands over what arrived since the last take, then nothing", () => {
  const buffer = new PollBuffer(100);
  buffer.push(enc("one\n"));
  buffer.push(enc("two\n"));
  const first = buffer.take();
  assertEquals(dec(first.bytes), "one\ntwo\n");
  assertEquals(first.arrived, 8);
  assertEquals(first.dropped, 0);
  const second = buffer.take();
  assertEquals(second.arrived, 0);
  assertEquals(second.bytes.length, 0);
  assertEquals(buffer.total, 8);
});

Deno.test("past its size it keeps the newest bytes and counts the dropped ones", () => {
  const buffer = new PollBuffer(10);
  buffer.push(enc("0123456789"));
  buffer.push(enc("abcde"));
  buffer.push(enc("x".repeat(30) + "END"));
  const taken = buffer.take();
  assertEquals(dec(taken.bytes), "xxxxxxxEND");
  assertEquals(taken.arrived, 48);
  assertEquals(taken.dropped, 38);
});

Deno.test("a take smaller than what is held keeps the newest, never starting inside a character", () => {
  const buffer = new PollBuffer(100);
  buffer.push(enc("aé€z"));
  const taken = buffer.take(4);
  // "€z" is 4 bytes; one byte more would start inside "é".
  assertEquals(dec(taken.bytes), "€z");
  assertEquals(taken.dropped, 3);
});

Deno.test("a chunk copied on push: the runner may reuse its buffer", () => {
  const buffer = new PollBuffer(100);
  const chunk = enc("abc");
  buffer.push(chunk);
  chunk.set(enc("xyz"));
  assertEquals(dec(buffer.take().bytes), "abc");
});

Deno.test("stderr's buffer cuts the supervisor's trailer at the end, in whatever chunks it came", () => {
  const inner = new PollBuffer(1000);
  const trailed = new TrailedBuffer(inner);
  const whole = `warning: x\n${TRAILER_MARK}0 - exit\n`;
  let seen = "";
  for (const c of whole) {
    trailed.push(enc(c));
    seen += dec(inner.take().bytes);
  }
  trailed.end();
  seen += dec(inner.take().bytes);
  assertEquals(seen, "warning: x\n");
  assertEquals(inner.total, "warning: x\n".length);
});

Deno.test("a lookalike trailer in the middle of stderr is output, not the trailer", () => {
  const inner = new PollBuffer(1000);
  const trailed = new TrailedBuffer(inner);
  trailed.push(enc(`${TRAILER_MARK}0 - exit\nmore\n`));
  trailed.end();
  assertEquals(dec(inner.take().bytes), `${TRAILER_MARK}0 - exit\nmore\n`);
});

Deno.test("the lifetime: the default, the asked, the operator's cap, and a ceiling without one", () => {
  assertEquals(resolveLifetime(undefined, 3600), { seconds: 1800, clamped: false });
  assertEquals(resolveLifetime(60, 3600), { seconds: 60, clamped: false });
  assertEquals(resolveLifetime(7200, 3600), { seconds: 3600, clamped: true });
  assertEquals(resolveLifetime(undefined, 10), { seconds: 10, clamped: true });
  assertEquals(resolveLifetime(10 ** 9, 0), { seconds: 4 * 3600, clamped: true });
});

Deno.test("a stream's part of a poll says what arrived and what was dropped", () => {
  assertEquals(
    renderTaken("stdout", { bytes: new Uint8Array(), arrived: 0, dropped: 0 }),
    "stdout: nothing new",
  );
  assertEquals(
    renderTaken("stdout", { bytes: enc("hi\n"), arrived: 3, dropped: 0 }),
    "stdout: 3 bytes new\nhi",
  );
  assertEquals(
    renderTaken("stderr", { bytes: enc("end"), arrived: 5000, dropped: 4997 }),
    "stderr: 5 KiB new, the first 4,997 bytes dropped (only the newest are kept between polls)\nend",
  );
});

import { assertEquals, assertThrows } from "../support/assert.ts";
import { sseEvents, SseParser, SseTooLarge } from "../../src/models/sse.ts";

function parseAll(parts: string[]): { event: string; data: string; id?: string }[] {
  const parser = new SseParser();
  const events = parts.flatMap((p) => parser.push(p));
  return [...events, ...parser.end()];
}

Deno.test("sse: data lines, events, ids and comments", () => {
  const text =
    ': keep-alive\n\ndata: one\n\nevent: error\ndata: {"a":1}\nid: 7\n\ndata:two\ndata:  three\n\n';
  assertEquals(parseAll([text]), [
    { event: "message", data: "one" },
    { event: "error", data: '{"a":1}', id: "7" },
    { event: "message", data: "two\n three", id: "7" },
  ]);
});

Deno.test("sse: \\n, \\r\\n and lone \\r end lines alike", () => {
  for (const eol of ["\n", "\r\n", "\r"]) {
    assertEquals(parseAll([`data: a${eol}${eol}data: b${eol}${eol}`]), [
      { event: "message", data: "a" },
      { event: "message", data: "b" },
    ], JSON.stringify(eol));
  }
});

Deno.test("sse: a \\r\\n split between reads is one line end, not two", () => {
  // Were the \n taken for a second line end, the blank line would dispatch "a" early and "b" alone.
  assertEquals(parseAll(["data: a\r", "\ndata: b\r\n\r\n"]), [{ event: "message", data: "a\nb" }]);
});

Deno.test("sse: every way of splitting a stream gives the same events", () => {
  const text = 'data: {"x":"é🌍"}\r\n\r\nevent: e\rdata: 2\r\rdata: [DONE]\n\n';
  const whole = parseAll([text]);
  assertEquals(whole.length, 3);
  for (let a = 0; a <= text.length; a++) {
    for (let b = a; b <= text.length; b += 3) {
      assertEquals(
        parseAll([text.slice(0, a), text.slice(a, b), text.slice(b)]),
        whole,
        `split at ${a},${b}`,
      );
    }
  }
});

Deno.test("sse: an event without its blank line at the end is dropped", () => {
  assertEquals(parseAll(["data: a\n\ndata: partial"]), [{ event: "message", data: "a" }]);
});

Deno.test("sse: an event past the bound fails closed", () => {
  const parser = new SseParser(100);
  assertThrows(() => parser.push("data: " + "x".repeat(200)), SseTooLarge);
  const lines = new SseParser(100);
  assertThrows(() => {
    for (let i = 0; i < 30; i++) lines.push("data: xxxxx\n");
  }, SseTooLarge);
});

Deno.test("sse: bytes split inside a UTF-8 character decode whole", async () => {
  const bytes = new TextEncoder().encode("data: héllo 🌍\n\ndata: end\n\n");
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 1) controller.enqueue(bytes.slice(i, i + 1));
      controller.close();
    },
  });
  const events = [];
  for await (const event of sseEvents(body)) events.push(event.data);
  assertEquals(events, ["héllo 🌍", "end"]);
});

Deno.test("readTextBounded: stops at the bound and releases the body", async () => {
  const { readTextBounded } = await import("../../src/models/http.ts");
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new TextEncoder().encode("x".repeat(1000)));
    },
  });
  const text = await readTextBounded(body, 2500);
  assertEquals(text.length, 2500);
  assertEquals(pulled <= 5, true);
});

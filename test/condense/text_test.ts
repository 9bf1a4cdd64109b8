import { assertEquals } from "../support/assert.ts";
import { stripAnsi } from "../../src/condense/text.ts";
import { outputLines } from "../../src/condense/normalise.ts";

Deno.test("stripAnsi: colours, cursor moves, OSC hyperlinks and titles", () => {
  assertEquals(stripAnsi("\x1b[1m\x1b[31merror\x1b[0m: x"), "error: x");
  assertEquals(stripAnsi("\x1b[2K\x1b[1Gdone"), "done");
  assertEquals(stripAnsi("\x1b]8;;file:///a.c\x07a.c\x1b]8;;\x07:1:2"), "a.c:1:2");
  assertEquals(stripAnsi("\x1b]0;title\x1b\\text"), "text");
  assertEquals(stripAnsi("plain"), "plain");
});

Deno.test("outputLines: CRLF ends, progress lines keep their last state, no empty last line", () => {
  assertEquals(outputLines("a\r\nb\r\n"), ["a", "b"]);
  assertEquals(outputLines("[1/3] x\r[2/3] y\r[3/3] z\nnext\n"), ["[3/3] z", "next"]);
  assertEquals(outputLines("\x1b[32mok\x1b[0m\n\nend"), ["ok", "", "end"]);
});

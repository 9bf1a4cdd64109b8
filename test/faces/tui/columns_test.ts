/**
 * Text in terminal columns: wide characters count two, escapes none; cutting
 * ends in `…` and never splits a wide character; tabs go to stops of eight;
 * a tool's escapes and control characters are dropped before drawing.
 */
import { assertEquals } from "../../support/assert.ts";
import {
  columns,
  cutToColumns,
  expandTabs,
  padToColumns,
  withoutControls,
} from "../../../src/faces/tui/columns.ts";

Deno.test("columns: wide characters two, escapes none", () => {
  assertEquals(columns("abc"), 3);
  assertEquals(columns("漢字"), 4);
  assertEquals(columns("\x1b[38;2;1;2;3mab\x1b[0m"), 2);
  assertEquals(columns("↓4,009 ↑79"), 10);
});

Deno.test("cut: fits as it is, else ends in … within the width, a wide character going whole", () => {
  assertEquals(cutToColumns("hello", 5), "hello");
  assertEquals(cutToColumns("hello", 4), "hel…");
  assertEquals(cutToColumns("hello", 1), "…");
  assertEquals(cutToColumns("hello", 0), "");
  assertEquals(cutToColumns("漢字漢字", 6), "漢字…");
  assertEquals(cutToColumns("漢字漢字", 5), "漢字…");
  assertEquals(cutToColumns("漢字漢字", 4), "漢…");
  // A letter with a combining mark is one grapheme, kept or cut whole.
  assertEquals(cutToColumns("e\u0301e\u0301e\u0301", 2), "e\u0301…");
  assertEquals(padToColumns("ab", 4), "ab  ");
  assertEquals(padToColumns("abcdef", 4), "abc…");
  assertEquals(padToColumns("漢字漢", 5), "漢字…");
});

Deno.test("tabs: to the next stop of eight, counting wide characters as two", () => {
  assertEquals(expandTabs("a\tb"), "a       b");
  assertEquals(expandTabs("\tx"), "        x");
  assertEquals(expandTabs("12345678\tx"), "12345678        x");
  assertEquals(expandTabs("漢\tx"), "漢      x");
  assertEquals(expandTabs("a\tb", 4), "a   b");
  assertEquals(expandTabs("none"), "none");
});

Deno.test("controls: colour codes, titles, carriage returns and bells go; tabs and text stay", () => {
  assertEquals(withoutControls("\x1b[1;31mred\x1b[0m"), "red");
  assertEquals(withoutControls("\x1b]0;title\x07after"), "after");
  assertEquals(withoutControls("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"), "link");
  assertEquals(withoutControls("50%\r100%\x07"), "50%100%");
  assertEquals(withoutControls("a\tb 漢"), "a\tb 漢");
  assertEquals(withoutControls("\x1bc reset"), " reset");
});

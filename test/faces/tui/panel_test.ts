/**
 * wisp-tui's panel: scrolling by row and page, closing, asking the engine for
 * the next page of an output and finishing the scroll when it comes, and the
 * rows it draws (the border, the keys, lines cut and never wider than the
 * terminal).
 */
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import type { ViewLine } from "../../../src/faces/chat/protocol.ts";
import type { Key } from "../../../src/faces/tui/key.ts";
import { paint } from "../../../src/faces/tui/palette.ts";
import { columns } from "../../../src/faces/tui/columns.ts";
import { Panel, PANEL_ROWS } from "../../../src/faces/tui/panel.ts";

const PLAIN = paint(false);
const CTRL_O: Key = { kind: "key", name: "o", ctrl: true };
const key = (name: string): Key => ({ kind: "key", name });

/** `count` numbered lines, `line 1` to `line N`, each ending in a newline. */
function numbered(from: number, count: number): string {
  return Array.from({ length: count }, (_, i) => `line ${from + i}\n`).join("");
}

function textView(text: string, over: Partial<ViewLine> = {}): ViewLine {
  return { type: "view", id: "context", kind: "text", title: "context", text, ...over };
}

function outputView(text: string, page: number, pages: number): ViewLine {
  return { type: "view", id: "8a7b6c5d", kind: "output", title: "8a7b6c5d", text, page, pages };
}

/** The text rows of a render (without the two borders), trimmed. */
function body(panel: Panel, width = 40): string[] {
  return panel.render(width, PLAIN).slice(1, -1).map((row) => row.slice(2, -2).trimEnd());
}

Deno.test("panel: Up and Down scroll a row, PageUp and PageDown a page, stopping at either end", () => {
  const panel = new Panel(textView(numbered(1, 40)), CTRL_O);
  assertEquals(body(panel)[0], "line 1");
  assertEquals(body(panel).length, PANEL_ROWS);
  assertEquals(panel.key(key("up")), "ignored");
  assertEquals(panel.key(key("pageup")), "ignored");
  assertEquals(panel.key(key("down")), "scrolled");
  assertEquals(body(panel)[0], "line 2");
  assertEquals(panel.key(key("pagedown")), "scrolled");
  assertEquals(body(panel)[0], "line 18");
  // The last page stops with the last line at the bottom.
  assertEquals(panel.key(key("pagedown")), "scrolled");
  assertEquals(body(panel)[0], "line 25");
  assertEquals(body(panel).at(-1), "line 40");
  assertEquals(panel.key(key("pagedown")), "ignored");
  assertEquals(panel.key(key("down")), "ignored");
  assertEquals(panel.key(key("up")), "scrolled");
  assertEquals(body(panel)[0], "line 24");
  assertEquals(panel.key(key("pageup")), "scrolled");
  assertEquals(body(panel)[0], "line 8");
  assertEquals(panel.key(key("pageup")), "scrolled");
  assertEquals(body(panel)[0], "line 1");
});

Deno.test("panel: Esc or the key that opened it closes it; other keys are ignored", () => {
  const panel = new Panel(textView("one\ntwo\n"), CTRL_O);
  assertEquals(panel.key(key("escape")), "closed");
  assertEquals(panel.key(CTRL_O), "closed");
  // Plain o, or Alt-O, is not the opener.
  assertEquals(panel.key({ kind: "text", text: "o" }), "ignored");
  assertEquals(panel.key({ kind: "key", name: "o", alt: true }), "ignored");
  assertEquals(panel.key(key("enter")), "ignored");
  assertEquals(panel.key({ kind: "key", name: "c", ctrl: true }), "ignored");
  // A Down with Ctrl is not Down.
  assertEquals(panel.key({ kind: "key", name: "down", ctrl: true }), "ignored");
  // Another opener closes its own panel.
  const other = new Panel(textView("x"), { kind: "key", name: "t", ctrl: true });
  assertEquals(other.key({ kind: "key", name: "t", ctrl: true }), "closed");
  assertEquals(other.key(CTRL_O), "ignored");
});

Deno.test("panel: scrolling past the pages held asks for the next page once, and the scroll finishes when it comes", () => {
  const panel = new Panel(outputView(numbered(1, 20), 1, 3), CTRL_O);
  assert(panel.morePages);
  assertEquals(panel.key(key("down")), "scrolled");
  assertEquals(panel.key(key("pagedown")), { kind: "request-page", page: 2 });
  // It moved as far as it could, and asks only once while the page is on its way.
  assertEquals(body(panel)[0], "line 5");
  assertEquals(panel.key(key("down")), "ignored");
  // A page other than the next, or of another view, is not added.
  panel.addPage(outputView(numbered(500, 5), 3, 3));
  panel.addPage({ ...outputView(numbered(900, 5), 2, 3), id: "other" });
  assertEquals(panel.lineCount, 20);
  // The page comes: the owed row is scrolled.
  panel.addPage(outputView(numbered(21, 20), 2, 3));
  assertEquals(panel.lineCount, 40);
  assertEquals(body(panel)[0], "line 6");
  // On to the third, the last.
  assertEquals(panel.key(key("pagedown")), "scrolled");
  assertEquals(panel.key(key("pagedown")), { kind: "request-page", page: 3 });
  panel.addPage(outputView(numbered(41, 3), 3, 3));
  assert(!panel.morePages);
  assertEquals(body(panel).at(-1), "line 43");
  assertEquals(panel.key(key("pagedown")), "ignored");
  assertEquals(panel.key(key("down")), "ignored");
});

Deno.test("panel: a page that ends in the middle of a line is joined to the next", () => {
  const panel = new Panel(outputView("first line\nsecond li", 1, 2), CTRL_O);
  assertEquals(body(panel).slice(0, 2), ["first line", "second li"]);
  panel.addPage(outputView("ne\nthird line\n", 2, 2));
  assertEquals(body(panel), ["first line", "second line", "third line"]);
});

Deno.test("panel: long lines are cut with …, tabs expanded, controls dropped, every row exactly the width", () => {
  const text = [
    "a".repeat(100),
    "name\tsize\tkind",
    "x\ty",
    "\x1b[31mred\x1b[0m and a\rreturn",
    "漢字".repeat(30),
    "",
  ].join("\n");
  const panel = new Panel(textView(text), CTRL_O);
  for (const width of [80, 41, 40, 20, 9, 6]) {
    const rows = panel.render(width, PLAIN);
    for (const row of rows) {
      assertEquals(columns(row), width, `width ${width}: ${JSON.stringify(row)}`);
    }
  }
  const rows = body(panel, 40);
  assertEquals(rows[0], `${"a".repeat(35)}…`);
  assertEquals(rows[1], "name    size    kind");
  assertEquals(rows[2], "x       y");
  assertEquals(rows[3], "red and areturn");
  // A wide character that would straddle the edge goes whole.
  assertEquals(columns(rows[4]), 35);
  assertMatch(rows[4], /^(漢字)+漢…$/);
  // Too narrow for any border: nothing rather than a broken frame.
  assertEquals(panel.render(5, PLAIN), []);
});

Deno.test("panel: the border is rounded, titled, says where the view is, and names the keys", () => {
  const panel = new Panel(outputView(numbered(1, 30), 1, 2), CTRL_O);
  const rows = panel.render(60, PLAIN);
  assertEquals(rows.length, PANEL_ROWS + 2);
  assertMatch(rows[0], /^╭─ 8a7b6c5d ─+ 1–16 of 30\+ ─╮$/);
  assertMatch(rows.at(-1)!, /^╰─ ↑↓ row · PgUp\/PgDn page · Esc closes ─+╯$/);
  for (const row of rows.slice(1, -1)) assertMatch(row, /^│ .* │$/);
  panel.key(key("pagedown"));
  assertMatch(panel.render(60, PLAIN)[0], / 15–30 of 30\+ ─╮$/);
  // A view that fits: as many rows as it has, no position.
  const small = new Panel(textView("one\ntwo\nthree\n"), CTRL_O);
  const smallRows = small.render(30, PLAIN);
  assertEquals(smallRows.length, 5);
  assertMatch(smallRows[0], /^╭─ context ─+╮$/);
  // Narrow: the keys are cut, the title gives way before the position.
  const narrow = panel.render(20, PLAIN);
  assertEquals(narrow.at(-1), "╰─ ↑↓ row · PgUp… ─╯");
  assertEquals(narrow[0], "╭─── 15–30 of 30+ ─╮");
  // Empty text says so.
  assertMatch(new Panel(textView(""), CTRL_O).render(30, PLAIN)[1], /^│ \(empty\) +│$/);
});

Deno.test("panel: fewer rows when the terminal has fewer; colour only when on", () => {
  const panel = new Panel(textView(numbered(1, 40)), CTRL_O, { rows: 5 });
  assertEquals(panel.render(30, PLAIN).length, 7);
  assertEquals(panel.key(key("pagedown")), "scrolled");
  assertEquals(body(panel, 30)[0], "line 6");
  const coloured = panel.render(30, paint(true));
  assert(coloured.every((row) => row.includes("\x1b[")));
  for (const row of coloured) assertEquals(columns(row), 30);
  assert(panel.render(30, PLAIN).every((row) => !row.includes("\x1b")));
});

/**
 * Markdown replies as terminal lines: every construct rendered as styled
 * text (checked as plain text with colour off, and for its styles with
 * colour on), widths down to 20 columns measured as a terminal does, and a
 * reply streamed in pieces printing exactly what the whole text renders to,
 * split at every offset.
 */
import stringWidth from "string-width";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { MarkdownStream, renderMarkdown } from "../../../src/faces/tui/markdown.ts";
import { paint } from "../../../src/faces/tui/palette.ts";

const PLAIN = paint(false);
const COLOUR = paint(true);
const ESC = "\x1b";

/** Plain-text lines at `width`. */
const plain = (source: string, width = 60) => renderMarkdown(source, width, PLAIN);

/** The text of a coloured line without its escape sequences. */
// deno-lint-ignore no-control-regex
const strip = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, "");

// ---------------------------------------------------------------------------
// Blocks and inline styles, colour off

Deno.test("markdown: headings lose their # marks, setext headings too", () => {
  assertEquals(plain("# One\n## Two ##\n###### Six"), ["One", "", "Two", "", "Six"]);
  assertEquals(plain("Big\n===\n\nSmaller\n---"), ["Big", "", "Smaller"]);
  assertEquals(plain("#hashtag is text"), ["#hashtag is text"]);
});

Deno.test("markdown: a paragraph's lines join and wrap at the width, a hard break kept", () => {
  assertEquals(
    plain("one two three\nfour five six seven eight", 20),
    ["one two three four", "five six seven eight"],
  );
  assertEquals(plain("first line  \nsecond\\\nthird"), ["first line", "second", "third"]);
  assertEquals(plain("a\n\n\n\nb"), ["a", "", "b"]);
});

Deno.test("markdown: emphasis, strike, code spans, links and escapes as text without marks", () => {
  assertEquals(
    plain("*it* _it_ **bold** __bold__ ***both*** ~~gone~~ `a * b` \\*kept\\*"),
    ["it it bold bold both gone a * b *kept*"],
  );
  assertEquals(plain("see [the docs](https://x.dev/a_(b)) now"), [
    "see the docs (https://x.dev/a_(b)) now",
  ]);
  assertEquals(plain("<https://x.dev> and https://y.dev/p."), [
    "https://x.dev and https://y.dev/p.",
  ]);
  assertEquals(plain("[https://x.dev](https://x.dev)"), ["https://x.dev"]);
  assertEquals(plain("![a cat](cat.png)"), ["a cat (cat.png)"]);
});

Deno.test("markdown: marks without a partner, intraword underscores and arithmetic stay as typed", () => {
  assertEquals(plain("snake_case_name and 2 * 3 * 4 and **open"), [
    "snake_case_name and 2 * 3 * 4 and **open",
  ]);
  assertEquals(plain("a [bracket] and `unclosed"), ["a [bracket] and `unclosed"]);
  assertEquals(plain('<div class="x">html</div> & <b>b</b>'), [
    '<div class="x">html</div> & <b>b</b>',
  ]);
  assertEquals(plain("<details>\n<summary>More</summary>\n</details>"), [
    "<details> <summary>More</summary> </details>",
  ]);
});

Deno.test("markdown: bullet lists use • and nest; ordered lists keep their numbers, aligned", () => {
  assertEquals(plain("- a\n* b\n  - nested\n    + deeper\n+ c"), [
    "• a",
    "• b",
    "  • nested",
    "    • deeper",
    "• c",
  ]);
  assertEquals(plain("3. three\n4. four"), ["3. three", "4. four"]);
  assertEquals(plain("9. nine\n10. ten"), [" 9. nine", "10. ten"]);
  assertEquals(plain("1) paren"), ["1) paren"]);
});

Deno.test("markdown: task items as ☐ and ☑", () => {
  assertEquals(plain("- [ ] open\n- [x] done\n- [X] also\n1. [ ] numbered"), [
    "☐ open",
    "☑ done",
    "☑ also",
    "1. ☐ numbered",
  ]);
});

Deno.test("markdown: a wrapped list item indents under its text", () => {
  assertEquals(plain("- one two three four five six\n12. alpha beta gamma delta", 20), [
    "• one two three four",
    "  five six",
    "12. alpha beta gamma",
    "    delta",
  ]);
});

Deno.test("markdown: a loose list keeps its blank lines and its items' code and paragraphs", () => {
  const source = [
    "1. Install it:",
    "",
    "   ```sh",
    "   deno install",
    "   ```",
    "",
    "2. Run it.",
    "   It prints a line.",
    "",
    "   A second paragraph.",
    "",
    "After the list.",
  ].join("\n");
  assertEquals(plain(source), [
    "1. Install it:",
    "",
    "     sh",
    "     deno install",
    "",
    "2. Run it. It prints a line.",
    "",
    "   A second paragraph.",
    "",
    "After the list.",
  ]);
});

Deno.test("markdown: a list ends at a line that is not part of it; lazy text continues an item", () => {
  assertEquals(plain("- a\nlazy text\n# Head\n- b\n\nafter"), [
    "• a lazy text",
    "",
    "Head",
    "",
    "• b",
    "",
    "after",
  ]);
  assertEquals(plain("Steps:\n- one\n- two"), ["Steps:", "", "• one", "• two"]);
});

Deno.test("markdown: block quotes get a │ gutter, nest, and take lazy lines", () => {
  assertEquals(plain("> quoted **text**\n> more\nlazy\n>\n> > inner\n\nout"), [
    "│ quoted text more lazy",
    "│",
    "│ │ inner",
    "",
    "out",
  ]);
  assertEquals(plain("> - a list\n> - in a quote"), ["│ • a list", "│ • in a quote"]);
});

Deno.test("markdown: a thematic break is a rule across the width", () => {
  assertEquals(plain("a\n\n---\n\n* * *\n\n___\n\nb", 20), [
    "a",
    "",
    "─".repeat(20),
    "",
    "─".repeat(20),
    "",
    "─".repeat(20),
    "",
    "b",
  ]);
});

Deno.test("markdown: fenced code is kept verbatim two columns in, the language above it", () => {
  const source = "```ts\nconst  x = 1;   \n\n  if (x) {}\n```\n\n~~~\nplain ~~~ fence\n~~~";
  assertEquals(plain(source), [
    "  ts",
    "  const  x = 1;",
    "",
    "    if (x) {}",
    "",
    "  plain ~~~ fence",
  ]);
  // No emphasis, links or escapes inside code.
  assertEquals(plain("```\n**not bold** [x](y) \\*\n```"), ["  **not bold** [x](y) \\*"]);
  // A longer fence needs a closing fence as long; a shorter one is content.
  assertEquals(plain("````md\n```\ninner\n```\n````"), ["  md", "  ```", "  inner", "  ```"]);
  // An unclosed fence runs to the end.
  assertEquals(plain("```\nopen\n\nstill code"), ["  open", "", "  still code"]);
});

Deno.test("markdown: code lines wider than the width are cut with …, never wrapped", () => {
  const lines = plain("```\n" + "x".repeat(40) + "\nshort\n```", 20);
  assertEquals(lines, ["  " + "x".repeat(17) + "…", "  short"]);
});

Deno.test("markdown: indented code blocks, with blank lines inside", () => {
  assertEquals(plain("text\n\n    code one\n\n      code two\n\nafter"), [
    "text",
    "",
    "  code one",
    "",
    "    code two",
    "",
    "after",
  ]);
  // A paragraph's indented next line continues it rather than starting code.
  assertEquals(plain("text\n    more text"), ["text more text"]);
});

Deno.test("markdown: tabs expand to stops of four", () => {
  assertEquals(plain("```\n\tone\n\t\ttwo\n```"), ["      one", "          two"]);
});

Deno.test("markdown: a table sizes its columns to content with a header rule and alignment", () => {
  const source = [
    "| Name | Size | Note |",
    "|:-----|-----:|:----:|",
    "| a | 1 | x |",
    "| longer | 12345 | mid |",
  ].join("\n");
  assertEquals(plain(source), [
    "Name   │  Size │ Note",
    "───────┼───────┼─────",
    "a      │     1 │  x",
    "longer │ 12345 │ mid",
  ]);
  // No outer pipes, escaped pipes, pipes in code, missing and extra cells.
  assertEquals(plain("a | b\n--- | ---\n1 \\| 2 | `x|y`\nonly |\n3 | 4 | 5"), [
    "a     │ b",
    "──────┼────",
    "1 | 2 │ x|y",
    "only  │",
    "3     │ 4",
  ]);
});

Deno.test("markdown: a table too wide wraps its widest cells to fit", () => {
  const source = [
    "| Option | What it does |",
    "| --- | --- |",
    "| --plain | keeps the line-based chat instead of the terminal front end |",
  ].join("\n");
  const lines = plain(source, 30);
  for (const line of lines) assert(stringWidth(line) <= 30, `too wide: ${line}`);
  assertEquals(lines, [
    "Option  │ What it does",
    "────────┼─────────────────────",
    "--plain │ keeps the line-based",
    "        │ chat instead of the",
    "        │ terminal front end",
  ]);
});

Deno.test("markdown: a table that cannot fit even at one column a cell is cut with …", () => {
  const header = "|" + "abcdefghij".split("").join("|") + "|";
  const rule = "|" + "-|".repeat(10);
  const lines = plain(`${header}\n${rule}\n${header}`, 20);
  assertEquals(lines.length, 3);
  for (const line of lines) {
    assertEquals(stringWidth(line), 20);
    assert(line.endsWith("…"), line);
  }
});

Deno.test("markdown: a line of pipes without a delimiter row is a paragraph", () => {
  assertEquals(plain("a | b\nc | d"), ["a | b c | d"]);
});

Deno.test("markdown: a table interrupts a paragraph and ends at a line without a pipe", () => {
  assertEquals(plain("Here:\n| a |\n| - |\n| 1 |\nafter"), [
    "Here:",
    "",
    "a",
    "─",
    "1",
    "",
    "after",
  ]);
});

// ---------------------------------------------------------------------------
// Width

Deno.test("markdown: wide characters count two columns when wrapping", () => {
  const lines = plain("日本語の文章はここで折り返されます", 20);
  assertEquals(lines, ["日本語の文章はここで", "折り返されます"]);
  assertEquals(plain("emoji 🎉🎉🎉 party", 10), ["emoji", "🎉🎉🎉", "party"]);
});

Deno.test("markdown: a table with wide characters lines its columns up by display width", () => {
  const lines = plain("| 名前 | x |\n| --- | --- |\n| 東京都 | 1 |");
  assertEquals(lines, ["名前   │ x", "───────┼──", "東京都 │ 1"]);
});

Deno.test("markdown: a word wider than the width is broken between characters", () => {
  assertEquals(plain("see https://example.com/a/very/long/path/indeed ok", 20), [
    "see",
    "https://example.com/",
    "a/very/long/path/ind",
    "eed ok",
  ]);
});

const SAMPLES = [
  "# Plan\n\nWe will **change** three files:\n\n1. `src/a.ts` — add the parser\n2. `src/b.ts`\n   - call it\n   - [x] test it\n\n```ts\nexport const x = 1;\n```\n\nDone.",
  "Sure! Here's a table:\n\n| Model | Size | Context |\n|:--|--:|:-:|\n| granite | 8b | 128k |\n| qwen3 | 30b-a3b | 256k |\n\n> **Note:** sizes are approximate and the\n> context is what the model advertises.\n\n---\n\nAnything else?",
  "Use `deno test -A`.\n\n    indented code\n    more\n\n* one\n* two with a [link](https://example.com/docs/some/page) inside\n\n  continued paragraph\n* three\n\n日本語のテキストも正しく折り返されるべきです。絵文字🎉も。\n\n~~~\nno lang\n~~~\nend\nSetext\n---",
  "## Heading with `code` and *style*\n\nA paragraph with a hard break  \nand ~~old~~ new text, escapes \\_x\\_, and <span>html</span>.\n\n- [ ] todo\n- [x] done\n\n10. ten\n11. eleven\n\n>quote\n>> nested quote\n\n| a |\n|---|\n| only column |",
];

Deno.test("markdown: at widths from 20 to 80 no line is wider than the width", () => {
  for (const sample of SAMPLES) {
    for (const width of [20, 21, 27, 33, 40, 57, 80]) {
      for (const line of renderMarkdown(sample, width, COLOUR)) {
        assert(stringWidth(line) <= width, `${width}: ${JSON.stringify(strip(line))}`);
      }
    }
  }
});

// ---------------------------------------------------------------------------
// Colour

Deno.test("markdown: colour off writes no escape byte at all", () => {
  for (const sample of SAMPLES) {
    for (const line of renderMarkdown(sample, 30, PLAIN)) assert(!line.includes(ESC), line);
  }
});

Deno.test("markdown: colour on styles without changing the text", () => {
  for (const sample of SAMPLES) {
    for (const width of [20, 45]) {
      assertEquals(
        renderMarkdown(sample, width, COLOUR).map(strip),
        renderMarkdown(sample, width, PLAIN),
      );
    }
  }
});

Deno.test("markdown: the styles each construct gets with colour on", () => {
  const bright = "38;2;127;224;214";
  const quiet = "38;2;110;152;150";
  const one = (source: string) => renderMarkdown(source, 60, COLOUR).join("\n");
  assertEquals(one("# H"), `${ESC}[1m${ESC}[${bright}mH${ESC}[0m${ESC}[0m`);
  assertStringIncludes(one("### H"), `${ESC}[1m`);
  assert(!one("### H").includes(bright), "level 3 is bold only");
  assertStringIncludes(one("**b**"), `${ESC}[1m`);
  assertStringIncludes(one("*i*"), `${ESC}[3m`);
  assertStringIncludes(one("~~s~~"), `${ESC}[9m`);
  assertStringIncludes(one("~~s~~"), `${ESC}[2m`);
  assertStringIncludes(one("`c`"), `${ESC}[${bright}mc`);
  assertStringIncludes(one("[t](https://u)"), `${ESC}[4m${ESC}[${quiet}mhttps://u`);
  assertStringIncludes(one("> q"), `${ESC}[${quiet}m│ ${ESC}[0m`);
  assertStringIncludes(one("---"), `${ESC}[${quiet}m───`);
  assertStringIncludes(one("```\ncode\n```"), `${ESC}[${quiet}mcode`);
  assertStringIncludes(one("```py\ncode\n```"), `${ESC}[2m${ESC}[${quiet}mpy`);
  assertStringIncludes(one("- x"), `${ESC}[${quiet}m•`);
});

Deno.test("markdown: control characters in a reply are shown as symbols, never sent to the terminal", () => {
  const lines = renderMarkdown("evil \x1b[2J clear \x9b1m\n\n```\n\x07bell\x7f\n```", 40, PLAIN);
  assertEquals(lines, ["evil ␛[2J clear �1m", "", "  ␇bell␡"]);
});

// ---------------------------------------------------------------------------
// Streaming

/** Everything a stream prints for `pieces`, at `width`. */
function streamed(pieces: string[], width: number, colour = PLAIN): string[] {
  const stream = new MarkdownStream(width, colour);
  const out: string[] = [];
  for (const piece of pieces) out.push(...stream.push(piece));
  out.push(...stream.end());
  return out;
}

Deno.test("markdown stream: split in two at every offset, the lines are the whole text's", () => {
  for (const sample of SAMPLES) {
    for (const width of [20, 44]) {
      const whole = renderMarkdown(sample, width, COLOUR);
      for (let at = 0; at <= sample.length; at++) {
        const got = streamed([sample.slice(0, at), sample.slice(at)], width, COLOUR);
        assertEquals(got, whole, `split at ${at} of ${JSON.stringify(sample.slice(0, 40))}`);
      }
    }
  }
});

Deno.test("markdown stream: a character at a time, and in random pieces, the lines are the whole text's", () => {
  // A fixed-seed generator keeps any failure repeatable.
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const extra = [
    "a\r\nb\r\n\r\n- x\r\n- y\r\n",
    "text\n```\ncode\n",
    "- a\n\n\n\n- b\n\n\n",
    "| a | b |\n|---|---|\n| 1 | 2 |\n\n\n",
    "\n\n\n# start\n\n\n",
  ];
  for (const sample of [...SAMPLES, ...extra]) {
    const whole = renderMarkdown(sample, 30, PLAIN);
    assertEquals(streamed([...sample], 30), whole, "a character at a time");
    for (let round = 0; round < 50; round++) {
      const pieces: string[] = [];
      for (let at = 0; at < sample.length;) {
        const size = 1 + Math.floor(random() * 12);
        pieces.push(sample.slice(at, at + size));
        at += size;
      }
      assertEquals(streamed(pieces, 30), whole, JSON.stringify(pieces));
    }
  }
});

Deno.test("markdown stream: a paragraph prints once a blank line follows; until then it is pending", () => {
  const stream = new MarkdownStream(40, PLAIN);
  assertEquals(stream.push("Hello **wor"), []);
  assertEquals(stream.pending(), ["Hello **wor"]);
  assertEquals(stream.push("ld**, and\nmore"), []);
  assertEquals(stream.pending(), ["Hello world, and more"]);
  assertEquals(stream.push("\n\nNext"), ["Hello world, and more"]);
  assertEquals(stream.pending(), ["Next"]);
  assertEquals(stream.end(), ["", "Next"]);
  assertEquals(stream.pending(), []);
});

Deno.test("markdown stream: a heading prints at its line's end; a fence once it closes", () => {
  const stream = new MarkdownStream(40, PLAIN);
  assertEquals(stream.push("# Title"), []);
  assertEquals(stream.push("\n```js\nlet a;\n\nlet b;\n"), ["Title"]);
  assertEquals(stream.pending(), ["  js", "  let a;", "", "  let b;"]);
  assertEquals(stream.push("``"), []);
  assertEquals(stream.push("`\n"), ["", "  js", "  let a;", "", "  let b;"]);
  assertEquals(stream.pending(), []);
  assertEquals(stream.end(), []);
});

Deno.test("markdown stream: a list stays open across blank lines until a line not in it", () => {
  const stream = new MarkdownStream(40, PLAIN);
  assertEquals(stream.push("- one\n- two\n\n"), []);
  assertEquals(stream.pending(), ["• one", "• two"]);
  assertEquals(stream.push("- three\n"), []);
  // Right after an item, a line of text continues it.
  assertEquals(stream.push("more of three\n"), []);
  assertEquals(stream.push("\nThen text.\n"), ["• one", "• two", "", "• three more of three"]);
  assertEquals(stream.end(), ["", "Then text."]);
});

Deno.test("markdown stream: a table stays open until a blank line", () => {
  const stream = new MarkdownStream(40, PLAIN);
  assertEquals(stream.push("| a |\n|---|\n| 1 |\n"), []);
  assertEquals(stream.pending(), ["a", "─", "1"]);
  assertEquals(stream.push("| 2 |\n\n"), ["a", "─", "1", "2"]);
  assertEquals(stream.end(), []);
});

Deno.test("markdown stream: after a resize, later blocks use the new width", () => {
  const stream = new MarkdownStream(40, PLAIN);
  const first = stream.push("alpha beta gamma delta\n\n");
  assertEquals(first, ["alpha beta gamma delta"]);
  stream.resize(20);
  assertEquals(stream.push("alpha beta gamma delta\n\n"), ["", "alpha beta gamma", "delta"]);
  assertEquals(stream.push("one two three four five"), []);
  assertEquals(stream.pending(), ["one two three four", "five"]);
  stream.resize(30);
  assertEquals(stream.pending(), ["one two three four five"]);
  assertEquals(stream.end(), ["", "one two three four five"]);
});

Deno.test("markdown stream: generated texts of every construct, split at every offset, print as the whole", () => {
  const fragments = [
    "# heading",
    "text",
    "more **bold",
    "** end",
    "- a",
    "  - b",
    "1. one",
    "   continued",
    "",
    "",
    "```",
    "~~~",
    "```py",
    "    code",
    "> quote",
    ">",
    "> - a",
    "> > nested",
    "| a | b |",
    "|---|:-:|",
    "| 1 | 2 |",
    "a | b",
    "--- | ---",
    "---",
    "===",
    "* * *",
    "\tx",
    "[l](u)",
    "`c",
    "日本語の文字",
    "🎉🎉",
    "- [ ] t",
    "- [x] done",
    "  ",
    "hard  ",
    "hard\\",
    "+ p",
    "10) ten",
    "<b>html</b>",
    "_u_ ~~s~~",
    "      - deep",
    "- > quote in list",
    "  ```",
    "a long line with many words to wrap around the width of the terminal",
    "| 東京 | 🎉 | long cell text here | x | y | z |",
  ];
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let n = 0; n < 150; n++) {
    const count = 1 + Math.floor(random() * 10);
    const lines = Array.from(
      { length: count },
      () => fragments[Math.floor(random() * fragments.length)],
    );
    const text = lines.join("\n") + (random() < 0.5 ? "\n" : "");
    const width = 20 + Math.floor(random() * 30);
    const whole = renderMarkdown(text, width, COLOUR);
    for (const line of whole) {
      assert(stringWidth(line) <= width, `${width}: ${JSON.stringify(text)}`);
    }
    for (let at = 0; at <= text.length; at++) {
      const got = streamed([text.slice(0, at), text.slice(at)], width, COLOUR);
      assertEquals(got, whole, `split at ${at} of ${JSON.stringify(text)}`);
    }
  }
});

Deno.test("markdown: a list marker indented four columns at the top is code, not a list", () => {
  assertEquals(plain("    - not a list"), ["  - not a list"]);
});

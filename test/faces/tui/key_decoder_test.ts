/**
 * The key decoder (src/faces/tui/key_decoder.ts): each byte sequence a
 * terminal sends, whole and split at every byte boundary, and what is
 * dropped rather than typed.
 */
import { assert, assertEquals } from "../../support/assert.ts";
import { KeyDecoder } from "../../../src/faces/tui/key_decoder.ts";
import type { Key } from "../../../src/faces/tui/key.ts";

const encode = (text: string) => new TextEncoder().encode(text);

/** Adjacent text keys joined, since the decoder may merge a run or not. */
function merged(keys: Key[]): Key[] {
  const out: Key[] = [];
  for (const key of keys) {
    const last = out[out.length - 1];
    if (key.kind === "text" && last?.kind === "text") {
      out[out.length - 1] = { kind: "text", text: last.text + key.text };
    } else out.push({ ...key });
  }
  return out;
}

/** Decode `bytes` in the given chunks, flushing at the end as the app does after a quiet spell. */
function decodeChunks(chunks: Uint8Array[]): Key[] {
  const decoder = new KeyDecoder();
  const keys = chunks.flatMap((chunk) => decoder.push(chunk));
  return merged([...keys, ...decoder.flush()]);
}

function decode(text: string): Key[] {
  return decodeChunks([encode(text)]);
}

/** `text` decoded whole, split in two at every byte, and a byte at a time all give `expected`. */
function assertDecodesEverySplit(text: string, expected: Key[]): void {
  const bytes = encode(text);
  assertEquals(decodeChunks([bytes]), expected, `whole: ${JSON.stringify(text)}`);
  for (let cut = 1; cut < bytes.length; cut++) {
    assertEquals(
      decodeChunks([bytes.slice(0, cut), bytes.slice(cut)]),
      expected,
      `split at ${cut}: ${JSON.stringify(text)}`,
    );
  }
  assertEquals(
    decodeChunks(Array.from(bytes, (b) => new Uint8Array([b]))),
    expected,
    `byte by byte: ${JSON.stringify(text)}`,
  );
}

const key = (
  name: string,
  flags: { ctrl?: boolean; alt?: boolean; shift?: boolean } = {},
): Key => ({
  kind: "key",
  name,
  ...flags,
});
const text = (t: string): Key => ({ kind: "text", text: t });

Deno.test("printable characters arrive as text, a run in one chunk as one key", () => {
  const decoder = new KeyDecoder();
  assertEquals(decoder.push(encode("hello")), [text("hello")]);
  assertEquals(decoder.push(encode("a")), [text("a")]);
  assertEquals(decoder.pendingEscape, false);
  assertEquals(decoder.flush(), []);
});

Deno.test("several keys in one chunk come out in order", () => {
  assertEquals(new KeyDecoder().push(encode("hello\r")), [text("hello"), key("enter")]);
  assertEquals(new KeyDecoder().push(encode("a\tb\x7fc\x1b[D")), [
    text("a"),
    key("tab"),
    text("b"),
    key("backspace"),
    text("c"),
    key("left"),
  ]);
});

Deno.test("UTF-8 characters split across chunks are put back together", () => {
  for (const sample of ["é", "漢字", "👍", "e\u0301", "👨‍👩‍👧 ok", "a€b"]) {
    assertDecodesEverySplit(sample, [text(sample)]);
  }
  // The unfinished character is held, not shown, until the rest comes.
  const decoder = new KeyDecoder();
  const bytes = encode("x漢");
  assertEquals(decoder.push(bytes.slice(0, 2)), [text("x")]);
  assertEquals(decoder.pendingEscape, false);
  assertEquals(decoder.push(bytes.slice(2)), [text("漢")]);
});

Deno.test("a broken UTF-8 character becomes U+FFFD and does not swallow the key after it", () => {
  assertEquals(decodeChunks([new Uint8Array([0xe6, 0x0d])]), [text("\uFFFD"), key("enter")]);
  assertEquals(decodeChunks([new Uint8Array([0xe6, 0x1b, 0x5b, 0x41])]), [
    text("\uFFFD"),
    key("up"),
  ]);
});

Deno.test("control bytes: Enter, Tab, Backspace, and Ctrl with each other letter", () => {
  assertEquals(decode("\r"), [key("enter")]);
  assertEquals(decode("\n"), [key("enter")]);
  assertEquals(decode("\t"), [key("tab")]);
  assertEquals(decode("\x7f"), [key("backspace")]);
  assertEquals(decode("\x08"), [key("backspace")]);
  const named = new Set([0x08, 0x09, 0x0a, 0x0d]);
  for (let byte = 0x01; byte <= 0x1a; byte++) {
    if (named.has(byte)) continue;
    const letter = String.fromCharCode(0x60 + byte);
    assertEquals(decode(String.fromCharCode(byte)), [key(letter, { ctrl: true })], letter);
  }
  assertEquals(decode("\x00"), [key("space", { ctrl: true })]);
  assertEquals(decode("\x1f"), [key("_", { ctrl: true })]);
});

Deno.test("a lone ESC waits: it is Escape only once flush() says nothing followed", () => {
  const decoder = new KeyDecoder();
  assertEquals(decoder.push(encode("\x1b")), []);
  assertEquals(decoder.pendingEscape, true);
  assertEquals(decoder.flush(), [key("escape")]);
  assertEquals(decoder.pendingEscape, false);
  assertEquals(decoder.flush(), []);
});

Deno.test("ESC then the rest of a sequence in a later chunk is that key, not Escape", () => {
  const decoder = new KeyDecoder();
  assertEquals(decoder.push(encode("\x1b")), []);
  assertEquals(decoder.pendingEscape, true);
  assertEquals(decoder.push(encode("[A")), [key("up")]);
  assertEquals(decoder.pendingEscape, false);
});

Deno.test("text before a trailing ESC comes out at once; the ESC waits", () => {
  const decoder = new KeyDecoder();
  assertEquals(decoder.push(encode("ab\x1b")), [text("ab")]);
  assertEquals(decoder.pendingEscape, true);
  assertEquals(decoder.flush(), [key("escape")]);
});

Deno.test("ESC ESC is Escape, then whatever the second ESC starts", () => {
  assertEquals(decode("\x1b\x1b"), [key("escape"), key("escape")]);
  assertEquals(decode("\x1b\x1b[A"), [key("escape"), key("up")]);
});

Deno.test("ESC before a character is Alt with it; ESC DEL is Alt-Backspace, ESC CR Alt-Enter", () => {
  assertDecodesEverySplit("\x1bb", [key("b", { alt: true })]);
  assertDecodesEverySplit("\x1bf", [key("f", { alt: true })]);
  assertDecodesEverySplit("\x1bd", [key("d", { alt: true })]);
  assertDecodesEverySplit("\x1b.", [key(".", { alt: true })]);
  assertDecodesEverySplit("\x1bé", [key("é", { alt: true })]);
  assertDecodesEverySplit("\x1b\x7f", [key("backspace", { alt: true })]);
  assertDecodesEverySplit("\x1b\x08", [key("backspace", { alt: true })]);
  assertDecodesEverySplit("\x1b\r", [key("enter", { alt: true })]);
  assertDecodesEverySplit("\x1b\x01", [key("a", { ctrl: true, alt: true })]);
});

Deno.test("ESC [ or ESC O with nothing after them, once quiet, is Alt with that character", () => {
  assertEquals(decode("\x1b["), [key("[", { alt: true })]);
  assertEquals(decode("\x1bO"), [key("O", { alt: true })]);
});

Deno.test("arrows in CSI and SS3 form, split at every byte", () => {
  const arrows: [string, string][] = [["A", "up"], ["B", "down"], ["C", "right"], ["D", "left"]];
  for (const [final, name] of arrows) {
    assertDecodesEverySplit(`\x1b[${final}`, [key(name)]);
    assertDecodesEverySplit(`\x1bO${final}`, [key(name)]);
  }
});

Deno.test("Home and End in each spelling; Delete, PageUp and PageDown", () => {
  for (const seq of ["\x1b[H", "\x1bOH", "\x1b[1~", "\x1b[7~"]) {
    assertDecodesEverySplit(seq, [key("home")]);
  }
  for (const seq of ["\x1b[F", "\x1bOF", "\x1b[4~", "\x1b[8~"]) {
    assertDecodesEverySplit(seq, [key("end")]);
  }
  assertDecodesEverySplit("\x1b[3~", [key("delete")]);
  assertDecodesEverySplit("\x1b[5~", [key("pageup")]);
  assertDecodesEverySplit("\x1b[6~", [key("pagedown")]);
});

Deno.test("xterm's modifier parameter: ;5 Ctrl, ;3 Alt, ;2 Shift, and together", () => {
  assertDecodesEverySplit("\x1b[1;5D", [key("left", { ctrl: true })]);
  assertDecodesEverySplit("\x1b[1;5C", [key("right", { ctrl: true })]);
  assertDecodesEverySplit("\x1b[1;3D", [key("left", { alt: true })]);
  assertDecodesEverySplit("\x1b[1;2A", [key("up", { shift: true })]);
  assertDecodesEverySplit("\x1b[1;6B", [key("down", { ctrl: true, shift: true })]);
  assertDecodesEverySplit("\x1b[1;9C", [key("right", { alt: true })]); // meta, as Alt
  assertDecodesEverySplit("\x1b[3;5~", [key("delete", { ctrl: true })]);
  assertDecodesEverySplit("\x1b[1;2H", [key("home", { shift: true })]);
});

Deno.test("Shift-Tab is Tab with shift", () => {
  assertDecodesEverySplit("\x1b[Z", [key("tab", { shift: true })]);
});

Deno.test("CSI u and modifyOtherKeys: Shift-Enter, Ctrl-letters, plain characters", () => {
  assertDecodesEverySplit("\x1b[13;2u", [key("enter", { shift: true })]);
  assertDecodesEverySplit("\x1b[27;2;13~", [key("enter", { shift: true })]);
  assertDecodesEverySplit("\x1b[13;3u", [key("enter", { alt: true })]);
  assertDecodesEverySplit("\x1b[27u", [key("escape")]);
  assertDecodesEverySplit("\x1b[127;3u", [key("backspace", { alt: true })]);
  assertDecodesEverySplit("\x1b[99;5u", [key("c", { ctrl: true })]);
  assertDecodesEverySplit("\x1b[98;3u", [key("b", { alt: true })]);
  assertDecodesEverySplit("\x1b[97u", [text("a")]);
  assertDecodesEverySplit("\x1b[97;2u", [text("A")]);
});

Deno.test("unknown complete sequences are dropped, never typed", () => {
  for (
    const seq of [
      "\x1b[2~", // Insert
      "\x1b[15~", // F5
      "\x1bOP", // F1
      "\x1b[1;5P", // Ctrl-F1
      "\x1b[99~",
      "\x1b[Q",
      "\x1b[>0;1;2c",
    ]
  ) {
    assertDecodesEverySplit(`a${seq}b`, [text("ab")]);
  }
});

Deno.test("terminal replies are dropped: cursor position, focus, kitty, device attributes, mouse", () => {
  for (
    const reply of [
      "\x1b[12;40R", // cursor position report
      "\x1b[1;1R",
      "\x1b[I", // focus in
      "\x1b[O", // focus out
      "\x1b[?1u", // kitty keyboard flags
      "\x1b[?0u",
      "\x1b[?62;22c", // device attributes
      "\x1b[<0;12;5M", // SGR mouse
      "\x1b[201~", // a paste end without a start
    ]
  ) {
    assertDecodesEverySplit(`x${reply}\r`, [text("x"), key("enter")]);
  }
});

Deno.test("a control byte inside a CSI ends it, and the control byte still counts", () => {
  assertEquals(decode("\x1b[1\r"), [key("enter")]);
});

Deno.test("a bracketed paste is one paste key with its line ends made \\n, split at every byte", () => {
  assertDecodesEverySplit("\x1b[200~line one\r\nline two\rthree\nfour\x1b[201~", [
    { kind: "paste", text: "line one\nline two\nthree\nfour" },
  ]);
  assertDecodesEverySplit("a\x1b[200~漢 👍\x1b[201~b", [
    text("a"),
    { kind: "paste", text: "漢 👍" },
    text("b"),
  ]);
});

Deno.test("a paste keeps what would otherwise be keys: ESC, Ctrl bytes, a stray ESC[20", () => {
  assertDecodesEverySplit("\x1b[200~a\x1b[Ab\tc\x1b[20d\x1b[201~", [
    { kind: "paste", text: "a\x1b[Ab\tc\x1b[20d" },
  ]);
});

Deno.test("an empty paste is an empty paste key", () => {
  assertDecodesEverySplit("\x1b[200~\x1b[201~", [{ kind: "paste", text: "" }]);
});

Deno.test("a paste over many chunks is not ended by flush(), and is not a pending escape", () => {
  const decoder = new KeyDecoder();
  assertEquals(decoder.push(encode("\x1b[200~first ")), []);
  assertEquals(decoder.pendingEscape, false);
  assertEquals(decoder.flush(), []);
  assertEquals(decoder.push(encode("second\x1b[20")), []);
  assertEquals(decoder.flush(), []);
  assertEquals(decoder.push(encode("1~\r")), [
    { kind: "paste", text: "first second" },
    key("enter"),
  ]);
});

Deno.test("a long paste in small chunks comes out whole", () => {
  const body = Array.from({ length: 500 }, (_, i) => `line ${i} — ünïcödé 漢`).join("\r\n");
  const bytes = encode(`\x1b[200~${body}\x1b[201~`);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += 7) chunks.push(bytes.slice(at, at + 7));
  const keys = decodeChunks(chunks);
  assertEquals(keys.length, 1);
  assert(keys[0].kind === "paste");
  assertEquals(keys[0].text, body.replaceAll("\r\n", "\n"));
});

Deno.test("an unfinished sequence is pending, and flush() drops it rather than typing it", () => {
  const decoder = new KeyDecoder();
  assertEquals(decoder.push(encode("\x1b[1;5")), []);
  assertEquals(decoder.pendingEscape, true);
  assertEquals(decoder.flush(), []);
  assertEquals(decoder.push(encode("x")), [text("x")]);
});

Deno.test("a mixed stream split at every byte gives the same keys", () => {
  assertDecodesEverySplit("hi\x1b[1;5Dé\x1bb\x1b[3~\x1b[200~p\r\nq\x1b[201~\x1b[5;3R\x01\r", [
    text("hi"),
    key("left", { ctrl: true }),
    text("é"),
    key("b", { alt: true }),
    key("delete"),
    { kind: "paste", text: "p\nq" },
    key("a", { ctrl: true }),
    key("enter"),
  ]);
});

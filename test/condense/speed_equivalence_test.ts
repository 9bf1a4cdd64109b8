/**
 * The hand-written fast paths of the readers' text helpers against the
 * patterns they stand for: the same answer on every line of every fixture
 * log and on random strings built from the characters that matter.
 */
import { assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import {
  firstNonJsSpace,
  type Frame,
  FramePicker,
  indentOf,
  isBlank,
  jsFrame,
  jsFrameAfterAt,
  pickFrame,
} from "../../src/condense/text.ts";
import { yamlKey } from "../../src/condense/readers/tap.ts";
import { fixtureLogNames, FIXTURES } from "./readers_golden.ts";

/** A small seeded generator, so a failure can be reproduced. */
function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const ALPHABET = [
  "\x1b",
  "[",
  "]",
  "0",
  "9",
  ";",
  "?",
  " ",
  "/",
  "!",
  "@",
  "m",
  "~",
  "\x7f",
  "a",
  "t",
  "\t",
  "\n",
  "\r",
  "\u00a0",
  "\u2028",
  "\ufeff",
  ":",
  "-",
  "_",
  "(",
  ")",
  "❯",
  "é",
  "1",
  "'",
];

function randomStrings(n: number, seed: number): string[] {
  const next = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let s = "";
    const len = Math.floor(next() * 24);
    for (let k = 0; k < len; k++) s += ALPHABET[Math.floor(next() * ALPHABET.length)];
    out.push(s);
  }
  return out;
}

const FIXTURE_TEXTS = fixtureLogNames().map((n) => Deno.readTextFileSync(join(FIXTURES, n)));
const FIXTURE_LINES = FIXTURE_TEXTS.flatMap((t) => t.split("\n"));
const RANDOM = randomStrings(20000, 20261130);
const FRAMES = [
  "    at foo (file:///a/b.ts:1:2)",
  "at x.js:3:4",
  "\u00a0at Object.<anonymous> (/p/q (r).js:5:6)",
  "  ❯ src/a.test.ts:7:8",
  "at  (a:1:2)",
  "at",
  "\u2028at a:1:1",
  "   at async Promise.all (index 0)",
];

Deno.test("firstNonJsSpace, isBlank and indentOf agree with \\s, trim and the indent they stand for", () => {
  for (const s of [...FIXTURE_LINES, ...RANDOM, ...FRAMES]) {
    const m = /^\s*/.exec(s)![0].length;
    assertEquals(firstNonJsSpace(s), m < s.length ? s.charCodeAt(m) : -1, JSON.stringify(s));
    assertEquals(isBlank(s), s.trim() === "", JSON.stringify(s));
    let indent = 0;
    for (const ch of s) {
      if (ch === " ") indent++;
      else if (ch === "\t") indent += 4;
      else break;
    }
    assertEquals(indentOf(s), indent, JSON.stringify(s));
  }
});

const JS_FRAME = /^\s*(?:at |❯ )(?:(.*?) \()?(?:file:\/\/)?([^\s()]+?):(\d+):(\d+)\)?\s*$/;
/** A place with spaces: any between parentheses, an absolute path without them. */
const JS_FRAME_SPACED =
  /^\s*(?:at |❯ )(?:(.*?) \((?:file:\/\/)?([^()]+?):(\d+):(\d+)\)|(?:file:\/\/)?((?:\/|[A-Za-z]:[\\/])[^()]*?):(\d+):(\d+))\s*$/;

Deno.test("jsFrame and jsFrameAfterAt give what the frame patterns give (a one-word place, else one with spaces)", () => {
  const asFrame = (line: string) => {
    const m = JS_FRAME.exec(line);
    if (m) return { fn: m[1], file: m[2], line: m[3], col: m[4] };
    const sp = JS_FRAME_SPACED.exec(line);
    if (!sp) return undefined;
    return sp[2] !== undefined
      ? { fn: sp[1], file: sp[2], line: sp[3], col: sp[4] }
      : { file: sp[5], line: sp[6], col: sp[7] };
  };
  const spaced = [
    "    at Object.<anonymous> (test dir/cart.test.js:5:25)",
    "    at file:///home/dev/src dir/a_test.ts:6:10",
    "    at C:\\Users\\dev\\my app\\a.js:1:2",
    "    at least 3 things:4:5",
  ];
  for (const s of [...FIXTURE_LINES, ...RANDOM, ...FRAMES, ...spaced]) {
    assertEquals(jsFrame(s), asFrame(s), JSON.stringify(s));
    assertEquals(jsFrameAfterAt(s), asFrame("at " + s), JSON.stringify(s));
  }
  assertEquals(jsFrame(spaced[0])?.file, "test dir/cart.test.js");
  assertEquals(jsFrame(spaced[3]), undefined);
});

Deno.test("yamlKey reads the key and value the YAML-line pattern reads", () => {
  const extra = [
    "  key: value",
    "k:",
    "a-b_c:\u00a0x",
    "  :x",
    "x : y",
    "k:\u2028v",
    "k: a\rb",
    "é: x",
  ];
  for (const s of [...FIXTURE_LINES, ...RANDOM, ...extra]) {
    const m = /^\s*([\w-]+):\s?(.*)$/.exec(s);
    assertEquals(yamlKey(s), m ? [m[1], m[2]] : undefined, JSON.stringify(s));
  }
});

Deno.test("FramePicker, stopped as soon as it is decided, picks what pickFrame picks", () => {
  const all = FIXTURE_LINES.map((l) => jsFrame(l)).filter((f): f is Frame => f !== undefined);
  const files = [...new Set(all.map((f) => f.file))];
  const next = rng(7);
  let decidedEarly = 0;
  // The frames are drawn from every fixture line, so each new fixture shifts the draw: enough rounds
  // that the early stops below stay well over the bound.
  for (let round = 0; round < 16000; round++) {
    const n = Math.floor(next() * 12);
    const frames = Array.from({ length: n }, () => all[Math.floor(next() * all.length)]);
    const pickOf = Math.floor(next() * (files.length + 2));
    // No test file, an empty one, or one of the files frames name (plain, or with ./, or by its last part).
    const file = files[pickOf % files.length] ?? "";
    const testFile = pickOf === files.length
      ? undefined
      : pickOf === files.length + 1
      ? ""
      : next() < 0.3
      ? file.split("/").pop()
      : next() < 0.5
      ? "./" + file
      : file;
    const picker = new FramePicker(testFile);
    let used = 0;
    for (const f of frames) {
      used++;
      if (picker.add(f)) break;
    }
    if (used < frames.length) decidedEarly++;
    assertEquals(picker.pick(), pickFrame(frames, testFile), JSON.stringify({ frames, testFile }));
  }
  // The early stop happened often enough for the comparison above to mean something.
  assertEquals(decidedEarly > 500, true, `decided early only ${decidedEarly} times`);
});

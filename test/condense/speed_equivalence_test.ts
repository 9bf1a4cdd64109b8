/**
 * The hand-written fast paths of the readers' text helpers against the
 * patterns they stand for: the same answer on every line of every fixture
 * log and on random strings built from the characters that matter.
 */
import { assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import {
  firstNonJsSpace,
  indentOf,
  isBlank,
  jsFrame,
  jsFrameAfterAt,
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

Deno.test("jsFrame and jsFrameAfterAt give what the frame pattern gives", () => {
  const asFrame = (m: RegExpExecArray | null) =>
    m ? { fn: m[1], file: m[2], line: m[3], col: m[4] } : undefined;
  for (const s of [...FIXTURE_LINES, ...RANDOM, ...FRAMES]) {
    assertEquals(jsFrame(s), asFrame(JS_FRAME.exec(s)), JSON.stringify(s));
    assertEquals(jsFrameAfterAt(s), asFrame(JS_FRAME.exec("at " + s)), JSON.stringify(s));
  }
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

/**
 * The stand-in check (a value made only of words like `test`, `api`, `key`, with digits between)
 * reads a value word by word. Its answers must be those of the plain definition: split at runs of
 * `-`, `_`, `.` and white space and where letters meet digits, drop runs of digits, and require two
 * or more words, all stand-ins (a run of letters that is stand-in words written together counts as
 * two).
 */
import { assertEquals } from "../support/assert.ts";
import { madeOfStandInWords, STAND_IN_WORDS } from "../../src/secrets/allowlist.ts";
import { rng } from "./corpus_values.ts";

/** Stand-in words of two or more letters written together (`supersecrettoken`), as one pattern. */
const JOINED = new RegExp(
  `^(?:${[...STAND_IN_WORDS].filter((w) => w.length >= 2).join("|")})+$`,
);

/**
 * The definition, written the plain way: a split by one regular expression; a word that is stand-in
 * words written together counts as two.
 */
function byDefinition(lower: string): boolean {
  const words = lower.split(/[-_.\s]+|(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])/).filter((w) => w !== "");
  const named = words.filter((w) => !/^\d+$/.test(w));
  const count = named.reduce((n, w) => n + (STAND_IN_WORDS.has(w) ? 1 : 2), 0);
  return count >= 2 &&
    named.every((w) => STAND_IN_WORDS.has(w) || (/^[a-z]{1,64}$/.test(w) && JOINED.test(w)));
}

Deno.test("stand-in words: values written for the check", () => {
  const cases: Array<[string, boolean]> = [
    ["test_api_key_123", true],
    ["my-dev-secret", true],
    ["api1key", true], // letters meet digits: api, 1, key
    ["key 2 token", true],
    ["secret\u00a0password", true], // a no-break space separates like any white space
    ["secret\u2003token", true],
    ["password", false], // one word is not enough
    ["123-456", false], // no word at all
    ["", false],
    ["test_api_kez", false],
    ["test+api", false], // `+` does not separate, so `test+api` is one word
    ["test_api_é", false],
    ["x7kq_api_key", false],
    ["api__key..", true],
    ["supersecrettoken", true], // words written together (a camel-case name, lower-cased)
    ["mypersonalaccesstoken123", true],
    ["wrong-password", true],
    ["secretive", false], // `secret` and then no word
  ];
  for (const [value, expected] of cases) {
    assertEquals(madeOfStandInWords(value), expected, JSON.stringify(value));
    assertEquals(byDefinition(value), expected, `definition: ${JSON.stringify(value)}`);
  }
});

Deno.test("stand-in words: the same answers as the definition on generated values", () => {
  const random = rng(697);
  const parts = [
    ...STAND_IN_WORDS,
    "x",
    "ab",
    "q1",
    "z9z",
    "-",
    "_",
    ".",
    " ",
    "\t",
    "\n",
    "\u00a0",
    "\u2003",
    "\ufeff",
    "0",
    "42",
    "+",
    "/",
    "é",
    "--",
    "1a",
    "a1",
  ];
  let agreedTrue = 0;
  for (let n = 0; n < 100_000; n++) {
    let value = "";
    const length = 1 + Math.floor(random() * 6);
    for (let i = 0; i < length; i++) value += parts[Math.floor(random() * parts.length)];
    const expected = byDefinition(value);
    assertEquals(madeOfStandInWords(value), expected, JSON.stringify(value));
    if (expected) agreedTrue++;
  }
  // The generated values reach both answers, not only the common "no".
  assertEquals(agreedTrue > 1000, true, `only ${agreedTrue} stand-in values generated`);
});

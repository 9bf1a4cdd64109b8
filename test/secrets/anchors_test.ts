/**
 * The one-pass literal search (anchors.ts) against the obvious reference:
 * every occurrence of every literal, case-sensitive ones as written and
 * case-blind ones in any ASCII case, over random texts built from the
 * literals' own characters (so matches overlap and nest) and over the
 * scanner's real list of anchors and keywords.
 */
import { assert, assertEquals, assertThrows } from "../support/assert.ts";
import { anchorSet, findAnchors } from "../../src/secrets/anchors.ts";
import { RULES, sortNearlySorted } from "../../src/secrets/scanner.ts";
import { rng } from "./corpus_values.ts";

/** Every (start, literal index) by brute force, sorted. */
function reference(text: string, literals: { literal: string; fold: boolean }[]): string[] {
  const hits: string[] = [];
  const folded = text.toLowerCase();
  literals.forEach(({ literal, fold }, index) => {
    const haystack = fold ? folded : text;
    for (let at = haystack.indexOf(literal); at !== -1; at = haystack.indexOf(literal, at + 1)) {
      hits.push(`${at}:${index}`);
    }
  });
  return hits.sort();
}

function found(text: string, set: ReturnType<typeof anchorSet>): string[] {
  const { offsets, which } = findAnchors(text, set);
  return offsets.map((o, k) => `${o}:${which[k]}`).sort();
}

Deno.test("anchors: exact literals keep their case, folded ones match any case, overlaps all reported", () => {
  const set = anchorSet(["SK", "sk-", "sk-ant-", "Authorization", "ghp_"], ["auth", "key", "pass"]);
  const text = "SK sk- sk-ant-x Sk AUTHORIZATION Authorization passKEY ghp_ GHP_ sKey";
  assertEquals(found(text, set), reference(text, set.literals));
  // Spot checks of what the reference says, so the test does not only compare two searches.
  const hits = found(text, set);
  assertEquals(hits.includes(`${text.indexOf("Sk")}:0`), false); // "Sk" is not "SK"
  assertEquals(hits.includes(`${text.indexOf("AUTHORIZATION")}:5`), true); // folded "auth"
  assertEquals(hits.includes(`${text.indexOf("AUTHORIZATION")}:3`), false); // exact only
  assertEquals(hits.includes(`${text.indexOf("GHP_")}:4`), false);
});

Deno.test("anchors: random texts over the literals' alphabet match the brute-force search", () => {
  const random = rng(77);
  const exact = ["ab", "aB", "abc", "bca", "C-", "-c_", "xY"];
  const folded = ["abc", "ca", "yx", "b"];
  const set = anchorSet(exact, folded);
  const alphabet = "abcABC-_xyXY é\n";
  for (let round = 0; round < 300; round++) {
    let text = "";
    const length = Math.floor(random() * 60);
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
    assertEquals(found(text, set), reference(text, set.literals), JSON.stringify(text));
  }
});

Deno.test("anchors: the scanner's own anchors and keywords, over realistic text", () => {
  const exact = [...new Set(RULES.flatMap((r) => r.anchors ?? []))];
  const folded = [...new Set(RULES.flatMap((r) => r.keywordsFolded ?? []))];
  const set = anchorSet(exact, folded);
  const text = [
    'export API_KEY="sk-ant-api03-abc" # Authorization: Bearer xoxb-1 ghp_ SK0123',
    "PASSWORD=hunter2 Secret_Token: glpat-x AIzaSy --user a:b -p pw mysql -u root",
    "eyJhbGciOi.eyJzdWIi.sig https://hooks.slack.com/services/T/B/x npm_ hf_ pypi-",
    "naïve café keys tokenizer licensekey BEARER authorization X-API-Key _authToken=",
  ].join("\n").repeat(3);
  assertEquals(found(text, set), reference(text, set.literals));
});

Deno.test("anchors: over a text's bytes as over the text, literals across the middle found once, in order of their ends", () => {
  // Texts of whole literals and single characters put the middle, where the second of the two
  // automata over the bytes starts, inside literals; the texts with other characters (two-,
  // three- and four-byte ones, a lone half of a UTF-16 pair) take the character search even when
  // their bytes are given.
  const random = rng(91);
  const exact = ["ab", "aB", "abc", "bca", "C-", "-c_", "xY", "abcabcab"];
  const folded = ["abc", "ca", "yx", "b", "cabca"];
  const set = anchorSet(exact, folded);
  const encoder = new TextEncoder();
  for (const alphabet of ["abcABC-_xyXY \n", "abcAB-_xY é—😀\ud800\n"]) {
    for (let round = 0; round < 300; round++) {
      let text = "";
      const length = Math.floor(random() * 120);
      while (text.length < length) {
        text += random() < 0.2
          ? [...exact, ...folded][Math.floor(random() * (exact.length + folded.length))]
          : alphabet[Math.floor(random() * alphabet.length)];
      }
      const want = reference(text, set.literals);
      for (const bytes of [undefined, encoder.encode(text)]) {
        const { offsets, which } = findAnchors(text, set, bytes);
        const hits = offsets.map((o, k) => `${o}:${which[k]}`);
        assertEquals([...hits].sort(), want, `${bytes ? "bytes" : "text"} ${JSON.stringify(text)}`);
        // Reported in the order their last characters come.
        const ends = offsets.map((o, k) => o + set.literals[which[k]].literal.length);
        for (let k = 1; k < ends.length; k++) assert(ends[k - 1] <= ends[k], JSON.stringify(text));
      }
    }
  }
});

Deno.test("anchors: a long text with a few characters beyond ASCII, searched over its bytes, reports the text's offsets", () => {
  const random = rng(17);
  const exact = ["ab", "aB", "abc", "C-", "xY", "abcabcab"];
  const folded = ["abc", "ca", "yx", "b"];
  const set = anchorSet(exact, folded);
  const encoder = new TextEncoder();
  const wide = ["é", "—", "😀", "ß"]; // two, three and four bytes (a UTF-16 pair), two
  for (let round = 0; round < 150; round++) {
    let text = "";
    const length = 200 + Math.floor(random() * 3000);
    while (text.length < length) {
      const r = random();
      text += r < 0.005
        ? wide[Math.floor(random() * wide.length)]
        : r < 0.2
        ? [...exact, ...folded][Math.floor(random() * (exact.length + folded.length))]
        : "abcABC-_xyXY \n"[Math.floor(random() * 14)];
    }
    const { offsets, which } = findAnchors(text, set, encoder.encode(text));
    const hits = offsets.map((o, k) => `${o}:${which[k]}`);
    assertEquals([...hits].sort(), reference(text, set.literals), JSON.stringify(text));
  }
  // Invalid bytes decode to replacement characters whose byte count the text cannot tell: the
  // offsets are still the text's.
  const bytes = encoder.encode("abc ".repeat(100) + "x".repeat(40) + "abc");
  bytes[10] = 0xe2; // the start of a three-byte character, cut short
  bytes[11] = 0x82;
  const text = new TextDecoder().decode(bytes);
  assert(text.length < bytes.length);
  const { offsets, which } = findAnchors(text, set, bytes);
  assertEquals(offsets.map((o, k) => `${o}:${which[k]}`).sort(), reference(text, set.literals));
});

Deno.test("anchors: bytes of invalid UTF-8, one replaced character each, line up with the text", () => {
  const set = anchorSet(["SK", "ghp_"], ["key"]);
  const bytes = new Uint8Array([0x80, 0x53, 0x4b, 0xff, 0x67, 0x68, 0x70, 0x5f, 0x4b, 0x45, 0x59]);
  const text = new TextDecoder().decode(bytes); // "\ufffdSK\ufffdghp_KEY"
  assertEquals(text.length, bytes.length);
  assertEquals(found(text, set), reference(text, set.literals));
  const { offsets, which } = findAnchors(text, set, bytes);
  assertEquals(offsets.map((o, k) => `${o}:${which[k]}`).sort(), reference(text, set.literals));
  assertEquals(reference(text, set.literals).length, 3);
});

Deno.test("anchors: a literal must be ASCII and not empty", () => {
  assertThrows(() => anchorSet(["clé"]));
  assertThrows(() => anchorSet([""]));
});

Deno.test("keyword hits: the linear sort of nearly sorted offsets is a numeric sort", () => {
  const random = rng(5);
  for (let round = 0; round < 200; round++) {
    const values: number[] = [];
    let at = 0;
    for (let i = 0; i < Math.floor(random() * 50); i++) {
      at += Math.floor(random() * 5);
      values.push(Math.max(0, at - Math.floor(random() * 10)));
    }
    const expected = [...values].sort((a, b) => a - b);
    assertEquals(sortNearlySorted(values), expected);
  }
});

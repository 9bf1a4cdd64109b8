/**
 * The WebAssembly machine of the one pass (anchor_machine.ts): the hits a text's bytes give through
 * it are the JavaScript search's, in the same order, and every occurrence the brute-force reference
 * finds; literals that cross a quarter's edge are seen once; a text with more hits than a quarter
 * can record is searched in JavaScript instead, with the same answer.
 */
import { assert, assertEquals } from "../support/assert.ts";
import {
  type AnchorHits,
  anchorSet,
  findAnchors,
  MACHINE_MIN_BYTES,
  searchBytes,
  searchBytesHere,
} from "../../src/secrets/anchors.ts";
import { anchorMachine, searchModule } from "../../src/secrets/anchor_machine.ts";
import { RULES } from "../../src/secrets/scanner.ts";
import { rng } from "./corpus_values.ts";

const encoder = new TextEncoder();

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

/** The hits as `start:literal`, in the order reported. */
function listed(hits: AnchorHits): string[] {
  return hits.offsets.map((o, k) => `${o}:${hits.which[k]}`);
}

/** The JavaScript search over the same bytes. */
function here(bytes: Uint8Array, set: ReturnType<typeof anchorSet>): string[] {
  const hits: AnchorHits = { offsets: [], which: [] };
  searchBytesHere(bytes, set, hits);
  return listed(hits);
}

Deno.test("anchor machine: the module is valid WebAssembly and the machine runs here", () => {
  assert(WebAssembly.validate(searchModule()));
  assert(anchorMachine(anchorSet(["SK"], ["key"])) !== undefined);
});

Deno.test("anchor machine: random texts of every length give the JavaScript search's hits in its order", () => {
  const random = rng(41);
  const exact = ["ab", "aB", "abc", "C-", "xY", "abcabcab", "-_x"];
  const folded = ["abc", "ca", "yx", "b", "keyab"];
  const set = anchorSet(exact, folded);
  const pieces = [...exact, ...folded];
  const alphabet = "abcABC-_xyXY \n\u0000";
  const lengths = [MACHINE_MIN_BYTES, MACHINE_MIN_BYTES + 1, MACHINE_MIN_BYTES + 3, 4099, 20_000];
  for (let round = 0; round < 200; round++) {
    lengths.push(MACHINE_MIN_BYTES + Math.floor(random() * 6000));
  }
  for (const length of lengths) {
    let text = "";
    while (text.length < length) {
      text += random() < 0.2
        ? pieces[Math.floor(random() * pieces.length)]
        : alphabet[Math.floor(random() * alphabet.length)];
    }
    text = text.slice(0, length);
    const bytes = encoder.encode(text);
    const hits = listed(findAnchors(text, set, bytes));
    assertEquals(hits, here(bytes, set), `length ${length}`);
    assertEquals([...hits].sort(), reference(text, set.literals), `length ${length}`);
  }
});

Deno.test("anchor machine: a literal across each quarter's edge is found once, at every shift", () => {
  const literal = "abcdefghijklmnopqrstuvwxyz0123456789";
  const set = anchorSet([literal, "xyz"], ["mnop"]);
  for (const length of [1024, 1027, 4096, 5001]) {
    const quarter = Math.ceil(length / 4);
    for (const edge of [quarter, 2 * quarter, 3 * quarter]) {
      for (let shift = -literal.length; shift <= 1; shift++) {
        const at = edge + shift;
        if (at < 0 || at + literal.length > length) continue;
        const text = ".".repeat(at) + literal + ".".repeat(length - at - literal.length);
        const bytes = encoder.encode(text);
        const hits = listed(findAnchors(text, set, bytes));
        assertEquals(hits, here(bytes, set), `length ${length}, at ${at}`);
        assertEquals([...hits].sort(), reference(text, set.literals), `length ${length}, at ${at}`);
        assertEquals(hits.filter((hit) => hit.endsWith(":0")).length, 1);
      }
    }
  }
});

Deno.test("anchor machine: bytes beyond ASCII stand for no literal, as in the JavaScript search", () => {
  const set = anchorSet(["SK", "ghp_"], ["key"]);
  const random = rng(7);
  const bytes = new Uint8Array(8192);
  const words = [..."SK ghp_ KEY key kEy \u0000"].map((c) => c.charCodeAt(0));
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = random() < 0.3 ? 0x80 + Math.floor(random() * 128) : words[i % words.length];
  }
  assert(anchorMachine(set)!.run(bytes, set.longest - 1) !== undefined);
  const hits: AnchorHits = { offsets: [], which: [] };
  searchBytes(bytes, set, hits);
  assert(hits.offsets.length > 100);
  assertEquals(listed(hits), here(bytes, set));
});

Deno.test("anchor machine: a text with more hits than a quarter records is searched in JavaScript, with the same hits", () => {
  const set = anchorSet(["SK"], ["key"]);
  const text = "key".repeat(100_000); // 100,000 hits, 25,000 a quarter
  const bytes = encoder.encode(text);
  assertEquals(anchorMachine(set)!.run(bytes, set.longest - 1), undefined);
  const hits = listed(findAnchors(text, set, bytes));
  assertEquals(hits.length, 100_000);
  assertEquals(hits, here(bytes, set));
});

Deno.test("anchor machine: the scanner's own anchors over a long text of its literals", () => {
  const literals = [...new Set(RULES.flatMap((rule) => rule.anchors ?? []))];
  const words = [...new Set(RULES.flatMap((rule) => rule.keywordsFolded ?? []))];
  const set = anchorSet(literals, words);
  const random = rng(3);
  let text = "";
  while (text.length < 200_000) {
    text += random() < 0.1
      ? [...literals, ...words][Math.floor(random() * (literals.length + words.length))]
      : "abcdefghijklmnopqrstuvwxyz_=:\"' \n"[Math.floor(random() * 33)];
  }
  const bytes = encoder.encode(text);
  const hits = listed(findAnchors(text, set, bytes));
  assertEquals(hits, here(bytes, set));
  assertEquals([...hits].sort(), reference(text, set.literals));
});

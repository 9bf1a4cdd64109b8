/**
 * The scanner's one pass (the prefilter) against running every rule over the
 * whole text: every rule must have an entry in the pass (anchors, keywords or
 * folded keywords) or be named as one that reads the whole text, and on the
 * labelled corpus and on generated trees the pass must drop no candidate that
 * the rule, run over the whole text, proposes.
 */
import { extname } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { candidatesIn, extensionOf, RULES, WHOLE_TEXT_RULES } from "../../src/secrets/scanner.ts";
import type { Candidate, ScanOptions } from "../../src/secrets/types.ts";
import { walkFiles } from "../../src/secrets/input.ts";
import { CORPUS_DIR } from "./make_corpus.ts";
import { largeTree } from "./large_tree.ts";

/** Every candidate of every applicable rule run over the whole text, with no gate at all. */
function ungated(text: string, options: ScanOptions): Candidate[] {
  const thorough = options.thorough === true;
  const personal = options.personal === true || thorough;
  const context = { thorough, extension: extensionOf(options.path) };
  const out: Candidate[] = [];
  for (const rule of RULES) {
    if (rule.category === "personal" && !personal) continue;
    if (rule.thoroughOnly && !thorough) continue;
    out.push(...rule.find(text, context));
  }
  return out;
}

const key = (c: Candidate) => `${c.start}-${c.end} ${c.kind} ${c.priority}`;

/** How each rule is gated by the one pass, by kind (what the comparison covered). */
const gateOf = new Map(
  RULES.map((r) => [
    r.id,
    r.anchors ? "anchors" : r.keywordsFolded ? "folded" : r.keywords ? "keywords" : "whole",
  ]),
);

/** The gates whose rules proposed candidates in a comparison (so it compared something). */
const compared = new Set<string>();

/** The candidates the whole-text run proposes that the one pass does not. */
function dropped(text: string, options: ScanOptions): string[] {
  const gated = new Set(candidatesIn(text, options).map(key));
  const all = ungated(text, options);
  for (const c of all) compared.add(gateOf.get(c.kind) ?? "unknown");
  return [...new Set(all.map(key))].filter((k) => !gated.has(k));
}

const MODES: ScanOptions[] = [{}, { personal: true }, { thorough: true }];

Deno.test("prefilter: every rule has an entry in the one pass, or reads the whole text by name", () => {
  const unlisted = RULES.filter((rule) =>
    !rule.anchors?.length && !rule.keywords?.length && !rule.keywordsFolded?.length &&
    !WHOLE_TEXT_RULES.has(rule.id)
  ).map((rule) => rule.id);
  assertEquals(unlisted, [], "declare anchors, keywords or keywordsFolded (or list the rule)");
  // The list names rules that exist and really have no entry (a stale name would hide nothing).
  for (const id of WHOLE_TEXT_RULES.keys()) {
    const rules = RULES.filter((rule) => rule.id === id);
    assert(rules.length > 0, `${id} is listed but is not a rule`);
    assert(rules.some((r) => !r.anchors && !r.keywords && !r.keywordsFolded), `${id} has an entry`);
  }
});

Deno.test("prefilter: on the corpus, the one pass drops no candidate of any rule, in every mode", () => {
  let files = 0;
  for (const path of walkFiles(CORPUS_DIR)) {
    const text = Deno.readTextFileSync(path);
    for (const options of MODES) {
      const missing = dropped(text, { ...options, path });
      assertEquals(missing, [], `${path} ${JSON.stringify(options)}`);
    }
    files++;
  }
  assert(files > 20, `the corpus has files (${files})`);
  // Rules behind each kind of gate proposed something, so each was really compared.
  for (const gate of ["anchors", "keywords", "folded", "whole"]) {
    assert(compared.has(gate), `the corpus exercises rules gated by ${gate}`);
  }
});

Deno.test("prefilter: on a generated tree of other seeds, the one pass drops no candidate", () => {
  const { files } = largeTree(3 * 1024 * 1024);
  let candidates = 0;
  for (const [path, text] of Object.entries(files)) {
    if (extname(path) === ".log" && text.length > 512 * 1024) continue; // filler only: no secrets
    for (const options of MODES) {
      assertEquals(dropped(text, { ...options, path }), [], `${path} ${JSON.stringify(options)}`);
    }
    candidates += candidatesIn(text, { path }).length;
  }
  assert(candidates > 200, `the tree yields candidates (${candidates})`);
});

/**
 * The small JSONC reader (src/config/jsonc_read.ts) against jsonc-parser and
 * load.ts, which stay the authority: on plain config texts it must give
 * exactly their object; on every broken or unusual text — the samples below
 * with each character removed, and with each of a set of characters put in at
 * each place — it must either leave the text to them (undefined) or give what
 * they give without an error. A text it took that jsonc-parser refuses would
 * skip an error sentence `wisp config` owes the person.
 */
import { parse, type ParseError } from "jsonc-parser";
import { assert, assertEquals } from "../support/assert.ts";
import { readJsoncObject } from "../../src/config/jsonc_read.ts";
import { parseConfigText } from "../../src/config/load.ts";

const SAMPLES = [
  "",
  "  \n",
  "{}",
  '{"model": "ollama:qwen3:8b"}',
  '// mine\n{ /* a */ "model": "ollama:x", "approval": { "timeoutSeconds": 5, }, }\n',
  '{\n  "commandPolicy": {\n    "deny": ["^rm ", "\\\\bsudo\\\\b"],\n    "sandbox": { "writablePaths": ["~/x", "/tmp/y",] }\n  },\n  "context": { "target": 0.55 },\n  "audit": { "maxBytes": 1e6, "keep": 3 }\n}\n',
  '{"a": [1, -2.5, 3E-2, true, false, null, {"b": "\\u00e9\\n\\t\\"q\\"\\/"}], "a": "twice"}',
  '{"tools": {"custom": [{"name": "greet", "description": "d", "command": "echo {who}", "arguments": {"who": {"type": "string", "enum": ["a", "b"]}}}]}}',
  '/* block\n comment */ {"x": "é ü 😀"} // trailing\n',
];

/** What jsonc-parser and load.ts make of a text: the object, or undefined when either refuses it. */
function authority(text: string): unknown {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) return undefined;
  try {
    return parseConfigText(text, "config.json") && value;
  } catch {
    return undefined;
  }
}

/** A problem when the reader took `text` and the authority does not give the same. */
function disagreement(text: string): string | undefined {
  const mine = readJsoncObject(text);
  if (mine === undefined) return undefined;
  const theirs = text.trim() === "" ? {} : authority(text);
  if (theirs === undefined) return `taken, but jsonc-parser refuses ${JSON.stringify(text)}`;
  const [a, b] = [JSON.stringify(mine), JSON.stringify(theirs)];
  return a === b ? undefined : `${JSON.stringify(text)}: read as ${a}, jsonc-parser gives ${b}`;
}

Deno.test("plain config texts read exactly as jsonc-parser reads them", () => {
  for (const text of SAMPLES) {
    assert(readJsoncObject(text) !== undefined, `not taken: ${JSON.stringify(text)}`);
    assertEquals(disagreement(text), undefined);
  }
});

Deno.test("texts that are not an object, or are broken, are left to jsonc-parser", () => {
  for (
    const text of ["[]", "1", '"x"', "null", "{", '{"a":}', '{"a" 1}', "{,}", "[,]", '{"a":1}x']
  ) {
    assertEquals(readJsoncObject(text), undefined, text);
  }
  // Deeper than load.ts allows: its sentence names the depth.
  assertEquals(readJsoncObject(`{"a":${"[".repeat(70)}${"]".repeat(70)}}`), undefined);
  // A key that would set the prototype instead of adding a field.
  assertEquals(readJsoncObject('{"__proto__": {"x": 1}}'), undefined);
});

Deno.test("every sample with one character removed or put in is read as jsonc-parser reads it, or left to it", () => {
  const inserts = [
    '"',
    "\\",
    "/",
    "*",
    ",",
    ":",
    "{",
    "}",
    "[",
    "]",
    "\n",
    "0",
    "-",
    ".",
    "e",
    "u",
    "\u0001",
    "\u00a0",
    "a",
  ];
  const problems: string[] = [];
  let taken = 0;
  for (const sample of SAMPLES) {
    for (let at = 0; at <= sample.length; at++) {
      const variants = [sample.slice(0, at) + sample.slice(at + 1)];
      for (const insert of inserts) variants.push(sample.slice(0, at) + insert + sample.slice(at));
      for (const text of variants) {
        if (readJsoncObject(text) !== undefined) taken++;
        const problem = disagreement(text);
        if (problem) problems.push(problem);
      }
    }
  }
  assertEquals(problems.slice(0, 10), []);
  // The mutations are not all broken: the reader takes the ones that are still plain JSONC.
  assert(taken > 1000, `only ${taken} variants taken`);
});

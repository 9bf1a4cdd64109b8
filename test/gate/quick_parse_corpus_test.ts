/**
 * The quick reader against tree-sitter, line by line: every line it accepts
 * must give exactly tree-sitter's `ParsedLine`. The lines are the gate's
 * fixtures, the string literals of the gate's tests, and thousands generated
 * from a token grammar with near misses mixed in (quick_parse_corpus.ts).
 */
import { assert, assertEquals } from "../support/assert.ts";
import { initShellParser, treeParse } from "../../src/gate/parse.ts";
import { quickParse } from "../../src/gate/quick_parse.ts";
import { fixtureLines, generatedLine, seeded, testFileLines } from "./quick_parse_corpus.ts";

await initShellParser();

/** Compare the readers on each line; the count of lines the quick reader took. */
function compare(lines: string[]): number {
  let accepted = 0;
  for (const line of lines) {
    const quick = quickParse(line);
    if (!quick) continue;
    accepted++;
    const tree = treeParse(line);
    assert(tree.ok, `tree-sitter refuses a line the quick reader took: ${JSON.stringify(line)}`);
    assertEquals(quick, tree, `the readers disagree on ${JSON.stringify(line)}`);
  }
  return accepted;
}

function share(accepted: number, total: number): string {
  return `${accepted}/${total} (${(100 * accepted / total).toFixed(1)}%)`;
}

Deno.test("quick reader: the gate's labelled fixtures read as tree-sitter reads them", async () => {
  const lines = await fixtureLines();
  const accepted = compare(lines);
  console.log(`  fixture lines the quick reader takes: ${share(accepted, lines.length)}`);
  // The fixtures are heavy on evasions, yet most lines are plain; a reader that took none
  // would pass the comparison vacuously.
  assert(accepted > lines.length / 2, `only ${share(accepted, lines.length)} taken`);
});

Deno.test("quick reader: the gate tests' string literals read as tree-sitter reads them", async () => {
  const lines = await testFileLines();
  const accepted = compare(lines);
  console.log(`  test-file literals the quick reader takes: ${share(accepted, lines.length)}`);
  assert(accepted > lines.length / 4, `only ${share(accepted, lines.length)} taken`);
});

Deno.test("quick reader: generated lines and near misses read as tree-sitter reads them", () => {
  // Mostly ordinary lines (oddness 0.3), then lines where near misses are common (1).
  for (const [seed, oddness] of [[1, 0.3], [2, 0.3], [3, 0.3], [4, 1], [5, 1]]) {
    const random = seeded(seed);
    const lines = Array.from({ length: 6000 }, () => generatedLine(random, oddness));
    const accepted = compare(lines);
    console.log(`  seed ${seed}, oddness ${oddness}: taken ${share(accepted, lines.length)}`);
    assert(accepted > lines.length / 10, `only ${share(accepted, lines.length)} taken`);
    assert(accepted < lines.length, "every generated line taken: the near misses are not reached");
  }
});

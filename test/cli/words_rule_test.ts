/**
 * The near-miss rule and the English words that stay prompts (ADR 0210).
 */
import { assert, assertEquals } from "../support/assert.ts";
import { buildProgram, commandNames, nearMisses } from "../../src/cli/program.ts";
import { NEAR_WORDS } from "../../src/cli/near_words.ts";

Deno.test("a near miss needs one edit (two for a long name) and three letters", () => {
  const names = ["doctor", "logs", "approvals", "mcp"];
  assertEquals(nearMisses("doctr", names), ["doctor"]);
  assertEquals(nearMisses("dcotor", names), ["doctor"]);
  assertEquals(nearMisses("doktr", names), []);
  assertEquals(nearMisses("aprovls", names), ["approvals"]);
  assertEquals(nearMisses("lgo", names), []);
  assertEquals(nearMisses("lgos", names), ["logs"]);
  assertEquals(nearMisses("mc", names), []);
  assertEquals(nearMisses("logs", names), []);
});

Deno.test("the English words near command names were made for today's command names", () => {
  const names = [...new Set(commandNames(buildProgram()))].sort();
  assertEquals(
    [...NEAR_WORDS.madeFor],
    names,
    "commands changed: run deno run -A scripts/near_words.ts",
  );
  for (const word of NEAR_WORDS.words) {
    assert(nearMisses(word, names).length > 0, `${word} is near no command`);
    assert(!names.includes(word), `${word} is a command`);
  }
  for (const word of ["scam", "match", "craft", "model", "tool", "log", "approval", "hello"]) {
    assert(NEAR_WORDS.words.includes(word) || nearMisses(word, names).length === 0, word);
  }
});

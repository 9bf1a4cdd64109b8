import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { budgetBytes, fitted, fitText } from "../../src/tools/budget.ts";
import { byteLength, formatBytes } from "../../src/util/bytes.ts";
import { configSchema } from "../../src/config/schema.ts";

Deno.test("budget: an eighth of the window at 4 bytes a token, clamped to 4–64 KiB", () => {
  assertEquals(budgetBytes(8192), 4096); // 8192 tokens × 4 / 8
  assertEquals(budgetBytes(32768), 16384);
  assertEquals(budgetBytes(2048), 4096); // clamped up
  assertEquals(budgetBytes(1_000_000), 65536); // clamped down
  assertEquals(budgetBytes(0), 4096);
  assertEquals(budgetBytes(Number.NaN), 4096);
});

Deno.test("fitText: a text that fits is unchanged", () => {
  const text = "a\nb\nc\n";
  assertEquals(fitText(text, 100), { text, whole: true });
});

Deno.test("fitText: first and last lines, a marker, and a note naming the held-back lines", () => {
  const lines = Array.from({ length: 1000 }, (_, i) => `line ${i + 1} ${"x".repeat(40)}`);
  const text = lines.join("\n") + "\n";
  const result = fitText(text, 4096, { kept: { id: "3f9a2c1b", lines: 1000 }, memory: true });
  assert(!result.whole);
  assert(byteLength(result.text) <= 4096, `fitted to ${byteLength(result.text)} bytes`);
  assert(result.text.startsWith("line 1 "));
  const held = result.heldBack!;
  // The head ends right before the first held-back line, the tail starts right after the last.
  assertStringIncludes(result.text, `line ${held.fromLine - 1} `);
  assert(!result.text.includes(`line ${held.fromLine} x`), "the first held-back line is not shown");
  assertStringIncludes(result.text, `line ${held.toLine + 1} `);
  assertStringIncludes(result.text, "line 1000 ");
  assertMatch(result.text, /\[… [\d,]+ lines \([\d,]+ KiB\) held back …\]/);
  assertStringIncludes(
    result.text,
    `held back: output lines ${held.fromLine}–${held.toLine.toLocaleString("en-US")}`,
  );
  assertStringIncludes(result.text, "the whole output is kept as output 3f9a2c1b (1,000 lines)");
  assertStringIncludes(result.text, `"recall output 3f9a2c1b from line ${held.fromLine}"`);
  assertEquals(held.lines, held.toLine - held.fromLine + 1);
});

Deno.test("fitText: without a store the note says nothing was kept", () => {
  const text = "y".repeat(100) + "\n" + "z\n".repeat(5000);
  const result = fitText(text, 4096);
  assertStringIncludes(result.text, "they were not kept");
  assert(byteLength(result.text) <= 4096);
});

Deno.test("fitText: one enormous line is cut inside the line, within the budget", () => {
  const text = "é".repeat(100_000);
  const result = fitText(text, 4096);
  assert(byteLength(result.text) <= 4096);
  assert(result.text.startsWith("éé"));
  assert(!result.text.includes("\uFFFD"), "no character is split");
});

Deno.test("fitted: keeps the whole in the output store and names it", async () => {
  const kept: string[] = [];
  const store = {
    keep(text: string) {
      kept.push(text);
      return Promise.resolve({ id: "abcd1234", lines: text.split("\n").length - 1 });
    },
  };
  const config = configSchema.parse({ context: { memory: false } });
  const text = "q\n".repeat(10_000);
  const result = await fitted(text, {
    budgetBytes: 4096,
    outputStore: store,
    session: "s1",
    callId: "c1",
    config,
  }, "x");
  assertEquals(kept, [text]);
  assertEquals(result.outputId, "abcd1234");
  assertStringIncludes(result.text, "kept as output abcd1234 (10,000 lines); do not run it again");
  const small = await fitted("short", {
    budgetBytes: 4096,
    outputStore: store,
    session: "s1",
    config,
  }, "x");
  assertEquals(small, { text: "short" });
  assertEquals(kept.length, 1, "nothing is stored when everything fits");
});

Deno.test("formatBytes", () => {
  assertEquals(formatBytes(1), "1 byte");
  assertEquals(formatBytes(812), "812 bytes");
  assertEquals(formatBytes(180 * 1024), "180 KiB");
  assertEquals(formatBytes(3.5 * 1024 * 1024), "3.5 MiB");
});

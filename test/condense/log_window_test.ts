/**
 * condense_log on a log longer than it reads: the start and the end read to
 * whole lines, the middle counted and named (bytes and lines held back) in
 * the text and the structured result, and line numbers after the gap that
 * are the file's own.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { join } from "node:path";
import { readLogWindow } from "../../src/condense/input.ts";
import { condenseLog, gapNote } from "../../src/condense/log.ts";
import { condenseLogTool } from "../../src/condense/tools.ts";
import { tempDir } from "../support/wisp.ts";

/** n lines of a service log; `special` lines (1-based) get their own messages. */
function serviceLog(n: number, special: Record<number, string> = {}): string {
  const out: string[] = [];
  for (let i = 1; i <= n; i++) {
    const t = `2026-11-30T10:${String(Math.floor(i / 60_000) % 60).padStart(2, "0")}:${
      String(Math.floor(i / 1000) % 60).padStart(2, "0")
    }Z`;
    out.push(special[i] ?? `${t} INFO request ${i} served in ${i % 97} ms by worker ${i % 7}`);
  }
  return out.join("\n") + "\n";
}

Deno.test("readLogWindow: under the limit whole; over it the start and end cut to whole lines, the middle counted", async () => {
  const dir = await tempDir();
  try {
    const text = serviceLog(50_000);
    const path = join(dir, "service.log");
    Deno.writeTextFileSync(path, text);
    const whole = await readLogWindow(path, text.length);
    assertEquals(whole.text, text);
    assertEquals(whole.heldBack, undefined);

    const limit = 256 * 1024;
    const w = await readLogWindow(path, limit);
    const size = new TextEncoder().encode(text).length;
    assertEquals(w.bytes, size);
    const read = w.text.split("\n").slice(0, -1);
    // Whole lines only: each read line is a line of the file.
    const all = text.split("\n").slice(0, -1);
    const head = read.slice(0, w.heldBack!.afterLine);
    const tail = read.slice(w.heldBack!.afterLine);
    assertEquals(head, all.slice(0, head.length));
    assertEquals(tail, all.slice(all.length - tail.length));
    assertEquals(w.heldBack!.afterLine, head.length);
    assertEquals(w.heldBack!.lines, all.length - head.length - tail.length);
    assertEquals(w.heldBack!.exact, true);
    assertEquals(
      w.heldBack!.bytes,
      size - new TextEncoder().encode(w.text).length,
      "the bytes not read are exactly what the text lacks",
    );
    assert(w.text.length <= limit, `${w.text.length}`);

    // Past the scan limit the count is an estimate, said as one.
    const est = await readLogWindow(path, limit, 64 * 1024);
    assertEquals(est.heldBack!.exact, false);
    const off = Math.abs(est.heldBack!.lines - w.heldBack!.lines) / w.heldBack!.lines;
    assert(off < 0.05, `estimate ${est.heldBack!.lines} vs ${w.heldBack!.lines}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("condenseLog with a gap: the note, and line numbers after it in the file's own count", () => {
  const text = "a ERROR one\nb INFO x\nc ERROR two\n";
  const r = condenseLog(text, {
    heldBack: { bytes: 5000, lines: 100, exact: true, afterLine: 2 },
  });
  assertMatch(r.text, /^3 lines read; /);
  assert(
    r.text.includes(
      "held back: 5000 bytes, 100 lines (lines 3–102) in the middle of the log were not read",
    ),
    r.text,
  );
  assertMatch(r.text, /\n {2}L1 error ×\d: a ERROR one/);
  // "c ERROR two" is line 3 of the text, after the gap: line 103 of the file.
  assertEquals(r.templates.find((t) => t.example.startsWith("c "))?.firstLine, 103);
  assertEquals(r.heldBack?.lines, 100);
  assertMatch(
    gapNote({ bytes: 9, lines: 40, exact: false, afterLine: 2 }),
    /about 40 lines in the middle .*line numbers after it are approximate$/,
  );
  const approx = condenseLog(text, {
    heldBack: { bytes: 9, lines: 40, exact: false, afterLine: 2 },
  });
  assertMatch(approx.text, /L~43 /);
  assertMatch(
    gapNote({ bytes: 9, lines: 40, exact: false }),
    /line numbers count the lines read$/,
  );
});

Deno.test("condense_log on a 3 MiB log says what it held back, in the text and the structured result", async () => {
  const dir = await tempDir();
  try {
    const n = 50_000;
    const text = serviceLog(n, {
      20_000: "2026-11-30T10:00:20Z ERROR lost in the middle",
      [n - 3]: "2026-11-30T10:00:40Z ERROR disk full near the end",
    });
    const size = new TextEncoder().encode(text).length;
    assert(size > 3 * 1024 * 1024, `${size}`);
    Deno.writeTextFileSync(join(dir, "big.log"), text);
    const r = await condenseLogTool({ path: "big.log" }, { cwd: dir });
    const held = r.structured.heldBack as { bytes: number; lines: number; exact: boolean };
    const linesRead = r.structured.lines as number;
    assertEquals(held.exact, true);
    assertEquals(linesRead + held.lines, n, "read and held back are every line");
    assert(held.bytes > size - 1024 * 1024 && held.bytes < size, `${held.bytes}`);
    assertMatch(
      r.text,
      new RegExp(
        `\\nheld back: ${held.bytes} bytes, ${held.lines} lines \\(lines \\d+–\\d+\\) in the middle`,
      ),
    );
    assertMatch(r.text, new RegExp(`\\n {2}L${n - 3} error ×1: .*disk full near the end`));
    assert(!r.text.includes("lost in the middle"), "the middle was not read");

    const again = await condenseLogTool({ path: "big.log" }, { cwd: dir });
    assertEquals(again.structured.lines, linesRead, "the same window each time");
    Deno.writeTextFileSync(join(dir, "small.log"), serviceLog(10));
    const whole = await condenseLogTool({ path: "small.log" }, { cwd: dir });
    assertEquals(whole.structured.heldBack, undefined);
    assert(!whole.text.includes("held back"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

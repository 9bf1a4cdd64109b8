import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { renderResult, shareRoom, storedLineOffsets } from "../../src/tools/command_result.ts";
import type { CapturedStream } from "../../src/exec/capture.ts";
import { countNewlines } from "../../src/audit/output_store.ts";

const enc = (s: string) => new TextEncoder().encode(s);

function stream(text: string, keep = Infinity): CapturedStream {
  const bytes = enc(text);
  const lines = countNewlines(bytes) + (bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? 1 : 0);
  if (bytes.length <= keep * 2) {
    return { bytes: bytes.length, lines, head: bytes, tail: new Uint8Array(), complete: true };
  }
  return {
    bytes: bytes.length,
    lines,
    head: bytes.slice(0, keep),
    tail: bytes.slice(bytes.length - keep),
    complete: false,
  };
}

const numbered = (n: number, prefix = "line ") =>
  Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`).join("\n") + "\n";

Deno.test("a result that fits is the whole rendering, empty streams left out", () => {
  const r = renderResult({
    exitStatus: 0,
    stdout: stream("hi\n"),
    stderr: stream(""),
    notes: [],
    budget: 4096,
    memory: true,
  });
  assertEquals(r.text, "exit status: 0\nstdout:\nhi");
  const e = renderResult({
    exitStatus: 1,
    stdout: stream(""),
    stderr: stream("bad"),
    notes: ["sandbox: x"],
    budget: 4096,
    memory: true,
  });
  assertEquals(e.text, "exit status: 1\nstderr:\nbad\nsandbox: x");
});

Deno.test("a long stream: first and last lines cut at line ends, a marker, and the note with stored line numbers", () => {
  const text = numbered(3000);
  const r = renderResult({
    exitStatus: 1,
    stdout: stream(text, 4096),
    stderr: stream(""),
    notes: ["timed out: the command was killed after 1 s"],
    budget: 4096,
    memory: true,
    kept: { id: "3f9a2c1b", lines: 3002, truncated: false },
  });
  assert(enc(r.text).length <= 4096);
  assert(r.heldBack);
  const m =
    /held back: stdout lines ([\d,]+)–([\d,]+) \((\d+ KiB)\); the whole output is kept as output 3f9a2c1b \(3,002 lines\); memory "recall output 3f9a2c1b from line ([\d,]+)" pages it/
      .exec(r.text);
  assert(m, r.text);
  const from = Number(m[1].replaceAll(",", ""));
  const to = Number(m[2].replaceAll(",", ""));
  assertEquals(m[4], m[1]);
  // stored line k+2 is stdout line k: the first held-back line follows the last shown
  const shown = r.text.split("\n");
  const markerAt = shown.findIndex((l) => l.startsWith("[… "));
  assertEquals(shown[markerAt - 1], `line ${from - 2 - 1}`);
  assertEquals(shown[markerAt + 1], `line ${to - 2 + 1}`);
  assertStringIncludes(shown[markerAt], `[… ${(to - from + 1).toLocaleString("en-US")} lines (`);
  // every shown line is whole
  for (const line of shown.slice(2, markerAt)) assert(/^line \d+$/.test(line), line);
  assert(r.text.indexOf("timed out:") < r.text.indexOf("held back:"));
  assert(r.text.endsWith("do not run the command again to see it"));
});

Deno.test("without memory the note only says where the whole is; without a store, that it was not kept", () => {
  const input = {
    exitStatus: 0,
    stdout: stream(numbered(2000), 4096),
    stderr: stream(""),
    notes: [],
    budget: 4096,
  };
  const noMemory = renderResult({
    ...input,
    memory: false,
    kept: { id: "abcd", lines: 2002, truncated: true },
  });
  assertStringIncludes(
    noMemory.text,
    "the whole output is kept as output abcd (2,002 lines); it was cut at 16 MiB and the rest was not kept; do not run the command again to see it",
  );
  const noStore = renderResult({ ...input, memory: true, kept: null });
  assertStringIncludes(noStore.text, "the held-back lines were not kept");
});

Deno.test("room is shared in proportion, and a stream with something to show gets at least a fifth", () => {
  assertEquals(shareRoom(1000, 300, 200), [300, 200]);
  assertEquals(shareRoom(1000, 9000, 1000), [800, 200]); // 900/100 in proportion, but a fifth at least
  assertEquals(shareRoom(1000, 5000, 50), [950, 50]);
  assertEquals(shareRoom(1000, 0, 5000), [0, 1000]);
  const [a, b] = shareRoom(1000, 4000, 4000);
  assertEquals([a, b], [500, 500]);
});

Deno.test("stderr's stored line numbers come after stdout's", () => {
  const out = stream(numbered(10));
  const err = stream(numbered(5));
  // 1 exit status, 2 stdout:, 3–12 stdout, 13 stderr:, 14 the first stderr line
  assertEquals(storedLineOffsets(out, err), { stdout: 3, stderr: 14 });
  assertEquals(storedLineOffsets(stream(""), err), { stdout: 3, stderr: 3 });
});

Deno.test("one enormous line is cut inside the line, at a character boundary, within the budget", () => {
  const text = "é".repeat(20000) + "\n";
  const r = renderResult({
    exitStatus: 0,
    stdout: stream(text, 4096),
    stderr: stream(""),
    notes: [],
    budget: 4096,
    memory: false,
    kept: { id: "x1", lines: 3, truncated: false },
  });
  assert(enc(r.text).length <= 4096);
  assert(!r.text.includes("\ufffd"), "a character was split");
  assertStringIncludes(r.text, "held back: stdout lines 3–3");
});

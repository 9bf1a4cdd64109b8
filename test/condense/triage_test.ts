import { assert, assertEquals, assertMatch, assertRejects } from "../support/assert.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  boundBytes,
  CAPTURE_LIMIT,
  CHUNK_CHARS,
  headline,
  triage,
  triageText,
  unexplainedChunks,
} from "../../src/condense/triage.ts";
import {
  type ChunkJudge,
  JUDGE_INSTRUCTIONS,
  modelJudge,
  parseJudgement,
} from "../../src/condense/judge.ts";
import { ScriptedBackend, textReply } from "../../src/models/scripted.ts";
import type { Finding } from "../../src/condense/findings.ts";
import { triageJson } from "../../src/condense/service.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/condense/", import.meta.url));
const fixture = (name: string) => Deno.readTextFileSync(join(FIXTURES, name));

Deno.test("headline: command, exit status, counts by kind", () => {
  const r = triageText(fixture("cargo/test_fail.log"), { command: "cargo test", exitStatus: 101 });
  assertEquals(r.headline.split(";").slice(0, 2).join(";"), "cargo test: exit 101; 3 failed tests");
  const pass = triageText(fixture("cargo/pass.log"), { command: "cargo test", exitStatus: 0 });
  assertMatch(pass.headline, /^cargo test: exit 0; no failures found/);
  assertEquals(pass.findings, []);
  assertEquals(
    headline({
      source: "build.log",
      counts: { errors: 1, test_failures: 0, warnings: 2 },
      heldBack: 0,
      shown: 3,
    }),
    "build.log: 1 error, 2 warnings",
  );
  assertEquals(
    headline({
      command: "make",
      exitStatus: null,
      counts: { errors: 0, test_failures: 0, warnings: 0 },
      heldBack: 0,
      shown: 0,
    }),
    "make: ended without an exit status; no failures found",
  );
});

Deno.test("ranked and capped: the one error of a noisy build comes before 120 warnings, the rest held back and counted", () => {
  const r = triageText(fixture("gcc/noisy.log"), { command: "make -k", exitStatus: 2, cap: 5 });
  assertEquals(r.findings.length, 5);
  assertEquals(r.findings.slice(0, 2).map((f) => f.kind), ["error", "error"]);
  assertEquals(r.findings[0].location, "unit_77.c:1:27");
  assertEquals(r.heldBack, 117);
  assertEquals(r.counts, { errors: 2, test_failures: 0, warnings: 120 });
  assertMatch(r.headline, /2 errors, 120 warnings \(showing 5 of 122\)/);
});

Deno.test("one failure reported twice (the same log read twice) is one finding", () => {
  const once = triageText(fixture("pytest/fail.log")).findings;
  const twice = triageText(fixture("pytest/fail.log") + "\n" + fixture("pytest/fail.log")).findings;
  assertEquals(twice.length, once.length);
});

Deno.test("unexplained chunks: at most 4 KiB, cut at line ends, only lines no reader explained", () => {
  const lines = Array.from({ length: 2000 }, (_, i) => `line ${i} ${"x".repeat(i % 50)}`);
  const explained = new Set<number>(Array.from({ length: 1000 }, (_, i) => i * 2));
  const chunks = unexplainedChunks(lines, explained);
  assert(chunks.length > 1);
  for (const c of chunks) assert(c.length <= CHUNK_CHARS, `chunk of ${c.length}`);
  const seen = chunks.join("\n").split("\n").filter((l) => l !== "…");
  assertEquals(seen, lines.filter((_, i) => !explained.has(i)));
  // a single line longer than a chunk is cut where it must be
  const long = unexplainedChunks(["y".repeat(10_000)], new Set());
  assertEquals(long.map((c) => c.length), [4096, 4096, 1808]);
});

Deno.test("a known format leaves little unexplained; an unknown one is all unexplained", () => {
  const known = triageText(fixture("go/test_fail.log"));
  assertEquals(known.unexplained, []);
  const unknown = triageText("Something odd happened\nthe flux capacitor is misaligned\n", {
    exitStatus: 3,
  });
  assertEquals(unknown.findings, []);
  assertEquals(unknown.unexplained, ["Something odd happened\nthe flux capacitor is misaligned"]);
});

Deno.test("over 1 MiB: the head and the tail are read, the middle's size is named", () => {
  const head = "src/a.c:1:1: error: first\n";
  const tail = "src/z.c:9:9: error: last\n";
  const filler = "noise line\n".repeat(200_000);
  const bytes = new TextEncoder().encode(head + filler + tail);
  const bounded = boundBytes(bytes);
  assert(bounded.droppedBytes > 0 && bytes.length - bounded.droppedBytes <= CAPTURE_LIMIT);
  const r = triageText(bounded.text, { droppedBytes: bounded.droppedBytes, source: "big.log" });
  assertEquals(r.findings.map((f) => f.location), ["src/a.c:1:1", "src/z.c:9:9"]);
  assertMatch(r.headline, /KiB in the middle of the output not read/);
});

Deno.test("without a model: reports from the readers and says what was left unexplained", async () => {
  const r = await triage(fixture("pytest/fail.log") + "\nweird trailing output\n", {
    command: "pytest",
    exitStatus: 1,
  });
  assertEquals(r.findings.length, 5);
  assertMatch(r.headline, /exact readers only \(no model configured\)/);
  assertEquals(r.judged.chunks, 0);
});

Deno.test("with a judge: only unexplained chunks go to it, and its findings are merged and deduplicated", async () => {
  const seen: string[] = [];
  const judge: ChunkJudge = {
    model: "fake:judge",
    judge(chunk) {
      seen.push(chunk);
      const out: Finding[] = [];
      if (chunk.includes("DISK FULL")) {
        out.push({ kind: "error", message: "disk full while writing the cache" });
      }
      // A repeat of a reader's finding is dropped by the merge.
      out.push({ kind: "test_failure", test: "tests::adds_large_numbers", message: "again" });
      return Promise.resolve(out);
    },
  };
  const text = fixture("cargo/test_fail.log") + "\nFATAL: DISK FULL writing /var/cache\n";
  const r = await triage(text, { command: "cargo test", exitStatus: 101, judge });
  assert(seen.length >= 1);
  assert(
    seen.every((c) => !c.includes("---- tests::") && !c.includes("panicked at")),
    "explained lines went to the judge",
  );
  assert(seen.some((c) => c.includes("DISK FULL")));
  assertEquals(r.counts, { errors: 1, test_failures: 3, warnings: 0 });
  assertMatch(r.headline, /the model \(fake:judge\) judged/);
});

Deno.test("a judge that fails on a chunk is counted, not fatal", async () => {
  const judge: ChunkJudge = {
    model: "fake:broken",
    judge: () => Promise.reject(new Error("server gone")),
  };
  const r = await triage("unknown trouble\n", { judge });
  assertEquals(r.judged, { chunks: 0, failed: 1, skipped: 0, model: "fake:broken" });
  assertMatch(r.headline, /1 chunks failed/);
});

Deno.test("modelJudge: one tool-less request per chunk with the fixed schema; places the chunk lacks are dropped", async () => {
  const backend = new ScriptedBackend([
    textReply(JSON.stringify({
      findings: [
        { kind: "error", location: "build.sh:12", message: "permission denied" },
        { kind: "error", location: "made/up.c:1", message: "invented place" },
      ],
    })),
  ]);
  const judge = modelJudge(backend);
  const found = await judge.judge("build.sh:12: permission denied\n", {
    index: 0,
    total: 1,
    command: "sh build.sh",
    exitStatus: 126,
  });
  assertEquals(found, [
    { kind: "error", location: "build.sh:12", message: "permission denied" },
    { kind: "error", message: "invented place" },
  ]);
  const request = backend.requests[0];
  assertEquals(request.tools, undefined);
  assertEquals(request.think, false);
  assert(request.schema && JSON.stringify(request.schema).includes("test_failure"));
  assertEquals(request.messages[0], { role: "system", content: JUDGE_INSTRUCTIONS });
  assertMatch(request.messages[1].content, /^Command: sh build\.sh \(exit 126\)/);
});

Deno.test("parseJudgement refuses a reply that is not the schema", async () => {
  await assertRejects(() => Promise.resolve().then(() => parseJudgement("no json here", "x")));
  await assertRejects(() =>
    Promise.resolve().then(() =>
      parseJudgement('{"findings":[{"kind":"fatal","message":"x"}]}', "x")
    )
  );
});

Deno.test("a traceback printed by a command that exited 0 (a logged exception) is not a crash", () => {
  const text = Deno.readTextFileSync(join(FIXTURES, "crash/python.log"));
  assertEquals(triageText(text, { exitStatus: 1 }).counts.errors, 1);
  assertEquals(triageText(text, { exitStatus: 0 }).findings, []);
  assertEquals(triageText(text, {}).counts.errors, 1);
});

Deno.test("a command that exited 0: nothing goes to the model", async () => {
  let called = 0;
  const judge: ChunkJudge = {
    model: "fake:judge",
    judge() {
      called++;
      return Promise.resolve([{ kind: "error", message: "invented" }]);
    },
  };
  const r = await triage("Compiling app\nsome ordinary output\n", {
    command: "make",
    exitStatus: 0,
    judge,
  });
  assertEquals(called, 0);
  assertEquals(r.findings, []);
  assertMatch(r.headline, /^make: exit 0; no failures found; exit 0: nothing sent to the model$/);
});

Deno.test("the JSON's findings carry the expected and received values (detail), not only the text form", () => {
  const fixtures = new URL("../fixtures/condense/", import.meta.url);
  const json = (name: string) =>
    triageJson(triageText(Deno.readTextFileSync(new URL(name, fixtures)))).findings;
  const jest = json("jest/fail.log").find((f) => f.test === "sum › adds large numbers")!;
  assertEquals(jest.detail, ["Expected: 42", "Received: 43"]);
  const cargo = json("cargo/test_fail.log").find((f) => f.test === "tests::adds_large_numbers")!;
  assertEquals(cargo.detail, ["left: 43", "right: 42"]);
  const rspec = json("ruby/rspec_fail.log").find((f) => f.test === "Calc.add adds large numbers")!;
  assertEquals(rspec.message, "expected: 42");
  assert(rspec.detail!.includes("got: 43"), String(rspec.detail));
  // A finding without detail has no empty detail field.
  const go = json("go/test_fail.log").find((f) => f.test === "TestAddLarge")!;
  assertEquals(go.message, "Add(20, 22) = 43, want 42");
  assertEquals("detail" in go, false);
});

/**
 * hot_paths from a profile: the readers on profiles captured here from real
 * runs (test/fixtures/condense/profiles: busy.js under node --cpu-prof and
 * deno run --cpu-prof, busy.py under python3 -m cProfile; produce.sh is the
 * command), a hand-made call tree for the recursion arithmetic, and the tool.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "../support/assert.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  hottest,
  parseCProfile,
  parseCpuProfile,
  parseProfile,
  type Profile,
  ProfileError,
  renderProfile,
} from "../../src/condense/profile.ts";
import { hotPathsTool, ToolInputError } from "../../src/condense/tools.ts";

const DIR = fileURLToPath(new URL("../fixtures/condense/profiles/", import.meta.url));
const read = (name: string) => Deno.readTextFileSync(join(DIR, name));
const fn = (p: Profile, name: string) => {
  const found = p.functions.filter((f) => f.name === name);
  assertEquals(found.length, 1, `${name} appears once: ${JSON.stringify(found)}`);
  return found[0];
};

for (const file of ["node.cpuprofile", "deno.cpuprofile"]) {
  Deno.test(`cpuprofile (${file}): self and total time by function, file:line 1-based, recursion counted once`, () => {
    const raw = JSON.parse(read(file));
    const p = parseCpuProfile(read(file));
    assertEquals(p.format, "cpuprofile");
    assertEquals(p.samples, raw.samples.length);
    assertEquals(p.totalMs, (raw.endTime - raw.startTime) / 1000);

    const tally = fn(p, "tally");
    const fib = fn(p, "fib");
    const main = fn(p, "main");
    // busy.js: fib on line 4, tally on line 8, main on line 17 (V8 counts lines from 0).
    assertEquals(fib.location, "/project/busy.js:4");
    assertEquals(tally.location, "/project/busy.js:8");
    assertEquals(main.location, "/project/busy.js:17");
    // The samples on tally's nodes agree with V8's own hit counts for them (V8 counts a few
    // ticks into hitCount that it does not list as samples, so within a few).
    const tallyIds = new Set(
      raw.nodes.filter((n: { callFrame: { functionName: string } }) =>
        n.callFrame.functionName === "tally"
      ).map((n: { id: number }) => n.id),
    );
    const hits = raw.nodes.filter((n: { id: number }) => tallyIds.has(n.id))
      .reduce((s: number, n: { hitCount: number }) => s + n.hitCount, 0);
    const sampled = raw.samples.filter((id: number) => tallyIds.has(id)).length;
    assert(Math.abs(sampled - hits) <= Math.max(3, hits / 10), `${sampled} samples, ${hits} hits`);
    assert(tally.selfMs > 0 && hits > 0);
    // fib calls only itself: recursion must not count a tick once per frame.
    assert(Math.abs(fib.totalMs - fib.selfMs) < 1e-9, JSON.stringify(fib));
    // main calls both; its total holds theirs and its own.
    assert(main.totalMs + 1e-9 >= main.selfMs + tally.totalMs + fib.totalMs, JSON.stringify(p));
    for (const f of p.functions) assert(f.totalMs + 1e-9 >= f.selfMs, JSON.stringify(f));
    // The selves add up to the sampled time (nothing lost, nothing counted twice).
    const selves = p.functions.reduce((s, f) => s + f.selfMs, 0);
    assert(selves <= p.totalMs + 1, `${selves} > ${p.totalMs}`);
    assertEquals(p.functions.some((f) => f.name === "(root)" || f.name === "(idle)"), false);
    // The program's shape: tally's loop is the hottest of its own code.
    const own = hottest(p, 50).bySelf.filter((f) => f.location.startsWith("/project/"));
    assertEquals(own[0].name, "tally");
  });
}

Deno.test("cpuprofile arithmetic on a hand-made tree: ticks last until the next one; a recursive function's total once", () => {
  const frame = (functionName: string, lineNumber: number) => ({
    functionName,
    url: "file:///src/a.js",
    lineNumber,
    columnNumber: 0,
    scriptId: "1",
  });
  const profile = {
    nodes: [
      { id: 1, callFrame: frame("(root)", -1), children: [2] },
      { id: 2, callFrame: frame("main", 0), children: [3] },
      { id: 3, callFrame: frame("walk", 9), children: [4] },
      { id: 4, callFrame: frame("walk", 9), children: [5] },
      { id: 5, callFrame: frame("leaf", 20) },
    ],
    startTime: 1000,
    endTime: 1000 + 100 + 400 + 200 + 300,
    // ticks at 1100 (main), 1500 (walk outer), 1700 (walk inner), 2000 (leaf); the last lasts 0.
    samples: [2, 3, 4, 5],
    timeDeltas: [100, 400, 200, 300],
  };
  const p = parseCpuProfile(JSON.stringify(profile));
  const byName = Object.fromEntries(p.functions.map((f) => [f.name, f]));
  assertEquals(byName.main.selfMs, 0.4);
  assertEquals(byName.walk.selfMs, 0.5); // 200 µs + 300 µs over its two frames
  assertEquals(byName.leaf.selfMs, 0);
  assertEquals(byName.walk.totalMs, 0.5, "the inner frame is inside the outer one");
  assertEquals(byName.main.totalMs, 0.9);
  assertEquals(byName.walk.location, "/src/a.js:10");
  assertEquals(p.totalMs, 1);
});

Deno.test("cProfile text: tottime is self, cumtime total, the calls, builtins without a place", () => {
  const text = read("cprofile.txt");
  const p = parseCProfile(text);
  assertEquals(p.format, "cprofile");
  const row = (name: string) =>
    text.split("\n").find((l) => l.trimEnd().endsWith(name))!.trim().split(/\s+/);
  const tally = fn(p, "tally");
  assertEquals(tally.location, "busy.py:8");
  assertEquals(tally.selfMs, Number(row("busy.py:8(tally)")[1]) * 1000);
  assertEquals(tally.totalMs, Number(row("busy.py:8(tally)")[3]) * 1000);
  // fib(20) three times: 3 × (2·fib(21) − 1) calls, printed as total/primitive.
  const fib = fn(p, "fib");
  assertEquals(fib.location, "busy.py:4");
  assertEquals(fib.calls, 3 * (2 * 10946 - 1));
  const exec = fn(p, "built-in method builtins.exec");
  assertEquals(exec.location, "");
  assertEquals(p.functions.some((f) => f.name.includes("_lsprof.Profiler")), false);
  assertEquals(p.totalMs, Number(/in (\d+\.\d+) seconds/.exec(text)![1]) * 1000);
  // The program printed its result before the table; it is not a row.
  assertEquals(
    p.functions.length,
    text.split("\n").filter((l) => /\.py:\d+\(|\{/.test(l)).length - 1,
  );
  assertEquals(hottest(p).bySelf[0].name, "tally");
});

Deno.test("parseProfile tells the formats apart by content; anything else is one sentence", () => {
  assertEquals(parseProfile(read("deno.cpuprofile")).format, "cpuprofile");
  assertEquals(parseProfile(read("cprofile.txt")).format, "cprofile");
  for (const bad of ["hello\n", '{"a": 1}', "{ not json"]) {
    let caught: unknown;
    try {
      parseProfile(bad);
    } catch (error) {
      caught = error;
    }
    assert(caught instanceof ProfileError, bad);
    assertMatch((caught as Error).message, /^[^\n]+$/);
  }
});

Deno.test("renderProfile: the hottest by self and by total, with places, percentages and what was held back", () => {
  const r = renderProfile(parseProfile(read("node.cpuprofile")), 3);
  const lines = r.text.split("\n");
  assertMatch(
    lines[0],
    /^V8 CPU profile, \d+ samples over [\d.]+ ms; \d+ functions; the hottest:$/,
  );
  assertEquals(lines[1], "by self time:");
  assertEquals(lines.indexOf("by total time:"), 5);
  assertMatch(
    lines[2],
    /^ {2}tally at \/project\/busy\.js:8: [\d.]+ ms self \(\d+%\), [\d.]+ ms total$/,
  );
  assertMatch(lines[lines.length - 1], /^ {2}… \d+ more functions with self time \(held back\)$/);
});

Deno.test("hot_paths with path reads a profile relative to the working directory; since with a profile is refused", async () => {
  const r = await hotPathsTool({ path: "cprofile.txt", top: 2 }, { cwd: DIR });
  assertMatch(
    r.text,
    /^cProfile, [\d.]+ ms; \d+ functions; the hottest:\nby self time:\n {2}tally at busy\.py:8: /,
  );
  assertEquals(r.structured.source, "profile");
  assertEquals(r.structured.format, "cprofile");
  const bySelf = r.structured.bySelf as { name: string; location: string }[];
  assertEquals(bySelf.length, 2);
  assertEquals([bySelf[0].name, bySelf[0].location], ["tally", "busy.py:8"]);
  const js = await hotPathsTool({ path: join(DIR, "deno.cpuprofile") });
  assertEquals(js.structured.format, "cpuprofile");
  await assertRejects(
    () => hotPathsTool({ path: "cprofile.txt", since: "3.months" }, { cwd: DIR }),
    ToolInputError,
    "since is for git churn",
  );
  await assertRejects(
    () => hotPathsTool({ path: "busy.py" }, { cwd: DIR }),
    ToolInputError,
    "busy.py: not a profile wisp reads",
  );
});

/**
 * The evaluation harness checks itself with no real model: each case's
 * reference answer (replayed by the scripted backend through the real
 * session, tools, gate and sandbox) must pass, and its wrong answer must
 * fail, with the reason naming what was wrong. `deno task eval --model
 * ollama:…` is run as a person runs it, against the fake Ollama server, and
 * must print the table (and compare with a baseline).
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { scanText } from "../../src/condense/scan.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { PROJECT_ROOT, tempDir } from "../support/wisp.ts";
import { caseSchema, type EvalCase, loadSet, SET_NAMES, type SetName } from "../../eval/cases.ts";
import { type BackendFor, type CaseResult, runCase } from "../../eval/run.ts";
import { checkOutcome } from "../../eval/check.ts";
import { type AnswerKind, scriptedAnswers } from "../../eval/scripted.ts";
import {
  classOf,
  type Floors,
  loadFloors,
  renderComparison,
  renderShapes,
  renderTable,
  type RunReport,
  summarise,
} from "../../eval/report.ts";
import { sessionRegistry } from "../../src/session/session.ts";
import { configSchema } from "../../src/config/schema.ts";

/** A check as a case file would give it, defaults filled in. */
function configCheck(given: Record<string, unknown>): EvalCase["check"] {
  return caseSchema.parse({ id: "x", about: "x", check: given, reference: [] }).check;
}

function find(set: SetName, id: string): EvalCase {
  const c = loadSet(set).cases.find((c) => c.id === id);
  if (!c) throw new Error(`no case ${set}/${id}`);
  return c;
}

function run(set: SetName, c: EvalCase, kind: AnswerKind): Promise<CaseResult> {
  return runCase(c, set, scriptedAnswers(kind));
}

/** The first case of every shape a set measures, and every sixth besides. */
function sample(cases: EvalCase[]): EvalCase[] {
  const seen = new Set<string>();
  return cases.filter((c, i) => {
    const first = !seen.has(c.about);
    seen.add(c.about);
    return first || i % 6 === 0;
  });
}

Deno.test("every set has the spec's size, and the sets load without a malformed case", () => {
  const sizes = Object.fromEntries(SET_NAMES.map((s) => [s, loadSet(s).cases.length]));
  assert(sizes.edit_file >= 80, `edit_file has ${sizes.edit_file} cases`);
  for (const set of SET_NAMES) assert(sizes[set] >= 40, `${set} has ${sizes[set]} cases`);
});

for (const set of SET_NAMES) {
  Deno.test(`${set}: a sample of cases passes with its reference answer and fails with its wrong one`, async () => {
    const problems: string[] = [];
    let ran = 0;
    for (const c of sample(loadSet(set).cases)) {
      const good = await run(set, c, "reference");
      if (good.status === "skip") continue;
      ran++;
      if (good.status !== "pass") problems.push(`${c.id} reference: ${good.reasons.join("; ")}`);
      const bad = await run(set, c, "wrong");
      if (bad.status !== "fail") problems.push(`${c.id}: the wrong answer was not caught`);
      else if (bad.reasons.length === 0) problems.push(`${c.id}: failed with no reason`);
    }
    assert(ran >= 8, `only ${ran} cases of ${set} ran`);
    assertEquals(problems, []);
  });
}

Deno.test("each kind of check says which wrong outcome it caught", async () => {
  const expectations: [SetName, string, RegExp][] = [
    // files: byte for byte
    ["edit_file", "line-text-001", /src\/stats\.py is not as intended: line 6/],
    // a CRLF file left unchanged
    ["edit_file", "crlf-line-054", /is not as intended/],
    // a refusal the reply does not report
    ["edit_file", "outside-086", /the reply says none of "outside"/],
    // a reply stating a memory size the machine does not have
    ["system_info", "ram-001", /does not state the total memory/],
    // a different IP address
    ["system_info", "network-029", /does not state the IPv4 address/],
    // the process's pid
    ["system_info", "process-036", /does not state the process's pid/],
    // a RAM question sent to a shell instead of system_info
    ["tools", "ram-002", /run_command was called|system_info was not called/],
    // the wrong tool for reading a file
    ["tools", "read-009", /run_command was called/],
    // a fact from the first turn lost
    ["context", "stated-plain-01", /the reply does not say "BRACKEN-42"/],
    // a finding missed, and one invented
    ["triage", "scenarios-2", /did not find.*integration\/share_revoked/],
    ["triage", "scenarios-2", /reported a error the output does not have/],
    ["triage", "hspec-1", /did not find the test_failure at test\/CalcSpec\.hs:14/],
    // a subject over 72 characters, an invented Why:, a trailing period
    ["draft", "commit-tax", /more than 72/],
    ["draft", "commit-port", /inventing the reason/],
    ["draft", "commit-invoice", /ends with a period/],
    ["draft", "changelog-tax", /must be one line/],
  ];
  for (const [set, id, reason] of expectations) {
    const result = await run(set, find(set, id), "wrong");
    assertEquals(result.status, "fail", `${set}/${id}`);
    assertMatch(result.reasons.join("\n"), reason, `${set}/${id}`);
  }
});

Deno.test("a number in a reply counts only as a number of its own", async () => {
  const check = configCheck({ reply: { words: ["12"] } });
  const outcome = (reply: string) => ({ reply, events: [], project: "/nonexistent", world: {} });
  assertEquals(await checkOutcome(check, outcome("limits.toml sets 12 workers.")), []);
  for (const wrong of ["upload_mb = 512", "12.5 workers", "version 1.12"]) {
    assertEquals(
      await checkOutcome(check, outcome(wrong)),
      ['the reply does not state "12"'],
      wrong,
    );
  }
});

Deno.test("a case needing the memory tool is skipped, with the reason, exactly when the build has none", async () => {
  const hasMemory = sessionRegistry(configSchema.parse({ context: { memory: true } })).get(
    "memory",
  ) !== undefined;
  const result = await run("context", find("context", "stated-memory-01"), "reference");
  if (hasMemory) assertEquals(result.status, "pass");
  else {
    assertEquals(result.status, "skip");
    assertEquals(result.reasons, ["this build has no memory tool"]);
  }
});

Deno.test("a case whose model never answers is stopped at the case's limit and fails, saying so", async () => {
  const c = find("tools", "read-009");
  const silent: BackendFor = () => ({
    name: "silent",
    runtime: "scripted",
    model: "silent",
    capabilities: () => Promise.resolve({ tools: true, structured: true, thinking: false }),
    contextWindow: () => Promise.resolve(32768),
    async *chat(request) {
      // Answers nothing until the request is withdrawn.
      await new Promise((resolve) => request.signal?.addEventListener("abort", resolve));
      yield* [];
      throw new Error("withdrawn");
    },
  });
  const result = await runCase(c, "tools", silent, { seconds: 0.5 });
  assertEquals(result.status, "fail");
  assertEquals(result.reasons, ["the case ran past its limit of 0.5 s and was stopped"]);
});

Deno.test("floors, the class a name implies, and the comparison with a baseline", () => {
  assertEquals(classOf("ollama:granite4.1:8b"), "medium");
  assertEquals(classOf("llamacpp:qwen3-1.7b"), "small");
  assertEquals(classOf("ollama:gemma4:27b"), "large");
  assertEquals(classOf("ollama:mystery"), null);
  const floors: Floors = loadFloors();
  const result = (id: string, status: CaseResult["status"]): CaseResult => ({
    set: "tools",
    id,
    about: "",
    status,
    reasons: status === "fail" ? ["wrong"] : [],
    seconds: 1,
    tokens: { input: 10, output: 2 },
  });
  // tools, medium: 0.7 of 4 run → 3 must pass.
  const now = [result("a", "pass"), result("b", "pass"), result("c", "fail"), result("d", "fail")];
  const [line] = summarise([...now, result("e", "skip")], "medium", floors);
  assertEquals([line.passed, line.failed, line.skipped, line.floor, line.belowFloor], [
    2,
    2,
    1,
    Math.ceil(floors.tools.medium * 4),
    true,
  ]);
  const report: RunReport = {
    model: "m",
    class: "medium",
    started: "now",
    sets: [line],
    cases: now,
  };
  assertMatch(renderTable(report), /tools\s+2 of 4\s+1\s+3 BELOW/);
  const shapes = renderShapes({
    ...report,
    cases: [{ ...now[0], about: "read" }, { ...now[2], about: "read" }, {
      ...now[1],
      about: "find",
    }],
  });
  assertMatch(shapes, /tools\s+read\s+1 of 2/);
  assertMatch(shapes, /tools\s+find\s+1 of 1/);
  const then: RunReport = {
    ...report,
    sets: [{ ...line, passed: 3, failed: 1 }],
    cases: [result("a", "pass"), result("b", "fail"), result("c", "pass"), result("d", "pass")],
  };
  const comparison = renderComparison(report, then);
  assertMatch(comparison, /tools\s+3 of 4\s+2 of 4\s+-1/);
  assertMatch(comparison, /now failing: tools\/c, tools\/d/);
  assertMatch(comparison, /now passing: tools\/b/);
});

/** The text of the last tool result in an Ollama chat body. */
function lastToolResult(body: Record<string, unknown>): string {
  const messages = body.messages as { role: string; content: string }[];
  return messages.filter((m) => m.role === "tool").pop()?.content ?? "";
}

/** Deno's own cache, so a task run with a scratch HOME finds the npm packages already there. */
async function denoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdin: "null" })
    .output();
  return (JSON.parse(new TextDecoder().decode(out.stdout)) as { denoDir: string }).denoDir;
}

async function evalTask(args: string[], given: Record<string, string>) {
  const env = { ...given, DENO_DIR: await denoDir() };
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "--config", join(PROJECT_ROOT, "deno.json"), "eval", ...args],
    cwd: PROJECT_ROOT,
    env,
    clearEnv: true,
    stdin: "null",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("deno task eval --model ollama:NAME runs against a fake Ollama and prints the table, then compares with a baseline", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }, { name: "qwen3:1.7b" }] });
  const home = await tempDir("wisp-eval-home-");
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    WISP_HOME: join(home, ".wisp"),
    OLLAMA_HOST: ollama.url,
    NO_COLOR: "1",
  };
  const cases = ["--set", "tools", "--case", "read-009,read-010"];
  try {
    // read-009 answered right (read_file, then what it said); read-010 wrong (no tool, a guess).
    ollama.reply(
      { toolCalls: [{ name: "read_file", arguments: { path: "README.md" } }] },
      (body) => ({ text: lastToolResult(body) }),
      { text: "I think nobody owns it." },
    );
    const baselinePath = join(home, "baseline.json");
    const first = await evalTask([...cases, "--model", "ollama:granite4.1:8b", "--json"], env);
    assertEquals(first.code, 1, first.stderr); // 1 of 2 is below the medium floor
    Deno.writeTextFileSync(baselinePath, first.stdout);
    const saved = JSON.parse(first.stdout) as RunReport;
    assertEquals(saved.model, "ollama:granite4.1:8b");
    assertEquals(saved.cases.map((c) => [c.id, c.status]), [["read-009", "pass"], [
      "read-010",
      "fail",
    ]]);

    // Two models, both answering right this time: a table each.
    for (let model = 0; model < 2; model++) {
      ollama.reply(
        { toolCalls: [{ name: "read_file", arguments: { path: "README.md" } }] },
        (body) => ({ text: lastToolResult(body) }),
        { toolCalls: [{ name: "read_file", arguments: { path: "docs/usage.md" } }] },
        (body) => ({ text: lastToolResult(body) }),
      );
    }
    const second = await evalTask(
      [
        ...cases,
        "--model",
        "ollama:granite4.1:8b",
        "--model",
        "ollama:qwen3:1.7b",
        "--baseline",
        baselinePath,
      ],
      env,
    );
    assertEquals(second.code, 0, second.stderr);
    assertMatch(second.stdout, /model ollama:granite4\.1:8b \(class medium\)/);
    assertMatch(second.stdout, /SET\s+PASSED\s+SKIPPED\s+FLOOR\s+TIME\s+TOKENS IN\s+TOKENS OUT/);
    assertMatch(second.stdout, /tools\s+2 of 2\s+0\s+2 ok/);
    assertMatch(second.stdout, /tools\s+1 of 2\s+2 of 2\s+\+1/);
    assertMatch(second.stdout, /now passing: tools\/read-010/);
    assertMatch(second.stdout, /model ollama:qwen3:1\.7b \(class small\)/);
    assertEquals(second.stdout.match(/^tools\s+2 of 2\s+0\s+2 ok/gm)?.length, 2);
    assertEquals(ollama.chats().map((c) => c.model), [
      ...Array(3).fill("granite4.1:8b"),
      ...Array(4).fill("granite4.1:8b"),
      ...Array(4).fill("qwen3:1.7b"),
    ]);
    assertEquals(ollama.pending(), 0);
    // Every request offered the session's tools, and nothing reached the person's home.
    for (const chat of ollama.chats()) assert(Array.isArray(chat.tools));
  } finally {
    await ollama.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("deno task eval refuses an unknown set or case in one sentence, exit 64", async () => {
  const home = await tempDir("wisp-eval-home-");
  const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: home, WISP_HOME: home };
  try {
    const set = await evalTask(["--set", "edits"], env);
    assertEquals(set.code, 64);
    assertMatch(set.stderr, /^there is no set edits; the sets are edit_file, system_info/);
    const one = await evalTask(["--set", "tools", "--case", "nope-1"], env);
    assertEquals(one.code, 64);
    assertMatch(one.stderr, /^no case nope-1 in the sets chosen \(tools\)/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("context: the memory-on half runs now that the memory tool exists; each case passes with its reference answer and fails with its wrong one", async () => {
  const memoryOn = loadSet("context").cases.filter((c) =>
    (c.config as { context?: { memory?: boolean } } | undefined)?.context?.memory === true
  );
  assert(memoryOn.length >= 20, `${memoryOn.length} memory-on cases`);
  for (const c of memoryOn) {
    const reference = await run("context", c, "reference");
    assertEquals(reference.status, "pass", `${c.id}: ${reference.reasons.join("; ")}`);
    const wrong = await run("context", c, "wrong");
    assertEquals(wrong.status, "fail", `context/${c.id} with its wrong answer`);
  }
});

Deno.test("triage: no exact reader finds anything in a case's output (the set measures the model step)", () => {
  // A format a reader learns to read leaves this set: its cases no longer ask the model anything.
  const read = loadSet("triage").cases.flatMap((c) => {
    const text = c.output?.text ?? "";
    const found = scanText(text).findings;
    return found.length > 0 ? [`${c.id}: ${found.map((f) => f.kind).join(", ")}`] : [];
  });
  assertEquals(read, []);
});

/**
 * The condensing tools over MCP, end to end: the SDK's client over stdio
 * against the real `wisp mcp`, on real inputs (files, lockfiles, a git
 * repository, a test script run several times through the gate and the
 * sandbox). Each tool is served from its one implementation in
 * src/condense/tools.ts or src/secrets/tools.ts.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { PROJECT_ROOT } from "../../support/wisp.ts";
import { connect, mcpScratch, structured, textOf } from "./support.ts";

const LOCKS = fileURLToPath(new URL("../../fixtures/condense/lockfiles/", import.meta.url));

const DIFF = `diff --git a/src/calc.ts b/src/calc.ts
index 1111111..2222222 100644
--- a/src/calc.ts
+++ b/src/calc.ts
@@ -1,3 +1,4 @@ export function add(a: number, b: number)
 export function add(a: number, b: number) {
-  return a - b;
+  // fixed
+  return a + b;
 }
diff --git a/README.md b/README.md
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/README.md
@@ -0,0 +1 @@
+# calc
`;

function isError(result: unknown): boolean {
  return (result as { isError?: boolean }).isError === true;
}

const CONDENSING = [
  "triage",
  "summarise_diff",
  "draft_change",
  "condense_log",
  "json_shape",
  "dependency_audit",
  "flaky_tests",
  "hot_paths",
  "scan_secrets",
  "redact",
];

Deno.test("tools/list: respond, close_thread, set_fact_scope and the ten condensing tools, each schema strict with working_directory", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const c = await connect(s);
  try {
    const { tools } = await c.client.listTools();
    assertEquals(
      tools.map((t) => t.name).sort(),
      ["close_thread", "respond", "set_fact_scope", ...CONDENSING].sort(),
    );
    for (const tool of tools.filter((t) => CONDENSING.includes(t.name))) {
      const schema = tool.inputSchema as Record<string, unknown>;
      assertEquals(schema.additionalProperties, false, tool.name);
      assert("working_directory" in (schema.properties as object), tool.name);
      assertEquals(schema.required, tool.name === "flaky_tests" ? ["command"] : undefined);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema]));
    assertEquals(
      Object.keys(byName.hot_paths.properties as object).sort(),
      ["path", "since", "top", "working_directory"],
    );
    assertEquals(
      Object.keys(byName.condense_log.properties as object).sort(),
      ["last", "path", "text", "top", "working_directory"],
    );
  } finally {
    await c.close();
    await s.remove();
  }
});

Deno.test("malformed arguments are an isError result with one sentence, and the server goes on", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const c = await connect(s);
  try {
    for (
      const [name, args, why] of [
        ["summarise_diff", { max_files: "many" }, /max_files: expected number/],
        ["flaky_tests", {}, /command: expected string/],
        ["hot_paths", { since: "x; rm -rf ~" }, /since: a date or a duration/],
        ["json_shape", { text: "{}", colour: true }, /Unrecognized key: "colour"/],
        ["respond", { prompt: 7 }, /prompt: expected string/],
        ["scan_secrets", { text: "x", personal: "yes" }, /personal: expected boolean/],
      ] as const
    ) {
      const result = await c.client.callTool({ name, arguments: args });
      assert(isError(result), name);
      const text = textOf(result);
      assertMatch(text, why);
      assertMatch(text, new RegExp(`^error: the arguments of ${name} do not fit its schema: `));
      assertEquals(text.split("\n").length, 1, "one line");
    }
    const fine = await c.client.callTool({ name: "summarise_diff", arguments: { text: DIFF } });
    assert(!isError(fine), "the server still serves");
    await c.client.callTool({ name: "teleport", arguments: {} }).then(
      () => {
        throw new Error("an unknown tool must be a protocol error");
      },
      (error) => assertEquals(error.code, -32602),
    );
    const nowhere = await c.client.callTool({
      name: "json_shape",
      arguments: { text: "{}", working_directory: "no/such/folder" },
    });
    assert(isError(nowhere));
    assertMatch(textOf(nowhere), /working_directory .*no\/such\/folder does not exist/);
  } finally {
    await c.close();
    await s.remove();
  }
});

Deno.test("summarise_diff and json_shape read text or files and answer small", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const c = await connect(s);
  try {
    const diff = await c.client.callTool({ name: "summarise_diff", arguments: { text: DIFF } });
    assertMatch(textOf(diff), /^2 files changed, \+3 −1/);
    assertEquals((structured(diff).totals as Record<string, number>).files, 2);
    assertEquals(
      (structured(diff).files as { path: string }[]).map((f) => f.path),
      ["src/calc.ts", "README.md"],
    );

    Deno.mkdirSync(join(s.project, "sub"));
    Deno.writeTextFileSync(join(s.project, "sub", "change.diff"), DIFF);
    const fromPath = await c.client.callTool({
      name: "summarise_diff",
      arguments: { path: "sub/change.diff" },
    });
    assertEquals(textOf(fromPath), textOf(diff), "a relative path starts where the server started");
    const fromSub = await c.client.callTool({
      name: "summarise_diff",
      arguments: { path: "change.diff", working_directory: "sub" },
    });
    assertEquals(textOf(fromSub), textOf(diff), "or in the call's working_directory");

    Deno.writeTextFileSync(
      join(s.project, "events.jsonl"),
      [
        '{"id":1,"kind":"a","tags":["x"]}',
        '{"id":2,"kind":"b"}',
        '{"id":3,"kind":"a","extra":null}',
      ].join("\n"),
    );
    const shape = await c.client.callTool({
      name: "json_shape",
      arguments: { path: "events.jsonl" },
    });
    assertEquals(structured(shape).kind, "jsonl");
    assertEquals(structured(shape).records, 3);
    for (const key of ["id", "kind", "tags", "extra"]) assertMatch(textOf(shape), new RegExp(key));

    for (
      const [name, args, why] of [
        ["json_shape", { text: "{not json" }, /not JSON/],
        ["summarise_diff", { text: "hello" }, /not a diff/],
        ["json_shape", { text: "{}", path: "x.json" }, /either text or path/],
        ["summarise_diff", { path: "missing.diff" }, /missing\.diff does not exist/],
      ] as const
    ) {
      const result = await c.client.callTool({ name, arguments: args });
      assert(isError(result), name);
      assertMatch(textOf(result), why);
    }
  } finally {
    await c.close();
    await s.remove();
  }
});

Deno.test("dependency_audit reads real lockfiles: found by name, named by path, in another folder", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const c = await connect(s);
  try {
    const none = await c.client.callTool({ name: "dependency_audit", arguments: {} });
    assert(isError(none));
    assertMatch(textOf(none), /no lockfile in/);

    // npm's own lockfile and a Cargo.lock with a git source and a plain-http registry.
    Deno.copyFileSync(join(LOCKS, "package-lock.json"), join(s.project, "package-lock.json"));
    Deno.copyFileSync(join(LOCKS, "Cargo.lock"), join(s.project, "Cargo.lock"));
    const found = await c.client.callTool({ name: "dependency_audit", arguments: {} });
    const lockfiles = structured(found).lockfiles as Record<string, unknown>[];
    assertEquals(lockfiles.map((l) => l.ecosystem).sort(), ["cargo", "npm"]);
    const npm = lockfiles.find((l) => l.ecosystem === "npm")!;
    assert(Number(npm.packages) > 100, `npm packages: ${npm.packages}`);
    const cargo = lockfiles.find((l) => l.ecosystem === "cargo")!;
    const marks = (cargo.marked as { marks: string[] }[]).flatMap((p) => p.marks).join(" ");
    assertMatch(marks, /git/);
    assertMatch(textOf(found), /package-lock\.json/);
    assertMatch(textOf(found), /Cargo\.lock/);

    const one = await c.client.callTool({
      name: "dependency_audit",
      arguments: { paths: ["Cargo.lock"], max_items: 1 },
    });
    assertEquals((structured(one).lockfiles as unknown[]).length, 1);

    const own = await c.client.callTool({
      name: "dependency_audit",
      arguments: { working_directory: PROJECT_ROOT },
    });
    const ownLocks = structured(own).lockfiles as Record<string, unknown>[];
    assertEquals(ownLocks.map((l) => l.ecosystem), ["deno"]);
    assert(Number(ownLocks[0].packages) > 10);
  } finally {
    await c.close();
    await s.remove();
  }
});

Deno.test("condense_log condenses a real log file; last reads the system log through the gate", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const asked: string[] = [];
  const c = await connect(s, {
    elicit: (params) => {
      asked.push(String(params.message));
      return { action: "accept", content: { scope: "once" } };
    },
  });
  try {
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) {
      const t = `2026-11-30T10:${String(i).padStart(2, "0")}:00Z`;
      lines.push(`${t} INFO request ${1000 + i} served in ${i + 3} ms`);
      if (i % 5 === 0) lines.push(`${t} ERROR upstream 10.0.0.${i} timed out after 3000 ms`);
    }
    lines.push("2026-11-30T10:40:00Z WARN disk /var at 91%");
    Deno.writeTextFileSync(join(s.project, "service.log"), lines.join("\n") + "\n");
    const result = await c.client.callTool({
      name: "condense_log",
      arguments: { path: "service.log" },
    });
    assert(!isError(result), textOf(result));
    const found = structured(result);
    assertEquals(found.lines, 49);
    assertEquals(found.severities, { info: 40, error: 8, warning: 1 });
    assertMatch(textOf(result), /upstream .* timed out/);
    assert(textOf(result).length < lines.join("\n").length / 2, "smaller than the log");

    const both = await c.client.callTool({
      name: "condense_log",
      arguments: { path: "service.log", last: "5m" },
    });
    assert(isError(both));
    assertMatch(textOf(both), /give one of text, path or last/);

    // The system log's last stretch: journalctl, through the policy and the sandbox.
    const last = await c.client.callTool({ name: "condense_log", arguments: { last: "5m" } });
    const policy = s.events().find((e) =>
      e.kind === "policy.decision" && String(e.command).startsWith("journalctl ")
    );
    assertEquals(policy?.origin, "triage", "journalctl went through the gate");
    assertEquals(asked.length, 1, "and the person was asked, in the client's dialog");
    assertMatch(asked[0], /journalctl --no-pager/);
    assert(
      s.events().some((e) =>
        e.kind === "command.outcome" && String(e.command).startsWith("journalctl ")
      ),
      "and ran through the runner",
    );
    // Whether this machine keeps a journal is its own business: a result or a sentence saying why not.
    if (isError(last)) assertMatch(textOf(last), /^error: reading the system log failed/);
    else assertEquals(typeof structured(last).lines, "number");
  } finally {
    await c.close();
    await s.remove();
  }
});

Deno.test("hot_paths reads a real git history through the gate and the sandbox", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const c = await connect(s);
  const repo = join(s.project, "repo");
  Deno.mkdirSync(repo);
  const git = (author: string, ...args: string[]) => {
    const out = new Deno.Command("git", {
      args: ["-c", `user.email=${author}@example.com`, "-c", `user.name=${author}`, ...args],
      cwd: repo,
      stdout: "null",
      stderr: "piped",
    }).outputSync();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  };
  try {
    git("ann", "init", "-q");
    for (let i = 0; i < 4; i++) {
      Deno.writeTextFileSync(join(repo, "hot.ts"), `export const n = ${i};\n`);
      if (i % 2 === 0) Deno.writeTextFileSync(join(repo, "warm.ts"), `// ${i}\n`);
      git(i % 2 === 0 ? "ann" : "bob", "add", "-A");
      git(i % 2 === 0 ? "ann" : "bob", "commit", "-q", "-m", `change ${i}`);
    }
    Deno.writeTextFileSync(join(repo, "cold.ts"), "x\n");
    git("ann", "add", "-A");
    git("ann", "commit", "-q", "-m", "cold");

    const result = await c.client.callTool({
      name: "hot_paths",
      arguments: { working_directory: "repo", top: 2 },
    });
    assert(!isError(result), textOf(result));
    const found = structured(result);
    assertEquals(found.commits, 5);
    const paths = found.paths as { path: string; commits: number; authors: number }[];
    assertEquals(paths.map((p) => [p.path, p.commits, p.authors]), [
      ["hot.ts", 4, 2],
      ["warm.ts", 2, 1],
    ]);
    assertMatch(textOf(result), /hot\.ts: 4 commits/);
    const policy = s.events().find((e) =>
      e.kind === "policy.decision" && String(e.command).startsWith("git log")
    );
    assertEquals(policy?.origin, "triage", "git log went through the gate");
    const outcome = s.events().find((e) =>
      e.kind === "command.outcome" && String(e.command).startsWith("git log")
    );
    assertEquals(outcome?.cwd ?? repo, repo);

    const notRepo = await c.client.callTool({ name: "hot_paths", arguments: {} });
    assert(isError(notRepo));
    assertMatch(textOf(notRepo), /^error: git log failed \(exit \d+\)/);
  } finally {
    await c.close();
    await s.remove();
  }
});

// A test script that fails one test on every other run (a counter in the project
// folder, which the sandbox lets it write) and another test on every run; TAP output.
const FLIP = `n=$(cat runs.count 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > runs.count
echo "TAP version 13"
if [ $((n % 2)) -eq 1 ]; then
  printf "not ok 1 - adds numbers\\n  ---\\n  message: 'expected 4, got 3'\\n  ...\\n"
else
  echo "ok 1 - adds numbers"
fi
printf "not ok 2 - parses dates\\n  ---\\n  message: 'invalid date'\\n  ...\\n1..2\\n"
exit 1
`;

Deno.test("flaky_tests runs a real flipping test command under one approval and tells flaky from failing", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const asked: Record<string, unknown>[] = [];
  const c = await connect(s, {
    elicit: (params) => {
      asked.push(params);
      return { action: "accept", content: { scope: "once" } };
    },
  });
  try {
    Deno.writeTextFileSync(join(s.project, "flip.sh"), FLIP);
    const result = await c.client.callTool({
      name: "flaky_tests",
      arguments: { command: "sh flip.sh", times: 4 },
    });
    assert(!isError(result), textOf(result));
    const found = structured(result);
    assertEquals(found.runs, 4);
    assertEquals(found.exitStatuses, [1, 1, 1, 1]);
    const flaky = found.flaky as { test: string; failedRuns: number[] }[];
    assertEquals(flaky.map((f) => [f.test, f.failedRuns]), [["adds numbers", [1, 3]]]);
    assertEquals((found.failing as { test: string }[]).map((f) => f.test), ["parses dates"]);
    assertEquals(Deno.readTextFileSync(join(s.project, "runs.count")).trim(), "4");
    assertMatch(textOf(result), /^4 runs \(exit 1, 1, 1, 1\): 1 flaky, 1 failing every time/);

    const outcomes = s.events().filter((e) =>
      e.kind === "command.outcome" && e.command === "sh flip.sh"
    );
    assertEquals(outcomes.length, 4, "every run went through the runner");
    const decisions = s.events().filter((e) =>
      e.kind === "policy.decision" && e.command === "sh flip.sh"
    );
    assertEquals(decisions.length, 4, "and every run through the policy");
    assertEquals(
      asked.length,
      1,
      "sh flip.sh is asked about once; approving the first run covers the repeats",
    );

    const denied = await c.client.callTool({
      name: "flaky_tests",
      arguments: { command: "sudo sh flip.sh", times: 2 },
    });
    assert(isError(denied));
    assertMatch(textOf(denied), /denied by policy/);
    assertEquals(Deno.readTextFileSync(join(s.project, "runs.count")).trim(), "4");
  } finally {
    await c.close();
    await s.remove();
  }
});

Deno.test("draft_change: a plain draft without a model, the staged change through the gate, a model's draft", async () => {
  const { startFakeOllama } = await import("../../support/fake_ollama.ts");
  const s = await mcpScratch({ notifications: { enabled: false } });
  const c = await connect(s);
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  try {
    const plain = await c.client.callTool({ name: "draft_change", arguments: { text: DIFF } });
    assertEquals(structured(plain).model, null);
    assertMatch(textOf(plain), /\n\nWhy: /);
    assert(textOf(plain).split("\n")[0].length <= 72);

    const git = (...args: string[]) =>
      new Deno.Command("git", { args, cwd: s.project, stdout: "null", stderr: "null" }).output();
    await git("init", "-q");
    const empty = await c.client.callTool({ name: "draft_change", arguments: {} });
    assert(isError(empty));
    assertMatch(textOf(empty), /the diff is empty; stage a change/);
    Deno.writeTextFileSync(join(s.project, "notes.txt"), "one\ntwo\n");
    await git("add", "notes.txt");
    const staged = await c.client.callTool({
      name: "draft_change",
      arguments: { kind: "changelog" },
    });
    assertMatch(textOf(staged), /^- .*notes\.txt/);
    assert(
      s.events().some((e) =>
        e.kind === "policy.decision" && e.command === "git diff --cached" && e.origin === "draft"
      ),
      "git diff --cached went through the gate",
    );
    // A staged change longer than a command's capture would be summarised cut: refused instead.
    Deno.writeTextFileSync(
      join(s.project, "big.txt"),
      "a line of forty characters, more or less\n".repeat(40_000),
    );
    await git("add", "big.txt");
    const big = await c.client.callTool({ name: "draft_change", arguments: {} });
    assert(isError(big));
    assertMatch(
      textOf(big),
      /^error: the staged change is \d+ bytes, more than is read from a command/,
    );
    await c.close();

    Deno.writeTextFileSync(
      join(s.home, "config.json"),
      JSON.stringify({
        model: "ollama:granite4.1:8b",
        ollama: { host: ollama.url },
        notifications: { enabled: false },
      }),
    );
    const withModel = await connect(s);
    try {
      ollama.reply({ text: "Fix add to add its operands\n\nIt subtracted them." });
      const drafted = await withModel.client.callTool({
        name: "draft_change",
        arguments: { text: DIFF },
      });
      assertEquals(structured(drafted).model, "ollama:granite4.1:8b");
      assertEquals(
        textOf(drafted),
        "Fix add to add its operands\n\nIt subtracted them.\n\nWhy: <…>",
      );
      const turn = s.events().filter((e) => e.tool === "draft_change").map((e) => e.kind);
      assertEquals(turn, ["prompt", "response"], "the model's turn is audited");
    } finally {
      await withModel.close();
    }
  } finally {
    await c.close().catch(() => {});
    await ollama.close();
    await s.remove();
  }
});

Deno.test("a file a condensing tool reads clears the gate as read_file does: a credential path asks first", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const answers = ["decline", "accept"];
  const asked: string[] = [];
  const c = await connect(s, {
    elicit: (params) => {
      asked.push(String(params.message));
      const action = answers.shift() ?? "decline";
      return action === "accept"
        ? { action: "accept", content: { scope: "once" } }
        : { action: "decline" };
    },
  });
  try {
    Deno.writeTextFileSync(join(s.project, ".env"), "LOG_LEVEL=debug\nPORT=8080\n");
    Deno.writeTextFileSync(join(s.project, "plain.log"), "2026-11-30T10:00:00Z ERROR boom\n");
    const plain = await c.client.callTool({
      name: "condense_log",
      arguments: { path: "plain.log" },
    });
    assert(!isError(plain), textOf(plain));
    assertEquals(asked.length, 0, "an ordinary file is read without asking");
    assert(
      s.events().some((e) => e.kind === "policy.decision" && e.command === "cat 'plain.log'"),
      "but it was judged by the gate",
    );

    const declined = await c.client.callTool({
      name: "condense_log",
      arguments: { path: ".env" },
    });
    assert(isError(declined));
    assertMatch(textOf(declined), /^error: reading \.env was refused: /);
    assertEquals(asked.length, 1);
    assertMatch(asked[0], /cat '\.env'/);

    const accepted = await c.client.callTool({
      name: "condense_log",
      arguments: { path: ".env" },
    });
    assert(!isError(accepted), textOf(accepted));
    assertEquals(structured(accepted).lines, 2);
    assertEquals(asked.length, 2);

    // triage's path too, recorded in its own session.
    const triaged = await c.client.callTool({ name: "triage", arguments: { path: ".env" } });
    assert(isError(triaged));
    assertEquals(asked.length, 3);
    assert(
      s.events().some((e) =>
        String(e.session).startsWith("triage-") && e.kind === "policy.decision" &&
        e.command === "cat '.env'"
      ),
      "the read's gate events are in the triage session",
    );
  } finally {
    await c.close();
    await s.remove();
  }
});

/**
 * The condensing tools' contracts: argument checking, paths read relative to
 * the working directory, lockfiles found by name, commands through the real
 * gate and runner, draft_change with a scripted model and without one.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "../support/assert.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  condenseLogTool,
  dependencyAuditTool,
  draftChangeTool,
  hotPathsTool,
  jsonShapeTool,
  summariseDiffTool,
  ToolInputError,
} from "../../src/condense/tools.ts";
import { AuditLog } from "../../src/audit/writer.ts";
import { homePaths } from "../../src/config/home.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { ScriptedBackend, textReply } from "../../src/models/scripted.ts";
import { tempDir } from "../support/wisp.ts";

const LOCKS = fileURLToPath(new URL("../fixtures/condense/lockfiles/", import.meta.url));
const DIFF = "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n";

Deno.test("text or path, never both or neither; a missing file is one sentence", async () => {
  await assertRejects(() => jsonShapeTool({}), ToolInputError, "give either text or path");
  await assertRejects(
    () => jsonShapeTool({ text: "{}", path: "x.json" }),
    ToolInputError,
    "give either text or path",
  );
  await assertRejects(
    () => summariseDiffTool({ path: "nope.diff" }, { cwd: LOCKS }),
    ToolInputError,
    "nope.diff does not exist",
  );
  await assertRejects(() => summariseDiffTool({ text: "hello" }), ToolInputError, "not a diff");
  await assertRejects(() => jsonShapeTool({ text: "nope" }), ToolInputError, "not JSON");
});

Deno.test("json_shape and summarise_diff read a path relative to the working directory", async () => {
  const shape = await jsonShapeTool({ path: "Package.resolved", max_depth: 2 }, { cwd: LOCKS });
  assertMatch(shape.text, /^object:\n {2}"originHash": string\n {2}"pins": array \(3\)/);
  const diff = await summariseDiffTool({ text: DIFF });
  assertEquals(diff.structured.totals, { files: 1, added: 1, removed: 1 });
});

Deno.test("dependency_audit finds the lockfiles in the working directory by name", async () => {
  const r = await dependencyAuditTool({}, { cwd: LOCKS });
  const names = (r.structured.lockfiles as { path: string }[]).map((l) => l.path).sort();
  assertEquals(
    names,
    [
      "Cargo.lock",
      "Package.resolved",
      "deno.lock",
      "go.sum",
      "package-lock.json",
      "poetry.lock",
      "uv.lock",
    ].sort(),
  );
  const empty = await tempDir();
  try {
    await assertRejects(
      () => dependencyAuditTool({}, { cwd: empty }),
      ToolInputError,
      "no lockfile in",
    );
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});

Deno.test("condense_log reads a file; last without a gate is refused", async () => {
  const dir = await tempDir();
  try {
    Deno.writeTextFileSync(
      join(dir, "app.log"),
      "2026-11-30T10:00:00Z ERROR boom\n2026-11-30T10:00:01Z INFO fine\n",
    );
    const r = await condenseLogTool({ path: "app.log" }, { cwd: dir });
    assertEquals(r.structured.severities, { error: 1, info: 1 });
    await assertRejects(
      () => condenseLogTool({ last: "5m" }, { cwd: dir }),
      ToolInputError,
      "no gate is set up",
    );
    await assertRejects(
      () => condenseLogTool({ last: "5m", text: "x" }, { cwd: dir }),
      ToolInputError,
      "give one of text, path or last",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hot_paths runs git log through the gate and the sandboxed runner", async () => {
  const home = await tempDir();
  const repo = await tempDir();
  const paths = homePaths(home);
  const audit = new AuditLog({ path: paths.auditLog, enabled: true, maxBytes: 1 << 20, keep: 1 });
  const git = (...args: string[]) =>
    new Deno.Command("git", {
      args: ["-c", "user.email=a@example.com", "-c", "user.name=Ann", ...args],
      cwd: repo,
      stdout: "null",
      stderr: "null",
    }).outputSync();
  try {
    git("init", "-q");
    for (let i = 0; i < 2; i++) {
      Deno.writeTextFileSync(join(repo, "hot.ts"), `x${i}\n`);
      git("add", "-A");
      git("commit", "-q", "-m", `c${i}`);
    }
    const r = await hotPathsTool({ top: 5 }, {
      cwd: repo,
      run: { config: defaultConfig(), paths, audit, root: repo, yes: true },
    });
    assertMatch(r.text, /^2 commits, 1 files changed; the most changed:\n {2}hot\.ts: 2 commits/);
    assert(Deno.readTextFileSync(paths.auditLog).includes('"command.outcome"'));
  } finally {
    audit.close();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("draft_change: the model's draft finished to the contract; without a model, the plain draft and a note", async () => {
  const model = new ScriptedBackend([
    textReply(
      "Replace x with y in a.txt so the example reads correctly in every language we ship.\n\nOne line changed.",
    ),
  ]);
  const r = await draftChangeTool({ text: DIFF }, { model });
  const lines = r.text.split("\n");
  assert(lines[0].length <= 72, lines[0]);
  assertEquals(lines[lines.length - 1], "Why: <…>");
  assertEquals(model.requests[0].tools, undefined);
  const plain = await draftChangeTool({ text: DIFF, kind: "changelog" });
  assertEquals(plain.text, "- Update a.txt");
  assertMatch(String(plain.structured.note), /no model configured/);
});

/**
 * summarise_diff, json_shape and dependency_audit over MCP: inline text or a
 * path on this machine, a small text back, no thread, no model.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { PROJECT_ROOT } from "../../support/wisp.ts";
import { connect, mcpScratch, structured, textOf } from "./support.ts";

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

Deno.test("summarise_diff, json_shape and dependency_audit read text or files and answer small", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const c = await connect(s);
  try {
    const diff = await c.client.callTool({ name: "summarise_diff", arguments: { diff: DIFF } });
    assertMatch(textOf(diff), /^2 files changed, \+3 −1/);
    assertEquals((structured(diff).totals as Record<string, number>).files, 2);

    Deno.writeTextFileSync(join(s.project, "change.diff"), DIFF);
    const fromPath = await c.client.callTool({
      name: "summarise_diff",
      arguments: { path: "change.diff" },
    });
    assertEquals(textOf(fromPath), textOf(diff), "a relative path starts where the server started");

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

    const lock = await c.client.callTool({
      name: "dependency_audit",
      arguments: { path: PROJECT_ROOT },
    });
    const lockfiles = structured(lock).lockfiles as Record<string, unknown>[];
    assertEquals(lockfiles.length, 1);
    assertEquals(lockfiles[0].ecosystem, "deno");
    assert(Number(lockfiles[0].packages) > 10);
    assertMatch(textOf(lock), /deno\.lock/);

    for (
      const [name, args, why] of [
        ["json_shape", { text: "{not json" }, /not JSON/],
        ["summarise_diff", { diff: "hello" }, /no unified diff/],
        ["dependency_audit", { path: s.project }, /holds no lockfile/],
        ["json_shape", { text: "{}", path: "x.json" }, /either text or path/],
        ["summarise_diff", { path: "missing.diff" }, /does not exist/],
      ] as const
    ) {
      const result = await c.client.callTool({ name, arguments: args });
      assertEquals((result as { isError?: boolean }).isError, true, name);
      assertMatch(textOf(result), why);
    }
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
    const plain = await c.client.callTool({ name: "draft_change", arguments: { diff: DIFF } });
    assertEquals(structured(plain).model, null);
    assertMatch(textOf(plain), /\n\nWhy: /);
    assert(textOf(plain).split("\n")[0].length <= 72);

    const git = (...args: string[]) =>
      new Deno.Command("git", { args, cwd: s.project, stdout: "null", stderr: "null" }).output();
    await git("init", "-q");
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
        arguments: { diff: DIFF },
      });
      assertEquals(structured(drafted).model, "ollama:granite4.1:8b");
      assertEquals(
        textOf(drafted),
        "Fix add to add its operands\n\nIt subtracted them.\n\nWhy: <…>",
      );
    } finally {
      await withModel.close();
    }
  } finally {
    await c.close().catch(() => {});
    await ollama.close();
    await s.remove();
  }
});

/**
 * summarise_diff against real git: a scratch repository with every kind of
 * change, its `git diff --cached` read by the parser and checked against git's
 * own `--numstat` and `--name-status`.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { join } from "node:path";
import { parseDiff, summariseDiff } from "../../src/condense/diff.ts";
import { tempDir } from "../support/wisp.ts";

function git(cwd: string, ...args: string[]): string {
  const r = new Deno.Command("git", {
    args: [
      "-c",
      "user.email=t@example.com",
      "-c",
      "user.name=t",
      "-c",
      "core.quotePath=false",
      ...args,
    ],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!r.success) throw new Error(new TextDecoder().decode(r.stderr));
  return new TextDecoder().decode(r.stdout);
}

Deno.test("parseDiff agrees with git's numstat and name-status on every kind of change", async () => {
  const dir = await tempDir();
  try {
    git(dir, "init", "-q");
    const w = (p: string, t: string) => Deno.writeTextFileSync(join(dir, p), t);
    const body = Array.from({ length: 12 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    w(
      "app.ts",
      `export function a() {\n${body}\n  return 1;\n}\n\nexport function b() {\n${body}\n  return 2;\n}\n`,
    );
    w(
      "schema.sql",
      "-- users\nCREATE TABLE users (id int);\n-- posts\nCREATE TABLE posts (id int);\n",
    );
    w(
      "old_name.md",
      "# Title\n\nsome text that stays the same across the rename\nmore text\nand more\n",
    );
    w("gone.txt", "bye\n");
    w("run.sh", "#!/bin/sh\necho hi\n");
    Deno.writeFileSync(join(dir, "logo.bin"), new Uint8Array([0, 1, 2, 3, 0, 255]));
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "base");
    w(
      "app.ts",
      `export function a() {\n${body}\n  return 10;\n}\n\nexport function b() {\n${body}\n  return 20;\n}\n\nexport function c() {}\n`,
    );
    // Removing SQL comments makes lines that start with "--- " inside a hunk.
    w(
      "schema.sql",
      "CREATE TABLE users (id int);\n-- posts\nCREATE TABLE posts (id int, title text);\n",
    );
    git(dir, "mv", "old_name.md", "new_name.md");
    w(
      "new_name.md",
      "# Title\n\nsome text that stays the same across the rename\nmore text\nand more\nadded\n",
    );
    git(dir, "rm", "-q", "gone.txt");
    w("fresh.txt", "one\ntwo\n");
    Deno.chmodSync(join(dir, "run.sh"), 0o755);
    Deno.writeFileSync(join(dir, "logo.bin"), new Uint8Array([0, 9, 9, 9, 0, 255, 7]));
    git(dir, "add", "-A");
    const diff = git(dir, "diff", "--cached", "-M");
    const files = parseDiff(diff);
    const numstat = git(dir, "diff", "--cached", "-M", "--numstat").trim().split("\n").map((l) =>
      l.split("\t")
    );
    assertEquals(files.length, numstat.length);
    for (const [added, removed, path] of numstat) {
      const name = path.includes(" => ") ? path.replace(/^(.*)\{?.* => (.*?)\}?$/, "$2") : path;
      const f = files.find((x) => x.path === name || path.endsWith(x.path));
      assert(f, `no file for ${path}`);
      if (added === "-") assert(f.binary, `${path} not binary`);
      else assertEquals([f.added, f.removed], [Number(added), Number(removed)], path);
    }
    const status = new Map(
      git(dir, "diff", "--cached", "-M", "--name-status").trim().split("\n").map((l) => {
        const parts = l.split("\t");
        return [parts[parts.length - 1], parts[0][0]];
      }),
    );
    const letter: Record<string, string> = {
      added: "A",
      deleted: "D",
      modified: "M",
      renamed: "R",
      copied: "C",
    };
    for (const f of files) assertEquals(letter[f.status], status.get(f.path), f.path);
    const renamed = files.find((f) => f.status === "renamed")!;
    assertEquals(renamed.oldPath, "old_name.md");
    assertEquals(files.find((f) => f.path === "run.sh")!.modeChange, "100644 → 100755");
    // The symbols are the hunk headers' trailing context, as git printed it.
    const appHunks = diff.split("diff --git").find((part) => part.includes("b/app.ts"))!;
    const printed = [...appHunks.matchAll(/^@@ [^@]+ @@ ?(.*)$/gm)].map((m) => m[1].trim()).filter(
      Boolean,
    );
    assertEquals(files.find((f) => f.path === "app.ts")!.symbols, [...new Set(printed)]);
    assert(printed.length > 0, "git printed no hunk context for app.ts");
    const summary = summariseDiff(diff);
    assertMatch(summary.text, /^7 files changed, \+\d+ −\d+/);
    assertMatch(summary.text, /old_name\.md → new_name\.md \(renamed/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("plain diff -u output (no git header), and the file cap", () => {
  const diff = `--- a/one.txt\t2026-11-30 10:00:00
+++ b/one.txt\t2026-11-30 10:01:00
@@ -1,2 +1,2 @@
-old
+new
 same
--- /dev/null
+++ b/two.txt
@@ -0,0 +1 @@
+hello
`;
  const files = parseDiff(diff);
  assertEquals(files.map((f) => [f.path, f.status, f.added, f.removed]), [[
    "one.txt",
    "modified",
    1,
    1,
  ], ["two.txt", "added", 1, 0]]);
  const capped = summariseDiff(diff, { maxLines: 1 });
  assertMatch(capped.text, /… and 1 more files \(held back\)$/);
});

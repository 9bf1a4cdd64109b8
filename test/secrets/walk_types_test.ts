/**
 * A folder's scan trusts the listing's type of each entry (no size looked up per file): a link
 * below the root is still never followed, a named pipe is never opened, and the regular files
 * are all scanned.
 */
import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(698));

Deno.test("scan of a folder: links are not followed, pipes not opened, every regular file scanned", async () => {
  const home = await tempDir();
  const outside = await tempDir();
  const dir = await tempDir();
  try {
    // A credential outside the folder, reachable only through links inside it.
    await Deno.writeTextFile(join(outside, "deploy.env"), `GH_TOKEN=${v.githubPat()}\n`);
    await Deno.mkdir(join(dir, "conf"));
    await Deno.symlink(join(outside, "deploy.env"), join(dir, "conf", "linked.env"));
    await Deno.symlink(outside, join(dir, "linked-folder"));
    const fifo = new Deno.Command("mkfifo", { args: [join(dir, "conf", "pipe")] }).outputSync();
    assertEquals(fifo.success, true);
    await Deno.writeTextFile(join(dir, "conf", "app.ini"), "[server]\nport = 8080\n");
    await Deno.writeTextFile(join(dir, "notes.md"), "Rotate the keys every quarter.\n");

    const clean = await runWisp(["scan", "."], { home, cwd: dir });
    assertEquals([clean.code, clean.stdout], [0, ""], clean.stderr);
    assertEquals(clean.stderr, "no secrets found in 2 inputs\n");

    // A regular file beside them is found (the walk did reach the folder's files).
    await Deno.writeTextFile(join(dir, "conf", "ci.env"), `GITHUB_TOKEN=${v.githubPat()}\n`);
    const found = await runWisp(["scan", "."], { home, cwd: dir });
    assertEquals(found.code, 1);
    assertStringIncludes(found.stdout, "conf/ci.env:1:14  github-pat");
    assertStringIncludes(found.stderr, "in 3 inputs");
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(outside, { recursive: true });
    await Deno.remove(dir, { recursive: true });
  }
});

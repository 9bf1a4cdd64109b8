/**
 * `wisp draft` outside a git repository says so in one sentence, exit 1
 * (issue 12 item 22); inside one with nothing staged it still says the diff
 * is empty.
 */
import { join } from "node:path";
import { assertEquals, assertMatch } from "../support/assert.ts";
import { runWisp, tempDir } from "../support/wisp.ts";

Deno.test("wisp draft outside a git repository says it is not in one", async () => {
  const base = await tempDir();
  try {
    const home = join(base, "home");
    const folder = join(base, "not-a-repo");
    await Deno.mkdir(folder);
    const run = await runWisp(["draft", "--no-model", "-y"], { home, cwd: folder, stdin: "" });
    assertEquals(run.code, 1, run.stderr);
    assertEquals(
      run.stderr,
      "error: this folder is not in a git repository, so there is no staged change to draft from; run wisp draft in a repository, or pipe a diff in (git diff | wisp draft)\n",
    );
    assertEquals(run.stdout, "");

    const repo = join(base, "repo");
    await Deno.mkdir(repo);
    const init = await new Deno.Command("git", { args: ["init", "-q", repo] }).output();
    assertEquals(init.code, 0);
    const empty = await runWisp(["draft", "--no-model", "-y"], { home, cwd: repo, stdin: "" });
    assertEquals(empty.code, 1, empty.stderr);
    assertMatch(empty.stderr, /^error: the diff is empty; stage changes with git add/);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

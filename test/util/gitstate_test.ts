import { assertEquals } from "../support/assert.ts";
import { readGitState } from "../../src/util/gitstate.ts";
import { gitBlobId, sha1Hex } from "../../src/util/sha1.ts";

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test("sha1 and git blob ids match the reference values", async () => {
  assertEquals(
    sha1Hex(new TextEncoder().encode("abc")),
    "a9993e364706816aba3e25717850c26c9cd0d89d",
  );
  assertEquals(sha1Hex(new Uint8Array(0)), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  const dir = await Deno.makeTempDir();
  const content = new TextEncoder().encode("x".repeat(1000) + "\n");
  Deno.writeFileSync(`${dir}/f`, content);
  assertEquals(gitBlobId(content), await git(dir, "hash-object", "f"));
});

Deno.test("git state read in process agrees with git: commit, branch, modified", async () => {
  const dir = await Deno.makeTempDir();
  await git(dir, "init", "-q", "-b", "trunk");
  assertEquals(readGitState(dir)?.modified, false);
  Deno.writeTextFileSync(`${dir}/a.txt`, "one\n");
  Deno.mkdirSync(`${dir}/sub`);
  Deno.writeTextFileSync(`${dir}/sub/b.txt`, "two\n");
  await git(dir, "add", ".");
  await git(dir, "commit", "-qm", "first");
  const head = await git(dir, "rev-parse", "HEAD");
  let state = readGitState(`${dir}/sub`)!;
  assertEquals(state.commit, head);
  assertEquals(state.branch, "trunk");
  assertEquals(state.modified, false);

  Deno.writeTextFileSync(`${dir}/untracked.txt`, "new\n");
  assertEquals(readGitState(dir)?.modified, false, "untracked files do not count");

  Deno.writeTextFileSync(`${dir}/a.txt`, "ONE\n"); // same size, same second: only the content tells
  assertEquals(readGitState(dir)?.modified, true);
  Deno.writeTextFileSync(`${dir}/a.txt`, "one\n");
  assertEquals(readGitState(dir)?.modified, false, "restored content is not modified");

  Deno.removeSync(`${dir}/sub/b.txt`);
  assertEquals(readGitState(dir)?.modified, true, "a deleted tracked file is modified");
  await git(dir, "checkout", "--", "sub/b.txt");

  Deno.chmodSync(`${dir}/a.txt`, 0o755);
  assertEquals(readGitState(dir)?.modified, true, "a mode change is modified");
  Deno.chmodSync(`${dir}/a.txt`, 0o644);

  // Packed refs, as after git gc.
  await git(dir, "pack-refs", "--all");
  state = readGitState(dir)!;
  assertEquals(state.commit, head);
  assertEquals(state.modified, false);
});

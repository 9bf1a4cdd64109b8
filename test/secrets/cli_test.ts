/**
 * `wisp scan` and `wisp redact` as a person runs them: the real CLI in a
 * subprocess under the binary's permission set, a scratch WISP_HOME, real
 * files, real pipes, and a real git pre-commit hook.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { runWisp, tempDir, wispCommand } from "../support/wisp.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(23));

async function auditEvents(home: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(join(home, "logs", "audit.jsonl"));
  return text.trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("scan: findings as path:line:column kind preview, exit 1, audited with counts", async () => {
  const home = await tempDir();
  const dir = await tempDir();
  try {
    const token = v.githubPat();
    const key = v.awsAccessKeyId();
    await Deno.writeTextFile(
      join(dir, "app.env"),
      `PORT=8080\nGITHUB_TOKEN=${token}\nAWS_ACCESS_KEY_ID=${key}\n`,
    );
    await Deno.writeTextFile(join(dir, "clean.txt"), "nothing to see\n");
    const run = await runWisp(["scan", "app.env", "clean.txt"], { home, cwd: dir });
    assertEquals(run.code, 1, run.stderr);
    assertEquals(
      run.stdout,
      "app.env:2:14  github-pat  ghp_****[40]\napp.env:3:19  aws-access-key-id  AKIA****[20]\n",
    );
    assertStringIncludes(run.stderr, "2 findings: 1 aws-access-key-id, 1 github-pat in 2 inputs");
    const scans = (await auditEvents(home)).filter((e) => e.kind === "secrets.scan");
    assertEquals(scans.map((e) => [e.path, e.counts]), [
      ["app.env", { "github-pat": 1, "aws-access-key-id": 1 }],
      ["clean.txt", {}],
    ]);

    const clean = await runWisp(["scan", "clean.txt"], { home, cwd: dir });
    assertEquals([clean.code, clean.stdout], [0, ""]);
    assertStringIncludes(clean.stderr, "no secrets found");
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scan --json, --personal, folders, binary files and stdin diffs", async () => {
  const home = await tempDir();
  const dir = await tempDir();
  try {
    const email = v.email();
    await Deno.mkdir(join(dir, "data", "nested"), { recursive: true });
    await Deno.writeTextFile(join(dir, "data", "nested", "export.csv"), `id,email\n1,${email}\n`);
    await Deno.writeFile(
      join(dir, "data", "logo.png"),
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]),
    );
    const plain = await runWisp(["scan", "--json", "data"], { home, cwd: dir });
    assertEquals([plain.code, JSON.parse(plain.stdout)], [0, { findings: [] }]);
    assertEquals(plain.stderr, "no secrets found in 2 inputs\n");

    const personal = await runWisp(["scan", "--json", "--personal", "data"], { home, cwd: dir });
    assertEquals(personal.code, 1);
    const doc = JSON.parse(personal.stdout);
    assertEquals(doc.findings.length, 1);
    const [f] = doc.findings;
    assertEquals([f.path, f.line, f.kind], ["data/nested/export.csv", 2, "email"]);
    assert(!personal.stdout.includes(email));

    const token = v.stripeSecret();
    const diff = [
      "diff --git a/src/pay.py b/src/pay.py",
      "--- a/src/pay.py",
      "+++ b/src/pay.py",
      "@@ -40,2 +40,3 @@ def pay():",
      "     amount = 10",
      `+    stripe.api_key = "${token}"`,
      "     return charge(amount)",
      "",
    ].join("\n");
    const staged = await runWisp(["scan"], { home, cwd: dir, stdin: diff });
    assertEquals(staged.code, 1);
    assertEquals(
      staged.stdout,
      "src/pay.py:41:23  stripe-key  sk_live_****[" + token.length + "]\n",
    );
    const events = (await auditEvents(home)).filter((e) => e.kind === "secrets.scan");
    assertEquals(events.at(-1)!.diff, true);
    assertEquals(events.at(-1)!.input, "stdin");
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scan: a missing file fails closed with a sentence; a bad flag is a usage error", async () => {
  const home = await tempDir();
  try {
    const missing = await runWisp(["scan", "no-such-file.env"], { home });
    assertEquals(missing.code, 2);
    assertMatch(missing.stderr, /error: no-such-file\.env does not exist; check the path/);
    const usage = await runWisp(["scan", "--no-such-flag"], { home });
    assertEquals(usage.code, 64);
    const redactUsage = await runWisp(["redact", "a", "b"], { home });
    assertEquals(redactUsage.code, 64);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("redact: markers on stdout, a one-line summary on stderr, audited with counts", async () => {
  const home = await tempDir();
  try {
    const a = v.email();
    const token = v.slackBot();
    const input = `user ${a} posted with ${token}\nreply to ${a}\n`;
    const run = await runWisp(["redact"], { home, stdin: input });
    assertEquals(run.code, 0, run.stderr);
    assertEquals(
      run.stdout,
      "user [REDACTED:email#1] posted with [REDACTED:slack-token#1]\nreply to [REDACTED:email#1]\n",
    );
    assertEquals(run.stderr, "3 values redacted: 2 email, 1 slack-token\n");
    const credentialsOnly = await runWisp(["redact", "--no-personal"], { home, stdin: input });
    assertEquals(
      credentialsOnly.stdout,
      `user ${a} posted with [REDACTED:slack-token#1]\nreply to ${a}\n`,
    );
    const events = (await auditEvents(home)).filter((e) => e.kind === "redaction");
    assertEquals(events.map((e) => e.counts), [{ email: 2, "slack-token": 1 }, {
      "slack-token": 1,
    }]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("as a git pre-commit hook, a staged secret stops the commit and a clean change goes through", async () => {
  const home = await tempDir();
  const repo = await tempDir();
  const git = async (...args: string[]) => {
    const out = await new Deno.Command("git", {
      args,
      cwd: repo,
      env: {
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@t.invalid",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@t.invalid",
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
  };
  try {
    await git("init", "-q");
    const hook = join(repo, ".git", "hooks", "pre-commit");
    const wisp = wispCommand().map((a) => `'${a}'`).join(" ");
    await Deno.writeTextFile(
      hook,
      // The variable goes on wisp's side of the pipe: before git it would reach git only.
      `#!/bin/sh\ngit diff --cached | WISP_HOME='${home}' ${wisp} scan\n`,
    );
    await Deno.chmod(hook, 0o755);

    await Deno.writeTextFile(join(repo, "README.md"), "# demo\n");
    await git("add", "README.md");
    const clean = await git("commit", "-q", "-m", "docs");
    assertEquals(clean.code, 0, clean.stderr);

    await Deno.writeTextFile(join(repo, "deploy.sh"), `export NPM_TOKEN=${v.npm()}\n`);
    await git("add", "deploy.sh");
    const blocked = await git("commit", "-q", "-m", "deploy");
    assertEquals(blocked.code, 1, "the hook's exit 1 stops the commit");
    assertStringIncludes(blocked.stderr, "deploy.sh:1:18  npm-token  npm_****[40]");
    // Both scans were audited in the scratch home, so none reached the real one.
    const scans = (await auditEvents(home)).filter((e) => e.kind === "secrets.scan");
    assertEquals(scans.map((e) => [e.diff, e.total]), [[true, 0], [true, 1]]);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("scan exit status: 0 clean, 1 found, 2 not scanned (which wins over a finding)", async () => {
  const home = await tempDir();
  const dir = await tempDir();
  try {
    await Deno.writeTextFile(join(dir, "clean.conf"), "listen = 8080\n");
    await Deno.writeTextFile(join(dir, "leaky.sh"), `export GH_TOKEN=${v.githubPat()}\n`);
    await Deno.symlink(join(dir, "gone"), join(dir, "dangling"));
    const fifo = new Deno.Command("mkfifo", { args: [join(dir, "pipe")] }).outputSync();
    assert(fifo.success);
    const at = (args: string[], stdin?: string) => runWisp(args, { home, cwd: dir, stdin });

    assertEquals((await at(["scan", "clean.conf"])).code, 0);
    assertEquals((await at(["scan", "leaky.sh"])).code, 1);
    const both = await at(["scan", "leaky.sh", "missing.env"]);
    assertEquals(both.code, 2, "an incomplete scan is not a verdict");
    assertStringIncludes(both.stdout, "leaky.sh:1:17  github-pat");
    assertStringIncludes(both.stderr, "error: missing.env does not exist; check the path");
    const dangling = await at(["scan", "dangling"]);
    assertEquals([dangling.code, dangling.stdout], [2, ""]);
    const pipe = await at(["scan", "pipe"]);
    assertEquals(pipe.code, 2);
    assertMatch(pipe.stderr, /^error: pipe is a named pipe \(FIFO\).*; give a file or a folder\n$/);

    // `-` is standard input, alone or beside files.
    const stdin = await at(["scan", "-"], `token: ${v.slackBot()}\n`);
    assertEquals([stdin.code, stdin.stdout.split("  ").slice(0, 2)], [1, ["-:1:8", "slack-token"]]);
    const mixed = await at(["scan", "clean.conf", "-"], "nothing here\n");
    assertEquals([mixed.code, mixed.stderr], [0, "no secrets found in 2 inputs\n"]);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scan of a folder honours .gitignore and walks dot-files; a named ignored file is scanned", async () => {
  const home = await tempDir();
  const dir = await tempDir();
  try {
    const write = async (path: string, text: string) => {
      await Deno.mkdir(join(dir, path, ".."), { recursive: true });
      await Deno.writeTextFile(join(dir, path), text);
    };
    await write(".gitignore", "node_modules/\n*.log\n!keep.log\n");
    await write("node_modules/left-pad/index.js", `const token = "${v.githubPat()}";\n`);
    await write("debug.log", `GITHUB_TOKEN=${v.githubPat()}\n`);
    await write("keep.log", `GITHUB_TOKEN=${v.githubPat()}\n`);
    await write(".env", `STRIPE_KEY=${v.stripeSecret()}\n`);
    await write("deploy/.npmrc", `//registry.npmjs.org/:_authToken=${v.npm()}\n`);
    await write("src/nested/.gitignore", "generated.ts\n");
    await write("src/nested/generated.ts", `export const k = "${v.githubPat()}";\n`);
    await write("src/nested/app.ts", "export const port = 8080;\n");

    const run = await runWisp(["scan", "--json", "."], { home, cwd: dir });
    assertEquals(run.code, 1, run.stderr);
    const paths = JSON.parse(run.stdout).findings.map((f: { path: string }) => f.path);
    // A folder's own files come before its subfolders.
    assertEquals(paths, [".env", "keep.log", "deploy/.npmrc"]);

    // Named on the command line, an ignored file or folder is still scanned: it was asked for.
    const named = await runWisp(["scan", "debug.log"], { home, cwd: dir });
    assertEquals(named.code, 1);
    await Deno.mkdir(join(dir, ".git")); // the .gitignore is now a repository's, above the folder
    const folder = await runWisp(["scan", "node_modules"], { home, cwd: dir });
    assertEquals(folder.code, 1, folder.stderr);
    assertMatch(folder.stdout, /^node_modules\/left-pad\/index\.js:1:16 {2}github-pat/);
    const again = await runWisp(["scan", "--json", "."], { home, cwd: dir });
    assertEquals(JSON.parse(again.stdout).findings.length, 3);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a binary file is scanned through its printable runs, small or streamed", async () => {
  const home = await tempDir();
  const dir = await tempDir();
  try {
    const token = v.githubPat();
    const junk = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 37) % 7);
    const bytes = (text: string) => new TextEncoder().encode(text);
    const small = new Uint8Array([
      ...junk(300),
      ...bytes(`GITHUB_TOKEN=${token}`),
      ...junk(40),
      ...bytes("ab"), // a run too short to be text
      ...junk(10),
    ]);
    await Deno.writeFile(join(dir, "app.bin"), small);
    const run = await runWisp(["scan", "--json", "app.bin"], { home, cwd: dir });
    assertEquals(run.code, 1, run.stderr);
    const [f] = JSON.parse(run.stdout).findings;
    assertEquals([f.kind, f.line, f.column], ["github-pat", 1, 314]);
    assert(!run.stdout.includes(token));

    // Over the size read whole: streamed, with the token past the first window.
    const big = new Uint8Array(9 * 1024 * 1024);
    const tail = bytes(`\0\0password_hint\0 ${token} \0`);
    big.set(tail, big.length - tail.length - 100);
    await Deno.writeFile(join(dir, "core.dump"), big);
    const streamed = await runWisp(["scan", "core.dump"], { home, cwd: dir });
    assertEquals(streamed.code, 1, streamed.stderr);
    assertMatch(streamed.stdout, /^core\.dump:1:\d+ {2}github-pat {2}ghp_\*{4}\[40\]\n$/);
    const events = (await auditEvents(home)).filter((e) => e.kind === "secrets.scan");
    assertEquals(events.map((e) => [e.binary, e.total]), [[true, 1], [true, 1]]);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a diff's removed secret is reported as leaked in history; --no-history keeps to added lines", async () => {
  const home = await tempDir();
  try {
    const gone = v.githubPat();
    const diff = [
      "diff --git a/ci/deploy.sh b/ci/deploy.sh",
      "--- a/ci/deploy.sh",
      "+++ b/ci/deploy.sh",
      "@@ -2,3 +2,3 @@ set -eu",
      ' echo "deploying"',
      `-export GH_TOKEN=${gone}`,
      '+export GH_TOKEN="$(vault read -field=token secret/ci/gh)"',
      " ./release.sh",
      "",
    ].join("\n");
    const run = await runWisp(["scan"], { home, stdin: diff });
    assertEquals(run.code, 1, run.stderr);
    assertEquals(run.stdout, "ci/deploy.sh:3:17  github-pat  ghp_****[40]  leaked in history\n");
    assertStringIncludes(
      run.stderr,
      "1 finding: 1 github-pat (1 on removed lines: leaked in history)",
    );
    const json = await runWisp(["scan", "--json", "-"], { home, stdin: diff });
    assertEquals(JSON.parse(json.stdout).findings[0].history, true);
    assert(!json.stdout.includes(gone));
    const added = await runWisp(["scan", "--no-history"], { home, stdin: diff });
    assertEquals([added.code, added.stdout], [0, ""]);
    const events = (await auditEvents(home)).filter((e) => e.kind === "secrets.scan");
    assertEquals(events.map((e) => e.history ?? 0), [1, 1, 0]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

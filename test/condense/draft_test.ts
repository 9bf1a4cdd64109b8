/**
 * wisp draft: the pure finishing and fallback, and the real CLI with a piped
 * diff, with `git diff --cached` run through the gate and the sandbox, and
 * with a model over the Ollama wire (fake server).
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { join } from "node:path";
import {
  capSubject,
  exactDraft,
  finishDraft,
  SUBJECT_MAX,
  WHY_PLACEHOLDER,
} from "../../src/condense/draft.ts";
import { summariseDiff } from "../../src/condense/diff.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";

const DIFF = `diff --git a/src/parse.ts b/src/parse.ts
index 1111111..2222222 100644
--- a/src/parse.ts
+++ b/src/parse.ts
@@ -1,3 +1,4 @@ export function parse(text: string)
 const a = 1;
-const b = 2;
+const b = 3;
+const c = 4;
 export {};
`;

Deno.test("capSubject: at most 72 characters, cut at a word, no trailing period", () => {
  assertEquals(capSubject("Fix the parser."), "Fix the parser");
  const long =
    "Teach the configuration loader to keep comments and layout when it rewrites a setting in place";
  const capped = capSubject(long);
  assert(capped.length <= SUBJECT_MAX, capped);
  assert(long.startsWith(capped) && !capped.endsWith(" "), capped);
});

Deno.test("finishDraft: fences and labels removed, the subject capped, a commit body ends with Why: <…>", () => {
  const written =
    "```\nCommit message: Make the parser accept trailing commas in arrays, objects and argument lists everywhere\n\nThe parser now skips a comma before a closing bracket.\nWhy: because\n```";
  const done = finishDraft("commit", written).split("\n");
  assert(
    done[0].length <= SUBJECT_MAX && done[0].startsWith("Make the parser accept trailing commas"),
    done[0],
  );
  assertEquals(done[1], "");
  assertEquals(done[2], "The parser now skips a comma before a closing bracket.");
  assertEquals(done[done.length - 1], WHY_PLACEHOLDER);
  assertEquals(done.filter((l) => /^why:/i.test(l)).length, 1);
  assertEquals(
    finishDraft("changelog", "* Arrays may end with a comma.\nextra"),
    "- Arrays may end with a comma",
  );
  assert(!finishDraft("pr", "Title\n\nBody").includes("Why:"));
});

Deno.test("exactDraft: a plain draft from the summary", () => {
  assertEquals(
    exactDraft("commit", summariseDiff(DIFF)),
    `Update src/parse.ts\n\n- Update src/parse.ts (+2 −1)\n\n${WHY_PLACEHOLDER}`,
  );
  assertEquals(exactDraft("changelog", summariseDiff(DIFF)), "- Update src/parse.ts");
});

Deno.test("wisp draft: a piped diff without a model gives the plain draft and says so on stderr", async () => {
  const home = await tempDir();
  try {
    const r = await runWisp(["draft", "--no-model"], { home, stdin: DIFF });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(
      r.stdout,
      `Update src/parse.ts\n\n- Update src/parse.ts (+2 −1)\n\n${WHY_PLACEHOLDER}\n`,
    );
    assertMatch(r.stderr, /^note: model step off; a plain draft from the diff's summary\n$/);
    const bad = await runWisp(["draft", "poem"], { home, stdin: DIFF });
    assertEquals(bad.code, 64);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp draft runs git diff --cached through the gate and the sandbox; an empty diff is refused", async () => {
  const home = await tempDir();
  const repo = await tempDir();
  const git = (...args: string[]) =>
    new Deno.Command("git", {
      args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
      cwd: repo,
      stdout: "null",
      stderr: "null",
    }).outputSync();
  try {
    git("init", "-q");
    Deno.writeTextFileSync(join(repo, "notes.md"), "one\n");
    git("add", "notes.md");
    git("commit", "-q", "-m", "base");
    const empty = await runWisp(["draft", "-y", "--no-model"], { home, cwd: repo });
    assertEquals(empty.code, 1, empty.stderr);
    assertMatch(
      empty.stderr,
      /error: the diff is empty; stage changes with git add, or pipe a diff in/,
    );
    Deno.writeTextFileSync(join(repo, "notes.md"), "one\ntwo\n");
    git("add", "notes.md");
    const r = await runWisp(["draft", "-y", "--no-model"], { home, cwd: repo });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /^Update notes\.md\n\n- Update notes\.md \(\+1 −0\)\n/);
    const audit = Deno.readTextFileSync(join(home, "logs", "audit.jsonl")).trim().split("\n").map((
      l,
    ) => JSON.parse(l));
    const outcome = audit.find((e) =>
      e.kind === "command.outcome" && e.command === "git diff --cached"
    );
    assert(outcome, "git diff --cached did not go through the runner");
    assertEquals(outcome.origin, "draft");
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("wisp draft with a model: the summary and the diff go to it; its long subject is capped and Why: added", async () => {
  const fake = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const home = await tempDir();
  try {
    fake.reply({
      text:
        "Change the default value of b in the parser module and add a new constant c for the upcoming feature work\n\nb is now 3 and c is 4.",
    });
    const r = await runWisp(["draft", "-m", "ollama:granite4.1:8b"], {
      home,
      stdin: DIFF,
      env: { OLLAMA_HOST: fake.url },
    });
    assertEquals(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert(lines[0].length <= SUBJECT_MAX, lines[0]);
    assertEquals(lines.slice(1), ["", "b is now 3 and c is 4.", "", WHY_PLACEHOLDER]);
    const sent = JSON.stringify(fake.chats()[0].messages);
    assert(sent.includes("1 file changed, +2 −1") && sent.includes("+const c = 4;"), sent);
    assertEquals(fake.chats()[0].tools, undefined);
  } finally {
    await fake.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp draft uses draft_change's implementation: its audited turn, a silent model and a failing one said in the CLI's words", async () => {
  const fake = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const home = await tempDir();
  try {
    const env = { OLLAMA_HOST: fake.url };
    fake.reply({ text: "Bump b\n\nb is 3." });
    const ok = await runWisp(["draft", "-m", "ollama:granite4.1:8b"], { home, stdin: DIFF, env });
    assertEquals(ok.code, 0, ok.stderr);
    const audit = Deno.readTextFileSync(join(home, "logs", "audit.jsonl")).trim().split("\n").map((
      l,
    ) => JSON.parse(l));
    const turn = audit.filter((e) => e.tool === "draft_change").map((e) => e.kind);
    assertEquals(turn, ["prompt", "response"]);
    assertEquals(audit.find((e) => e.kind === "response").text, "Bump b\n\nb is 3.");

    fake.reply({ text: "  " });
    const silent = await runWisp(["draft", "-m", "ollama:granite4.1:8b"], {
      home,
      stdin: DIFF,
      env,
    });
    assertEquals(silent.code, 1, silent.stderr);
    assertMatch(
      silent.stderr,
      /error: ollama:granite4\.1:8b wrote nothing; try again or pick another model with -m/,
    );
    assertEquals(silent.stdout, "");

    fake.reply({ error: "model is loading" });
    const failed = await runWisp(["draft", "-m", "ollama:granite4.1:8b"], {
      home,
      stdin: DIFF,
      env,
    });
    assertEquals(failed.code, 1, failed.stderr);
    assertMatch(failed.stderr, /error: ollama:granite4\.1:8b could not write the draft: /);

    const notDiff = await runWisp(["draft", "--no-model"], { home, stdin: "just some words\n" });
    assertEquals(notDiff.code, 1, notDiff.stderr);
    assertMatch(notDiff.stderr, /error: the input is not a diff; pipe in the output of git diff/);
  } finally {
    await fake.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp draft: a staged change over what a command's output is read is refused with the way round it; piped in, it is drafted", async () => {
  const home = await tempDir();
  const repo = await tempDir();
  const git = (...args: string[]) =>
    new Deno.Command("git", {
      args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
      cwd: repo,
      stdout: "piped",
      stderr: "null",
    }).outputSync();
  try {
    git("init", "-q");
    // 30,000 lines of about 50 bytes: a staged diff of some 1.5 MB.
    const lines = Array.from(
      { length: 30_000 },
      (_, i) => `row ${i} of the generated table, padded out`,
    );
    Deno.writeTextFileSync(join(repo, "table.txt"), lines.join("\n") + "\n");
    git("add", "table.txt");
    const staged = git("diff", "--cached").stdout;
    assert(staged.length > 1024 * 1024, `${staged.length}`);
    const big = await runWisp(["draft", "-y", "--no-model"], { home, cwd: repo });
    assertEquals(big.code, 1, big.stderr);
    assertMatch(
      big.stderr,
      new RegExp(
        `error: the staged change is ${staged.length} bytes, more than is read from a command; pipe it in instead \\(git diff --cached \\| wisp draft\\)`,
      ),
    );
    assertEquals(big.stdout, "");
    const piped = await runWisp(["draft", "--no-model"], {
      home,
      cwd: repo,
      stdin: new TextDecoder().decode(staged),
    });
    assertEquals(piped.code, 0, piped.stderr);
    assertMatch(piped.stdout, /^Add table\.txt\n\n- Add table\.txt \(\+30000 −0\)\n/);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

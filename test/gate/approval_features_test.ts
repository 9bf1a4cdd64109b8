/**
 * A remembered approval covers no more than the person was shown: after an innocent line of a
 * program is approved for always, a harmful line of the same program with something the
 * approved one lacked (an option that recurses or forces, a variable that runs code, a target
 * outside the project, arguments known only at run time, …) is asked about again, and lines
 * like the approved one are not. Every line here was written for this test.
 */
import { assert, assertEquals } from "../support/assert.ts";
import {
  type ApprovalAnswer,
  type ApprovalHost,
  type ApprovalRequest,
  Gate,
  type GateContext,
} from "../../src/gate/gate.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema } from "../../src/config/schema.ts";
import type { AuditSink } from "../../src/audit/writer.ts";
import { featuresCovered } from "../../src/gate/features.ts";

const nullAudit: AuditSink = { session: "t", record: () => ({}) as never };

class Host implements ApprovalHost {
  asked: ApprovalRequest[] = [];
  constructor(private answer: ApprovalAnswer) {}
  approve(request: ApprovalRequest): Promise<ApprovalAnswer> {
    this.asked.push(request);
    return Promise.resolve(this.answer);
  }
}

async function setup() {
  const dir = await Deno.makeTempDir({ prefix: "wisp-features-" });
  const home = homePaths(`${dir}/home/.wisp`);
  await Deno.mkdir(`${dir}/home/project`, { recursive: true });
  const gate = () =>
    new Gate({
      config: configSchema.parse({}),
      home,
      audit: nullAudit,
      env: { HOME: `${dir}/home` },
      userHome: `${dir}/home`,
    });
  const ctx = (host: ApprovalHost): GateContext => ({
    cwd: `${dir}/home/project`,
    root: `${dir}/home/project`,
    origin: "model",
    host,
    turnId: "t1",
  });
  return { dir, home, gate, ctx };
}

/** [innocent line approved for always, harmful line of the same program]. */
const PAIRS: Array<[string, string]> = [
  ["rm notes.txt", "rm --recu --fo ~"],
  ["rm build.log", "rm -f ~/.bash_history"],
  ["rm old.txt", "rm $TARGET"],
  ["rm a.txt", "rm ../../shared/ledger.csv"],
  ["rm a.txt", "nohup rm a.txt"],
  ["rm a.txt", "cd ~ && rm a.txt"],
  ["rm a.txt", "xargs rm < doomed.txt"],
  ["rm draft.md", "rm $(cat list-of-files)"],
  ["git commit --amend --no-edit", "GIT_EDITOR='rm -rf ~;:' git commit --amend"],
  ["git commit -m fix", "git commit -m fix --no-verify"],
  ["git commit -m fix", "git -c core.hooksPath=.h commit -m fix"],
  ["git push", "git push --fo origin main"],
  ["git push origin main", "GIT_SSH_COMMAND='ssh -o ProxyCommand=x' git push origin main"],
  [
    "git fetch",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch x' git fetch",
  ],
  ["git reset HEAD~1", "git reset --ha HEAD~5"],
  ["git checkout main", "git checkout --fo main"],
  ["cp a.txt b.txt", "cp -r src /tmp/exfil"],
  ["cp a.txt b.txt", "cp a.txt ~/.local/bin/a"],
  ["mv a.txt b.txt", "mv -f notes ~/Desktop/notes"],
  ["make", "make -C ~/other-project"],
  ["make test", "BASH_ENV=./prelude make test"],
  ["make test", "env PATH=./shims:/usr/bin make test"],
  ["npm install", "NODE_OPTIONS='--require ./x.js' npm install"],
  ["npm test", "npm test --prefix /usr/local"],
  ["kill 4242", "kill $(pgrep -f node)"],
  ["chmod 644 a.txt", "chmod 644 ~/.ssh/config"],
  ["touch a.txt", "touch ~/.config/autostart/x.desktop"],
  ["sed -i s/a/b/ a.txt", "sed -i s/a/b/ ~/.gitconfig"],
  ["tar -xf a.tar", "tar -xf a.tar -C ~"],
  ["python3 script.py", "PYTHONPATH=./vendored python3 script.py"],
  ["curl https://example.com/a", "curl https://example.com/a -o ~/.local/bin/tool"],
  ["./build.sh", "./build.sh > ~/.profile"],
  ["git stash", "git stash --include-untracked > /tmp/out"],
];

Deno.test("remembered approvals: no harmful line runs unasked after an innocent approval of its program", async () => {
  assert(PAIRS.length >= 26);
  for (const [innocent, harmful] of PAIRS) {
    const s = await setup();
    try {
      const first = new Host("always");
      const approved = await s.gate().check(innocent, s.ctx(first));
      assertEquals(approved.allowed, true, innocent);
      assertEquals(first.asked.length, 1, `${innocent} was asked about`);
      // The answer holds for the same line in a new process (approvals.json).
      const again = new Host("no");
      const repeat = await s.gate().check(innocent, s.ctx(again));
      assertEquals(repeat.approvedBy, "remembered", innocent);
      assertEquals(again.asked.length, 0);
      // The harmful line is asked about, or refused by the policy; it never runs unasked.
      const later = new Host("no");
      const d = await s.gate().check(harmful, s.ctx(later));
      assertEquals(d.allowed, false, `${harmful} ran after approving ${innocent}`);
      assert(d.approvedBy !== "remembered", harmful);
      assert(later.asked.length > 0 || /denied by policy/.test(d.refusal ?? ""), harmful);
    } finally {
      await Deno.remove(s.dir, { recursive: true });
    }
  }
});

/** [line approved for always, a line like it that the approval covers]. */
const ALIKE: Array<[string, string]> = [
  ["rm notes.txt", "rm other.txt"],
  ["rm notes.txt", "rm docs/old.md build.log"],
  ["rm -f a.txt", "rm -f b.txt"],
  ["git commit --amend --no-edit", "git commit -m 'second try'"],
  ["git push", "git push origin feature"],
  ["make test", "make test VERBOSE=1"],
  ["cp a.txt b.txt", "cp src/x.ts src/y.ts"],
  ["FOO=1 make test", "FOO=2 make test"],
  ["cp -r src out", "cp -r docs out2"],
  ["sed -i s/a/b/ a.txt", "sed -i s/x/y/ src/b.txt"],
  ["npm test", "npm test -- --watch=false"],
  ["rm /tmp/a.log", "rm /tmp/b.log"],
  ["rm x.txt", "cd src && rm old.ts"],
];

Deno.test("remembered approvals: lines like the approved one are not asked again", async () => {
  for (const [approvedLine, alike] of ALIKE) {
    const s = await setup();
    try {
      assertEquals((await s.gate().check(approvedLine, s.ctx(new Host("always")))).allowed, true);
      const host = new Host("no");
      const d = await s.gate().check(alike, s.ctx(host));
      assertEquals(d.approvedBy, "remembered", `${alike} after ${approvedLine}`);
      assertEquals(host.asked.length, 0, alike);
    } finally {
      await Deno.remove(s.dir, { recursive: true });
    }
  }
});

Deno.test("remembered approvals: a session answer is held to the same features", async () => {
  const s = await setup();
  try {
    const gate = s.gate();
    assertEquals((await gate.check("rm notes.txt", s.ctx(new Host("session")))).allowed, true);
    const host = new Host("no");
    assertEquals((await gate.check("rm spare.txt", s.ctx(host))).approvedBy, "remembered");
    assertEquals((await gate.check("rm -r --force ../x", s.ctx(host))).allowed, false);
    assertEquals(host.asked.length, 1);
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("remembered approvals: an entry saved before features were kept covers only plain lines", async () => {
  const s = await setup();
  try {
    await Deno.mkdir(s.home.root, { recursive: true });
    const expires = new Date(Date.now() + 86400_000).toISOString();
    await Deno.writeTextFile(
      s.home.approvals,
      JSON.stringify({
        version: 1,
        approvals: [{
          id: "0ld0ld00",
          scope: "always",
          pattern: "rm *",
          level: "moderate",
          directory: null,
          created: new Date().toISOString(),
          expires,
        }],
      }),
    );
    const host = new Host("no");
    assertEquals((await s.gate().check("rm notes.txt", s.ctx(host))).approvedBy, "remembered");
    for (const line of ["rm -f notes.txt", "rm --recu notes", "rm ~/x", "FOO=1 rm a", "rm $X"]) {
      const d = await s.gate().check(line, s.ctx(host));
      assertEquals(d.allowed, false, line);
    }
    assertEquals(host.asked.length, 5);
    // A new answer is kept beside it with its features; the old entry still works.
    await s.gate().check("rm -f notes.txt", s.ctx(new Host("always")));
    const stored = JSON.parse(await Deno.readTextFile(s.home.approvals)).approvals;
    assertEquals(stored.length, 2);
    assertEquals(stored[1].features, ["opt:force"]);
    assertEquals((await s.gate().check("rm -f b.txt", s.ctx(host))).approvedBy, "remembered");
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("features: nothing new may appear", () => {
  assert(featuresCovered([], []));
  assert(featuresCovered(["opt:force"], []));
  assert(!featuresCovered([], ["opt:force"]));
  assert(featuresCovered(["a", "b"], ["b"]));
});

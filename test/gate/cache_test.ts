/**
 * What the gate keeps between checks for speed (approvals.json by its stat,
 * compiled regular expressions) and what it never keeps (where paths lead):
 * a change another process makes is seen at the next check.
 */
import { assert, assertEquals, assertMatch, assertThrows } from "../support/assert.ts";
import { Gate, type GateContext } from "../../src/gate/gate.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema } from "../../src/config/schema.ts";
import type { AuditSink } from "../../src/audit/writer.ts";
import { cachedRegExp } from "../../src/gate/regexes.ts";

const nullAudit: AuditSink = { session: "test", record: () => ({}) as never };

async function setup(threshold: string) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-gate-cache-" }));
  const home = homePaths(`${dir}/home/.wisp`);
  await Deno.mkdir(home.root, { recursive: true });
  await Deno.mkdir(`${dir}/project`);
  const gate = new Gate({
    config: configSchema.parse({ approval: { threshold } }),
    home,
    audit: nullAudit,
    env: { HOME: `${dir}/home` },
    userHome: `${dir}/home`,
  });
  const ctx: GateContext = { cwd: `${dir}/project`, root: `${dir}/project`, origin: "model" };
  return { dir, home, gate, ctx };
}

/** Run a shell script in another process, in `cwd`. */
async function sh(script: string, cwd: string): Promise<void> {
  const out = await new Deno.Command("sh", { args: ["-c", script], cwd, stderr: "piped" }).output();
  assert(out.success, `sh -c failed: ${new TextDecoder().decode(out.stderr)}`);
}

function approvalsFile(pattern: string): string {
  return JSON.stringify({
    version: 1,
    approvals: [{
      id: "a1b2c3d4",
      scope: "always",
      pattern,
      level: "moderate",
      directory: null,
      created: "2026-11-30T00:00:00.000Z",
      expires: "2099-01-01T00:00:00.000Z",
    }],
  });
}

/** Another process edits approvals.json in place to `text`, then sets its mtime back. */
async function editInPlace(path: string, text: string, dir: string): Promise<void> {
  await Deno.writeTextFile(`${dir}/edited.json`, text);
  const before = Deno.statSync(path);
  await sh(
    `touch -r '${path}' ref && cat '${dir}/edited.json' > '${path}' && touch -r ref '${path}'`,
    dir,
  );
  const after = Deno.statSync(path);
  assertEquals(
    [after.ino, after.size, after.mtime?.getTime()],
    [before.ino, before.size, before.mtime?.getTime()],
    "inode, size and mtime are what they were when the gate read the file",
  );
}

Deno.test("gate cache: approvals.json edited by another process is seen at the next check, even at the same size and mtime", async () => {
  const { dir, home, gate, ctx } = await setup("moderate");
  try {
    const line = "make build";
    const first = await gate.check(line, ctx);
    assertEquals(first.allowed, false, "nothing remembered, no one to ask: refused");
    const pattern = first.parts[0].pattern;
    assertEquals(first.parts[0].level, "moderate");
    const other = pattern.replace(/^make/, "mak_");
    assertEquals(other.length, pattern.length);

    // Another process approves it: the next check sees the new file.
    await Deno.writeTextFile(`${dir}/approved.json`, approvalsFile(pattern));
    await sh(`cat '${dir}/approved.json' > '${home.approvals}'`, dir);
    const second = await gate.check(line, ctx);
    assertEquals([second.allowed, second.approvedBy], [true, "remembered"]);

    // Taken away within the same second (the change time Deno reports is in whole seconds).
    await editInPlace(home.approvals, approvalsFile(other), dir);
    const third = await gate.check(line, ctx);
    assertEquals(third.allowed, false, "the approval was taken away: refused");
    assertMatch(third.refusal ?? "", /no one can be asked/);

    // Given back, and left alone long enough for the gate to keep what it read.
    await editInPlace(home.approvals, approvalsFile(pattern), dir);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    assertEquals((await gate.check(line, ctx)).approvedBy, "remembered");
    assertEquals((await gate.check(line, ctx)).approvedBy, "remembered", "from what it kept");
    await editInPlace(home.approvals, approvalsFile(other), dir);
    assertEquals((await gate.check(line, ctx)).allowed, false, "a later edit is seen");

    // Removed altogether: nothing covers it.
    await editInPlace(home.approvals, approvalsFile(pattern), dir);
    assertEquals((await gate.check(line, ctx)).allowed, true);
    await sh(`rm '${home.approvals}'`, dir);
    assertEquals((await gate.check(line, ctx)).allowed, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("gate cache: where a path leads is looked up afresh at every check", async () => {
  const { dir, home, gate, ctx } = await setup("never");
  try {
    const write = "echo x > w/approvals.json";
    assertEquals((await gate.check(write, ctx)).allowed, true, "w is not there yet");
    // Another process links w to wisp's home: the same line now writes there.
    await sh(`ln -s '${home.root}' w`, ctx.cwd);
    const linked = await gate.check(write, ctx);
    assertEquals(linked.allowed, false);
    assertEquals(linked.policyRule, "wisp-home");

    // A dangling link: the file a write would create is inside the home.
    const dangling = "echo x > note";
    assertEquals((await gate.check(dangling, ctx)).allowed, true);
    await sh(`ln -s '${home.root}/config.json' note`, ctx.cwd);
    assertEquals((await gate.check(dangling, ctx)).policyRule, "wisp-home");
    // Two links deep, from a folder of its own.
    const deep = "echo x > sub/note";
    assertEquals((await gate.check(deep, ctx)).allowed, true);
    await sh(`mkdir sub && ln -s ../hop sub/note && ln -s '${home.root}/new.json' hop`, ctx.cwd);
    assertEquals((await gate.check(deep, ctx)).policyRule, "wisp-home");
    await sh(`rm -r note w sub hop`, ctx.cwd);
    assertEquals((await gate.check(dangling, ctx)).allowed, true);
    assertEquals((await gate.check(write, ctx)).allowed, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("gate cache: compiled expressions are kept, an invalid source is null, stateful flags are refused", () => {
  const a = cachedRegExp("^x[0-9]+$", "i");
  assert(a);
  assert(cachedRegExp("^x[0-9]+$", "i") === a, "the same object the second time");
  assert(a.test("X12") && a.test("x3"), "test answers the same every time");
  assert(cachedRegExp("^x[0-9]+$") !== a, "flags are part of the key");
  assertEquals(cachedRegExp("(unclosed"), null);
  assertThrows(() => cachedRegExp("x", "g"));
});

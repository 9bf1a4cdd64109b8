/**
 * read_file and edit_file through a real session: the real gate (parser,
 * policy, rules, approvals), the session's tool context, the real audit log.
 * Only the person is played, by an approval host that answers as told.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema } from "../../src/config/schema.ts";
import { Session } from "../../src/session/session.ts";
import type { ApprovalAnswer, ApprovalHost, ApprovalRequest } from "../../src/gate/gate.ts";

async function open(options: { host?: ApprovalHost; yes?: boolean } = {}) {
  const base = Deno.realPathSync(await Deno.makeTempDir({ prefix: "wisp-tools-gate-" }));
  const root = join(base, "project");
  const home = join(base, "wisp-home");
  Deno.mkdirSync(root);
  const session = Session.open({
    face: "test",
    paths: homePaths(home),
    config: configSchema.parse({ approval: { classifier: "rules" } }),
    root,
    ...options,
  });
  const turn = session.beginTurn({ budgetBytes: 8192 });
  return {
    base,
    root,
    session,
    call: (name: string, args: unknown) => session.registry.call(name, args, turn.context),
    cleanup: async () => {
      session.close();
      await Deno.remove(base, { recursive: true });
    },
  };
}

function answering(answer: ApprovalAnswer): ApprovalHost & { asked: ApprovalRequest[] } {
  const host = {
    asked: [] as ApprovalRequest[],
    approve(request: ApprovalRequest) {
      host.asked.push(request);
      return Promise.resolve(answer);
    },
  };
  return host;
}

Deno.test("real gate, nobody to ask: ordinary reads pass, a link to a key is refused, edits are refused", async () => {
  const t = await open();
  try {
    Deno.writeTextFileSync(join(t.root, "README.md"), "# hello\n");
    const ok = await t.call("read_file", { path: "README.md" });
    assertEquals(ok.text, "1\t# hello\n[end of file]");

    const ssh = join(t.base, "user", ".ssh");
    Deno.mkdirSync(ssh, { recursive: true });
    Deno.writeTextFileSync(join(ssh, "id_ed25519"), "PRIVATE KEY\n");
    Deno.symlinkSync(join(ssh, "id_ed25519"), join(t.root, "notes.txt"));
    const key = await t.call("read_file", { path: "notes.txt" });
    assertMatch(key.text, /^error: read not approved: .*dangerous/);
    assert(!key.text.includes("PRIVATE KEY"));
    const direct = await t.call("read_file", { path: join(ssh, "ID_ED25519".toLowerCase()) });
    assertMatch(direct.text, /^error: read not approved: /);

    const edit = await t.call("edit_file", { path: "new.txt", mode: "write", content: "x" });
    assertMatch(edit.text, /^error: edit not approved: .*no one can be asked here/);
    let exists = true;
    try {
      Deno.statSync(join(t.root, "new.txt"));
    } catch {
      exists = false;
    }
    assert(!exists, "a refused edit creates nothing");
  } finally {
    await t.cleanup();
  }
});

Deno.test("real gate with a person: the first edit asks, a session answer covers the next ones", async () => {
  const host = answering("session");
  const t = await open({ host });
  try {
    const first = await t.call("edit_file", { path: "a.txt", mode: "write", content: "one\n" });
    assertEquals(first.ok, true, first.text);
    const second = await t.call("edit_file", { path: "a.txt", mode: "append", content: "two\n" });
    assertEquals(second.ok, true, second.text);
    assertEquals(Deno.readTextFileSync(join(t.root, "a.txt")), "one\ntwo\n");
    assertEquals(host.asked.length, 1, host.asked.map((r) => r.line).join("; "));
    assertEquals(host.asked[0].line, `edit_file write '${join(t.root, "a.txt")}'`);
  } finally {
    await t.cleanup();
  }
});

Deno.test("real gate: a person's no leaves the file as it was", async () => {
  const host = answering("no");
  const t = await open({ host });
  try {
    Deno.writeTextFileSync(join(t.root, "keep.txt"), "keep\n");
    const result = await t.call("edit_file", {
      path: "keep.txt",
      mode: "replace",
      line: 1,
      content: "gone",
    });
    assertMatch(result.text, /^error: edit not approved: the person refused/);
    assertEquals(Deno.readTextFileSync(join(t.root, "keep.txt")), "keep\n");
  } finally {
    await t.cleanup();
  }
});

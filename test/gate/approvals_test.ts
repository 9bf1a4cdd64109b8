import { assert, assertEquals, assertThrows } from "../support/assert.ts";
import {
  APPROVAL_DAYS,
  ApprovalStore,
  covers,
  isExpired,
  isGone,
  makeApproval,
  readApprovals,
} from "../../src/gate/approvals.ts";

const NOW = new Date("2026-11-30T10:00:00Z");
const DAY = 24 * 60 * 60 * 1000;
const query = (over: Partial<Parameters<typeof covers>[1]> = {}) => ({
  pattern: "git commit *",
  level: "moderate" as const,
  root: "/p",
  cwd: "/p",
  now: NOW,
  ...over,
});

Deno.test("approvals: an approval covers its own pattern only", () => {
  const a = makeApproval({
    scope: "session",
    pattern: "git commit *",
    level: "moderate",
    root: "/p",
    now: NOW,
  });
  assert(covers(a, query()));
  assertEquals(
    covers(a, query({ pattern: "git push *" })),
    false,
    "git commit never approves git push",
  );
});

Deno.test("approvals: an approval covers only its level and below", () => {
  const a = makeApproval({
    scope: "session",
    pattern: "rm *",
    level: "moderate",
    root: "/p",
    now: NOW,
  });
  assert(covers(a, query({ pattern: "rm *", level: "safe" })));
  assert(covers(a, query({ pattern: "rm *", level: "moderate" })));
  assertEquals(
    covers(a, query({ pattern: "rm *", level: "dangerous" })),
    false,
    "a moderate rm never covers rm -rf",
  );
});

Deno.test("approvals: once is the rest of the turn", () => {
  const a = makeApproval({
    scope: "once",
    pattern: "git commit *",
    level: "moderate",
    root: "/p",
    turnId: "t1",
    now: NOW,
  });
  assert(covers(a, query({ turnId: "t1" })));
  assertEquals(covers(a, query({ turnId: "t2" })), false);
  assertEquals(covers(a, query({})), false);
});

Deno.test("approvals: project is this folder for 30 days, always anywhere for 30 days", () => {
  const p = makeApproval({
    scope: "project",
    pattern: "git commit *",
    level: "moderate",
    root: "/p",
    now: NOW,
  });
  assertEquals(p.directory, "/p");
  assertEquals(Date.parse(p.expires!) - NOW.getTime(), APPROVAL_DAYS * DAY);
  assert(covers(p, query()));
  assert(covers(p, query({ root: "/other", cwd: "/p/sub" })), "a subfolder of the project");
  assertEquals(covers(p, query({ root: "/q", cwd: "/q" })), false);
  assertEquals(
    covers(p, query({ root: "/pp", cwd: "/pp" })),
    false,
    "a folder that only starts with the same name",
  );
  const a = makeApproval({
    scope: "always",
    pattern: "head *",
    level: "safe",
    root: "/p",
    now: NOW,
  });
  assertEquals(a.directory, null);
  assert(
    covers(a, query({ pattern: "head *", level: "safe", root: "/anywhere", cwd: "/anywhere" })),
  );
  const later = new Date(NOW.getTime() + (APPROVAL_DAYS * DAY) + 1000);
  assert(isExpired(a, later));
  assertEquals(
    covers(a, query({ pattern: "head *", level: "safe", now: later })),
    false,
    "expired",
  );
  assertEquals(
    covers(a, query({ pattern: "head *", level: "safe", now: new Date(NOW.getTime() + 29 * DAY) })),
    true,
  );
});

Deno.test("approvals: a dangerous command is never remembered beyond the session", () => {
  for (const scope of ["project", "always"] as const) {
    const a = makeApproval({
      scope,
      pattern: "rm -rf build",
      level: "dangerous",
      root: "/p",
      now: NOW,
    });
    assertEquals(a.scope, "session");
    assertEquals(a.expires, null);
  }
});

Deno.test("approvals: a project folder that is gone is marked so", () => {
  const a = makeApproval({
    scope: "project",
    pattern: "x *",
    level: "moderate",
    root: "/gone",
    now: NOW,
  });
  assert(isGone(a, () => false));
  assertEquals(isGone(a, () => true), false);
  assertEquals(
    isGone(
      makeApproval({ scope: "always", pattern: "x *", level: "safe", root: "/gone" }),
      () => false,
    ),
    false,
  );
});

Deno.test("approvals store: lasting approvals go to approvals.json (0600), session ones stay in memory", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-approvals-" });
  try {
    const path = `${dir}/approvals.json`;
    const store = new ApprovalStore(path);
    store.remember({ scope: "session", pattern: "ls *", level: "safe", root: dir });
    store.remember({ scope: "once", pattern: "cat *", level: "safe", root: dir, turnId: "t" });
    assertEquals(readApprovals(path), [], "nothing written for session and once");
    const p = store.remember({
      scope: "project",
      pattern: "git commit *",
      level: "moderate",
      root: dir,
    });
    const a = store.remember({ scope: "always", pattern: "head *", level: "safe", root: dir });
    assertEquals((Deno.statSync(path).mode ?? 0) & 0o777, 0o600);
    const stored = readApprovals(path);
    assertEquals(stored.map((x) => x.id).sort(), [p.id, a.id].sort());
    // Another process's store sees the lasting ones, not the session ones.
    const other = new ApprovalStore(path);
    assert(other.find({ pattern: "git commit *", level: "moderate", root: dir, cwd: dir }));
    assertEquals(other.find({ pattern: "ls *", level: "safe", root: dir, cwd: dir }), undefined);
    assert(store.find({ pattern: "ls *", level: "safe", root: dir, cwd: dir }));
    assert(store.find({ pattern: "cat *", level: "safe", root: dir, cwd: dir, turnId: "t" }));
    store.endTurn("t");
    assertEquals(
      store.find({ pattern: "cat *", level: "safe", root: dir, cwd: dir, turnId: "t" }),
      undefined,
    );
    // Revoke and clear.
    assert(other.revoke(p.id));
    assertEquals(other.revoke(p.id), false);
    assertEquals(
      store.find({ pattern: "git commit *", level: "moderate", root: dir, cwd: dir }),
      undefined,
      "the revoke is seen",
    );
    assertEquals(other.clear().map((x) => x.id), [a.id]);
    assertEquals(readApprovals(path), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("approvals store: a malformed file is an error, not an empty list; bad entries are ignored", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-approvals-" });
  try {
    const path = `${dir}/approvals.json`;
    await Deno.writeTextFile(path, "{nope");
    assertThrows(() => readApprovals(path));
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        version: 1,
        approvals: [{ id: "x", scope: "session" }, { nonsense: true }],
      }),
    );
    assertEquals(readApprovals(path), []);
    // A hand-edited always approval for a dangerous level is capped to moderate.
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        version: 1,
        approvals: [{
          id: "y",
          scope: "always",
          pattern: "rm *",
          level: "dangerous",
          directory: null,
          created: NOW.toISOString(),
          expires: new Date(Date.now() + DAY).toISOString(),
        }],
      }),
    );
    assertEquals(readApprovals(path)[0].level, "moderate");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an answer's source stays with an approval held in memory, never in approvals.json", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-approvals-" });
  try {
    const store = new ApprovalStore(`${dir}/approvals.json`);
    let changes = 0;
    store.onMemoryChange = () => changes++;
    const held = store.remember({
      scope: "session",
      pattern: "make *",
      level: "moderate",
      root: "/p",
      source: "elicitation",
    });
    assertEquals(held.source, "elicitation");
    assertEquals(changes, 1);
    const saved = store.remember({
      scope: "always",
      pattern: "head *",
      level: "safe",
      root: "/p",
      source: "terminal",
    });
    assertEquals(saved.source, undefined);
    assert(!Deno.readTextFileSync(`${dir}/approvals.json`).includes("source"));
    assertEquals(changes, 1, "a stored approval is not the memory's change");
    store.remember({ scope: "once", pattern: "ls *", level: "safe", root: "/p", turnId: "t1" });
    assertEquals(changes, 2);
    store.endTurn("t1");
    assertEquals(changes, 3);
    store.endTurn("t1");
    assertEquals(changes, 3, "nothing left to end");
    assert(store.revoke(held.id));
    assertEquals([changes, store.inMemory()], [4, []]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

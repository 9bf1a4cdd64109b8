import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import {
  type ApprovalAnswer,
  type ApprovalHost,
  type ApprovalRequest,
  Gate,
  type GateContext,
} from "../../src/gate/gate.ts";
import type { ModelClassifier } from "../../src/gate/classifier.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema } from "../../src/config/schema.ts";
import { AuditLog } from "../../src/audit/writer.ts";

interface Setup {
  gate: Gate;
  dir: string;
  events: () => Array<Record<string, unknown>>;
  ctx: (over?: Partial<GateContext>) => GateContext;
}

async function setup(
  config: Record<string, unknown> = {},
  classifier?: ModelClassifier,
): Promise<Setup> {
  const dir = await Deno.makeTempDir({ prefix: "wisp-gate-" });
  const home = homePaths(`${dir}/home/.wisp`);
  await Deno.mkdir(`${dir}/project`, { recursive: true });
  const audit = new AuditLog({ path: home.auditLog, enabled: true, maxBytes: 1 << 20, keep: 1 });
  const gate = new Gate({
    config: configSchema.parse(config),
    home,
    audit,
    classifier,
    env: { HOME: `${dir}/home` },
    userHome: `${dir}/home`,
  });
  return {
    gate,
    dir,
    events: () =>
      Deno.readTextFileSync(home.auditLog).trim().split("\n").map((l) =>
        JSON.parse(l) as Record<string, unknown>
      ),
    ctx: (over = {}) => ({
      cwd: `${dir}/project`,
      root: `${dir}/project`,
      origin: "model",
      ...over,
    }),
  };
}

/** A face's host effect that answers from a script and records what it was asked. */
class ScriptedHost implements ApprovalHost {
  asked: ApprovalRequest[] = [];
  constructor(private answers: Array<ApprovalAnswer | "hang">) {}
  approve(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer> {
    this.asked.push(request);
    const next = this.answers.shift() ?? "no";
    if (next === "hang") {
      return new Promise((_resolve, reject) =>
        signal?.addEventListener("abort", () => reject(new Error("aborted")))
      );
    }
    return Promise.resolve(next);
  }
}

Deno.test("gate: a policy refusal is audited and never asks", async () => {
  const s = await setup();
  try {
    const host = new ScriptedHost(["always"]);
    const d = await s.gate.check("sudo ls", s.ctx({ host }));
    assertEquals(d.allowed, false);
    assertMatch(
      d.refusal!,
      /^error: command denied by policy: sudo runs commands with elevated privileges/,
    );
    assertEquals(host.asked.length, 0);
    const e = s.events().find((x) => x.kind === "policy.decision")!;
    assertEquals([e.decision, e.origin, e.rule], ["deny", "model", "privilege"]);
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("gate: safe lines run without asking; risky parts ask with the whole line and the pattern", async () => {
  const s = await setup();
  try {
    const host = new ScriptedHost(["session"]);
    const safe = await s.gate.check("ls -la | wc -l", s.ctx({ host }));
    assertEquals([safe.allowed, safe.level, safe.approvedBy], [true, "safe", "rules"]);
    const d = await s.gate.check("ls && git commit -m x", s.ctx({ host }));
    assertEquals([d.allowed, d.level, d.approvedBy, d.scope], [
      true,
      "moderate",
      "person",
      "session",
    ]);
    assertEquals(host.asked.length, 1);
    const req = host.asked[0];
    assertEquals([req.command, req.line, req.pattern, req.level], [
      "git commit -m x",
      "ls && git commit -m x",
      "git commit *",
      "moderate",
    ]);
    assertEquals(req.rememberable, ["once", "session", "project", "always", "no"]);
    // Remembered for the session: the next commit does not ask; a push does.
    const again = await s.gate.check("git commit -am y", s.ctx({ host }));
    assertEquals([again.allowed, again.approvedBy], [true, "remembered"]);
    assertEquals(host.asked.length, 1);
    const push = await s.gate.check("git push", s.ctx({ host }));
    assertEquals(push.allowed, false, "the script answers no");
    assertMatch(push.refusal!, /^error: command not approved: the person refused git push/);
    const kinds = s.events().map((e) => e.kind);
    for (
      const k of ["policy.decision", "classifier.verdict", "approval.requested", "approval.decided"]
    ) assert(kinds.includes(k), k);
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("gate: a project approval is written to the home and covers the project only", async () => {
  const s = await setup();
  try {
    const host = new ScriptedHost(["project"]);
    assert((await s.gate.check("make test", s.ctx({ host }))).allowed);
    const stored =
      JSON.parse(Deno.readTextFileSync(`${s.dir}/home/.wisp/approvals.json`)).approvals;
    assertEquals(stored.map((a: { pattern: string; scope: string }) => [a.pattern, a.scope]), [[
      "make test *",
      "project",
    ]]);
    const fresh = new Gate({ ...s.gate.opts, approvals: undefined });
    assertEquals((await fresh.check("make test", s.ctx())).approvedBy, "remembered");
    await Deno.mkdir(`${s.dir}/elsewhere`);
    const elsewhere = await fresh.check(
      "make test",
      s.ctx({ cwd: `${s.dir}/elsewhere`, root: `${s.dir}/elsewhere` }),
    );
    assertEquals(elsewhere.allowed, false, "no host there, and the approval is for another folder");
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("gate: a dangerous part offers once and session only, and is remembered by exact text", async () => {
  const s = await setup();
  try {
    const host = new ScriptedHost(["always", "no"]);
    const d = await s.gate.check("rm -rf build", s.ctx({ host }));
    assertEquals([d.allowed, d.scope], [true, "session"]);
    assertEquals(host.asked[0].rememberable, ["once", "session", "no"]);
    assertEquals(host.asked[0].pattern, "rm -rf build");
    assertEquals((await s.gate.check("rm -rf build", s.ctx({ host }))).approvedBy, "remembered");
    assertEquals((await s.gate.check("rm -rf dist", s.ctx({ host }))).allowed, false);
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("gate: no host, the timeout, and an abort are refusals; --yes approves but never outside the sandbox", async () => {
  const s = await setup({ approval: { timeoutSeconds: 1 } });
  try {
    const none = await s.gate.check("npm install", s.ctx());
    assertEquals(none.allowed, false);
    assertMatch(
      none.refusal!,
      /^error: command not approved: npm install is moderate \(.*\), and no one can be asked here/,
    );
    const started = Date.now();
    const slow = await s.gate.check("npm install", s.ctx({ host: new ScriptedHost(["hang"]) }));
    assertEquals(slow.allowed, false);
    assertMatch(slow.refusal!, /no answer within 1 s/);
    // The timeout is a time: at least 1 s, and an upper bound with five times
    // the room the old one left (it was 3 s).
    const took = Date.now() - started;
    assert(took >= 900 && took < 11_000, `refused after ${took} ms`);
    const controller = new AbortController();
    const pending = s.gate.check(
      "npm install",
      s.ctx({ host: new ScriptedHost(["hang"]), signal: controller.signal }),
    );
    controller.abort();
    assertEquals((await pending).allowed, false);
    const yes = await s.gate.check("npm install", s.ctx({ yes: true }));
    assertEquals([yes.allowed, yes.approvedBy], [true, "yes"]);
    const outside = await s.gate.check("brew upgrade", s.ctx({ yes: true, outsideSandbox: true }));
    assertEquals(outside.allowed, false);
    assertMatch(
      outside.refusal!,
      /running outside the sandbox is asked of a person every time, and no one can be asked here/,
    );
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("gate: outside the sandbox asks about the whole line every time, once or not at all", async () => {
  const s = await setup();
  try {
    const host = new ScriptedHost(["always", "once"]);
    const d = await s.gate.check("ls", s.ctx({ host, outsideSandbox: true }));
    assertEquals([d.allowed, d.scope, d.level], [true, "once", "moderate"]);
    assertEquals(host.asked[0].rememberable, ["once", "no"]);
    assertMatch(host.asked[0].reasons[0], /^runs OUTSIDE the sandbox/);
    assertEquals(host.asked[0].command, "ls");
    assert((await s.gate.check("ls", s.ctx({ host, outsideSandbox: true }))).allowed);
    assertEquals(host.asked.length, 2, "asked again: nothing was remembered");
    const decided = s.events().filter((e) => e.kind === "approval.decided");
    assert(decided.every((e) => e.outsideSandbox === true && e.scope === "once"));
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("gate: thresholds — never asks nothing, dangerous asks only at dangerous, safe asks everything", async () => {
  const never = await setup({ approval: { threshold: "never" } });
  const dangerous = await setup({ approval: { threshold: "dangerous" } });
  const safe = await setup({ approval: { threshold: "safe" } });
  try {
    assert((await never.gate.check("rm -rf build", never.ctx())).allowed);
    assertEquals(
      (await never.gate.check("sudo ls", never.ctx())).allowed,
      false,
      "the policy still applies",
    );
    assert((await dangerous.gate.check("npm install", dangerous.ctx())).allowed);
    assertEquals((await dangerous.gate.check("rm -rf build", dangerous.ctx())).allowed, false);
    assertEquals((await safe.gate.check("ls", safe.ctx())).allowed, false);
  } finally {
    for (const s of [never, dangerous, safe]) await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("gate: a command the person typed passes the policy but is neither classified nor asked", async () => {
  const s = await setup();
  try {
    const d = await s.gate.check("rm -rf build", s.ctx({ origin: "person" }));
    assertEquals([d.allowed, d.approvedBy], [true, "person-typed"]);
    assertEquals(s.events().filter((e) => e.kind === "classifier.verdict").length, 0);
    assertEquals((await s.gate.check("sudo ls", s.ctx({ origin: "person" }))).allowed, false);
    const e = s.events().filter((x) => x.kind === "policy.decision");
    assertEquals(e.map((x) => x.origin), ["person", "person"]);
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("gate: a model classifier may only raise the rules' level and never sees read-only parts", async () => {
  const seen: string[] = [];
  const lowering: ModelClassifier = {
    name: "test-model",
    classify: (input) => {
      seen.push(input.command);
      return Promise.resolve({ level: input.command.startsWith("touch") ? "dangerous" : "safe" });
    },
  };
  const s = await setup(
    { approval: { classifier: "system-model", threshold: "dangerous" } },
    lowering,
  );
  try {
    const d = await s.gate.check("ls && npm install && touch x", s.ctx());
    assertEquals(seen, ["npm install", "touch x"], "ls is on the read-only list");
    assertEquals(
      d.parts.map((p) => p.level),
      ["safe", "moderate", "dangerous"],
      "safe from the model does not lower npm install",
    );
    assertEquals(d.allowed, false);
    const broken: ModelClassifier = {
      name: "broken",
      classify: () => Promise.reject(new Error("no model")),
    };
    const b = await setup({ approval: { classifier: "system-model" } }, broken);
    try {
      const r = await b.gate.check("echo hi > x.txt", b.ctx({ yes: true }));
      assertEquals(r.level, "moderate");
      const v = b.events().find((e) => e.kind === "classifier.verdict")!;
      assertMatch(String((v.reasons as string[]).join(" ")), /could not judge/);
    } finally {
      await Deno.remove(b.dir, { recursive: true });
    }
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("gate: writes into the gate's own home are refused, however the home is named", async () => {
  const s = await setup();
  try {
    for (
      const line of [
        `echo x > ${s.dir}/home/.wisp/approvals.json`,
        "echo x > ~/.wisp/approvals.json",
        "cd .. && echo x > home/.wisp/config.json",
        "echo x > ../home/.wisp/facts.json",
      ]
    ) {
      const d = await s.gate.check(line, s.ctx());
      assertEquals(d.allowed, false, line);
      assertMatch(d.refusal!, /wisp's own home/);
    }
    // A link in the project that leads into the home.
    await Deno.symlink(`${s.dir}/home/.wisp`, `${s.dir}/project/w`);
    const viaLink = await s.gate.check("echo x > w/approvals.json", s.ctx());
    assertEquals(viaLink.allowed, false);
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("gate: an unreadable approvals.json covers nothing and an answer still holds for the session", async () => {
  const s = await setup();
  try {
    await Deno.mkdir(`${s.dir}/home/.wisp`, { recursive: true });
    await Deno.writeTextFile(`${s.dir}/home/.wisp/approvals.json`, "{ not json");
    const host = new ScriptedHost(["project"]);
    const d = await s.gate.check("make test", s.ctx({ host }));
    assertEquals(host.asked.length, 1, "asked: the broken file covers nothing");
    assert(d.allowed);
    assertEquals(d.scope, "session", "the file could not take it, so it holds for the session");
    assertEquals((await s.gate.check("make test", s.ctx({ host }))).approvedBy, "remembered");
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

/**
 * Doctor's state findings on a home written by wisp's own writers (every one
 * ok, each saying what it found) and on homes broken one way at a time: a
 * corrupt approvals.json, a pending folder of mode 0755, a request file that
 * is not one, a stored output others can read, a file wisp cannot read back,
 * a link, a file where a folder belongs, a damaged classifier version. The
 * modes are set with chmod and read back by doctor, so these hold as root and
 * as an ordinary user alike; the last test runs the check as nobody.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { ensureHome, ensurePrivateDir, type HomePaths, homePaths } from "../../src/config/home.ts";
import { makeApproval, readApprovals, writeApprovals } from "../../src/gate/approvals.ts";
import { ensureDefault, riskFolder } from "../../src/gate/trained/store.ts";
import { defaultVersion } from "../../src/gate/trained/store.ts";
import { LiveApprovals, parseLiveFile } from "../../src/faces/mcp/live_approvals.ts";
import type { PendingRequest } from "../../src/gate/pending.ts";
import { OutputStore } from "../../src/audit/output_store.ts";
import { AuditLog } from "../../src/audit/writer.ts";
import { writeFileAtomicSync } from "../../src/util/atomic.ts";
import { stateFindings } from "../../src/doctor/state_files.ts";
import type { Finding } from "../../src/doctor/finding.ts";
import { copyModuleGraph, NOBODY, runDenoAsNobody } from "../support/as_nobody.ts";

/** The face's reader, handed over as the command line hands it. */
const FACES = { isLiveServerFile: (text: string) => parseLiveFile(text) !== undefined };

async function scratchHome(): Promise<{ dir: string; paths: HomePaths }> {
  const dir = await Deno.makeTempDir({ prefix: "wisp-doctor-state-" });
  const paths = homePaths(join(dir, "home"));
  ensureHome(paths);
  return { dir, paths };
}

function byName(findings: Finding[], name: string): Finding {
  const found = findings.find((f) => f.name === name);
  assert(found, `no ${name} finding in ${findings.map((f) => f.name).join(", ")}`);
  return found;
}

/** A home holding one of everything, each written the way wisp writes it. */
async function fillHome(paths: HomePaths): Promise<void> {
  const now = new Date();
  writeApprovals(paths.approvals, [
    makeApproval({ scope: "always", pattern: "make *", level: "moderate", root: "/tmp", now }),
    makeApproval({ scope: "project", pattern: "git commit *", level: "moderate", root: "/", now }),
  ]);
  ensurePrivateDir(paths.pending);
  const request: PendingRequest = {
    version: 1,
    kind: "approval",
    id: "0a1b2c3d",
    server: { pid: Deno.pid, session: "s1" },
    client: "test",
    thread: "t1",
    command: "make test",
    level: "moderate",
    cwd: "/tmp",
    reasons: ["it builds"],
    outsideSandbox: false,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + 600_000).toISOString(),
  };
  writeFileAtomicSync(join(paths.pending, "0a1b2c3d.json"), JSON.stringify(request));
  new LiveApprovals(paths.servers, { pid: Deno.pid, session: "s1", client: "test" }).publish([
    makeApproval({ scope: "session", pattern: "ls *", level: "moderate", root: "/tmp" }),
  ]);
  writeFileAtomicSync(paths.facts, JSON.stringify({ version: 1, facts: [] }));
  ensurePrivateDir(paths.transcripts);
  writeFileAtomicSync(join(paths.transcripts, "2026-12-02.jsonl"), "{}\n");
  ensureDefault(paths);
  await new OutputStore(paths, "s1").keep("a long output\n", { session: "s1", tool: "run" });
  const audit = new AuditLog({ path: paths.auditLog, enabled: true, maxBytes: 1 << 20, keep: 2 });
  ensureHome(paths, paths.logs);
  audit.record("policy.decision", {
    command: "make test",
    decision: "allow",
    origin: "model",
    outsideSandbox: false,
    cwd: "/tmp",
  });
  audit.close();
}

Deno.test("doctor's state findings: a home as wisp writes it is ok throughout, and each says what it holds", async () => {
  const { dir, paths } = await scratchHome();
  try {
    const empty = stateFindings(paths, FACES);
    for (const finding of empty) {
      assertEquals(finding.ok, true, `${finding.name}: ${finding.detail}`);
      assertMatch(finding.detail, /^no .* yet \(no \//);
    }
    await fillHome(paths);
    const findings = stateFindings(paths, FACES);
    for (const finding of findings) {
      assertEquals(finding.ok, true, `${finding.name}: ${finding.detail}`);
      assertEquals(finding.fix, undefined);
    }
    assertEquals(
      byName(findings, "approvals").detail,
      `${paths.approvals}, yours alone; 2 remembered approvals`,
    );
    assertEquals(
      byName(findings, "pending requests").detail,
      `${paths.pending}: 1 file, yours alone`,
    );
    assertMatch(byName(findings, "live servers").detail, /servers: 1 file, yours alone$/);
    assertEquals(byName(findings, "facts").detail, `${paths.facts}, yours alone; 0 facts`);
    assertMatch(
      byName(findings, "classifier versions").detail,
      /classifiers: 2 files, yours alone$/,
    );
    assertMatch(byName(findings, "output store").detail, /output: 1 file, yours alone$/);
    assertMatch(
      byName(findings, "audit log").detail,
      /logs: \d+ files?, yours alone; logs\/audit\.jsonl: 1 event$/,
    );
    assertEquals(
      findings.map((f) => f.name),
      [
        "approvals",
        "pending requests",
        "live servers",
        "facts",
        "transcripts",
        "classifier versions",
        "output store",
        "audit log",
        "models folder",
      ],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor's state findings: a corrupt approvals.json is not ok, names the file, and agrees with the approvals store", async () => {
  const { dir, paths } = await scratchHome();
  try {
    writeFileAtomicSync(paths.approvals, '{ "version": 1, "approvals": [');
    const finding = byName(stateFindings(paths, FACES), "approvals");
    assertEquals(finding, {
      ok: false,
      name: "approvals",
      detail: `${paths.approvals} is not valid JSON`,
      fix: "move it aside to start with no remembered approvals",
    });
    // The same file that wisp approvals reads: it fails there too.
    let failed = false;
    try {
      readApprovals(paths.approvals);
    } catch {
      failed = true;
    }
    assert(failed);
    writeFileAtomicSync(paths.approvals, '{ "version": 1 }');
    assertMatch(byName(stateFindings(paths, FACES), "approvals").detail, /has no approvals list$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor's state findings: a pending folder of mode 0755 is not ok, with the chmod that fixes it", async () => {
  const { dir, paths } = await scratchHome();
  try {
    await fillHome(paths);
    Deno.chmodSync(paths.pending, 0o755);
    const finding = byName(stateFindings(paths, FACES), "pending requests");
    assertEquals(finding, {
      ok: false,
      name: "pending requests",
      detail: `${paths.pending} has the wrong mode (mode 755, not 700)`,
      fix: `run chmod -R u+rwX,go-rwx ${paths.pending} so that it is yours alone`,
    });
    // Doctor reports; it does not quietly repair.
    assertEquals((Deno.statSync(paths.pending).mode ?? 0) & 0o777, 0o755);
    // Files inside, named by their place in the folder, the mode fault and the damage both.
    Deno.chmodSync(paths.pending, 0o700);
    Deno.chmodSync(join(paths.pending, "0a1b2c3d.json"), 0o644);
    writeFileAtomicSync(join(paths.pending, "ffffffff.json"), "not json");
    const both = byName(stateFindings(paths, FACES), "pending requests");
    assertEquals(both.ok, false);
    assertEquals(
      both.detail,
      `${paths.pending}: files in it have the wrong mode: 0a1b2c3d.json (mode 644, not 600); ` +
        `in ${paths.pending}, ffffffff.json (not a request wisp reads)`,
    );
    assertMatch(
      both.fix ?? "",
      /^run chmod -R u\+rwX,go-rwx .*pending .*, then remove the files named/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor's state findings: modes that shut wisp out, links, a file where a folder belongs, a damaged classifier version", async () => {
  const { dir, paths } = await scratchHome();
  try {
    await fillHome(paths);
    // A stored output others can read.
    const output = join(paths.output, "s1");
    const [stored] = [...Deno.readDirSync(output)].map((e) => join(output, e.name));
    Deno.chmodSync(stored, 0o644);
    let finding = byName(stateFindings(paths, FACES), "output store");
    assertEquals(finding.ok, false);
    assertMatch(finding.detail, /files in it have the wrong mode: s1\/\S+ \(mode 644, not 600\)$/);
    // A file nobody may read: root could still read it, so the mode is what tells.
    Deno.chmodSync(stored, 0o000);
    finding = byName(stateFindings(paths, FACES), "output store");
    assertMatch(finding.detail, /\(mode 000: wisp cannot read or replace it\)$/);
    Deno.chmodSync(stored, 0o600);
    // A link in the transcripts.
    Deno.symlinkSync("/etc/hostname", join(paths.transcripts, "elsewhere.jsonl"));
    finding = byName(stateFindings(paths, FACES), "transcripts");
    assertEquals(finding.ok, false);
    assertEquals(
      finding.detail,
      `in ${paths.transcripts}, elsewhere.jsonl (a symbolic link, which wisp never makes)`,
    );
    assertEquals(finding.fix, "remove the links named; wisp keeps only files of its own here");
    Deno.removeSync(join(paths.transcripts, "elsewhere.jsonl"));
    // A file where wisp keeps a folder, and a folder where it keeps a file.
    Deno.writeTextFileSync(paths.models, "x", { mode: 0o600 });
    finding = byName(stateFindings(paths, FACES), "models folder");
    assertEquals(finding.detail, `${paths.models} is not a folder, where wisp keeps a folder`);
    assertMatch(finding.fix ?? "", /^move it aside \(mv /);
    Deno.removeSync(paths.facts);
    Deno.mkdirSync(paths.facts, { mode: 0o700 });
    assertMatch(
      byName(stateFindings(paths, FACES), "facts").detail,
      /facts\.json is a folder, where wisp keeps a file$/,
    );
    // A classifier version whose weights were cut short.
    const weights = join(riskFolder(paths), defaultVersion(), "weights.json");
    writeFileAtomicSync(weights, '{"weights": {');
    finding = byName(stateFindings(paths, FACES), "classifier versions");
    assertEquals(finding.ok, false);
    assertEquals(
      finding.detail,
      `in ${paths.classifiers}, risk/${defaultVersion()}/weights.json (not valid JSON)`,
    );
    assertMatch(finding.fix ?? "", /wisp classifier remove/);
    // A server's file that is not one, and facts that are not a JSON object.
    writeFileAtomicSync(join(paths.servers, "s2.json"), JSON.stringify({ version: 1, server: {} }));
    finding = byName(stateFindings(paths, FACES), "live servers");
    assertEquals(finding.ok, false);
    assertEquals(finding.detail, `in ${paths.servers}, s2.json (not a server's file wisp reads)`);
    assertMatch(finding.fix ?? "", /^remove the files named/);
    Deno.removeSync(paths.facts, { recursive: true });
    writeFileAtomicSync(paths.facts, "[1, 2");
    finding = byName(stateFindings(paths, FACES), "facts");
    assertEquals(finding, {
      ok: false,
      name: "facts",
      detail:
        `${paths.facts} is not JSON, so wisp keeps no permanent facts until it is mended or moved aside`,
      fix:
        `move it aside (mv ${paths.facts} ${paths.facts}.aside) to start with no permanent facts`,
    });
    writeFileAtomicSync(paths.facts, "[]");
    assertEquals(
      byName(stateFindings(paths, FACES), "facts").detail,
      `${paths.facts} is not a facts file wisp wrote (top: expected object, received array)`,
    );
    // An audit line that is not an event is a note, not a fault: wisp logs reads around it.
    Deno.writeTextFileSync(paths.auditLog, "{torn\n", { append: true });
    finding = byName(stateFindings(paths, FACES), "audit log");
    assertEquals(finding.ok, true);
    assertMatch(finding.detail, /2 lines, 1 line not an event \(wisp logs skips it\)$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor's state findings: another user's file is not yours (needs root to make one)", {
  ignore: Deno.uid() !== 0,
}, async () => {
  const { dir, paths } = await scratchHome();
  try {
    await fillHome(paths);
    Deno.chownSync(paths.approvals, NOBODY, NOBODY);
    const finding = byName(stateFindings(paths, FACES), "approvals");
    assertEquals(finding.ok, false);
    assertEquals(
      finding.detail,
      `${paths.approvals} is not yours (owned by uid ${NOBODY}, not by you (uid 0))`,
    );
    assertMatch(finding.fix ?? "", /^give it back to yourself \(chown/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  "doctor's state findings as an ordinary user: a file of mode 0400 and an unreadable one, in a home of their own",
  {
    ignore: Deno.build.os !== "linux" || Deno.uid() !== 0,
  },
  async () => {
    // Run as root, the suite plays the ordinary user with setpriv; run as that user, the other
    // tests above already are that user's view.
    const scratch = await Deno.makeTempDir({ prefix: "wisp-doctor-nobody-" });
    try {
      Deno.chmodSync(scratch, 0o755);
      // The ordinary user's own home for wisp, as theirs would be.
      Deno.mkdirSync(join(scratch, "wisp"), { mode: 0o700 });
      Deno.chownSync(join(scratch, "wisp"), NOBODY, NOBODY);
      const state = await copyModuleGraph(
        new URL("../../src/doctor/state.ts", import.meta.url),
        scratch,
      );
      const script = join(scratch, "probe.ts");
      Deno.writeTextFileSync(
        script,
        `import { stateFinding } from ${JSON.stringify(state)};
const home = Deno.env.get("HOME") + "/wisp";
Deno.mkdirSync(home + "/pending", { recursive: true, mode: 0o700 });
Deno.chmodSync(home + "/pending", 0o700);
Deno.writeTextFileSync(home + "/facts.json", "{}", { mode: 0o600 });
Deno.chmodSync(home + "/facts.json", 0o000);
Deno.writeTextFileSync(home + "/pending/0a1b2c3d.json", "{}", { mode: 0o600 });
Deno.chmodSync(home + "/pending/0a1b2c3d.json", 0o400);
const read = (path: string) => {
  try {
    Deno.readTextFileSync(path);
  } catch {
    throw new Error(path + " cannot be read");
  }
  return "parses";
};
const facts = stateFinding({ name: "facts", path: home + "/facts.json", kind: "file", holds: "facts", read, damagedFix: "move it aside" });
const pending = stateFinding({ name: "pending", path: home + "/pending", kind: "folder", holds: "requests", read, reads: () => true, damagedFix: "remove it" });
console.log(JSON.stringify({ uid: Deno.uid(), facts, pending }));
`,
      );
      Deno.chmodSync(script, 0o644);
      const run = await runDenoAsNobody(scratch, script);
      assertEquals(run.code, 0, run.stderr);
      const out = JSON.parse(run.stdout) as { uid: number; facts: Finding; pending: Finding };
      assertEquals(out.uid, NOBODY);
      // Mode 0000 is named by its mode (the ordinary user also cannot read it, and is told how).
      assertEquals(out.facts.ok, false);
      assertMatch(
        out.facts.detail,
        /facts\.json has the wrong mode \(mode 000: wisp cannot read or replace it\)/,
      );
      assertMatch(out.facts.detail, /cannot be read/);
      assertMatch(out.facts.fix ?? "", /^run chmod 600 /);
      // 0400: read-only to its owner; wisp replaces such files by rename, but not a file it cannot write.
      assertEquals(out.pending.ok, false);
      assertMatch(
        out.pending.detail,
        /0a1b2c3d\.json \(mode 400: wisp cannot read or replace it\)$/,
      );
    } finally {
      await Deno.remove(scratch, { recursive: true });
    }
  },
);

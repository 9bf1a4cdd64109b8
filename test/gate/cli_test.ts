import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import { ApprovalStore, readApprovals } from "../../src/gate/approvals.ts";

const EXAMPLES = new URL("../fixtures/gate/examples.tsv", import.meta.url).pathname;

Deno.test("wisp classifier measure: the shipped set is green with no under-ratings", async () => {
  const home = await tempDir();
  try {
    const r = await runWisp(["classifier", "measure", "--examples", EXAMPLES], { home });
    assertEquals(r.code, 0, r.stderr + r.stdout);
    assertMatch(r.stdout, /under\s+0 /);
    assertMatch(r.stdout, /latency per verdict: median \d+ µs, p99 \d+ µs/);
    const labelled = Deno.readTextFileSync(EXAMPLES).split("\n").filter((l) =>
      /^(safe|moderate|dangerous|deny)\t/.test(l)
    );
    assert(labelled.length >= 300, `${labelled.length} labelled lines`);
    assert(
      labelled.filter((l) => l.startsWith("deny\t")).length >= 100,
      "heavy on evasions the policy must refuse",
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp classifier measure: under-ratings are listed, and a dangerous one fails the run", async () => {
  const home = await tempDir();
  try {
    const file = `${home}/set.tsv`;
    await Deno.writeTextFile(
      file,
      "safe\tls\ndangerous\tls -la\nmoderate\tcat x\ndeny\tgit status\nsafe\trm -rf x\n",
    );
    const r = await runWisp(["classifier", "measure", "--examples", file], { home });
    assertEquals(r.code, 1);
    assertMatch(r.stdout, /exact\s+1 /);
    assertMatch(r.stdout, /over\s+1 /);
    assertMatch(r.stdout, /under\s+3 /);
    assertStringIncludes(r.stdout, "line 2: labelled dangerous, rated safe: ls -la");
    assertStringIncludes(r.stdout, "line 4: labelled deny, rated safe: git status");
    // A moderate line rated safe is an under-rating but does not fail the run.
    await Deno.writeTextFile(file, "moderate\tcat x\n");
    assertEquals((await runWisp(["classifier", "measure", "--examples", file], { home })).code, 0);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp classifier measure --json: one object per line with label, verdict, command, reasons", async () => {
  const home = await tempDir();
  try {
    const file = `${home}/set.tsv`;
    await Deno.writeTextFile(
      file,
      "# a comment\nsafe\tls\ndeny\tsudo ls\n\ndangerous\trm -rf build\n",
    );
    const r = await runWisp(["classifier", "measure", "--examples", file, "--json"], { home });
    assertEquals(r.code, 0, r.stderr);
    const rows = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(rows.map((o) => [o.label, o.verdict, o.command]), [["safe", "safe", "ls"], [
      "deny",
      "deny",
      "sudo ls",
    ], ["dangerous", "dangerous", "rm -rf build"]]);
    assert(rows.every((o) => Array.isArray(o.reasons) && o.reasons.length > 0));
    assertStringIncludes(r.stderr, "measured 3 lines");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp classifier measure: a malformed set or classifier is a usage error", async () => {
  const home = await tempDir();
  try {
    const file = `${home}/set.tsv`;
    await Deno.writeTextFile(file, "risky\tls\n");
    const bad = await runWisp(["classifier", "measure", "--examples", file], { home });
    assertEquals(bad.code, 64);
    assertMatch(
      bad.stderr,
      /^error: .*set\.tsv:1 has the label "risky"; use deny, dangerous, moderate or safe\n$/,
    );
    const cls = await runWisp([
      "classifier",
      "measure",
      "--examples",
      file,
      "--classifier",
      "magic",
    ], { home });
    assertEquals(cls.code, 64);
    const missing = await runWisp(["classifier", "measure", "--examples", `${home}/nope.tsv`], {
      home,
    });
    assertEquals(missing.code, 1);
    assertMatch(missing.stderr, /does not exist/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp approvals: list piped is TSV with gone marked; revoke and clear --gone", async () => {
  const home = await tempDir();
  try {
    const kept = `${home}/kept`;
    const gone = `${home}/gone`;
    await Deno.mkdir(kept);
    await Deno.mkdir(gone);
    const store = new ApprovalStore(`${home}/approvals.json`);
    const a = store.remember({
      scope: "project",
      pattern: "git commit *",
      level: "moderate",
      root: kept,
    });
    const b = store.remember({
      scope: "project",
      pattern: "make test *",
      level: "moderate",
      root: gone,
    });
    const c = store.remember({ scope: "always", pattern: "head *", level: "safe", root: kept });
    await Deno.remove(gone);
    const list = await runWisp(["approvals"], { home });
    assertEquals(list.code, 0, list.stderr);
    const rows = list.stdout.trim().split("\n").map((l) => l.split("\t"));
    assertEquals(rows.map((r) => [r[0], r[1], r[3], r[4], r[5]]), [
      [a.id, "project", kept, "git commit *", undefined],
      [b.id, "project", gone, "make test *", "gone"],
      [c.id, "always", "", "head *", undefined],
    ]);
    assertMatch(rows[0][2], /^\d{4}-\d\d-\d\dT/);
    assertEquals((await runWisp(["approvals", "list"], { home })).stdout, list.stdout);

    const cleared = await runWisp(["approvals", "clear", "--gone"], { home });
    assertEquals(cleared.code, 0, cleared.stderr);
    assertStringIncludes(cleared.stdout, `removed ${b.id}`);
    assertEquals(readApprovals(`${home}/approvals.json`).map((x) => x.id), [a.id, c.id]);

    const revoked = await runWisp(["approvals", "revoke", a.id], { home });
    assertEquals(revoked.code, 0);
    assertStringIncludes(revoked.stdout, `revoked ${a.id}: git commit *`);
    const unknown = await runWisp(["approvals", "revoke", "ffffffff"], { home });
    assertEquals(unknown.code, 1);
    assertMatch(unknown.stderr, /^error: no remembered approval has the id ffffffff/);

    const refused = await runWisp(["approvals", "clear"], { home });
    assertEquals(refused.code, 1);
    assertMatch(refused.stderr, /^error: wisp approvals clear asks before/);
    assertEquals(readApprovals(`${home}/approvals.json`).map((x) => x.id), [c.id]);
    const all = await runWisp(["approvals", "clear", "--yes"], { home });
    assertEquals(all.code, 0);
    assertEquals(readApprovals(`${home}/approvals.json`), []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

/**
 * The conventions of other scanners: inline allow comments, fingerprint ignore files
 * (`.wispignore`, `.gitleaksignore`), a baseline of known findings, and SARIF 2.1.0 output whose
 * shape a code-scanning page accepts.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import { redactText, scanText } from "../../src/secrets/index.ts";
import { AUDIT_CATALOGUE } from "../../src/audit/catalogue.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(314));

Deno.test("inline allow comments: same line or the line before, in every comment syntax", () => {
  const tokens = Array.from({ length: 8 }, () => v.githubPat());
  const text = [
    `TOKEN_A=${tokens[0]} # gitleaks:allow`,
    `token_b = "${tokens[1]}"  # pragma: allowlist secret`,
    `const c = "${tokens[2]}"; // wisp:allow (fixture for the parser test)`,
    "# pragma: allowlist nextline secret",
    `TOKEN_D=${tokens[3]}`,
    "<!-- wisp:allow-next-line -->",
    `<token>${tokens[4]}</token>`,
    `TOKEN_F=${tokens[5]}`,
    "# wisp:allow-next-line applies to one line only",
    `TOKEN_G=${tokens[6]}`,
    `TOKEN_H=${tokens[7]}`,
    "",
  ].join("\n");
  const found = scanText(text, { path: "fixtures.env" }).map((f) => text.slice(f.start, f.end));
  assertEquals(found, [tokens[5], tokens[7]]);
  // Redaction cleans text on its way out, whatever a comment says.
  const redacted = redactText(text, { personal: false });
  for (const token of tokens) assert(!redacted.text.includes(token));
});

async function scratch(): Promise<{ home: string; dir: string; remove: () => Promise<void> }> {
  const home = await tempDir();
  const dir = await tempDir();
  return {
    home,
    dir,
    remove: async () => {
      await Deno.remove(home, { recursive: true });
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("a .wispignore fingerprint (path:kind:line) and a .gitleaksignore one (path:rule:line) leave a finding out", async () => {
  const s = await scratch();
  try {
    await Deno.mkdir(join(s.dir, "config"));
    await Deno.writeTextFile(
      join(s.dir, "config", "test.env"),
      `GITHUB_TOKEN=${v.githubPat()}\nSTRIPE_KEY=${v.stripeSecret()}\nNPM_TOKEN=${v.npm()}\n`,
    );
    const before = await runWisp(["scan", "config"], { home: s.home, cwd: s.dir });
    assertEquals([before.code, before.stdout.trim().split("\n").length], [1, 3]);

    await Deno.writeTextFile(
      join(s.dir, ".wispignore"),
      "# reviewed: test fixtures\nconfig/test.env:github-pat:1\nconfig/test.env:npm-token:2\n",
    );
    await Deno.writeTextFile(
      join(s.dir, ".gitleaksignore"),
      "4f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6:config/test.env:stripe-access-token:2\n",
    );
    const after = await runWisp(["scan", "config"], { home: s.home, cwd: s.dir });
    // Line 2's kind in .wispignore is wrong, so only gitleaks' (kind-blind) entry covers it.
    assertEquals(after.code, 1);
    assertMatch(after.stdout, /^config\/test\.env:3:11 {2}npm-token/);
    assertStringIncludes(after.stderr, "2 known findings left out (baseline, ignore file)");
  } finally {
    await s.remove();
  }
});

Deno.test("--baseline: findings of an earlier --json run are left out, even after lines move; a new one is not", async () => {
  const s = await scratch();
  try {
    const path = join(s.dir, "app.env");
    const old = v.githubPat();
    await Deno.writeTextFile(path, `PORT=80\nGITHUB_TOKEN=${old}\n`);
    const first = await runWisp(["scan", "--json", "app.env"], { home: s.home, cwd: s.dir });
    await Deno.writeTextFile(join(s.dir, "baseline.json"), first.stdout);
    const [entry] = JSON.parse(first.stdout).findings;
    assertEquals(entry.fingerprint, "app.env:github-pat:2");
    assertMatch(entry.context, /^[0-9a-f]{16}$/);

    const added = v.slackBot();
    await Deno.writeTextFile(path, `# settings\nPORT=80\nGITHUB_TOKEN=${old}\nSLACK=${added}\n`);
    const run = await runWisp(["scan", "--baseline", "baseline.json", "app.env"], {
      home: s.home,
      cwd: s.dir,
    });
    assertEquals(run.code, 1);
    assertMatch(run.stdout, /^app\.env:4:7 {2}slack-token/);
    assertEquals(run.stdout.trim().split("\n").length, 1);

    await Deno.writeTextFile(path, `# settings\nPORT=80\nGITHUB_TOKEN=${old}\n`);
    const known = await runWisp(["scan", "--baseline", "baseline.json", "app.env"], {
      home: s.home,
      cwd: s.dir,
    });
    assertEquals([known.code, known.stdout], [0, ""]);
    assertStringIncludes(known.stderr, "1 known finding left out");
    // The audit event counts what was left out (`known`), a field of the catalogue's event.
    const audit = (await Deno.readTextFile(join(s.home, "logs", "audit.jsonl"))).trim().split("\n")
      .map((l) => JSON.parse(l)).filter((e) => e.kind === "secrets.scan");
    const last = audit[audit.length - 1];
    assertEquals([last.known, last.total, last.counts], [1, 0, {}]);
    assert(AUDIT_CATALOGUE["secrets.scan"].safeParse(last).success);
    for (const field of ["known", "history"]) {
      assert(!AUDIT_CATALOGUE["secrets.scan"].safeParse({ ...last, [field]: "1" }).success, field);
    }

    // The same place with another value on another kind's line is not hidden.
    await Deno.writeTextFile(path, `GITHUB_TOKEN=${v.stripeSecret()}\n`);
    const changed = await runWisp(["scan", "--baseline", "baseline.json", "app.env"], {
      home: s.home,
      cwd: s.dir,
    });
    assertEquals(changed.code, 1);

    await Deno.writeTextFile(join(s.dir, "broken.json"), "{not json");
    const broken = await runWisp(["scan", "--baseline", "broken.json", "app.env"], {
      home: s.home,
      cwd: s.dir,
    });
    assertEquals(broken.code, 64);
    assertEquals(
      broken.stderr,
      "error: broken.json is not JSON; make a baseline with wisp scan --json … > broken.json\n",
    );
    const missing = await runWisp(["scan", "--baseline", "nope.json", "app.env"], {
      home: s.home,
      cwd: s.dir,
    });
    assertEquals(missing.code, 64);
  } finally {
    await s.remove();
  }
});

/** The parts of SARIF 2.1.0 a code-scanning page needs, checked field by field. */
function assertSarifShape(doc: Record<string, unknown>): void {
  assertEquals(doc.version, "2.1.0");
  assertMatch(String(doc.$schema), /sarif-2\.1\.0/);
  const runs = doc.runs as Record<string, unknown>[];
  assert(Array.isArray(runs) && runs.length === 1);
  const driver = (runs[0].tool as { driver: Record<string, unknown> }).driver;
  assertEquals(driver.name, "wisp");
  assertMatch(String(driver.version), /^\d+\.\d+\.\d+/);
  const rules = driver.rules as { id: string; shortDescription: { text: string } }[];
  const ids = rules.map((r) => r.id);
  assertEquals(new Set(ids).size, ids.length, "rule ids are unique");
  for (const r of rules) assert(r.shortDescription.text.length > 0);
  const results = runs[0].results as Record<string, unknown>[];
  assert(Array.isArray(results));
  for (const r of results) {
    assert(ids.includes(String(r.ruleId)), `ruleId ${r.ruleId} is a rule`);
    assertEquals(ids[r.ruleIndex as number], r.ruleId);
    assert(["error", "warning", "note", "none"].includes(String(r.level)));
    assert((r.message as { text: string }).text.length > 0);
    const [loc] = r.locations as { physicalLocation: Record<string, Record<string, unknown>> }[];
    const uri = String(loc.physicalLocation.artifactLocation.uri);
    assert(!uri.startsWith("/") && !uri.includes("\\"), uri);
    assert((loc.physicalLocation.region.startLine as number) >= 1);
    assert((loc.physicalLocation.region.startColumn as number) >= 1);
  }
}

Deno.test("--format sarif: a SARIF 2.1.0 log with one rule per kind and one located result per finding", async () => {
  const s = await scratch();
  try {
    await Deno.mkdir(join(s.dir, "deploy dir"));
    const pat = v.githubPat();
    await Deno.writeTextFile(
      join(s.dir, "deploy dir", "ci.env"),
      `GITHUB_TOKEN=${pat}\nNPM_TOKEN=${v.npm()}\nGH_BACKUP=${v.githubPat()}\n`,
    );
    const run = await runWisp(["scan", "--format", "sarif", "."], { home: s.home, cwd: s.dir });
    assertEquals(run.code, 1, run.stderr);
    const doc = JSON.parse(run.stdout);
    assertSarifShape(doc);
    const results = doc.runs[0].results;
    assertEquals(
      results.map((
        r: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[] },
      ) => [
        r.ruleId,
        r.locations[0].physicalLocation.region.startLine,
      ]),
      [["github-pat", 1], ["npm-token", 2], ["github-pat", 3]],
    );
    assertEquals(
      results[0].locations[0].physicalLocation.artifactLocation.uri,
      "deploy%20dir/ci.env",
    );
    assert(!run.stdout.includes(pat.slice(4)));

    const clean = await runWisp(["scan", "--format", "sarif", "deploy dir/../deploy dir/nothing"], {
      home: s.home,
      cwd: s.dir,
    });
    assertEquals(clean.code, 2);
    assertSarifShape(JSON.parse(clean.stdout));
    const bad = await runWisp(["scan", "--format", "xml", "."], { home: s.home, cwd: s.dir });
    assertEquals(bad.code, 64);
  } finally {
    await s.remove();
  }
});

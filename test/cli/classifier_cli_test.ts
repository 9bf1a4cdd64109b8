import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import { VERSION } from "../../src/version.ts";

const DEFAULT = `risk@${VERSION}-default`;
const LOCAL = (n: number) => `risk@${VERSION}-local.${n}`;

function events(home: string, kind: string): Array<Record<string, unknown>> {
  try {
    return Deno.readTextFileSync(`${home}/logs/audit.jsonl`).trim().split("\n")
      .map((l) => JSON.parse(l)).filter((e) => e.kind === kind);
  } catch {
    return [];
  }
}

/** One line on stderr: `error: <one sentence>`. */
function oneSentence(stderr: string): void {
  assertMatch(stderr, /^error: [^\n]+\n$/);
}

/** An audit line as the writer would put it, for the person's answers. */
function answer(command: string, decision: string, level: string, seq: number): string {
  return JSON.stringify({
    ts: "2026-11-01T10:00:00.000Z",
    session: "abcd1234",
    seq,
    id: `id${seq}`,
    kind: "approval.decided",
    version: VERSION,
    command,
    decision,
    level,
    by: "person",
    line: command,
  });
}

Deno.test("wisp classifier: train leaves held-out lines out, --from-audit adds the answers, --use switches", async () => {
  const home = await tempDir();
  try {
    const set = `${home}/mine.tsv`;
    Deno.writeTextFileSync(
      set,
      [
        "safe\tls -la",
        "dangerous\tvaultctl --obliterate alpha",
        "moderate\tvaultctl --sync alpha",
        "dangerous\tvaultctl --obliterate beta",
        "",
      ].join("\n"),
    );
    const exclude = `${home}/exclude.tsv`;
    Deno.writeTextFileSync(exclude, "dangerous\tvaultctl  --obliterate beta\n");
    await Deno.mkdir(`${home}/classifiers/risk`, { recursive: true });
    Deno.writeTextFileSync(`${home}/classifiers/risk/held-out.tsv`, "safe\tls -la\n");
    await Deno.mkdir(`${home}/logs`, { recursive: true });
    Deno.writeTextFileSync(
      `${home}/logs/audit.jsonl`,
      [
        answer("deploytool push", "approved", "moderate", 1),
        answer("deploytool nuke", "refused", "moderate", 2),
        answer("vaultctl --sync alpha", "approved", "moderate", 3),
      ].join("\n") + "\n",
    );
    const r = await runWisp(
      ["classifier", "train", "--examples", set, "--exclude", exclude, "--from-audit"],
      { home },
    );
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, `${LOCAL(1)}\n`);
    assertStringIncludes(r.stderr, "2 held-out lines left out");
    const manifest = JSON.parse(
      Deno.readTextFileSync(`${home}/classifiers/risk/${LOCAL(1)}/manifest.json`),
    );
    assertEquals(manifest.source, "trained");
    assertEquals(manifest.trainedOn, {
      examples: 2,
      fromAudit: 3,
      excluded: 2,
      sources: ["mine.tsv", "audit"],
    });
    const trainedEvent = events(home, "classifier.train")[0];
    assertEquals(
      [trainedEvent.classifierVersion, trainedEvent.examples, trainedEvent.fromAudit],
      [LOCAL(1), 2, 3],
    );
    assertEquals(trainedEvent.version, VERSION, "the envelope keeps wisp's version");
    // The config is untouched until --use or use.
    assertEquals(events(home, "config.change").length, 0);

    const used = await runWisp(["classifier", "train", "--examples", set, "--use"], { home });
    assertEquals(used.code, 0, used.stderr);
    assertEquals(used.stdout, `${LOCAL(2)}\n`);
    const config = JSON.parse(Deno.readTextFileSync(`${home}/config.json`));
    assertEquals(config.approval, { coremlModel: LOCAL(2), classifier: "coreml" });
    assertEquals((Deno.statSync(`${home}/config.json`).mode ?? 0) & 0o777, 0o600);
    assertEquals(
      events(home, "config.change").map((e) => [e.key, e.to]),
      [["approval.coremlModel", LOCAL(2)], ["approval.classifier", "coreml"]],
    );

    const listed = await runWisp(["classifier", "list"], { home });
    assertEquals(listed.code, 0, listed.stderr);
    const rows = listed.stdout.trimEnd().split("\n").map((l) => l.split("\t"));
    assertEquals(rows.map((row) => [row[0], row[1], row[2]]), [
      [" ", DEFAULT, "shipped"],
      [" ", LOCAL(1), "trained"],
      ["*", LOCAL(2), "trained"],
    ]);
    assertStringIncludes(rows[1][3], "3 answers");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp classifier: remove refuses the default and the one in use; use switches back", async () => {
  const home = await tempDir();
  try {
    const set = `${home}/mine.tsv`;
    Deno.writeTextFileSync(set, "moderate\tvaultctl --sync a\nsafe\tls\n");
    assertEquals(
      (await runWisp(["classifier", "train", "--examples", set, "--use"], { home })).code,
      0,
    );
    const inUse = await runWisp(["classifier", "remove", LOCAL(1)], { home });
    assertEquals(inUse.code, 1);
    oneSentence(inUse.stderr);
    assertStringIncludes(inUse.stderr, "approval.coremlModel names");
    const shipped = await runWisp(["classifier", "remove", DEFAULT], { home });
    assertEquals(shipped.code, 1);
    oneSentence(shipped.stderr);
    assertStringIncludes(shipped.stderr, "never removed");

    const back = await runWisp(["classifier", "use", DEFAULT], { home });
    assertEquals(back.code, 0, back.stderr);
    assertEquals(
      JSON.parse(Deno.readTextFileSync(`${home}/config.json`)).approval.coremlModel,
      DEFAULT,
    );
    const removed = await runWisp(["classifier", "remove", LOCAL(1)], { home });
    assertEquals(removed.code, 0, removed.stderr);
    let gone = false;
    try {
      Deno.statSync(`${home}/classifiers/risk/${LOCAL(1)}`);
    } catch {
      gone = true;
    }
    assert(gone, "the folder is gone");
    // Bad input: one sentence each, usage 64, failure 1, nothing changed.
    const before = Deno.readTextFileSync(`${home}/config.json`);
    for (
      const [args, code, pattern] of [
        [["classifier", "use", "latest"], 64, /is not a classifier version/],
        [["classifier", "use", LOCAL(7)], 1, /is not in .*wisp classifier list/],
        [["classifier", "remove", LOCAL(7)], 1, /is not in /],
        [["classifier", "train", "--examples", `${home}/none.tsv`], 1, /does not exist/],
        [["classifier", "train", "--exclude", `${home}/none.tsv`], 1, /does not exist.*--exclude/],
        [["classifier", "measure", LOCAL(7)], 1, /is not in /],
        [["classifier", "measure", DEFAULT, "--classifier", "rules"], 64, /drop --classifier/],
        [["classifier", "measure", "--classifier", "system-model"], 1, /cannot run here/],
      ] as Array<[string[], number, RegExp]>
    ) {
      const r = await runWisp(args, { home });
      assertEquals(r.code, code, `${args.join(" ")}: ${r.stderr}`);
      oneSentence(r.stderr);
      assertMatch(r.stderr, pattern, args.join(" "));
    }
    const bad = `${home}/bad.tsv`;
    Deno.writeTextFileSync(bad, "risky\tls\n");
    const malformed = await runWisp(["classifier", "train", "--examples", bad], { home });
    assertEquals(malformed.code, 64);
    oneSentence(malformed.stderr);
    assertEquals(Deno.readTextFileSync(`${home}/config.json`), before);
    const names = [...Deno.readDirSync(`${home}/classifiers/risk`)].map((e) => e.name).sort();
    assertEquals(names, [DEFAULT], "no half-written version, no temp file");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp classifier measure: a trained version is measured beside the rules and recorded in its manifest", async () => {
  const home = await tempDir();
  try {
    const set = `${home}/set.tsv`;
    Deno.writeTextFileSync(set, "safe\tls -la\nmoderate\ttouch a.txt\ndangerous\trm -rf ~/x\n");
    const r = await runWisp(["classifier", "measure", DEFAULT, "--examples", set], { home });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /measured 3 lines with the rules classifier/);
    assertMatch(
      r.stdout,
      new RegExp(`measured 3 lines with the coreml \\(${DEFAULT}\\) classifier`),
    );
    assertStringIncludes(r.stderr, `recorded in ${DEFAULT}'s manifest`);
    const manifest = JSON.parse(
      Deno.readTextFileSync(`${home}/classifiers/risk/${DEFAULT}/manifest.json`),
    );
    assertEquals(manifest.source, "shipped");
    assertEquals(
      [manifest.measurement.total, manifest.measurement.exact, manifest.measurement.examples],
      [3, 3, set],
    );
    const listed = await runWisp(["classifier", "list"], { home });
    assertStringIncludes(listed.stdout, "3/3 exact, 0 over, 0 under");
    // A weights file named by path is measured and recorded nowhere.
    const weights = `${home}/classifiers/risk/${DEFAULT}/weights.json`;
    const byPath = await runWisp(
      ["classifier", "measure", "--examples", set, "--coreml-model", weights],
      { home },
    );
    assertEquals(byPath.code, 0, byPath.stderr);
    assertStringIncludes(byPath.stdout, `with the coreml (${weights}) classifier`);
    assertEquals(byPath.stderr.includes("recorded"), false);
    const notWeights = await runWisp(
      ["classifier", "measure", "--examples", set, "--coreml-model", set],
      { home },
    );
    assertEquals(notWeights.code, 1);
    oneSentence(notWeights.stderr);
    assertStringIncludes(notWeights.stderr, "is not valid JSON");
    // --classifier trained is the same classifier, at the configured version.
    const json = await runWisp(
      ["classifier", "measure", "--examples", set, "--classifier", "trained", "--json"],
      { home },
    );
    assertEquals(json.code, 0, json.stderr);
    const lines = json.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(lines.map((l) => [l.label, l.verdict, l.rules]), [
      ["safe", "safe", "safe"],
      ["moderate", "moderate", "moderate"],
      ["dangerous", "dangerous", "dangerous"],
    ]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp config set approval.classifier coreml without a version notes the shipped default", async () => {
  const home = await tempDir();
  try {
    const set = await runWisp(["config", "set", "approval.classifier", "coreml"], { home });
    assertEquals(set.code, 0, set.stderr);
    assertMatch(set.stderr, /^note: approval\.coremlModel is not set, so coreml uses the trained/m);
    const withVersion = await runWisp(["config", "set", "approval.coremlModel", DEFAULT], { home });
    assertEquals(withVersion.code, 0, withVersion.stderr);
    const again = await runWisp(["config", "set", "approval.classifier", "coreml"], { home });
    assertEquals(again.code, 0, again.stderr);
    assertEquals(again.stderr.includes("note:"), false, again.stderr);
    const bad = await runWisp(["config", "set", "approval.coremlModel", "latest"], { home });
    assertEquals(bad.code, 64, bad.stderr);
    assertStringIncludes(bad.stderr, "must be a classifier version");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp classifier measure: a home it cannot record in still gets the numbers, and a note", async () => {
  const home = await tempDir();
  try {
    // A file where the classifiers folder should be: nothing can be recorded under it.
    Deno.writeTextFileSync(`${home}/classifiers`, "in the way\n");
    const set = `${home}/set.tsv`;
    Deno.writeTextFileSync(set, "safe\tls -la\n");
    const r = await runWisp(["classifier", "measure", DEFAULT, "--examples", set], { home });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(
      r.stdout,
      new RegExp(`measured 1 lines with the coreml \\(${DEFAULT}\\) classifier`),
    );
    assertMatch(r.stderr, new RegExp(`^note: not recorded in ${DEFAULT}'s manifest: `, "m"));
    assertEquals(Deno.readTextFileSync(`${home}/classifiers`), "in the way\n");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

import { assert, assertEquals, assertMatch, assertThrows } from "../support/assert.ts";
import { fileURLToPath } from "node:url";
import { Gate } from "../../src/gate/gate.ts";
import { applyModelClassifier } from "../../src/gate/classifier.ts";
import { parseExamples, type Verdict } from "../../src/gate/measure.ts";
import { maxLevel } from "../../src/gate/rules.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema, type Level } from "../../src/config/schema.ts";
import { AuditLog } from "../../src/audit/writer.ts";
import { calibrate, predict, type Sample, train } from "../../src/gate/trained/model.ts";
import { trainOnLines } from "../../src/gate/trained/train_lines.ts";
import { TrainedClassifier, trainedClassifier } from "../../src/gate/trained/classifier.ts";
import { samplesOf, TRAINING_PLACE, withoutHeldOut } from "../../src/gate/trained/samples.ts";
import { answersFromAudit } from "../../src/gate/trained/answers.ts";
import * as store from "../../src/gate/trained/store.ts";
import type { AuditEvent } from "../../src/audit/catalogue.ts";

const EXAMPLES = fileURLToPath(new URL("../fixtures/gate/examples.tsv", import.meta.url));
const RANK: Record<Verdict, number> = { safe: 0, moderate: 1, dangerous: 2, deny: 3 };

function rulesGate(home = "/nonexistent-home") {
  return new Gate({
    config: configSchema.parse({ approval: { classifier: "rules" } }),
    home: homePaths(`${home}/.wisp`),
    audit: { session: "t", record: () => ({}) as never },
    env: { HOME: home },
    userHome: home,
  });
}

/** Lines for a program the rules do not know, whose one option the person treats as dangerous. */
function wipeLines(): Array<{ label: Verdict; line: string }> {
  const out: Array<{ label: Verdict; line: string }> = [];
  for (const target of ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]) {
    out.push({ label: "dangerous", line: `vaultctl --obliterate ${target}` });
    out.push({ label: "moderate", line: `vaultctl --sync ${target}` });
    out.push({ label: "safe", line: `ls ${target}` });
  }
  return out;
}

Deno.test("trained: training is deterministic and never over-rates what it was trained on", () => {
  const samples: Sample[] = [
    { features: ["bias", "a"], target: "dangerous", ceiling: "dangerous" },
    { features: ["bias", "a", "b"], target: "moderate", ceiling: "moderate" },
    { features: ["bias", "c"], target: "safe", ceiling: "safe" },
    { features: ["bias", "c", "a"], target: "safe", ceiling: "safe" },
  ];
  const one = train(samples);
  const two = train(samples);
  assertEquals(JSON.stringify(one), JSON.stringify(two));
  for (const s of samples) {
    const level = predict(one, s.features).level;
    assert(
      ["safe", "moderate", "dangerous"].indexOf(level) <=
        ["safe", "moderate", "dangerous"].indexOf(s.ceiling),
      `${s.features} rated ${level} above ${s.ceiling}`,
    );
  }
  assertEquals(calibrate(one, samples), one.threshold);
  // A set that contradicts itself gets a threshold that never raises anything.
  const contradiction: Sample[] = [
    { features: ["bias", "x"], target: "dangerous", ceiling: "safe" },
    { features: ["bias", "x"], target: "dangerous", ceiling: "safe" },
  ];
  const never = train(contradiction);
  assertEquals(predict(never, ["bias", "x"]).level, "safe");
});

Deno.test("trained: a part the rules under-rate is raised by what was learned, on lines not trained on", async () => {
  const weights = await trainOnLines(wipeLines());
  const gate = rulesGate();
  const classifier = new TrainedClassifier("coreml", "risk@test", weights, TRAINING_PLACE.userHome);
  const rate = async (line: string) => {
    const a = await gate.assess(line, { cwd: TRAINING_PLACE.root, origin: "model" });
    const parts = await applyModelClassifier(classifier, a.parts, {
      line,
      cwd: TRAINING_PLACE.root,
    });
    let level: Level = "safe";
    for (const p of parts) level = maxLevel(level, p.level);
    return { rules: a.level, level, parts };
  };
  const unseen = await rate("vaultctl --obliterate omega");
  assertEquals(unseen.rules, "moderate", "the rules do not know vaultctl");
  assertEquals(unseen.level, "dangerous");
  assertEquals(unseen.parts[0].by, "trained");
  assertMatch(unseen.parts[0].reasons.join(" "), /trained classifier risk@test rates it dangerous/);
  assertEquals((await rate("vaultctl --sync omega")).level, "moderate");
  // Never lowers: a line the rules rate dangerous stays so, and read-only parts are not asked.
  const rm = await rate("rm -rf ~/omega");
  assertEquals(rm.level, "dangerous");
  assertEquals(rm.parts[0].by, "rules");
  const ls = await rate("ls omega");
  assertEquals([ls.level, ls.parts[0].by], ["safe", "rules"]);
});

Deno.test("trained: held-out lines and answers are never trained on", () => {
  const lines = [
    { label: "safe" as Verdict, line: "ls  -la" },
    { label: "dangerous" as Verdict, line: "rm -rf /srv/data" },
  ];
  const { kept, excluded } = withoutHeldOut(lines, new Set(["ls -la"]));
  assertEquals(kept.map((l) => l.line), ["rm -rf /srv/data"]);
  assertEquals(excluded, 1);
});

Deno.test("trained: a line's label is the ceiling of every part; the riskiest part learns it", async () => {
  const a = await rulesGate().assess("cat a.txt && vaultctl --obliterate x", {
    cwd: TRAINING_PLACE.root,
    origin: "model",
  });
  const samples = samplesOf("deny", a.parts, TRAINING_PLACE);
  assertEquals(samples.map((s) => [s.target, s.ceiling]), [
    ["safe", "dangerous"],
    ["dangerous", "dangerous"],
  ]);
  assert(samples[1].features.includes("prog:vaultctl"));
  assert(samples[1].features.includes("opt:vaultctl:--obliterate"));
});

Deno.test("trained: the person's answers become labels; other answers and runs outside the sandbox do not", () => {
  const ev = (fields: Record<string, unknown>): AuditEvent => ({
    ts: "2026-01-01T00:00:00Z",
    session: "s",
    seq: 1,
    id: "x",
    kind: "approval.decided",
    version: "0",
    ...fields,
  });
  const answers = answersFromAudit([
    ev({ command: "make deploy", decision: "approved", level: "moderate", by: "person" }),
    ev({
      command: "vaultctl --obliterate x",
      decision: "refused",
      level: "moderate",
      by: "person",
    }),
    ev({ command: "npm test", decision: "approved", level: "moderate", by: "remembered" }),
    ev({ command: "git push", decision: "refused", level: "moderate", by: "timeout" }),
    ev({
      command: "ls",
      decision: "approved",
      level: "moderate",
      by: "person",
      outsideSandbox: true,
    }),
    ev({ kind: "classifier.verdict", command: "x", level: "safe", by: "person" }),
    ev({ command: "make deploy", decision: "refused", level: "moderate", by: "person" }),
  ]);
  assertEquals(answers, [
    { label: "dangerous", line: "vaultctl --obliterate x" },
    { label: "dangerous", line: "make deploy" },
  ]);
});

Deno.test("trained: the committed default loads and leaves the shipped examples as the rules rate them", async () => {
  const shipped = store.bundledDefault();
  assert(Object.keys(shipped.weights.weights).length > 100);
  assertEquals(shipped.trainedOn.sources, ["examples.tsv"]);
  const dir = await Deno.makeTempDir({ prefix: "wisp-trained-" });
  try {
    const paths = homePaths(`${dir}/.wisp`);
    const classifier = trainedClassifier(paths, undefined, TRAINING_PLACE.userHome);
    assert(classifier instanceof TrainedClassifier, "the default's weights load");
    assertEquals(classifier.version, store.defaultVersion());
    const gate = rulesGate(TRAINING_PLACE.userHome);
    const examples = parseExamples(Deno.readTextFileSync(EXAMPLES), EXAMPLES);
    let exactRules = 0;
    let exactBoth = 0;
    for (const e of examples) {
      const a = await gate.assess(e.line, { cwd: TRAINING_PLACE.root, origin: "model" });
      const parts = await applyModelClassifier(classifier, a.parts, {
        line: e.line,
        cwd: TRAINING_PLACE.root,
      });
      let level: Level = "safe";
      for (const p of parts) level = maxLevel(level, p.level);
      const rules: Verdict = a.policy.allowed ? a.level : "deny";
      const both: Verdict = a.policy.allowed ? level : "deny";
      if (rules === e.label) exactRules++;
      if (both === e.label) exactBoth++;
      assert(
        RANK[both] <= Math.max(RANK[e.label], RANK[rules]),
        `line ${e.lineNo} over-rated by the trained default: ${e.line}`,
      );
    }
    assert(exactBoth >= exactRules, `${exactBoth} exact with the default, ${exactRules} by rules`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("trained store: versions are never overwritten, the default is written once, files are 0600", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-trained-" });
  try {
    const paths = homePaths(`${dir}/.wisp`);
    const weights = train([{ features: ["bias", "q"], target: "moderate", ceiling: "moderate" }]);
    const first = store.saveTrained(paths, weights, { examples: 1 });
    const second = store.saveTrained(paths, weights, { examples: 1 });
    assertMatch(first, /^risk@\d+\.\d+\.\d+-local\.1$/);
    assertMatch(second, /^risk@\d+\.\d+\.\d+-local\.2$/);
    // A removed version's number is not reused while a later one exists.
    store.removeVersion(paths, first);
    assertMatch(store.saveTrained(paths, weights, { examples: 1 }), /-local\.3$/);
    store.ensureDefault(paths);
    const def = `${store.riskFolder(paths)}/${store.defaultVersion()}`;
    const before = Deno.readTextFileSync(`${def}/weights.json`);
    Deno.writeTextFileSync(`${def}/weights.json`, before); // same bytes, new mtime
    const mtime = Deno.statSync(`${def}/weights.json`).mtime?.getTime();
    store.ensureDefault(paths);
    assertEquals(Deno.statSync(`${def}/weights.json`).mtime?.getTime(), mtime);
    for (
      const file of [`${def}/manifest.json`, `${store.riskFolder(paths)}/${second}/weights.json`]
    ) {
      assertEquals((Deno.statSync(file).mode ?? 0) & 0o777, 0o600, file);
    }
    assertEquals(
      store.listVersions(paths).map((v) => v.version.replace(/^risk@[\d.]+-/, "")),
      ["default", "local.2", "local.3"],
    );
    store.recordMeasurement(paths, second, {
      at: "2026-01-01T00:00:00Z",
      examples: "x.tsv",
      classifier: "coreml",
      total: 3,
      exact: 2,
      over: 1,
      under: 0,
      failures: 0,
      medianMicros: 12,
    });
    const entry = store.listVersions(paths).find((v) => v.version === second)!;
    assertEquals(entry.manifest?.measurement?.exact, 2);
    assertEquals(JSON.stringify(store.loadWeights(paths, second)), JSON.stringify(weights));
    // A damaged file is a sentence, and the gate's classifier then fails every verdict.
    Deno.writeTextFileSync(`${store.riskFolder(paths)}/${second}/weights.json`, "{ broken");
    assertThrows(() => store.loadWeights(paths, second), Error, "is not valid JSON");
    const broken = trainedClassifier(paths, second, dir);
    let failure = "";
    await broken.classify({ command: "x", argv: [], line: "x", cwd: dir, rulesLevel: "moderate" })
      .catch((e) => failure = (e as Error).message);
    assertMatch(failure, /is not valid JSON/);
    assertThrows(() => store.loadWeights(paths, "risk@0.0.1-local.9"), Error, "is not in");
    // A folder without a manifest is a training that did not finish: not a version.
    const unfinished = `risk@${store.defaultVersion().split("@")[1].split("-")[0]}-local.9`;
    Deno.mkdirSync(`${store.riskFolder(paths)}/${unfinished}`);
    Deno.writeTextFileSync(`${store.riskFolder(paths)}/${unfinished}/weights.json`, "{}");
    assertEquals(store.hasVersion(paths, unfinished), false);
    assertEquals(store.hasVersion(paths, second), true);
    assertThrows(
      () => store.requireVersionName("risk@latest"),
      Error,
      "is not a classifier version",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("trained: the gate uses the trained default for approval.classifier coreml and audits it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-trained-" });
  try {
    const home = homePaths(`${dir}/home/.wisp`);
    await Deno.mkdir(`${dir}/project`, { recursive: true });
    const audit = new AuditLog({ path: home.auditLog, enabled: true, maxBytes: 1 << 20, keep: 1 });
    const gate = new Gate({
      config: configSchema.parse({ approval: { classifier: "coreml", threshold: "never" } }),
      home,
      audit,
      env: { HOME: `${dir}/home` },
      userHome: `${dir}/home`,
    });
    const d = await gate.check("cat a.txt && touch b.txt", {
      cwd: `${dir}/project`,
      root: `${dir}/project`,
      origin: "model",
    });
    assertEquals(d.allowed, true);
    const verdicts = Deno.readTextFileSync(home.auditLog).trim().split("\n").map((l) =>
      JSON.parse(l)
    ).filter((e) => e.kind === "classifier.verdict");
    assertEquals(verdicts.map((v) => v.by), ["rules", "trained"]);
    assertEquals(verdicts[1].source, store.defaultVersion());
    assertEquals(verdicts[1].classifier, "rules+coreml");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("trained: the shipped default raises what it learned on programs the rules do not know", async () => {
  const gate = rulesGate(TRAINING_PLACE.userHome);
  const classifier = trainedClassifier(
    homePaths("/nonexistent-home/.wisp"),
    undefined,
    TRAINING_PLACE.userHome,
  );
  const rate = async (line: string) => {
    const a = await gate.assess(line, { cwd: TRAINING_PLACE.root, origin: "model" });
    const parts = await applyModelClassifier(classifier, a.parts, {
      line,
      cwd: TRAINING_PLACE.root,
    });
    let level: Level = "safe";
    for (const p of parts) level = maxLevel(level, p.level);
    return [a.level, level];
  };
  // Recursive, forcing, aimed at a system folder: the examples teach that this is dangerous.
  assertEquals(await rate("shredder --force --recursive /etc/nginx"), ["moderate", "dangerous"]);
  // An everyday build stays as the rules rate it.
  assertEquals(await rate("cargo build"), ["moderate", "moderate"]);
});

import { assertEquals, assertMatch } from "../support/assert.ts";
import { classifierFindingFor } from "../../src/doctor/classifier.ts";
import { configSchema } from "../../src/config/schema.ts";
import { homePaths } from "../../src/config/home.ts";
import { defaultVersion } from "../../src/gate/trained/store.ts";
import { VERSION } from "../../src/version.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { runWisp } from "../support/wisp.ts";

const noEnv = () => undefined;

Deno.test("doctor's classifier line: each classifier says whether it can judge", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-doctor-cls-" });
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  try {
    const paths = homePaths(`${dir}/.wisp`);
    const finding = (config: Record<string, unknown>) =>
      classifierFindingFor(configSchema.parse(config), paths, noEnv);
    const rules = await finding({ approval: { classifier: "rules" } });
    assertEquals([rules.ok, rules.name], [true, "classifier"]);
    const shipped = await finding({ approval: { classifier: "coreml" } });
    assertEquals(shipped, {
      ok: true,
      name: "classifier",
      detail: `coreml model ${defaultVersion()} (shipped) prepares`,
    });
    const missing = await finding({
      approval: { classifier: "coreml", coremlModel: `risk@${VERSION}-local.4` },
    });
    assertEquals(missing.ok, false);
    assertMatch(missing.detail, /local\.4 does not prepare: .* is not in /);
    const system = await finding({ approval: { classifier: "system-model" } });
    assertEquals(system.ok, false);
    assertMatch(system.detail, /^system-model cannot run here/);
    const modelClassifier = {
      approval: { classifier: "model" },
      routing: { tasks: { classifier: "ollama:granite4.1:8b" } },
      ollama: { host: ollama.url },
    };
    ollama.reply({ text: '{"level": "moderate", "reason": "it builds and runs the tests"}' });
    const served = await finding(modelClassifier);
    assertEquals(served, {
      ok: true,
      name: "classifier",
      detail: "model classifier on ollama:granite4.1:8b, served and answers",
    });
    // It answered a real verdict request about the probe command, as the gate sends it.
    assertEquals(ollama.chats().length, 1);
    assertMatch(JSON.stringify(ollama.chats()[0]), /Command: make test/);
    // Listed, but the request fails: the finding says so instead of trusting the list.
    const silent = await finding(modelClassifier);
    assertEquals([silent.ok, silent.name], [false, "classifier"]);
    assertMatch(
      silent.detail,
      /^the model classifier on ollama:granite4\.1:8b is listed but does not answer: .*500/,
    );
    assertMatch(silent.fix ?? "", /model server's own log/);
    // An answer that is not a verdict is not an answer either.
    ollama.reply({ text: "I think it is fine." });
    const chatty = await finding(modelClassifier);
    assertEquals(chatty.ok, false);
    assertMatch(chatty.detail, /does not answer: the model's reply held no JSON object/);
    const absent = await finding({
      approval: { classifier: "model" },
      model: "ollama:qwen9:1b",
      ollama: { host: ollama.url },
    });
    assertEquals(absent.ok, false);
    assertMatch(absent.detail, /^the model classifier cannot use ollama:qwen9:1b: /);
  } finally {
    await ollama.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor prints the classifier line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-doctor-cls-" });
  try {
    Deno.writeTextFileSync(`${dir}/config.json`, '{ "approval": { "classifier": "coreml" } }\n');
    const run = await runWisp(["doctor"], { home: dir });
    assertMatch(run.stdout, new RegExp(`^ok {3}classifier: coreml model ${defaultVersion()}`, "m"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor with a malformed config.json: the model and classifier lines say they cannot tell, and why", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-doctor-cls-" });
  try {
    Deno.writeTextFileSync(`${dir}/config.json`, '{ "approval": { "classifier": \n');
    const run = await runWisp(["doctor"], { home: dir });
    assertEquals(run.code, 1);
    for (const what of ["model", "classifier"]) {
      assertMatch(
        run.stdout,
        new RegExp(
          `^not ok ${what}: cannot tell which ${what}: config.json is malformed \\(see the config finding\\)$`,
          "m",
        ),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { Gate, type GateContext } from "../../src/gate/gate.ts";
import {
  CLASSIFIER_INSTRUCTIONS,
  LocalModelClassifier,
  VERDICT_JSON_SCHEMA,
} from "../../src/gate/model_classifier.ts";
import type { ModelClassifier } from "../../src/gate/classifier.ts";
import { ScriptedBackend, textReply } from "../../src/models/scripted.ts";
import type { StreamEvent } from "../../src/models/backend.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema } from "../../src/config/schema.ts";
import { AuditLog } from "../../src/audit/writer.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";

interface Setup {
  gate: Gate;
  dir: string;
  events: (kind?: string) => Array<Record<string, unknown>>;
  ctx: (over?: Partial<GateContext>) => GateContext;
}

/** A gate in a scratch home with the given config and (optionally) classifier. */
async function setup(
  config: Record<string, unknown>,
  classifier?: ModelClassifier,
): Promise<Setup> {
  const dir = await Deno.makeTempDir({ prefix: "wisp-modelcls-" });
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
    events: (kind) =>
      Deno.readTextFileSync(home.auditLog).trim().split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((e) => kind === undefined || e.kind === kind),
    ctx: (over = {}) => ({
      cwd: `${dir}/project`,
      root: `${dir}/project`,
      origin: "model",
      ...over,
    }),
  };
}

const verdict = (level: string, reason = "a reason") =>
  textReply(JSON.stringify({ level, reason }));

Deno.test("model classifier: a fixed prompt and schema, one call per open part, raising only", async () => {
  const backend = new ScriptedBackend([verdict("dangerous", "it wipes the cache folder")]);
  const classifier = new LocalModelClassifier({ name: "model", backend: () => backend });
  const s = await setup({ approval: { classifier: "model", threshold: "dangerous" } }, classifier);
  try {
    const d = await s.gate.check("cat notes.txt && frobnicate --all", s.ctx());
    // The read-only cat is never sent; the unknown program is, once.
    assertEquals(backend.requests.length, 1);
    const request = backend.requests[0];
    assertEquals(request.messages[0], { role: "system", content: CLASSIFIER_INSTRUCTIONS });
    assertMatch(request.messages[1].content, /^Command: frobnicate --all\n/);
    assertMatch(request.messages[1].content, /Whole line: cat notes\.txt && frobnicate --all/);
    assertEquals(request.schema, VERDICT_JSON_SCHEMA);
    assertEquals(request.think, false);
    assertEquals(request.tools, undefined);
    assertEquals(d.parts.map((p) => p.level), ["safe", "dangerous"]);
    assertEquals(d.allowed, false, "dangerous at threshold dangerous asks, and no one can answer");
    const verdicts = s.events("classifier.verdict");
    assertEquals(verdicts.map((v) => v.by), ["rules", "model"]);
    assertEquals(verdicts[1].classifier, "rules+model");
    assertEquals(verdicts[1].source, "scripted:test");
    assert(typeof verdicts[1].seconds === "number" && verdicts[1].seconds >= 0);
    assertMatch((verdicts[1].reasons as string[]).join(" "), /it wipes the cache folder/);
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("model classifier: a lower answer never lowers the rules, and parts already dangerous are not sent", async () => {
  const backend = new ScriptedBackend([verdict("safe")]);
  const classifier = new LocalModelClassifier({ name: "model", backend: () => backend });
  const s = await setup({ approval: { classifier: "model" } }, classifier);
  try {
    const d = await s.gate.check("rm -rf build; npm install", s.ctx({ yes: true }));
    assertEquals(backend.requests.length, 1, "rm -rf is dangerous already: not sent");
    assertMatch(backend.requests[0].messages[1].content, /^Command: npm install/);
    assertEquals(d.parts.map((p) => p.level), ["dangerous", "moderate"]);
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("model classifier: answers are cached for the session, and the cache hit is audited", async () => {
  const backend = new ScriptedBackend([verdict("dangerous")]);
  const classifier = new LocalModelClassifier({ name: "model", backend: () => backend });
  const s = await setup({ approval: { classifier: "model", threshold: "never" } }, classifier);
  try {
    await s.gate.check("frobnicate --all", s.ctx());
    const again = await s.gate.check("frobnicate --all", s.ctx());
    assertEquals(backend.requests.length, 1, "the second line is answered from the cache");
    assertEquals(again.level, "dangerous");
    const verdicts = s.events("classifier.verdict");
    assertEquals(verdicts.map((v) => v.cached ?? false), [false, true]);
    // Another gate is another session: it asks again.
    const other = new LocalModelClassifier({
      name: "model",
      backend: () => new ScriptedBackend([verdict("moderate")]),
    });
    const t = await setup({ approval: { classifier: "model", threshold: "never" } }, other);
    try {
      assertEquals((await t.gate.check("frobnicate --all", t.ctx())).level, "moderate");
    } finally {
      await Deno.remove(t.dir, { recursive: true });
    }
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("model classifier: a reply that is no verdict, an error, or no reply in time is moderate, never a pass", async () => {
  const hang = (): AsyncIterable<StreamEvent> => ({
    [Symbol.asyncIterator]: () => ({
      next: () => new Promise<IteratorResult<StreamEvent>>(() => {}),
    }),
  });
  const cases: Array<[string, ScriptedBackend, RegExp]> = [
    ["prose", new ScriptedBackend([textReply("It looks fine to me.")]), /no JSON object/],
    [
      "no level",
      new ScriptedBackend([textReply('{"level":"fine","reason":"x"}')]),
      /did not give a level/,
    ],
    [
      "error",
      new ScriptedBackend([{ error: new Error("connection refused") }]),
      /connection refused/,
    ],
    ["hang", new ScriptedBackend([hang]), /no verdict within 0\.05 s/],
  ];
  for (const [name, backend, reason] of cases) {
    // Only the hanging server meets a short limit; the others answer in-process.
    const classifier = new LocalModelClassifier({
      name: "model",
      backend: () => backend,
      ...(name === "hang" ? { timeoutMs: 50 } : {}),
    });
    const s = await setup({ approval: { classifier: "model", threshold: "never" } }, classifier);
    try {
      const d = await s.gate.check("touch notes.txt", s.ctx());
      assertEquals(d.level, "moderate", name);
      const v = s.events("classifier.verdict")[0];
      assertEquals([v.by, v.failed], ["model", true], name);
      assertMatch((v.reasons as string[]).join(" "), reason, name);
      // A failure is not cached: the next line asks again.
      backend.push(verdict("dangerous"));
      assertEquals((await s.gate.check("touch notes.txt", s.ctx())).level, "dangerous", name);
    } finally {
      await Deno.remove(s.dir, { recursive: true });
    }
  }
});

Deno.test("model classifier: chosen from the config, it asks routing.tasks.classifier on a real Ollama wire", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }, { name: "tiny:1b" }] });
  try {
    ollama.reply({ text: ['{"level":"dang', 'erous","reason":"deletes the database"}'] });
    const s = await setup({
      approval: { classifier: "model", threshold: "never" },
      model: "ollama:granite4.1:8b",
      routing: { tasks: { classifier: "ollama:tiny:1b" } },
      ollama: { host: ollama.url },
    });
    try {
      const d = await s.gate.check("dbtool shrink --everything", s.ctx());
      assertEquals(d.level, "dangerous");
      const chats = ollama.chats();
      assertEquals(chats.length, 1);
      assertEquals(chats[0].model, "tiny:1b");
      assertEquals(chats[0].format, VERDICT_JSON_SCHEMA);
      const messages = chats[0].messages as Array<{ role: string; content: string }>;
      assertEquals(messages[0].content, CLASSIFIER_INSTRUCTIONS);
      const v = s.events("classifier.verdict")[0];
      assertEquals([v.by, v.source, v.classifier], ["model", "ollama:tiny:1b", "rules+model"]);
      // A server that cannot answer: moderate, with the reason.
      await ollama.close();
      const again = await s.gate.check("dbtool vacuum", s.ctx());
      assertEquals(again.level, "moderate");
      const failed = s.events("classifier.verdict")[1];
      assertEquals(failed.failed, true);
    } finally {
      await Deno.remove(s.dir, { recursive: true });
    }
  } finally {
    await ollama.close();
  }
});

Deno.test("model classifier: system-model cannot run here and fails closed at moderate", async () => {
  const s = await setup({ approval: { classifier: "system-model", threshold: "never" } });
  try {
    const d = await s.gate.check("touch notes.txt", s.ctx());
    assertEquals(d.level, "moderate");
    const v = s.events("classifier.verdict")[0];
    assertEquals(v.failed, true);
    if (Deno.build.os !== "darwin") {
      assertMatch((v.reasons as string[]).join(" "), /exists only on macOS/);
    }
  } finally {
    await Deno.remove(s.dir, { recursive: true });
  }
});

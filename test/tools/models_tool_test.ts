/**
 * The models tool through a real session: the real gate (parser, policy,
 * rules), the session's tool context, the real audit log and config file,
 * against fake servers that speak the real wire formats (Ollama,
 * llama.cpp's OpenAI-compatible server, the Hugging Face hub). Only the
 * person is played, by an approval host that answers as told.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { startFakeOpenAI } from "../support/fake_openai.ts";
import { startFakeHub } from "../models/fake_hub.ts";
import { waitUntil } from "../support/wait.ts";
import { homePaths } from "../../src/config/home.ts";
import { loadConfig } from "../../src/config/load.ts";
import { Session } from "../../src/session/session.ts";
import type { ApprovalAnswer, ApprovalHost, ApprovalRequest } from "../../src/gate/gate.ts";
import type { AuditEvent } from "../../src/audit/catalogue.ts";

/** A loopback URL nothing listens on (a port just freed), so no stray server is listed. */
function nothingListens(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}/v1`;
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

async function open(
  config: Record<string, unknown>,
  options: { host?: ApprovalHost; yes?: boolean; face?: string } = {},
) {
  const base = Deno.realPathSync(await Deno.makeTempDir({ prefix: "wisp-models-tool-" }));
  const root = join(base, "project");
  const home = join(base, "wisp-home");
  Deno.mkdirSync(root);
  Deno.mkdirSync(home, { mode: 0o700 });
  const full = {
    approval: { classifier: "rules" },
    llamacpp: { baseURL: nothingListens() },
    lmstudio: { baseURL: nothingListens() },
    notifications: { enabled: false },
    ...config,
  };
  Deno.writeTextFileSync(join(home, "config.json"), JSON.stringify(full, null, 2) + "\n");
  const paths = homePaths(home);
  const session = Session.open({
    face: options.face ?? "test",
    paths,
    config: loadConfig(paths.config).config,
    root,
    ...(options.host ? { host: options.host } : {}),
    ...(options.yes ? { yes: true } : {}),
  });
  const events: AuditEvent[] = [];
  session.audit.onEvent((e) => events.push(e));
  const turn = session.beginTurn({ budgetBytes: 16384 });
  return {
    base,
    home,
    session,
    events,
    config: () => JSON.parse(Deno.readTextFileSync(join(home, "config.json"))),
    call: (args: unknown) => session.registry.call("models", args, turn.context),
    cleanup: async () => {
      session.close();
      await Deno.remove(base, { recursive: true });
    },
  };
}

Deno.test("models tool: off by default, on with tools.models, or when a tool list names it", async () => {
  const off = await open({});
  const on = await open({ tools: { models: true } });
  const disabled = await open({ tools: { models: true, disabled: ["models"] } });
  try {
    // tools.disabled leaves it out everywhere, named or not.
    assert(!disabled.session.tools({}).some((t) => t.name === "models"));
    assert(!disabled.session.tools({ only: ["models"] }).some((t) => t.name === "models"));
    assert(!off.session.tools({}).some((t) => t.name === "models"));
    assert(off.session.tools({ only: ["models"] }).some((t) => t.name === "models"));
    assert(on.session.tools({}).some((t) => t.name === "models"));
    assert(!on.session.tools({ only: ["run_command"] }).some((t) => t.name === "models"));
  } finally {
    await off.cleanup();
    await on.cleanup();
    await disabled.cleanup();
  }
});

Deno.test("models tool: list pages 20 models, marks the default, and a server that does not answer is one line", async () => {
  const names = Array.from(
    { length: 45 },
    (_, i) => ({ name: `m${String(i).padStart(2, "0")}:1b` }),
  );
  const ollama = startFakeOllama({ models: names });
  const t = await open({ model: "ollama:m03:1b", ollama: { host: ollama.url } });
  try {
    const first = await t.call({ action: "list" });
    assertEquals(first.ok, true, first.text);
    const lines = first.text.split("\n");
    assertMatch(
      lines[0],
      /^models 1–20 of 45 \(page 1 of 3\); \* marks the default, ollama:m03:1b$/,
    );
    assertEquals(lines.filter((l) => /^[* ] ollama:m\d\d:1b: /.test(l)).length, 20);
    assertMatch(first.text, /^\* ollama:m03:1b: .*enabled/m);
    // llama.cpp and LM Studio do not answer: one line each, in parentheses.
    assertEquals(lines.filter((l) => /^\(.+\)$/.test(l)).length, 2, first.text);
    assertEquals(lines.at(-1), "more: page 2");
    assert(new TextEncoder().encode(first.text).length <= 4096);

    const last = await t.call({ action: "list", page: 3 });
    assertMatch(last.text, /^models 41–45 of 45 \(page 3 of 3\)/);
    assert(!last.text.includes("more:"));
    const past = await t.call({ action: "list", page: 4 });
    assertEquals(past.text, "error: there are 3 pages, not 4");

    const show = await t.call({ action: "show", name: "ollama:m07:1b" });
    assertMatch(show.text, /^ollama:m07:1b\nruntime: ollama\n/);
    assertMatch(show.text, /^enabled: yes$/m);
    const unknown = await t.call({ action: "show", name: "ollama:nothing:1b" });
    assertMatch(unknown.text, /^error: no running server lists ollama:nothing:1b/);
    const bad = await t.call({ action: "show", name: "not a model" });
    assertMatch(
      bad.text,
      /^error: 'not a model' is not a model: a model is named as --model names it/,
    );
  } finally {
    await t.cleanup();
    await ollama.close();
  }
});

Deno.test("models tool: disable is asked of the person whatever the threshold, and the change names the approval", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }, { name: "llama3.2:3b" }] });
  const host = answering("once");
  const t = await open({
    model: "ollama:granite4.1:8b",
    ollama: { host: ollama.url },
    // Only dangerous lines would be asked: a model action is asked all the same.
    approval: { classifier: "rules", threshold: "dangerous" },
  }, { host });
  try {
    const result = await t.call({ action: "disable", name: "ollama:llama3.2:3b" });
    assertEquals(result.ok, true, result.text);
    assertStringIncludes(result.text, "disabled ollama:llama3.2:3b");
    assertEquals(t.config().models.disabled, ["ollama:llama3.2:3b"]);

    assertEquals(host.asked.length, 1);
    const request = host.asked[0];
    assertEquals(request.kind, "modelAction");
    assertEquals(request.line, "models disable ollama:llama3.2:3b");
    assertEquals(request.level, "moderate");
    assertEquals(request.rememberable, ["once", "no"]);
    assertEquals(request.reasons[0], "changes the models wisp can run");
    assertStringIncludes(
      request.reasons.join("\n"),
      'config.json: models.disabled becomes ["ollama:llama3.2:3b"]',
    );

    const kinds = t.events.map((e) => e.kind);
    for (const kind of ["classifier.verdict", "approval.requested", "approval.decided"]) {
      assert(kinds.includes(kind as AuditEvent["kind"]), `${kind} in ${kinds.join(", ")}`);
    }
    const decided = t.events.find((e) => e.kind === "approval.decided")!;
    assertEquals(decided.decision, "approved");
    assertEquals(decided.approvalId, request.id);
    const change = t.events.find((e) => e.kind === "config.change")!;
    assertEquals(change.key, "models.disabled");
    assertEquals(change.source, "tool");
    assertEquals(change.approval, request.id);
    assertEquals(change.session, t.session.id, "recorded in the conversation's own audit session");

    // Asked again for the next change: a "once" is never remembered for a model action.
    const again = await t.call({ action: "enable", name: "ollama:llama3.2:3b" });
    assertEquals(again.ok, true, again.text);
    assertEquals(host.asked.length, 2);
    assertEquals(t.config().models.disabled, []);

    // Nothing to change: nobody is asked.
    const same = await t.call({ action: "enable", name: "ollama:llama3.2:3b" });
    assertEquals(same.text, "ollama:llama3.2:3b is already enabled");
    assertEquals(host.asked.length, 2);

    // The default cannot be disabled, under any spelling; nobody is asked.
    const theDefault = await t.call({ action: "disable", name: "ollama:granite4.1:8b" });
    assertMatch(
      theDefault.text,
      /^error: ollama:granite4\.1:8b is the default model, so it cannot be disabled/,
    );
    assertEquals(host.asked.length, 2);
  } finally {
    await t.cleanup();
    await ollama.close();
  }
});

Deno.test("models tool: declined, or nobody to ask, or --yes: refused and nothing changes", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }, { name: "llama3.2:3b" }] });
  const declined = await open({ ollama: { host: ollama.url } }, { host: answering("no") });
  const nobody = await open({ ollama: { host: ollama.url } });
  const yes = await open({ ollama: { host: ollama.url } }, { yes: true });
  try {
    const no = await declined.call({ action: "disable", name: "ollama:llama3.2:3b" });
    assertEquals(no.ok, false);
    assertEquals(
      no.text,
      "error: not approved: the person refused models disable ollama:llama3.2:3b",
    );
    assertEquals(declined.config().models?.disabled, undefined);
    assertEquals(declined.events.filter((e) => e.kind === "config.change"), []);

    for (const t of [nobody, yes]) {
      const refused = await t.call({ action: "pull", name: "ollama:llama3.2:3b" });
      assertEquals(
        refused.text,
        "error: not approved: models pull ollama:llama3.2:3b downloads a model through Ollama, which only a person may approve, and no one can be asked here",
      );
      assertEquals(ollama.requests.filter((r) => r.path === "/api/pull"), []);
      const disable = await t.call({ action: "disable", name: "ollama:llama3.2:3b" });
      assertMatch(
        disable.text,
        /^error: not approved: models disable ollama:llama3\.2:3b changes the models wisp can run, which only a person may approve, and no one can be asked here$/,
      );
      assertEquals(t.config().models?.disabled, undefined);
    }
  } finally {
    await declined.cleanup();
    await nobody.cleanup();
    await yes.cleanup();
    await ollama.close();
  }
});

Deno.test("models tool: check asks, then records what a llama.cpp model passes with the approval", async () => {
  const model = "qwen3-8b.gguf";
  const server = startFakeOpenAI({
    flavour: "llamacpp",
    models: [{ id: model }],
    replies: [
      { text: "ready" },
      { toolCalls: [{ name: "record_word", arguments: { word: "blue" } }] },
      { text: '{"word": "blue"}' },
    ],
  });
  const host = answering("once");
  const t = await open({ llamacpp: { baseURL: server.baseURL } }, { host });
  try {
    const result = await t.call({ action: "check", name: `llamacpp:${model}` });
    assertEquals(result.ok, true, result.text);
    assertMatch(result.text, /^checking llamacpp:qwen3-8b\.gguf/);
    assertMatch(result.text, /recorded in config\.json: llamacpp:qwen3-8b\.gguf can do/);
    assertEquals(host.asked.length, 1);
    assertEquals(host.asked[0].line, `models check llamacpp:${model}`);
    assertEquals(
      t.config().llamacpp.models[model].capabilities.sort(),
      ["guidedGeneration", "toolCalling"],
    );
    const verified = t.events.find((e) => e.kind === "model.verified")!;
    assertEquals(verified.approval, host.asked[0].id);
    const changes = t.events.filter((e) => e.kind === "config.change");
    assertEquals(changes.map((c) => c.key), [
      `llamacpp.models.${model}.capabilities`,
      `llamacpp.models.${model}.verified`,
    ]);
    assert(changes.every((c) => c.approval === host.asked[0].id && c.source === "tool"));
  } finally {
    await t.cleanup();
    await server.close();
  }
});

Deno.test("models tool: an approved pull runs in the background, one per repository, and its end is audited with the approval", async () => {
  const bytes = (n: number, seed: number) =>
    Uint8Array.from({ length: n }, (_, i) => (i * seed) % 251);
  const weights = bytes(300_000, 7);
  const hub = startFakeHub([
    {
      repo: "someone/Tiny-4bit",
      license: "apache-2.0",
      files: [
        { path: "config.json", bytes: new TextEncoder().encode('{"model_type":"qwen3"}') },
        { path: "model.safetensors", bytes: weights, lfs: true },
      ],
    },
    {
      repo: "mlx-community/Slow-4bit",
      files: [{ path: "model.safetensors", bytes: bytes(200_000, 3), lfs: true, hangAfter: 1000 }],
    },
  ]);
  const host = answering("once");
  const t = await open({}, { host });
  const saved = { endpoint: Deno.env.get("HF_ENDPOINT"), hfHome: Deno.env.get("HF_HOME") };
  Deno.env.set("HF_ENDPOINT", hub.url);
  Deno.env.set("HF_HOME", join(t.base, "hf"));
  try {
    const started = await t.call({ action: "pull", name: "someone/Tiny-4bit" });
    assertEquals(started.ok, true, started.text);
    assertMatch(
      started.text,
      /^approved \(approval [0-9a-f]{8}\): the pull of someone\/Tiny-4bit runs beside the conversation/,
    );
    assertStringIncludes(started.text, "Do not call again to check on it");
    const request = host.asked[0];
    assertEquals(request.line, "models pull someone/Tiny-4bit");
    assertEquals(request.reasons[0], "downloads a model from Hugging Face");
    assertMatch(
      request.reasons[1],
      /^downloads [0-9.]+ KB in 2 of 2 files from Hugging Face, as mlx:Tiny-4bit$/,
    );
    assertEquals(
      request.reasons[2],
      "publisher someone: not trusted: approving pulls it this once, and only the person can trust it, with /models trust",
    );
    assertEquals(request.reasons[3], "licence: apache-2.0");

    await t.session.modelPulls.settled();
    const pulled = t.events.find((e) => e.kind === "model.pull")!;
    assertEquals(pulled.model, "someone/Tiny-4bit");
    assertEquals(pulled.outcome, "pulled");
    assertEquals(pulled.approval, request.id);
    assertMatch(
      String(pulled.note),
      new RegExp(
        `^\\[wisp: the pull of someone/Tiny-4bit you asked for \\(approval ${request.id}\\) finished: fetched .+; it is mlx:Tiny-4bit\\. Its capabilities are undeclared until it is checked: models enable mlx:Tiny-4bit asks to turn it on and check it\\]$`,
      ),
    );
    // huggingface_hub's layout: refs/main names the revision; the snapshot holds the files.
    const folder = join(t.base, "hf", "hub", "models--someone--Tiny-4bit");
    const revision = Deno.readTextFileSync(join(folder, "refs", "main")).trim();
    assertEquals(
      Deno.readFileSync(join(folder, "snapshots", revision, "model.safetensors")),
      weights,
    );
    // The publisher was not made trusted: only the person can do that.
    assertEquals(t.config().mlx?.trustedPublishers, undefined);

    // A pull that hangs: a second call while it runs is told so, and nobody is asked again.
    const slow = await t.call({ action: "pull", name: "mlx-community/Slow-4bit" });
    assertEquals(slow.ok, true, slow.text);
    assertEquals(host.asked.length, 2);
    assertEquals(host.asked[1].reasons[2], "publisher mlx-community: trusted");
    const twice = await t.call({ action: "pull", name: "mlx-community/Slow-4bit" });
    assertMatch(
      twice.text,
      /^a pull of mlx-community\/Slow-4bit \(approval [0-9a-f]{8}\) is running already/,
    );
    assertEquals(host.asked.length, 2);

    // The session ends: the pull is cancelled, and that is recorded before the log closes.
    t.session.close();
    await t.session.modelPulls.settled();
    const cancelled = t.events.filter((e) =>
      e.kind === "model.pull" && e.model === "mlx-community/Slow-4bit"
    );
    assertEquals(cancelled.length, 1);
    assertEquals(cancelled[0].outcome, "interrupted");
    assertMatch(
      String(cancelled[0].note),
      /was cancelled \(the session ended\); what arrived is kept/,
    );
    // No partial file is left in the cache's blobs.
    const blobs = join(t.base, "hf", "hub", "models--mlx-community--Slow-4bit", "blobs");
    const left = [...Deno.readDirSync(blobs)].map((e) => e.name).filter((n) =>
      !n.endsWith(".incomplete")
    );
    assertEquals(left, []);
  } finally {
    if (saved.endpoint === undefined) Deno.env.delete("HF_ENDPOINT");
    else Deno.env.set("HF_ENDPOINT", saved.endpoint);
    if (saved.hfHome === undefined) Deno.env.delete("HF_HOME");
    else Deno.env.set("HF_HOME", saved.hfHome);
    await Deno.remove(t.base, { recursive: true });
    await hub.close();
  }
});

Deno.test("models tool: a name that is not a repository or a model is refused, naming what a name must be", async () => {
  const t = await open({}, { host: answering("once") });
  try {
    const pull = await t.call({ action: "pull", name: "just-a-word" });
    assertEquals(
      pull.text,
      "error: a pull takes a Hugging Face repository <organisation>/<name> or ollama:<name>, not 'just-a-word'",
    );
    const enable = await t.call({ action: "enable" });
    assertMatch(enable.text, /^error: enable needs name: a model is named as --model names it/);
  } finally {
    await t.cleanup();
  }
});

Deno.test("models tool: an Ollama pull runs through the server in the background; a failed one says why", async () => {
  const ollama = startFakeOllama({
    models: [{ name: "granite4.1:8b" }],
    pulls: {
      "qwen3:4b": {
        layers: [{ digest: "sha256:" + "a".repeat(64), total: 2_500_000 }, {
          digest: "sha256:" + "b".repeat(64),
          total: 500,
        }],
        model: { name: "qwen3:4b" },
      },
      "broken:1b": {
        layers: [{ digest: "sha256:" + "c".repeat(64), total: 1000 }],
        error: "disk full",
      },
    },
  });
  const host = answering("once");
  const t = await open({ model: "ollama:granite4.1:8b", ollama: { host: ollama.url } }, { host });
  try {
    const started = await t.call({ action: "pull", name: "ollama:qwen3:4b" });
    assertEquals(started.ok, true, started.text);
    assertMatch(
      started.text,
      /^approved \(approval [0-9a-f]{8}\): the pull of ollama:qwen3:4b runs beside/,
    );
    assertEquals(host.asked[0].line, "models pull ollama:qwen3:4b");
    assertEquals(host.asked[0].reasons[0], "downloads a model through Ollama");
    await t.session.modelPulls.settled();
    const pulled = t.events.find((e) => e.kind === "model.pull" && e.model === "ollama:qwen3:4b")!;
    assertEquals(pulled.outcome, "pulled");
    assertEquals(pulled.bytes, 2_500_500);
    assertEquals(pulled.approval, host.asked[0].id);
    assertMatch(String(pulled.note), /finished: 2\.5 MB in Ollama; it is ollama:qwen3:4b/);
    // The pulled model is listed once the server has it (the fake adds it just after "success").
    await waitUntil(async () => {
      const listed = await t.call({ action: "list" });
      return /^ {2}ollama:qwen3:4b: /m.test(listed.text);
    }, "the pulled model in the listing");

    await t.call({ action: "pull", name: "ollama:broken:1b" });
    await t.session.modelPulls.settled();
    const failed = t.events.find((e) => e.kind === "model.pull" && e.model === "ollama:broken:1b")!;
    assertEquals(failed.outcome, "failed");
    assertMatch(String(failed.note), /failed: .*disk full/);
  } finally {
    await t.cleanup();
    await ollama.close();
  }
});

Deno.test("models tool: a one-shot respond is not offered a pull its own end would cancel", async () => {
  const host = answering("once");
  const t = await open({}, { host, face: "respond" });
  try {
    const pull = await t.call({ action: "pull", name: "ollama:qwen3:4b" });
    assertEquals(
      pull.text,
      "error: not approved: a pull runs beside the conversation, and this one-shot session ends with its turn, which would cancel it; the person can run wisp models pull ollama:qwen3:4b",
    );
    assertEquals(host.asked, []);
  } finally {
    await t.cleanup();
  }
});

/**
 * `wisp config` through the real CLI: values judged by what they name, settings
 * whose feature is not built refused, edits that keep the file as written, a
 * malformed file mended with the advice it gives, the change audited before it
 * applies, and problems with wisp's home as sentences.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { runWisp, tempDir } from "../support/wisp.ts";

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function auditEvents(home: string): Array<Record<string, unknown>> {
  if (!exists(`${home}/logs/audit.jsonl`)) return [];
  return Deno.readTextFileSync(`${home}/logs/audit.jsonl`).trim().split("\n").filter((l) => l)
    .map((l) => JSON.parse(l));
}

/** One line on stderr, `error: …`, with no raw OS error and no stack. */
function assertOneSentence(stderr: string): void {
  const lines = stderr.trim().split("\n");
  assertEquals(lines.length, 1, stderr);
  assert(lines[0].startsWith("error: "), stderr);
  for (const raw of ["os error", "    at ", "--allow-all", "Maximum call stack"]) {
    assertEquals(stderr.includes(raw), false, `'${raw}' in: ${stderr}`);
  }
}

Deno.test("a value that names nothing wisp can use is refused with what is accepted, by set and by hand", async () => {
  const home = await tempDir();
  const original = '{\n  "model": "ollama:granite4.1:8b"\n}\n';
  Deno.writeTextFileSync(`${home}/config.json`, original);
  const cases: Array<[string, string, string]> = [
    ["model", "gpt-4", "must be a model name: system, ollama:<name>"],
    ["ollama.host", "http://10.0.0.5:11434", "must be a server on this machine"],
    ["llamacpp.baseURL", "http://192.168.1.9:8080/v1", "must be a server on this machine"],
    ["tools.disabled", "run_command nosuch", 'names "nosuch", which is not a built-in tool'],
    ["models.disabled", "gpt-4o", 'names "gpt-4o", which is not a model name'],
    ["routing.tasks.triage", "gpt-4", "must be a model name"],
  ];
  for (const [key, value, accepted] of cases) {
    const run = await runWisp(["config", "set", key, ...value.split(" ")], { home });
    assertEquals(run.code, 64, `${key} ${value}: ${run.stderr}`);
    assertOneSentence(run.stderr);
    assertStringIncludes(run.stderr, accepted);
    assertEquals(Deno.readTextFileSync(`${home}/config.json`), original);
  }
  assertEquals(exists(`${home}/logs`), false, "a refused change is not audited as made");
  // What they name when it is right is taken.
  for (
    const [key, value] of [
      ["ollama.host", "localhost:11434"],
      ["tools.disabled", "ls"],
      ["routing.tasks.triage", "ollama:qwen3.8:27b"],
    ]
  ) {
    const run = await runWisp(["config", "set", key, value], { home });
    assertEquals(run.code, 0, `${key} ${value}: ${run.stderr}`);
  }
  // The same rules judge a hand edit: every command stops with the field named, not later.
  Deno.writeTextFileSync(`${home}/config.json`, '{\n  "model": "gpt-4"\n}\n');
  for (const args of [["config"], ["hello"]]) {
    const run = await runWisp(args, { home });
    assertEquals(run.code, 64, run.stderr);
    assertOneSentence(run.stderr);
    assertStringIncludes(run.stderr, `${home}/config.json: model must be a model name`);
  }
});

Deno.test("a setting whose feature is not built is refused with exit 1 and nothing written", async () => {
  const home = await tempDir();
  const original = "{\n  // mine\n}\n";
  Deno.writeTextFileSync(`${home}/config.json`, original);
  const refused = [
    ["approval.classifier", "system-model"],
    ["routing.tasks.secrets", "ollama:qwen3.8:27b"],
    ["mlx.baseURL", "http://127.0.0.1:8081/v1"],
    ["mlx.contextLength", "8192"],
    ["verification.mode", "model"],
    ["model", "mlx:mlx-community/Qwen3-8B-4bit"],
  ];
  for (const [key, value] of refused) {
    const run = await runWisp(["config", "set", key, value], { home });
    assertEquals(run.code, 1, `${key} ${value}: ${run.stderr}`);
    assertOneSentence(run.stderr);
    assertStringIncludes(run.stderr, `${key}`);
    assertStringIncludes(run.stderr, "would be ignored");
    assertStringIncludes(run.stderr, "nothing was changed");
    assertEquals(Deno.readTextFileSync(`${home}/config.json`), original, `${key} ${value}`);
  }
  assertEquals(exists(`${home}/logs`), false);
  // The values that work are still taken.
  for (
    const [key, value] of [
      ["approval.classifier", "rules"],
      ["approval.classifier", "coreml"],
      ["approval.classifier", "model"],
      ["approval.coremlModel", "risk@0.14.0-default"],
      ["routing.tasks.classifier", "ollama:qwen3.8:27b"],
      ["routing.ladder", "ollama:qwen3.8:27b"],
      ["mlx.modelsDirectory", "/tmp/models"],
      ["mlx.trustedPublishers", "someone"],
      ["verification.mode", "off"],
      ["facts.enabled", "false"],
      ["tools.ask", "true"],
      ["inquiry.timeoutSeconds", "30"],
      ["tools.models", "true"],
      ["context.memory", "true"],
      ["context.target", "0.5"],
      ["shownOutputLines", "5"],
    ]
  ) {
    const run = await runWisp(["config", "set", key, value], { home });
    assertEquals(run.code, 0, `${key} ${value}: ${run.stderr}`);
  }
  // One set by hand is marked in the listing, and unset removes it.
  Deno.writeTextFileSync(`${home}/config.json`, '{ "verification": { "mode": "model" } }\n');
  const listed = await runWisp(["config", "list", "--json"], { home });
  assertEquals(listed.code, 0, listed.stderr);
  const mode = JSON.parse(listed.stdout).settings.find((s: { key: string }) =>
    s.key === "verification.mode"
  );
  assertEquals(mode.value, "model");
  assertEquals(mode.inFile, true);
  assertStringIncludes(mode.notBuilt, "the model step of verification is not built yet");
  const unset = await runWisp(["config", "unset", "verification.mode"], { home });
  assertEquals(unset.code, 0, unset.stderr);
  assertEquals(Deno.readTextFileSync(`${home}/config.json`), "{}\n");
});

Deno.test("config list --json gives every setting with its value in effect and whether the file sets it", async () => {
  const home = await tempDir();
  Deno.writeTextFileSync(
    `${home}/config.json`,
    '{ "approval": { "threshold": "dangerous" }, "ollama": { "models": { "granite4.2:8b": { "think": false } } } }',
  );
  const run = await runWisp(["config", "list", "--json"], { home });
  assertEquals(run.code, 0, run.stderr);
  const settings: Array<Record<string, unknown>> = JSON.parse(run.stdout).settings;
  const byKey = new Map(settings.map((s) => [s.key, s]));
  assertEquals(byKey.get("approval.threshold")?.value, "dangerous");
  assertEquals(byKey.get("approval.threshold")?.inFile, true);
  assertEquals(byKey.get("approval.timeoutSeconds")?.value, 600);
  assertEquals(byKey.get("approval.timeoutSeconds")?.inFile, false);
  assertEquals(byKey.get("ollama.models.granite4.2:8b.think")?.value, false);
  assert(typeof byKey.get("audit.enabled")?.description === "string");
  assertEquals(exists(`${home}/logs`), false);
});

Deno.test("set and unset keep each comment with its key, the file's own indentation, and remove an emptied object", async () => {
  const home = await tempDir();
  // Tabs, a hand-indented line, a trailing comment on the last member of its object.
  const text = [
    "{",
    '  "approval": {',
    '    "threshold": "safe" // ask me about everything',
    "  },",
    '\t"model": "ollama:granite4.1:8b",',
    '      "tools": { "disabled": ["ls"] }',
    "}",
    "",
  ].join("\n");
  Deno.writeTextFileSync(`${home}/config.json`, text);
  let run = await runWisp(["config", "set", "approval.timeoutSeconds", "300"], { home });
  assertEquals(run.code, 0, run.stderr);
  run = await runWisp(["config", "set", "notifications.enabled", "false"], { home });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(
    Deno.readTextFileSync(`${home}/config.json`),
    [
      "{",
      '  "approval": {',
      '    "threshold": "safe", // ask me about everything',
      '    "timeoutSeconds": 300',
      "  },",
      '\t"model": "ollama:granite4.1:8b",',
      '      "tools": { "disabled": ["ls"] },',
      '      "notifications": {',
      '        "enabled": false',
      "      }",
      "}",
      "",
    ].join("\n"),
  );
  run = await runWisp(["config", "unset", "approval.threshold"], { home });
  assertEquals(run.code, 0, run.stderr);
  const afterOne = Deno.readTextFileSync(`${home}/config.json`);
  assertEquals(
    afterOne.includes("ask me about everything"),
    false,
    "the comment went with its key",
  );
  assertStringIncludes(afterOne, '  "approval": {\n    "timeoutSeconds": 300\n  },\n');
  run = await runWisp(["config", "unset", "approval.timeoutSeconds"], { home });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(
    Deno.readTextFileSync(`${home}/config.json`),
    [
      "{",
      '\t"model": "ollama:granite4.1:8b",',
      '      "tools": { "disabled": ["ls"] },',
      '      "notifications": {',
      '        "enabled": false',
      "      }",
      "}",
      "",
    ].join("\n"),
  );
});

Deno.test("the malformed-config advice works: set or unset of the broken key mends it; another fault names its line", async () => {
  const home = await tempDir();
  const broken = '{\n  // mine\n  "model": "ollama:x",\n  "approval": { "threshold": "loud" }\n}\n';
  Deno.writeTextFileSync(`${home}/config.json`, broken);
  const shown = await runWisp(["config"], { home });
  assertEquals(shown.code, 64);
  assertOneSentence(shown.stderr);
  assertStringIncludes(shown.stderr, "wisp config set approval.threshold <value>");
  assertStringIncludes(shown.stderr, "wisp config unset approval.threshold");
  assertStringIncludes(shown.stderr, "line 4");
  // Another setting cannot be changed while the file is broken elsewhere: the fault is named.
  const other = await runWisp(["config", "set", "approval.timeoutSeconds", "30"], { home });
  assertEquals(other.code, 64);
  assertOneSentence(other.stderr);
  assertStringIncludes(other.stderr, `${home}/config.json: approval.threshold must be one of`);
  assertEquals(Deno.readTextFileSync(`${home}/config.json`), broken);
  // Following the advice works.
  const set = await runWisp(["config", "set", "approval.threshold", "dangerous"], { home });
  assertEquals(set.code, 0, set.stderr);
  assertEquals(
    (await runWisp(["config", "get", "approval.threshold"], { home })).stdout,
    "dangerous\tset in config.json\n",
  );
  Deno.writeTextFileSync(`${home}/config.json`, broken);
  const unset = await runWisp(["config", "unset", "approval.threshold"], { home });
  assertEquals(unset.code, 0, unset.stderr);
  assertEquals((await runWisp(["config"], { home })).code, 0);
  const event = auditEvents(home).at(-1)!;
  assertEquals([event.kind, event.key, event.from], [
    "config.change",
    "approval.threshold",
    "loud",
  ]);
  // A setting edited by hand is not sent to config set: the advice is its line.
  Deno.writeTextFileSync(
    `${home}/config.json`,
    '{\n  "model": "ollama:x",\n  "commandPolicy": {\n    "deny": ["(("]\n  }\n}\n',
  );
  const hand = await runWisp(["config", "set", "model", "ollama:y"], { home });
  assertEquals(hand.code, 64);
  assertOneSentence(hand.stderr);
  assertStringIncludes(hand.stderr, "commandPolicy.deny.0 is not a valid regular expression");
  assertStringIncludes(hand.stderr, "edit line 4");
  assertEquals(hand.stderr.includes("wisp config set"), false, hand.stderr);
});

Deno.test("turning the audit off is audited, and turning it on again too", async () => {
  const home = await tempDir();
  let run = await runWisp(["config", "set", "audit.enabled", "false"], { home });
  assertEquals(run.code, 0, run.stderr);
  let events = auditEvents(home);
  assertEquals(events.length, 1);
  assertEquals([events[0].kind, events[0].key, events[0].from, events[0].to, events[0].weakens], [
    "config.change",
    "audit.enabled",
    true,
    false,
    true,
  ]);
  // With the audit off, other changes are not recorded; the one that turns it on is.
  run = await runWisp(["config", "set", "approval.timeoutSeconds", "30"], { home });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(auditEvents(home).length, 1);
  run = await runWisp(["config", "unset", "audit.enabled"], { home });
  assertEquals(run.code, 0, run.stderr);
  events = auditEvents(home);
  assertEquals(events.length, 2);
  assertEquals([events[1].key, events[1].from, events[1].to], ["audit.enabled", false, true]);
});

Deno.test("an audit log that cannot be written stops the change: one sentence, config.json as it was", async () => {
  const home = await tempDir();
  const original = '{ "model": "ollama:x" }\n';
  Deno.writeTextFileSync(`${home}/config.json`, original);
  Deno.mkdirSync(`${home}/logs/audit.jsonl`, { recursive: true });
  for (const args of [["config", "set", "audit.enabled", "false"], ["config", "unset", "model"]]) {
    const run = await runWisp(args, { home });
    assertEquals(run.code, 1, run.stderr);
    assertOneSentence(run.stderr);
    assertStringIncludes(run.stderr, `${home}/logs/audit.jsonl is a folder`);
    assertStringIncludes(run.stderr, "was not changed");
    assertEquals(Deno.readTextFileSync(`${home}/config.json`), original);
    assertEquals([...Deno.readDirSync(home)].map((e) => e.name).sort(), ["config.json", "logs"]);
  }
});

Deno.test("a home that cannot be written is one sentence naming it and the fix, with nothing changed", async () => {
  const root = await tempDir();
  const home = `${root}/home`;
  Deno.mkdirSync(home, { mode: 0o700 });
  const original = '{ "model": "ollama:x" }\n';
  Deno.writeTextFileSync(`${home}/config.json`, original);
  // Immutable where the file system and privileges allow it (root), else read-only by mode.
  const chattr = await new Deno.Command("chattr", { args: ["+i", home], stderr: "null" }).output()
    .catch(() => ({ success: false }));
  if (!chattr.success) Deno.chmodSync(home, 0o500);
  // root on a file system without attributes (tmpfs) can write whatever the mode: nothing to test.
  const unwritable = chattr.success || Deno.uid() !== 0;
  try {
    if (unwritable) {
      const run = await runWisp(["config", "set", "model", "ollama:y"], { home });
      assertEquals(run.code, 1, run.stderr);
      assertOneSentence(run.stderr);
      assertStringIncludes(run.stderr, home);
      assertStringIncludes(run.stderr, "permission denied");
      assertStringIncludes(run.stderr, chattr.success ? "chattr -i" : "owner and mode");
      assertEquals(Deno.readTextFileSync(`${home}/config.json`), original);
    }
  } finally {
    if (chattr.success) await new Deno.Command("chattr", { args: ["-i", home] }).output();
    else Deno.chmodSync(home, 0o700);
  }
  assertEquals(exists(`${home}/logs`), false);
  // A home in a system folder Deno lets no program write.
  const proc = await runWisp(["config", "set", "model", "ollama:y"], { home: "/proc/wisp-home" });
  assertEquals(proc.code, 1, proc.stderr);
  assertOneSentence(proc.stderr);
  assertStringIncludes(proc.stderr, "/proc/wisp-home");
  assertStringIncludes(proc.stderr, "set WISP_HOME to a folder you own");
});

Deno.test("a config.json nested 10^5 deep exits 64 naming the file, not with a stack overflow", async () => {
  const home = await tempDir();
  const depth = 100_000;
  Deno.writeTextFileSync(`${home}/config.json`, '{"a":'.repeat(depth) + "1" + "}".repeat(depth));
  for (const args of [["config"], ["config", "set", "model", "ollama:x"], ["hello"]]) {
    const run = await runWisp(args, { home });
    assertEquals(run.code, 64, `wisp ${args.join(" ")}: ${run.stderr}`);
    assertOneSentence(run.stderr);
    assertStringIncludes(run.stderr, `${home}/config.json nests objects and lists more than`);
  }
  // Lists nest the same way.
  Deno.writeTextFileSync(
    `${home}/config.json`,
    '{"a":' + "[".repeat(depth) + "]".repeat(depth) + "}",
  );
  const run = await runWisp(["config"], { home });
  assertEquals(run.code, 64, run.stderr);
  assertOneSentence(run.stderr);
});

/**
 * Clients that hand their model only a result's structuredContent (Claude
 * Code, Codex) must lose nothing: for every tool, through the SDK's client
 * over stdio against the real `wisp mcp`, the structured result validates
 * (ajv, strict) against the outputSchema tools/list declares, and it alone
 * answers what the text answers — checked two ways: the question each tool
 * is for (json_shape's outline, redact's text, the draft, the log's groups,
 * triage's expected and actual lines, …), and every word of the text that
 * came from the tool's input is somewhere in the structured result.
 */
// @ts-types="npm:ajv@8.20.0/dist/2020"
import { Ajv2020 } from "ajv/dist/2020.js";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { connect, mcpScratch, ollamaConfig, structured, textOf } from "./support.ts";

const LOCKS = fileURLToPath(new URL("../../fixtures/condense/lockfiles/", import.meta.url));

/** Words as the check sees them: runs of letters, digits and underscores, three or more long. */
function words(text: string): Set<string> {
  return new Set(text.match(/[A-Za-z0-9_]{3,}/g) ?? []);
}

/** Every key and value of a structured result, as one text to take words from. */
function flatten(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) return value.map(flatten).join(" ");
  return Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k} ${flatten(v)}`)
    .join(" ");
}

/**
 * The words of `text` that came from the input (`source`) and are missing
 * from the structured result: what a client reading only structuredContent
 * would not be told.
 */
function missingFromStructured(text: string, source: string, result: unknown): string[] {
  const fromInput = words(source);
  const carried = words(flatten(result));
  return [...words(text)].filter((w) => fromInput.has(w) && !carried.has(w));
}

// A diff, a log and a test run written for this test.
const DIFF = `diff --git a/lib/ledger.py b/lib/ledger.py
index 4a4a4a4..5b5b5b5 100644
--- a/lib/ledger.py
+++ b/lib/ledger.py
@@ -10,4 +10,5 @@ def settle_account(entries):
     total = 0
-    for amount in entries:
+    for entry in entries:
+        amount = entry.value
         total += amount
diff --git a/docs/ledger.md b/docs/ledger.md
new file mode 100644
index 0000000..6c6c6c6
--- /dev/null
+++ b/docs/ledger.md
@@ -0,0 +1,2 @@
+# Ledger
+Entries carry their value.
`;

const LOG = [
  "2026-11-02T08:00:01Z INFO queue worker started pid=4411",
  "2026-11-02T08:00:05Z ERROR upstream billing timed out after 3000ms",
  "2026-11-02T08:00:09Z ERROR upstream billing timed out after 3100ms",
  "2026-11-02T08:00:12Z WARN disk usage at 91 percent on /srv/spool",
  "2026-11-02T08:00:15Z ERROR upstream billing timed out after 2900ms",
  "2026-11-02T08:00:20Z INFO reindexing catalogue shard seventeen",
  "2026-11-02T08:00:30Z INFO queue worker stopping",
].join("\n") + "\n";

const CARGO = `running 2 tests
test dates::parses_iso ... ok
test money::rounds_half_even ... FAILED

failures:

---- money::rounds_half_even stdout ----
thread 'money::rounds_half_even' panicked at src/money.rs:27:5:
assertion \`left == right\` failed
  left: 1250
 right: 1240
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace


failures:
    money::rounds_half_even

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s
`;

/** A token of the shape GitHub gives, made here (never a real one). */
const TOKEN = "ghp_" + "Zq7Lm2Xc9Vb4Nw8Rt6Yp3Hs5Jk1Df0Ga2Qe";
const SECRET_TEXT =
  `deploy notes for staging\nexport GITHUB_TOKEN=${TOKEN}\nthen restart the poller\n`;

Deno.test("every tool's structuredContent validates against its outputSchema and alone answers what its text says", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  // The flaky_tests run is approved through the dialog.
  const c = await connect(s, { elicit: () => ({ action: "accept", content: { scope: "once" } }) });
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  try {
    const { tools } = await c.client.listTools();
    const validators = new Map(tools.map((t) => {
      assert(t.outputSchema, `${t.name} declares an outputSchema`);
      assertEquals(t.outputSchema.type, "object", `${t.name}'s outputSchema is an object schema`);
      return [t.name, ajv.compile(t.outputSchema)];
    }));
    const seen = new Set<string>();
    /** Call, validate, check the words; return the structured result and the text. */
    const call = async (name: string, args: Record<string, unknown>, source: string) => {
      const result = await c.client.callTool({ name, arguments: args });
      const text = textOf(result);
      assert((result as { isError?: boolean }).isError !== true, `${name}: ${text}`);
      const found = structured(result);
      assert(found, `${name} returns structuredContent`);
      const validate = validators.get(name)!;
      assert(validate(found), `${name}: ${ajv.errorsText(validate.errors)}`);
      assertEquals(
        missingFromStructured(text, source, found),
        [],
        `${name}: words of the text missing from structuredContent`,
      );
      seen.add(name);
      return { found, text };
    };

    const shape = await call("json_shape", {
      text: JSON.stringify({
        invoice: { number: "A-17", lines: [{ sku: "x1", qty: 2 }], paid: false },
        customer: { email: "a@example.org" },
      }),
    }, "invoice number lines sku qty paid customer email");
    assertEquals(shape.found.outline, shape.text, "the outline itself");
    assertMatch(String(shape.found.outline), /sku/);

    const redacted = await call("redact", { text: SECRET_TEXT }, SECRET_TEXT);
    assertMatch(String(redacted.found.text), /^deploy notes for staging\n/);
    assert(!String(redacted.found.text).includes(TOKEN), "the value is gone");
    assertMatch(String(redacted.found.text), /\[REDACTED:[^\]]+\]/);

    const scanned = await call("scan_secrets", { text: SECRET_TEXT }, SECRET_TEXT);
    assertEquals(scanned.found.summary, scanned.text.split("\n")[0]);
    assertEquals((scanned.found.findings as { line: number }[]).map((f) => f.line), [2]);
    assert(!JSON.stringify(scanned.found).includes(TOKEN), "never the value");

    ollama.reply({
      text: "Settle accounts from entry values\n\nThe loop read entries as amounts.",
    });
    const draft = await call("draft_change", { text: DIFF }, DIFF);
    assertEquals(draft.found.draft, draft.text, "the draft itself");

    const diff = await call("summarise_diff", { text: DIFF }, DIFF);
    const files = diff.found.files as { path: string; symbols: string[] }[];
    assertEquals(files.map((f) => f.path).sort(), ["docs/ledger.md", "lib/ledger.py"]);

    const log = await call("condense_log", { text: LOG }, LOG);
    const severe = log.found.severe as { count: number; example: string; severity: string }[];
    assertEquals(severe[0].severity, "error");
    assertEquals(severe[0].count, 3, "the billing timeouts are one group of three");
    assertMatch(severe[0].example, /upstream billing timed out/);
    assertMatch(severe[1].example, /disk usage at 91 percent/);
    assertEquals(log.found.first, LOG.split("\n")[0]);
    assertEquals(log.found.last, LOG.trim().split("\n").at(-1));

    Deno.writeTextFileSync(join(s.project, "cargo-test.txt"), CARGO);
    const triage = await call("triage", { path: "cargo-test.txt" }, CARGO);
    const findings = triage.found.findings as { test?: string; detail?: string[] }[];
    assertEquals(findings.map((f) => f.test), ["money::rounds_half_even"]);
    const detail = (findings[0].detail ?? []).join("\n");
    assertMatch(detail, /left: 1250/, "the actual value");
    assertMatch(detail, /right: 1240/, "the expected value");

    const lock = join(LOCKS, "package-lock.json");
    const audit = await call(
      "dependency_audit",
      { paths: [lock] },
      Deno.readTextFileSync(lock),
    );
    assertEquals((audit.found.lockfiles as { path: string }[])[0].path, lock);

    // A test script that fails one test on its first run only: flaky.
    Deno.writeTextFileSync(
      join(s.project, "once.sh"),
      `n=$(cat n 2>/dev/null || echo 0); echo $((n + 1)) > n\necho "TAP version 13"\n` +
        `if [ "$n" = 0 ]; then printf "not ok 1 - settles accounts\\n"; exit 1; fi\n` +
        `echo "ok 1 - settles accounts"; echo "1..1"\n`,
    );
    const flaky = await call(
      "flaky_tests",
      { command: "sh once.sh", times: 2 },
      "sh once.sh settles accounts",
    );
    assertEquals((flaky.found.flaky as { test: string }[]).map((f) => f.test), [
      "settles accounts",
    ]);

    const repo = join(s.project, "repo");
    Deno.mkdirSync(repo);
    const git = (...args: string[]) => {
      const out = new Deno.Command("git", {
        args: ["-c", "user.email=ann@example.org", "-c", "user.name=ann", ...args],
        cwd: repo,
        stdout: "null",
        stderr: "null",
      }).outputSync();
      assert(out.success, `git ${args.join(" ")}`);
    };
    git("init", "-q");
    for (const n of [1, 2]) {
      Deno.writeTextFileSync(join(repo, "ledger.py"), `total = ${n}\n`);
      git("add", "-A");
      git("commit", "-q", "-m", `change ${n}`);
    }
    const hot = await call("hot_paths", { working_directory: "repo" }, "ledger.py");
    assertEquals((hot.found.paths as Record<string, unknown>[])[0], {
      path: "ledger.py",
      commits: 2,
      added: 2,
      removed: 1,
      authors: 1,
    });

    ollama.reply({ text: "The ledger settles in cents." });
    const respond = await call(
      "respond",
      { prompt: "how does the ledger settle?", thread_id: "t1", tools: [] },
      "The ledger settles in cents.",
    );
    assertEquals(respond.found.reply, "The ledger settles in cents.");
    const scoped = await call("set_fact_scope", {
      thread_id: "t1",
      subject: "entity",
      name: "ledger unit",
      value: "cents",
      scope: "permanent",
    }, "cents");
    assertEquals(scoped.found.scope, "pending");
    const closed = await call("close_thread", { thread_id: "t1" }, "t1");
    assertEquals(closed.found, { thread_id: "t1", closed: true });

    assertEquals([...seen].sort(), tools.map((t) => t.name).sort(), "every tool was called");
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("an error result's structuredContent validates too (the SDK client checks it)", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const c = await connect(s);
  const ajv = new Ajv2020({ strict: true });
  try {
    const { tools } = await c.client.listTools();
    const schema = tools.find((t) => t.name === "close_thread")!.outputSchema!;
    const result = await c.client.callTool({ name: "close_thread", arguments: { thread_id: "x" } });
    assertEquals((result as { isError?: boolean }).isError, true);
    const validate = ajv.compile(schema);
    assert(validate(structured(result)), ajv.errorsText(validate.errors));
    assertEquals(structured(result), { thread_id: "x", closed: false });
  } finally {
    await c.close();
    await s.remove();
  }
});

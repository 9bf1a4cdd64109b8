/**
 * The MCP tool functions scan_secrets and redact, called as the MCP server
 * will call them: text or path, bounded results, audit events with counts.
 */
import { join } from "node:path";
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../support/assert.ts";
import { tempDir } from "../support/wisp.ts";
import {
  MAX_LISTED_FINDINGS,
  redactInput,
  redactTool,
  scanSecretsInput,
  scanSecretsTool,
  ToolInputError,
} from "../../src/secrets/index.ts";
import type { AuditEvent } from "../../src/audit/catalogue.ts";
import type { AuditSink } from "../../src/audit/writer.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(5));

/** An audit sink that keeps events in memory and validates nothing (the writer test does). */
function memoryAudit(): AuditSink & { events: Record<string, unknown>[] } {
  const events: Record<string, unknown>[] = [];
  return {
    session: "test",
    events,
    record(kind, fields) {
      const event = { kind, ...(fields as Record<string, unknown>) };
      events.push(event);
      return event as unknown as AuditEvent;
    },
  };
}

Deno.test("scan_secrets on text: findings with location, kind and masked preview; audited with counts", async () => {
  const audit = memoryAudit();
  const token = v.githubPat();
  const email = v.email();
  const result = await scanSecretsTool({
    text: `a\nTOKEN=${token}\nmail ${email}\n`,
    personal: true,
  }, { audit });
  assertEquals(result.findings.map((f) => [f.line, f.column, f.kind, f.preview]), [
    [2, 7, "github-pat", "ghp_****[40]"],
    [3, 6, "email", result.findings[1].preview],
  ]);
  assertEquals(result.counts, { "github-pat": 1, email: 1 });
  assertStringIncludes(result.text, "2 findings: 1 email, 1 github-pat");
  assertStringIncludes(result.text, "-:2:7  github-pat  ghp_****[40]");
  assert(!JSON.stringify(result).includes(token) && !JSON.stringify(result).includes(email));
  assertEquals(audit.events, [{
    kind: "secrets.scan",
    counts: { "github-pat": 1, email: 1 },
    total: 2,
    source: "mcp",
    input: "text",
    personal: true,
  }]);
});

Deno.test("scan_secrets on a path, relative to the caller's folder; a diff is located in its files", async () => {
  const dir = await tempDir();
  try {
    const key = v.npm();
    await Deno.writeTextFile(join(dir, "x.npmrc"), `//registry.npmjs.org/:_authToken=${key}\n`);
    const onFile = await scanSecretsTool({ path: "x.npmrc" }, { cwd: dir });
    assertEquals(onFile.findings.map((f) => [f.path, f.line, f.kind]), [[
      join(dir, "x.npmrc"),
      1,
      "npm-token",
    ]]);
    const diff = `--- a/.env\n+++ b/.env\n@@ -1,0 +1,1 @@\n+NPM_TOKEN=${key}\n`;
    const onDiff = await scanSecretsTool({ text: diff });
    assertEquals(onDiff.findings.map((f) => [f.path, f.line, f.kind]), [[".env", 1, "npm-token"]]);
    await assertRejects(
      () => scanSecretsTool({ path: "missing.txt" }, { cwd: dir }),
      ToolInputError,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the tools need exactly one of text and path, and say so", async () => {
  await assertRejects(() => scanSecretsTool({}), ToolInputError);
  await assertRejects(() => redactTool({ text: "a", path: "b" }), ToolInputError);
  // The input schemas are what the MCP server advertises.
  assert(scanSecretsInput.safeParse({ text: "x", personal: true }).success);
  assert(!redactInput.safeParse({ text: 3 }).success);
});

Deno.test("scan_secrets lists at most its bound and counts the rest as held back", async () => {
  const lines = Array.from({ length: MAX_LISTED_FINDINGS + 25 }, () => `T=${v.githubPat()}`).join(
    "\n",
  );
  const result = await scanSecretsTool({ text: lines });
  assertEquals([result.findings.length, result.total, result.heldBack], [
    MAX_LISTED_FINDINGS,
    MAX_LISTED_FINDINGS + 25,
    25,
  ]);
  assertStringIncludes(result.text, "25 more held back");
});

Deno.test("redact: personal data by default, credentials only when asked; audited with counts", async () => {
  const audit = memoryAudit();
  const email = v.email();
  const token = v.stripeSecret();
  const text = `customer ${email} paid with key ${token}; again ${email}\n`;
  const full = await redactTool({ text }, { audit });
  assertEquals(
    full.text,
    "customer [REDACTED:email#1] paid with key [REDACTED:stripe-key#1]; again [REDACTED:email#1]\n",
  );
  assertEquals(full.summary, "3 values redacted: 2 email, 1 stripe-key");
  const credentials = await redactTool({ text, personal: false });
  assertEquals(credentials.counts, { "stripe-key": 1 });
  assertEquals(audit.events.map((e) => [e.kind, e.counts, e.input]), [["redaction", {
    email: 2,
    "stripe-key": 1,
  }, "text"]]);
});

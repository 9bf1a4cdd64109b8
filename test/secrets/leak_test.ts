/**
 * The values wisp finds are never written anywhere: plant known values, run
 * every command and every tool function over them, then read every file wisp
 * wrote under its scratch home (audit log, output store, transcripts,
 * anything) and the commands' stdout and stderr, looking for each value and
 * for its secret part without the vendor prefix.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import { AuditLog } from "../../src/audit/writer.ts";
import { homePaths } from "../../src/config/home.ts";
import { redactTool, type ScanSecretsResult, scanSecretsTool } from "../../src/secrets/index.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(99));

function planted(): { values: string[]; file: string; diff: string } {
  const values = [
    v.githubPat(),
    v.awsAccessKeyId(),
    v.awsSecret(),
    v.stripeSecret(),
    v.slackBot(),
    v.openai(),
    v.anthropic(),
    v.npm(),
    v.pypi(),
    v.jwt(),
    v.password(),
    v.urlPassword(),
    v.email(),
    v.card(),
    v.iban("DE"),
    v.ssn(),
  ];
  const [
    gh,
    akia,
    aws,
    stripe,
    slack,
    openai,
    anthropic,
    npm,
    pypi,
    jwt,
    pw,
    dbpw,
    email,
    card,
    iban,
    ssn,
  ] = values;
  const pem = v.pem("RSA PRIVATE KEY");
  values.push(pem);
  // Values found by the later mechanisms: provider prefixes, SQL, a CLI's password option.
  const sonar = "squ_" + v.hex(40);
  const bedrock = "ABSKQmVkcm9ja0FQSUtleS" +
    v.mixed("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 110);
  const sqlPw = v.password();
  const insertSecret = v.genericSecret();
  const redisPw = v.urlPassword();
  values.push(sonar, bedrock, sqlPw, insertSecret, redisPw);
  const file = [
    `GITHUB_TOKEN=${gh}`,
    `AWS_ACCESS_KEY_ID=${akia}`,
    `AWS_SECRET_ACCESS_KEY=${aws}`,
    `STRIPE_KEY=${stripe}`,
    `SLACK=${slack}`,
    `OPENAI_API_KEY=${openai}`,
    `ANTHROPIC_API_KEY=${anthropic}`,
    `NPM_TOKEN=${npm}`,
    `PYPI=${pypi}`,
    `SESSION=${jwt}`,
    `ADMIN_PASSWORD=${pw}`,
    `DATABASE_URL=postgres://app:${dbpw}@db.internal:5432/app`,
    `contact=${email} card=${card} iban=${iban} ssn=${ssn}`,
    `SONAR=${sonar}`,
    `BEDROCK=${bedrock}`,
    `psql -c "ALTER USER app WITH PASSWORD '${sqlPw}'"`,
    `INSERT INTO api_clients (id, client_secret) VALUES (1, '${insertSecret}');`,
    `redis-cli -h cache.internal -a ${redisPw} ping`,
    pem,
    "",
  ].join("\n");
  const diff = [
    "--- a/.env",
    "+++ b/.env",
    `@@ -1,0 +1,${file.split("\n").length - 1} @@`,
    ...file.trimEnd().split("\n").map((l) => "+" + l),
    "",
  ]
    .join("\n");
  return { values, file, diff };
}

/** Every value, and its part after a known vendor prefix, that must not appear. */
function needles(values: string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    out.push(value);
    const rest = value.replace(
      /^(?:ghp_|AKIA|sk_live_|rk_live_|xoxb-|sk-proj-|sk-ant-api03-|sk-|npm_|pypi-|squ_|ABSKQmVkcm9ja0FQSUtleS|-----BEGIN RSA PRIVATE KEY-----\n)/,
      "",
    );
    if (rest !== value) out.push(rest.slice(0, 24));
    // A private key's body lines, one by one.
    if (value.includes("\n")) out.push(...value.split("\n").slice(1, -1));
  }
  return out.filter((n) => n.length >= 8);
}

async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(root)) {
    const path = join(root, entry.name);
    if (entry.isDirectory) out.push(...await filesUnder(path));
    else out.push(path);
  }
  return out;
}

Deno.test("no planted value reaches anything wisp writes: audit, output store, transcripts, stdout of scan", async () => {
  const home = await tempDir();
  const work = await tempDir();
  try {
    const { values, file, diff } = planted();
    await Deno.writeTextFile(join(work, "planted.env"), file);
    await Deno.writeTextFile(join(work, "planted.diff"), diff);

    const scans = [
      await runWisp(["scan", "planted.env"], { home, cwd: work }),
      await runWisp(["scan", "--json", "planted.env"], { home, cwd: work }),
      await runWisp(["scan", "--personal", "planted.env", "planted.diff"], { home, cwd: work }),
      await runWisp(["scan", "--thorough", "--json", "."], { home, cwd: work }),
      await runWisp(["scan", "--personal"], { home, cwd: work, stdin: diff }),
      await runWisp(["scan"], { home, cwd: work, stdin: file }),
      await runWisp(["scan", "--format", "sarif", "--personal", "planted.env", "planted.diff"], {
        home,
        cwd: work,
      }),
    ];
    // A baseline made of an earlier --json run: the file itself is output that must hold no value.
    await Deno.writeTextFile(join(work, "baseline.json"), scans[1].stdout);
    const baselined = await runWisp(["scan", "--baseline", "baseline.json", "planted.env"], {
      home,
      cwd: work,
    });
    assertEquals([baselined.code, baselined.stdout], [0, ""], baselined.stderr);
    for (const run of scans) assertEquals(run.code, 1, `every scan finds something: ${run.stderr}`);
    const redactions = [
      await runWisp(["redact", "planted.env"], { home, cwd: work }),
      await runWisp(["redact", "--thorough"], { home, cwd: work, stdin: file }),
      await runWisp(["redact", "planted.diff"], { home, cwd: work }),
    ];
    for (const run of redactions) assertEquals(run.code, 0, run.stderr);

    // The MCP tool functions, with an audit log in the same home.
    const audit = new AuditLog({
      path: homePaths(home).auditLog,
      enabled: true,
      maxBytes: 1 << 20,
      keep: 2,
    });
    const tools = [
      await scanSecretsTool({ text: file, personal: true }, { audit }),
      await scanSecretsTool({ path: "planted.env" }, { audit, cwd: work }),
      await scanSecretsTool({ text: diff }, { audit }),
      await redactTool({ text: file }, { audit }),
      await redactTool({ path: join(work, "planted.env"), thorough: true }, { audit }),
    ];
    audit.close();

    const written = await filesUnder(home);
    assert(written.some((p) => p.endsWith("audit.jsonl")), "the audit log was written");
    const auditText = await Deno.readTextFile(homePaths(home).auditLog);
    const kinds = auditText.trim().split("\n").map((l) => JSON.parse(l).kind);
    // One per input: 1 + 1 + 2 + 2 (the folder) + 1 + 1 + 2 (SARIF) + 1 (baseline) from the CLI,
    // 3 from the tool.
    assertEquals(kinds.filter((k) => k === "secrets.scan").length, 11 + 3);
    assertEquals(kinds.filter((k) => k === "redaction").length, 3 + 2);

    const outputs: [string, string][] = [
      ...await Promise.all(
        written.map(async (p) => [p, await Deno.readTextFile(p)] as [string, string]),
      ),
      ...scans.map((r, i) =>
        [`scan run ${i} stdout+stderr`, r.stdout + r.stderr] as [string, string]
      ),
      ...redactions.map((r, i) => [`redact run ${i}`, r.stdout + r.stderr] as [string, string]),
      ["baseline file", await Deno.readTextFile(join(work, "baseline.json"))],
      ["baselined run", baselined.stdout + baselined.stderr],
      ...tools.map((t, i) => [`tool ${i}`, JSON.stringify(t)] as [string, string]),
    ];
    for (const needle of needles(values)) {
      for (const [where, text] of outputs) {
        assert(
          !text.includes(needle),
          `a planted value (${needle.length} chars) leaked into ${where}`,
        );
      }
    }
    // The tools did their work on the same text.
    assert((tools[0] as ScanSecretsResult).total >= values.length);
    assert((tools[3] as { text: string }).text.includes("[REDACTED:github-pat#1]"));
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("no planted value reaches the other output forms: history, binary, large files, threads, debug, new mechanisms", async () => {
  const home = await tempDir();
  const work = await tempDir();
  try {
    const { values, file } = planted();
    // Credentials the format readers and command-line rules find, planted as well.
    const [curlPw, lftpPw, smbPw, springPw] = [
      v.urlPassword(),
      v.urlPassword(),
      v.urlPassword(),
      v
        .urlPassword(),
    ];
    const nginxBasic = btoa(`svc:${v.urlPassword()}`);
    const master = v.hex(32);
    values.push(curlPw, lftpPw, smbPw, springPw, nginxBasic, master);
    await Deno.mkdir(join(work, "tree", "config"), { recursive: true });
    await Deno.writeTextFile(join(work, "tree", "config", "master.key"), `${master}\n`);
    await Deno.writeTextFile(
      join(work, "tree", "deploy.sh"),
      `curl -uadmin:${curlPw} https://ci.corp.io\nlftp -u backup,${lftpPw} sftp://f.corp.io\nsmbclient //fs/s -U admin%${smbPw}\n`,
    );
    await Deno.writeTextFile(
      join(work, "tree", "application.yml"),
      `spring:\n  datasource:\n    password: \${DB_PASSWORD:${springPw}}\n`,
    );
    await Deno.writeTextFile(
      join(work, "tree", "site.conf"),
      `proxy_set_header Authorization "Basic ${nginxBasic}";\n`,
    );
    // Enough files for the pool of scanning threads to take the folder.
    for (let i = 0; i < 16; i++) {
      await Deno.writeTextFile(join(work, "tree", `part${i}.env`), file);
    }
    // A diff that removes every line: each finding is on a removed line (leaked in history).
    const removal = [
      "--- a/.env",
      "+++ b/.env",
      `@@ -1,${file.split("\n").length - 1} +0,0 @@`,
      ...file.trimEnd().split("\n").map((l) => "-" + l),
      "",
    ].join("\n");
    await Deno.writeTextFile(join(work, "removal.diff"), removal);
    // A binary file with the values among its printable runs, and a text file over the size read
    // whole, with the values past the first window.
    const text = new TextEncoder().encode(file);
    const binary = new Uint8Array(text.length + 64);
    binary.set(text, 32);
    await Deno.writeFile(join(work, "core.bin"), binary);
    const filler = `${"x".repeat(99)}\n`.repeat(90_000);
    await Deno.writeTextFile(join(work, "big.log"), filler + file);

    const debug = { WISP_LOG: "debug" };
    const runs = [
      await runWisp(["scan", "--personal", "removal.diff"], { home, cwd: work }),
      await runWisp(["scan", "--json", "--personal"], { home, cwd: work, stdin: removal }),
      await runWisp(["scan", "--format", "sarif", "removal.diff"], { home, cwd: work }),
      await runWisp(["scan", "core.bin", "big.log"], { home, cwd: work, env: debug }),
      await runWisp(["scan", "--json", "core.bin", "big.log"], { home, cwd: work }),
      await runWisp(["scan", "--personal", "tree"], {
        home,
        cwd: work,
        env: { ...debug, WISP_SCAN_THREADS: "2" },
      }),
      await runWisp(["scan", "--json", "tree"], { home, cwd: work }),
      // A run that also could not read an input: its error names the path only.
      await runWisp(["scan", "tree/deploy.sh", "missing.env"], { home, cwd: work }),
    ];
    for (const run of runs.slice(0, -1)) assertEquals(run.code, 1, run.stderr);
    assertEquals(runs[runs.length - 1].code, 2, runs[runs.length - 1].stderr);
    assert(runs[0].stdout.includes("leaked in history"), "the removed lines were reported");
    assert(runs[3].stderr.includes("binary"), "the debug line says the file was binary");
    assert(runs[5].stderr.includes("worker threads"), "the folder was scanned on the pool");
    for (const kind of ["basic-auth", "password", "generic-secret"]) {
      assert(runs[6].stdout.includes(`"kind":"${kind}"`), `the new mechanisms found ${kind}`);
    }
    const redactions = [
      await runWisp(["redact", "big.log"], { home, cwd: work }),
      await runWisp(["redact", "removal.diff"], { home, cwd: work }),
    ];
    for (const run of redactions) assertEquals(run.code, 0, run.stderr);

    const written = await filesUnder(home);
    const outputs: [string, string][] = [
      ...await Promise.all(
        written.map(async (p) => [p, await Deno.readTextFile(p)] as [string, string]),
      ),
      ...runs.map((r, i) => [`scan run ${i}`, r.stdout + r.stderr] as [string, string]),
      ...redactions.map((r, i) => [`redact run ${i}`, r.stdout + r.stderr] as [string, string]),
    ];
    for (const needle of needles(values)) {
      for (const [where, text] of outputs) {
        assert(
          !text.includes(needle),
          `a planted value (${needle.length} chars) leaked into ${where}`,
        );
      }
    }
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("through the real MCP server: scan_secrets and redact leave no planted value in wisp's home", async () => {
  const { mcpScratch, connect } = await import("../faces/mcp/support.ts");
  const s = await mcpScratch({ notifications: { enabled: false } });
  const c = await connect(s);
  try {
    const { values, file, diff } = planted();
    await Deno.writeTextFile(join(s.project, "planted.env"), file);
    const calls = [
      { name: "scan_secrets", arguments: { text: file, personal: true } },
      { name: "scan_secrets", arguments: { path: "planted.env" } },
      { name: "scan_secrets", arguments: { text: diff } },
      { name: "redact", arguments: { text: file } },
      { name: "redact", arguments: { path: "planted.env", thorough: true } },
    ];
    const answers: string[] = [];
    for (const call of calls) answers.push(JSON.stringify(await c.client.callTool(call)));
    await c.close();
    const written = await filesUnder(s.home);
    assert(written.length > 0, "the server wrote its audit log");
    const outputs: [string, string][] = [
      ...await Promise.all(
        written.map(async (p) => [p, await Deno.readTextFile(p)] as [string, string]),
      ),
      ...answers.map((a, i) => [`answer ${i}`, a] as [string, string]),
      ["server stderr", c.stderr()],
    ];
    for (const needle of needles(values)) {
      for (const [where, text] of outputs) {
        assert(
          !text.includes(needle),
          `a planted value (${needle.length} chars) leaked into ${where}`,
        );
      }
    }
    const kinds = s.events().map((e) => e.kind);
    assertEquals(kinds.filter((k) => k === "secrets.scan").length, 3);
    assertEquals(kinds.filter((k) => k === "redaction").length, 2);
  } finally {
    await c.close().catch(() => {});
    await s.remove();
  }
});

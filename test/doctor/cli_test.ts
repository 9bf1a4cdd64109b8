/**
 * `wisp doctor` end to end, as the binary runs (the permission set, a scratch
 * home): `--json` parsed, and broken states reported with the file and the
 * fix — a corrupt approvals.json (which `wisp approvals` also refuses), a
 * pending folder of mode 0755, a launcher missing from PATH.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { runWisp } from "../support/wisp.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { fileExists } from "../../src/doctor/native.ts";

interface Report {
  ok: boolean;
  findings: { name: string; ok: boolean; detail: string; fix: string | null }[];
}

function parseReport(stdout: string): Report {
  const report = JSON.parse(stdout) as Report;
  for (const finding of report.findings) {
    assertEquals(Object.keys(finding), ["name", "ok", "detail", "fix"]);
    assertEquals(typeof finding.name, "string");
    assertEquals(typeof finding.ok, "boolean");
    assert(finding.detail.length > 0, `${finding.name} has no detail`);
    assert(finding.fix === null || finding.fix.length > 0);
  }
  assertEquals(report.ok, report.findings.every((f) => f.ok));
  return report;
}

function find(report: Report, name: string) {
  const found = report.findings.find((f) => f.name === name);
  assert(found, `no ${name} finding`);
  return found;
}

Deno.test("doctor --json: one object per finding with name, ok, detail and fix, the version as --version prints it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-doctor-cli-" });
  try {
    const home = join(dir, "home");
    const run = await runWisp(["doctor", "--json"], { home });
    const report = parseReport(run.stdout);
    assertEquals(run.code, report.ok ? 0 : 1);
    assertEquals(run.stderr, "");
    const names = report.findings.map((f) => f.name);
    for (
      const name of [
        "version",
        "sandbox",
        "config",
        "home",
        "classifier",
        "front end",
        "notifications",
        "native library",
        "approvals",
        "pending requests",
        "live servers",
        "facts",
        "transcripts",
        "classifier versions",
        "output store",
        "audit log",
      ]
    ) assert(names.includes(name), `no ${name} in ${names.join(", ")}`);
    assertEquals(names[0], "version");
    const version = await runWisp(["--version"], { home });
    assertEquals(find(report, "version").detail, version.stdout.trim());
    // Every finding of a healthy fresh home is ok but the model (none is served here).
    for (const finding of report.findings) {
      if (finding.name === "model") continue;
      assertEquals(finding.ok, true, `${finding.name}: ${finding.detail}`);
      assertEquals(finding.fix, null);
    }
    // The plain lines say the same, one per finding.
    const text = await runWisp(["doctor"], { home });
    assertEquals(text.stdout.trim().split("\n").length, report.findings.length);
    assertMatch(
      text.stdout,
      /^ok {3}front end: plain chat \(stdout is not a terminal; wisp chat --plain is the same\)$/m,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor: a corrupt approvals.json is not ok, names the file and the fix, as wisp approvals fails on it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-doctor-cli-" });
  try {
    const home = join(dir, "home");
    Deno.mkdirSync(home, { mode: 0o700 });
    const file = join(home, "approvals.json");
    Deno.writeTextFileSync(file, '{ "version": 1, "approvals": [ {', { mode: 0o600 });
    const run = await runWisp(["doctor"], { home });
    assertEquals(run.code, 1);
    assertMatch(
      run.stdout,
      new RegExp(
        `^not ok approvals: ${file} is not valid JSON; move it aside to start with no remembered approvals$`,
        "m",
      ),
    );
    const approvals = await runWisp(["approvals"], { home });
    assertEquals(approvals.code, 1);
    assertMatch(approvals.stderr, /is not valid JSON/);
    // Doctor left the file as it was.
    assertEquals(Deno.readTextFileSync(file), '{ "version": 1, "approvals": [ {');
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor --json: a pending folder of mode 0755 is reported with the chmod that fixes it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-doctor-cli-" });
  try {
    const home = join(dir, "home");
    Deno.mkdirSync(join(home, "pending"), { recursive: true, mode: 0o700 });
    Deno.chmodSync(home, 0o700);
    Deno.chmodSync(join(home, "pending"), 0o755);
    const run = await runWisp(["doctor", "--json"], { home });
    assertEquals(run.code, 1);
    const pending = find(parseReport(run.stdout), "pending requests");
    assertEquals(pending, {
      name: "pending requests",
      ok: false,
      detail: `${join(home, "pending")} has the wrong mode (mode 755, not 700)`,
      fix: `run chmod -R u+rwX,go-rwx ${join(home, "pending")} so that it is yours alone`,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor: with no launcher on PATH the sandbox is not ok and says what to install", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-doctor-cli-" });
  try {
    const run = await runWisp(["doctor", "--json"], {
      home: join(dir, "home"),
      env: { PATH: join(dir, "empty-bin") },
    });
    assertEquals(run.code, 1);
    const report = parseReport(run.stdout);
    assertEquals(find(report, "sandbox"), {
      name: "sandbox",
      ok: false,
      detail: "bwrap (bubblewrap) is not on PATH",
      fix: "install it (apt install bubblewrap) so commands can be confined",
    });
    const probe = find(report, "sandbox probe");
    assertEquals(probe.ok, false);
    assert(probe.fix !== null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  "doctor: a libwisp that WISP_LIBWISP names is found, and the permission set's refusal to load it is said",
  {
    ignore: Deno.build.os !== "linux" || !fileExists("/usr/bin/cc"),
  },
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "wisp-doctor-cli-" });
    try {
      const source = join(dir, "abi.c");
      const library = join(dir, "libwisp.so");
      Deno.writeTextFileSync(source, "unsigned int wisp_abi_version(void) { return 7; }\n");
      const built = await new Deno.Command("cc", {
        args: ["-shared", "-fPIC", "-o", library, source],
        stdout: "null",
        stderr: "piped",
      }).output().catch(() => undefined);
      if (!built?.success) return; // no C compiler here: the unit test covers the finding
      const run = await runWisp(["doctor", "--json"], {
        home: join(dir, "home"),
        env: { WISP_LIBWISP: library },
      });
      const native = find(parseReport(run.stdout), "native library");
      // This build's permission set names no libwisp yet, so the fence refuses it.
      assertEquals(native, {
        name: "native library",
        ok: false,
        detail: `${library} (WISP_LIBWISP) is there, but wisp may not load it`,
        fix: "wisp's permission set does not allow it; run the build that ships with it",
      });
      assertEquals(run.code, 1);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("doctor: a model classifier whose server lists the model but fails to answer is not ok; one that answers is", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const dir = await Deno.makeTempDir({ prefix: "wisp-doctor-cli-" });
  try {
    const home = join(dir, "home");
    Deno.mkdirSync(home, { mode: 0o700 });
    Deno.writeTextFileSync(
      join(home, "config.json"),
      JSON.stringify({
        model: "ollama:granite4.1:8b",
        ollama: { host: ollama.url },
        approval: { classifier: "model" },
      }),
    );
    // No reply scripted: the server lists the model, and every chat fails.
    let run = await runWisp(["doctor", "--json"], { home });
    assertEquals(run.code, 1);
    const silent = find(parseReport(run.stdout), "classifier");
    assertEquals(silent.ok, false);
    assertMatch(
      silent.detail,
      /^the model classifier on ollama:granite4\.1:8b is listed but does not answer: /,
    );
    assert(silent.fix !== null);
    // Two replies: the model's own findings may ask it something first (a one-word probe).
    for (let i = 0; i < 2; i++) {
      ollama.reply({ text: '{"level": "moderate", "reason": "it runs the tests"}' });
    }
    run = await runWisp(["doctor", "--json"], { home });
    assertEquals(find(parseReport(run.stdout), "classifier"), {
      name: "classifier",
      ok: true,
      detail: "model classifier on ollama:granite4.1:8b, served and answers",
      fix: null,
    });
  } finally {
    await ollama.close();
    await Deno.remove(dir, { recursive: true });
  }
});

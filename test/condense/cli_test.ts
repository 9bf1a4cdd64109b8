/**
 * `wisp triage` as a person or a script runs it: the real CLI in a
 * subprocess under the binary's permission set, a scratch home, the real
 * gate, runner and sandbox for the `--` form.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runWisp, tempDir } from "../support/wisp.ts";
import { commandLine } from "../../src/cli/triage.ts";
import { PLANTED, writeBigLog } from "../support/big_log.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/condense/", import.meta.url));
const fixture = (name: string) => join(FIXTURES, name);

function auditEvents(home: string): Record<string, unknown>[] {
  const text = Deno.readTextFileSync(join(home, "logs", "audit.jsonl"));
  return text.trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("wisp triage reads standard input and lists the failures; exit 1 when it finds some", async () => {
  const home = await tempDir();
  try {
    const r = await runWisp(["triage", "--no-model"], {
      home,
      stdin: Deno.readTextFileSync(fixture("cargo/test_fail.log")),
    });
    assertEquals(r.code, 1, r.stderr);
    const [head, ...rest] = r.stdout.trimEnd().split("\n");
    assertMatch(head, /^stdin: 3 failed tests/);
    assertStringIncludes(rest.join("\n"), "failed tests::adds_large_numbers at src/lib.rs:20:9");
    assertStringIncludes(rest.join("\n"), "left: 43");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp triage --json --path: exactly the documented shape", async () => {
  const home = await tempDir();
  try {
    const r = await runWisp([
      "triage",
      "--json",
      "--no-model",
      "--path",
      fixture("go/test_fail.log"),
    ], { home });
    assertEquals(r.code, 1, r.stderr);
    const json = JSON.parse(r.stdout);
    assertEquals(Object.keys(json).sort(), ["exitCode", "findings", "headline", "outcome"]);
    assertEquals(json.outcome, "failures");
    assertEquals(json.exitCode, 1);
    assertMatch(json.headline, /test_fail\.log: 3 failed tests$/);
    for (const f of json.findings) {
      for (const key of Object.keys(f)) {
        assert(["kind", "location", "test", "message", "detail"].includes(key), key);
      }
    }
    assertEquals(json.findings.map((f: { test: string }) => f.test), [
      "TestAddLarge",
      "TestTable/two",
      "TestPanics",
    ]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a passing run: no findings, exit 0", async () => {
  const home = await tempDir();
  try {
    const r = await runWisp(["triage", "--path", fixture("pytest/pass.log")], { home });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /pass\.log: no failures found/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("usage: --path with a command is refused (64); a missing file is a failure (1) in one sentence", async () => {
  const home = await tempDir();
  try {
    const both = await runWisp(["triage", "--path", "x.log", "--", "make"], { home });
    assertEquals(both.code, 64);
    assertMatch(both.stderr, /^error: give either --path FILE or a command after --, not both/);
    const missing = await runWisp(["triage", "--path", join(home, "nope.log")], { home });
    assertEquals(missing.code, 1);
    assertMatch(
      missing.stderr,
      /^error: .*nope\.log does not exist; give the path of an output file\n$/,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("audited as a session of its own: triage-<id>, with counts and never the output", async () => {
  const home = await tempDir();
  try {
    await runWisp(["triage", "--no-model", "--path", fixture("cargo/test_fail.log")], { home });
    const events = auditEvents(home);
    const triage = events.find((e) => e.kind === "triage")!;
    assert(triage, "no triage event");
    assertMatch(String(triage.session), /^triage-[0-9a-f]{8}$/);
    assertEquals(triage.source, "path");
    assertEquals(triage.counts, { errors: 0, test_failures: 3, warnings: 0 });
    assertEquals(events.filter((e) => e.session === triage.session)[0].kind, "session.start");
    const raw = Deno.readTextFileSync(join(home, "logs", "audit.jsonl"));
    assert(!raw.includes("left: 43"), "the output itself reached the audit log");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp triage -- COMMAND runs it through the gate and the sandboxed runner", async () => {
  const home = await tempDir();
  const work = await tempDir();
  try {
    const script = "printf 'src/a.c:3:7: error: boom\\n' >&2; exit 3";
    const r = await runWisp(["triage", "-y", "--no-model", "--", "sh", "-c", script], {
      home,
      cwd: work,
    });
    assertEquals(r.code, 1, r.stderr);
    assertMatch(r.stdout, /: exit 3; 1 error/);
    assertStringIncludes(r.stdout, "  error src/a.c:3:7: boom");
    const kinds = auditEvents(home).map((e) => e.kind);
    for (const k of ["policy.decision", "command.outcome", "triage"]) {
      assert(kinds.includes(k), `no ${k} in ${kinds}`);
    }
    const outcome = auditEvents(home).find((e) => e.kind === "command.outcome")!;
    assertEquals(outcome.origin, "triage");
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("a failed command no reader explains is never clean: exit 2, the last lines numbered as evidence", async () => {
  const home = await tempDir();
  const work = await tempDir();
  try {
    const silent = await runWisp(["triage", "-y", "--no-model", "--json", "--", "sh -c 'exit 3'"], {
      home,
      cwd: work,
    });
    assertEquals(silent.code, 2, silent.stderr);
    const quiet = JSON.parse(silent.stdout);
    assertEquals(quiet.outcome, "unexplained");
    assertEquals(quiet.exitCode, 2);
    assertMatch(quiet.headline, /exit 3; failed, and no reader found why; it printed nothing/);
    assert(!/no failures/.test(quiet.headline), quiet.headline);

    const missing = await runWisp(["triage", "-y", "--no-model", "--", "ls", "/nonexistent"], {
      home,
      cwd: work,
    });
    assertEquals(missing.code, 2, missing.stderr);
    const [head, ...rest] = missing.stdout.trimEnd().split("\n");
    assertMatch(
      head,
      /^ls \/nonexistent: exit 2; failed, and no reader found why; the output's last line follows/,
    );
    assertEquals(rest.length, 1);
    assertMatch(rest[0], /^ {2}1 \| ls: .*\/nonexistent/);

    // Many lines: only the last ones, numbered where they stand in the whole output.
    const script = "i=1; while [ $i -le 500 ]; do echo line $i; i=$((i+1)); done; exit 4";
    const long = await runWisp(["triage", "-y", "--no-model", "--json", "--", "sh", "-c", script], {
      home,
      cwd: work,
    });
    assertEquals(long.code, 2, long.stderr);
    const evidence = JSON.parse(long.stdout).evidence as { line: number; text: string }[];
    assertEquals(evidence.length, 20);
    assertEquals(evidence[0], { line: 481, text: "line 481" });
    assertEquals(evidence[19], { line: 500, text: "line 500" });
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("--exit-status with standard input or a path rules the headline; with a command it is a usage error", async () => {
  const home = await tempDir();
  try {
    const failed = await runWisp(["triage", "--no-model", "--exit-status", "1"], {
      home,
      stdin: "compiling…\nsomething went wrong somewhere\n",
    });
    assertEquals(failed.code, 2, failed.stderr);
    assertMatch(failed.stdout, /^stdin: exit 1; failed, and no reader found why/);
    assertStringIncludes(failed.stdout, "  2 | something went wrong somewhere");

    const passed = await runWisp([
      "triage",
      "--no-model",
      "--exit-status",
      "0",
      "--path",
      fixture("pytest/pass.log"),
    ], { home });
    assertEquals(passed.code, 0, passed.stderr);
    assertMatch(passed.stdout, /pass\.log: exit 0; no failures found/);

    const both = await runWisp(["triage", "--exit-status", "1", "--", "make"], { home });
    assertEquals(both.code, 64);
    assertMatch(
      both.stderr,
      /^error: --exit-status is for output read from --path or standard input/,
    );
    const bad = await runWisp(["triage", "--exit-status", "x"], { home, stdin: "" });
    assertEquals(bad.code, 64);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("`-` names standard input: `wisp triage -` and `--path -` read it, never run or open `-`", async () => {
  const home = await tempDir();
  try {
    const log = Deno.readTextFileSync(fixture("cargo/test_fail.log"));
    for (const args of [["triage", "--no-model", "-"], ["triage", "--no-model", "--path", "-"]]) {
      const r = await runWisp(args, { home, stdin: log });
      assertEquals(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
      assertMatch(r.stdout, /^stdin: 3 failed tests/, args.join(" "));
    }
    const status = await runWisp(["triage", "--no-model", "--exit-status", "3", "-"], {
      home,
      stdin: "something went wrong somewhere\n",
    });
    assertEquals(status.code, 2, status.stderr);
    assertMatch(status.stdout, /^stdin: exit 3; failed, and no reader found why/);
    // Nothing was run or asked about: every triage read standard input.
    const events = auditEvents(home);
    assertEquals(
      events.filter((e) => e.kind === "policy.decision" || e.kind === "command.outcome"),
      [],
    );
    assertEquals(events.filter((e) => e.kind === "triage").map((e) => e.source), [
      "stdin",
      "stdin",
      "stdin",
    ]);
    const both = await runWisp(["triage", "--path", "-", "--", "make"], { home, stdin: "" });
    assertEquals(both.code, 64, both.stderr);
    assertMatch(both.stderr, /^error: give either --path FILE or a command after --, not both/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

const HAS_NPM = (() => {
  try {
    return new Deno.Command("npm", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "wisp triage -y -- npm test: a failing node test run is a failure with its values (exit 1)",
  ignore: !HAS_NPM,
}, async () => {
  const home = await tempDir();
  const work = await tempDir();
  try {
    Deno.writeTextFileSync(
      join(work, "package.json"),
      JSON.stringify({
        name: "t",
        version: "1.0.0",
        private: true,
        scripts: { test: "node --test" },
      }),
    );
    Deno.writeTextFileSync(
      join(work, "total.test.js"),
      [
        'const test = require("node:test");',
        'const assert = require("node:assert");',
        'test("totals the basket", () => { assert.strictEqual(2 * 3, 7); });',
        "",
      ].join("\n"),
    );
    const r = await runWisp(["triage", "-y", "--no-model", "--json", "--", "npm", "test"], {
      home,
      cwd: work,
      inheritEnv: true,
    });
    assertEquals(r.code, 1, r.stderr + r.stdout);
    const json = JSON.parse(r.stdout);
    assertEquals(json.outcome, "failures");
    assertMatch(json.headline, /^npm test: exit 1; 1 failed test/);
    const [f] = json.findings;
    assertEquals(f.test, "totals the basket");
    assert(f.detail.includes("expected: 7") && f.detail.includes("actual: 6"), f.detail);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("every byte is read: one failure in the middle of a 12 MB log, from a file, standard input and a command", async () => {
  const home = await tempDir();
  const work = await tempDir();
  try {
    const log = join(work, "verbose.log");
    writeBigLog(log, 12 * 1024 * 1024, 0.5);
    const expect = (r: { code: number; stdout: string; stderr: string }, how: string) => {
      assertEquals(r.code, 1, `${how}: ${r.stderr}`);
      const json = JSON.parse(r.stdout);
      assertEquals(json.outcome, "failures", how);
      assertEquals(
        json.findings.map((f: { test: string; location: string; message: string }) => [
          f.test,
          f.location,
          f.message,
        ]),
        [[PLANTED.test, PLANTED.location, PLANTED.message]],
        how,
      );
      assert(!/not read/.test(json.headline), `${how}: ${json.headline}`);
    };
    expect(await runWisp(["triage", "--json", "--no-model", "--path", log], { home }), "--path");
    expect(
      await runWisp(["triage", "--json", "--no-model"], {
        home,
        stdin: Deno.readTextFileSync(log),
      }),
      "stdin",
    );
    expect(
      await runWisp(["triage", "--json", "--no-model", "-y", "--", "cat", "verbose.log"], {
        home,
        cwd: work,
      }),
      "command",
    );
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("the gate still decides: a policy-denied command does not run; an unapproved one is refused", async () => {
  const home = await tempDir();
  const work = await tempDir();
  try {
    const denied = await runWisp(["triage", "-y", "--no-model", "--", "rm", "-rf", "/"], {
      home,
      cwd: work,
    });
    assertEquals(denied.code, 1);
    assertMatch(denied.stderr, /^error: command denied by policy/);
    const unapproved = await runWisp(["triage", "--no-model", "--", "make", "test"], {
      home,
      cwd: work,
    });
    assertEquals(unapproved.code, 1);
    assertMatch(unapproved.stderr, /^error: command not approved.*add --yes/);
    const kinds = auditEvents(home).map((e) => e.kind);
    assert(!kinds.includes("command.outcome"), "a refused command ran");
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("the words after -- become one shell line: one argument as typed, several quoted", () => {
  assertEquals(commandLine(["make test 2>&1"]), "make test 2>&1");
  assertEquals(
    commandLine(["sh", "-c", "echo 'a b'; exit 3"]),
    `sh -c 'echo '\\''a b'\\''; exit 3'`,
  );
  assertEquals(commandLine(["cargo", "test", "--lib"]), "cargo test --lib");
  assertEquals(commandLine([]), undefined);
});

Deno.test("with a model: only what no reader explained goes to it, over the real Ollama wire; its findings are merged", async () => {
  const { startFakeOllama } = await import("../support/fake_ollama.ts");
  const fake = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const home = await tempDir();
  try {
    fake.reply((body) => {
      const messages = body.messages as { role: string; content: string }[];
      const chunk = messages[messages.length - 1].content;
      return {
        text: JSON.stringify({
          findings: chunk.includes("DISK FULL")
            ? [{
              kind: "error",
              location: "cache/writer.c:88",
              message: "disk full while writing the cache",
            }]
            : [],
        }),
      };
    });
    const log = Deno.readTextFileSync(fixture("go/test_fail.log")) +
      "\ncache/writer.c:88 FATAL DISK FULL, giving up\n";
    const r = await runWisp(["triage", "--json", "-m", "ollama:granite4.1:8b"], {
      home,
      stdin: log,
      env: { OLLAMA_HOST: fake.url },
    });
    assertEquals(r.code, 1, r.stderr);
    const json = JSON.parse(r.stdout);
    assertMatch(
      json.headline,
      /3 failed tests, 1 error; the model \(ollama:granite4\.1:8b\) judged 1 of 1 unexplained chunks$/,
    );
    assertEquals(json.findings.find((f: { kind: string }) => f.kind === "error"), {
      kind: "error",
      location: "cache/writer.c:88",
      message: "disk full while writing the cache",
    });
    const chats = fake.chats();
    assertEquals(chats.length, 1);
    const sent = JSON.stringify(chats[0].messages);
    assert(
      sent.includes("DISK FULL") && !sent.includes("Add(20, 22) = 43"),
      "the model saw lines a reader had explained",
    );
    assertEquals(chats[0].tools, undefined);
    assert(chats[0].format, "no schema sent");
    const kinds = auditEvents(home).map((e) => e.kind);
    assert(kinds.includes("prompt") && kinds.includes("response"), `${kinds}`);
  } finally {
    await fake.close();
    await Deno.remove(home, { recursive: true });
  }
});

// Needs python3 with pytest (apt's python3-pytest); where it is missing the test cannot run the real tool.
const HAS_PYTEST = (() => {
  try {
    return new Deno.Command("python3", {
      args: ["-c", "import pytest"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "wisp triage -y -- a real pytest run in the sandbox: every failure, with places",
  ignore: !HAS_PYTEST,
}, async () => {
  const home = await tempDir();
  const work = await tempDir();
  try {
    for (const f of ["calc.py", "test_calc.py"]) {
      Deno.copyFileSync(fixture(`pytest/project/fail/${f}`), join(work, f));
    }
    const r = await runWisp([
      "triage",
      "-y",
      "--no-model",
      "--json",
      "--",
      "python3",
      "-m",
      "pytest",
      "-p",
      "no:cacheprovider",
      "test_calc.py",
    ], {
      home,
      cwd: work,
      inheritEnv: true,
    });
    assertEquals(r.code, 1, r.stderr);
    const json = JSON.parse(r.stdout);
    assertMatch(
      json.headline,
      /^python3 -m pytest -p no:cacheprovider test_calc\.py: exit 1; 4 failed tests, 1 error/,
    );
    assertEquals(json.findings.map((f: { location: string }) => f.location), [
      "test_calc.py:10",
      "test_calc.py:14",
      "test_calc.py:24",
      "test_calc.py:28",
      "test_calc.py:33",
    ]);
    assert(
      !json.findings.some((f: { message: string }) => f.message.endsWith("...")),
      "a cut summary message was kept",
    );
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

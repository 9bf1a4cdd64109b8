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
    assertEquals(Object.keys(json).sort(), ["findings", "headline"]);
    assertMatch(json.headline, /test_fail\.log: 3 failed tests$/);
    for (const f of json.findings) {
      for (const key of Object.keys(f)) {
        assert(["kind", "location", "test", "message"].includes(key), key);
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

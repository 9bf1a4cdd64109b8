import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { DENO_CONFIG, PROJECT_ROOT, runWisp, tempDir } from "../support/wisp.ts";
import { buildProgram } from "../../src/cli/program.ts";
import { formatVersion } from "../../src/cli/version.ts";
import { VERSION } from "../../src/version.ts";

Deno.test("--version: bare for a release, -dev+commit and (modified) otherwise", () => {
  assertEquals(formatVersion("0.16.0", { kind: "release" }), "0.16.0");
  assertEquals(
    formatVersion("0.16.0", { kind: "dev", commit: "4ab6eec0123456789", modified: false }),
    "0.16.0-dev+4ab6eec",
  );
  assertEquals(
    formatVersion("0.16.0", { kind: "dev", commit: "4ab6eec0123456789", modified: true }),
    "0.16.0-dev+4ab6eec (modified)",
  );
  assertEquals(formatVersion("0.16.0", { kind: "dev" }), "0.16.0-dev");
});

Deno.test("wisp --version from source names this checkout's commit", async () => {
  const run = await runWisp(["--version"]);
  assertEquals(run.code, 0);
  assertMatch(
    run.stdout,
    new RegExp(`^${VERSION.replaceAll(".", "\\.")}-dev(\\+[0-9a-f]{7}( \\(modified\\))?)?\\n$`),
  );
  assertEquals(run.stderr, "");
});

Deno.test("--help works on every command and subcommand", async () => {
  const names: string[][] = [];
  const walk = (command: ReturnType<typeof buildProgram>, path: string[]) => {
    for (const sub of command.commands) {
      names.push([...path, sub.name()]);
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(buildProgram(), []);
  assert(names.length >= 3);
  const top = await runWisp(["--help"]);
  assertEquals(top.code, 0);
  assertStringIncludes(top.stdout, "Usage: wisp");
  for (const path of names) {
    const run = await runWisp([...path, "--help"]);
    assertEquals(run.code, 0, `wisp ${path.join(" ")} --help: ${run.stderr}`);
    assertStringIncludes(run.stdout, `Usage: wisp ${path.join(" ")}`);
  }
});

Deno.test("usage errors: one sentence on stderr, exit 64", async () => {
  // A bare word is a prompt for respond (the default command), not a usage error.
  const cases = [["--no-such-flag"], ["config", "--bogus"], ["logs", "--last", "many"], [
    "config",
    "get",
  ]];
  for (const args of cases) {
    const run = await runWisp(args);
    assertEquals(run.code, 64, `wisp ${args.join(" ")}`);
    assertMatch(run.stderr, /^error: /);
    assertEquals(run.stdout, "");
    assert(run.stderr.trim().split("\n").length <= 2, run.stderr); // the sentence, and at most a suggestion
  }
});

Deno.test("deno task wisp runs in the caller's directory, under the binary's permission set", async () => {
  const cwd = await tempDir();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "--config", DENO_CONFIG, "wisp", "config"],
    cwd,
    // deno task keeps an INIT_CWD it inherits (as npm does), so the test
    // starts it without one, as a shell would.
    env: { WISP_HOME: "relative-home", NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "", HOME: cwd },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
  const out = await child.output();
  const text = new TextDecoder().decode(out.stdout);
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  // WISP_HOME is resolved against the directory wisp was started in.
  assertEquals(JSON.parse(text).paths.root, `${Deno.realPathSync(cwd)}/relative-home`);
});

Deno.test("one permission set: deno.json's wisp set is what tests, the task and compile use", async () => {
  const config = JSON.parse(Deno.readTextFileSync(DENO_CONFIG));
  assertEquals(config.permissions.wisp.run, ["bwrap", "sandbox-exec"]);
  assertStringIncludes(config.tasks.wisp, "-P=wisp");
  const dry = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${PROJECT_ROOT}/scripts/compile.ts`, "--dry-run"],
    stdout: "piped",
  }).output();
  const plan = JSON.parse(new TextDecoder().decode(dry.stdout));
  assert(plan.command.includes("-P=wisp"));
  assert(plan.command.includes("compile"));
  assertEquals(plan.buildInfo.kind, "dev");
});

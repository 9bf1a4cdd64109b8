/**
 * `deno task install --prefix DIR`: the launcher it writes runs this
 * checkout from any folder under wisp's permission set, and it never
 * replaces a file it did not write.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { PROJECT_ROOT, tempDir } from "../support/wisp.ts";

async function run(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(cmd, {
    args,
    env,
    clearEnv: true,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** Deno's cache, shared so that a scratch HOME does not compile wisp afresh. */
function denoDir(): Record<string, string> {
  const out = new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
    .outputSync();
  try {
    return { DENO_DIR: JSON.parse(new TextDecoder().decode(out.stdout)).denoDir };
  } catch {
    return {};
  }
}

/** `deno task install ARGS` as a person runs it: from the checkout, called from `from`. */
function install(args: string[], env: Record<string, string>, from: string) {
  return run(
    Deno.execPath(),
    ["task", "-q", "--config", join(PROJECT_ROOT, "deno.json"), "install", ...args],
    { ...env, INIT_CWD: from },
    PROJECT_ROOT,
  );
}

Deno.test("the launcher runs wisp doctor from another folder, with the scratch home", async () => {
  const scratch = await tempDir("wisp-install-");
  try {
    const home = join(scratch, "home");
    const wispHome = join(scratch, "wisp-home");
    const elsewhere = join(scratch, "some project");
    Deno.mkdirSync(home);
    Deno.mkdirSync(elsewhere);
    const env = { HOME: home, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...denoDir() };
    // A relative --prefix is taken from where the task was called.
    const first = await install(["--prefix", "bin"], env, scratch);
    assertEquals(first.code, 0, first.stderr);
    const launcher = join(scratch, "bin", "wisp");
    assertStringIncludes(first.stdout, `wrote the wisp launcher to ${launcher}`);
    assertStringIncludes(first.stdout, "is not on your PATH");
    assertEquals((Deno.statSync(launcher).mode ?? 0) & 0o777, 0o755);

    const doctor = await run(
      launcher,
      ["doctor", "--json"],
      { ...env, WISP_HOME: wispHome },
      elsewhere,
    );
    assert(
      doctor.code === 0 || doctor.code === 1,
      `doctor ran (exit ${doctor.code}): ${doctor.stderr}`,
    );
    const report = JSON.parse(doctor.stdout);
    const finding = (name: string) =>
      report.findings.find((f: { name: string }) => f.name === name);
    assert(finding("config").ok, finding("config").detail);
    assertEquals(finding("home"), {
      ok: true,
      name: "home",
      detail: `${wispHome} writable`,
      fix: null,
    });
    assertMatch(finding("permission fence").detail, /starts only/);
    // The launcher passes its arguments through and the version says where it came from.
    const version = await run(launcher, ["--version"], env, elsewhere);
    assertMatch(version.stdout, /^\d+\.\d+\.\d+-dev/);

    const again = await install(["--prefix", join(scratch, "bin")], env, scratch);
    assertEquals(again.code, 0);
    assertStringIncludes(again.stdout, "is current");
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
});

Deno.test("install leaves a wisp it did not write alone, and a bad argument is a usage error", async () => {
  const scratch = await tempDir("wisp-install-");
  try {
    const env = { HOME: scratch, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...denoDir() };
    const bin = join(scratch, "bin");
    Deno.mkdirSync(bin);
    Deno.writeTextFileSync(join(bin, "wisp"), "#!/bin/sh\necho a different wisp\n");
    const refused = await install(["--prefix", bin], env, scratch);
    assertEquals(refused.code, 1);
    assertStringIncludes(refused.stderr, "exists and is not a wisp launcher; it was left as it is");
    assertEquals(Deno.readTextFileSync(join(bin, "wisp")), "#!/bin/sh\necho a different wisp\n");
    const bad = await install(["--prefx", bin], env, scratch);
    assertEquals(bad.code, 64);
    assertStringIncludes(bad.stderr, "unknown argument '--prefx'");
    // Without --prefix, ~/.local/bin.
    const plain = await install([], env, scratch);
    assertEquals(plain.code, 0, plain.stderr);
    assert(Deno.statSync(join(scratch, ".local/bin/wisp")).isFile);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
});

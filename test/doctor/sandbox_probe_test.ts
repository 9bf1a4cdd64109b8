import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { sandboxProbeFinding } from "../../src/doctor/sandbox.ts";
import { configSchema, defaultConfig } from "../../src/config/schema.ts";
import { homePaths } from "../../src/config/home.ts";
import { currentPlatform, type Platform } from "../../src/platform/index.ts";

Deno.test("the live probe: the real sandbox refuses a write into wisp's home and allows one into /tmp", async () => {
  const root = await Deno.makeTempDir();
  const home = homePaths(`${root}/home-inside-the-project`);
  const finding = await sandboxProbeFinding(defaultConfig(), home, root);
  assert(finding.ok, finding.detail);
  assertStringIncludes(finding.detail, "a write into wisp's home was refused");
  assertEquals(
    [...Deno.readDirSync(home.root)].filter((e) => e.name.startsWith(".sandbox-probe")),
    [],
  );
});

Deno.test("the live probe catches a launcher that does not confine", async () => {
  const root = await Deno.makeTempDir();
  const home = homePaths(`${root}/home`);
  // A "launcher" that runs the command unconfined: the probe must say so.
  const leaky: Platform = {
    ...currentPlatform(),
    launch: (spec) => ({ program: spec.inner[0], args: spec.inner.slice(1) }),
  };
  const finding = await sandboxProbeFinding(defaultConfig(), home, root, leaky);
  assertEquals(finding.ok, false);
  assertStringIncludes(finding.detail, "the sandbox does not hold");
});

Deno.test("the live probe says so when the sandbox is off", async () => {
  const root = await Deno.makeTempDir();
  const config = configSchema.parse({ commandPolicy: { sandbox: { enabled: false } } });
  const finding = await sandboxProbeFinding(config, homePaths(`${root}/home`), root);
  assertEquals(finding.ok, false);
  assertStringIncludes(finding.detail, "the sandbox is off");
});

Deno.test("the live probe also tries a protected folder inside the project (a repository's hooks) and leaves nothing there", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    Deno.mkdirSync(`${root}/.git/hooks`, { recursive: true });
    Deno.writeTextFileSync(`${root}/.git/config`, "[core]\n");
    const finding = await sandboxProbeFinding(defaultConfig(), homePaths(`${root}/home`), root);
    assert(finding.ok, finding.detail);
    assertStringIncludes(finding.detail, `so was one into ${root}/.git/hooks (protected)`);
    assertEquals([...Deno.readDirSync(`${root}/.git/hooks`)], []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

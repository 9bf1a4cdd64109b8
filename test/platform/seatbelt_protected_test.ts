/**
 * The protected paths in the Seatbelt profile: denied after every allow rule
 * (Seatbelt applies the last match), by path, so one that does not exist yet
 * cannot be created; the folders leading to them denied as literals. A golden
 * file of the text (test/fixtures/exec/seatbelt/protected.sb; regenerate with
 * WISP_UPDATE_GOLDEN=1 and read the diff), and the set a Mac would compute.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { seatbeltProfile } from "../../src/platform/darwin/seatbelt.ts";
import { writableSet } from "../../src/platform/paths.ts";
import type { LaunchSpec } from "../../src/platform/types.ts";
import { configSchema } from "../../src/config/schema.ts";

const GOLDEN = fileURLToPath(new URL("../fixtures/exec/seatbelt/", import.meta.url));
const update = Deno.env.get("WISP_UPDATE_GOLDEN") === "1";

const project = "/Users/me/src/project";
const spec: LaunchSpec = {
  mode: "confined",
  writable: {
    roots: [project, "/private/tmp", "/private/var/folders/ab/xyz/T", "/Users/me/.npm/_cacache"],
    home: "/Users/me/.wisp",
    homeInsideRoot: false,
    missing: [],
    protected: [
      { path: `${project}/.envrc`, why: "direnv runs it when you cd into the folder" },
      { path: `${project}/.git/config`, why: "git runs the programs …" },
      { path: `${project}/.git/hooks`, why: "git runs a repository's hooks …" },
      { path: `${project}/.git/info`, why: "git reads …" },
      { path: `${project}/.vscode`, why: "VS Code runs its tasks …" },
    ],
    pinned: [`${project}/.git`],
  },
  allowNetwork: true,
  cwd: project,
  inner: ["/bin/bash", "-c", "supervisor"],
};

Deno.test("golden: protected paths denied after the allow rules, the folders to them pinned", () => {
  const profile = seatbeltProfile(spec);
  const text = profile.text + "\n; parameters:\n" +
    profile.params.map(([k, v]) => `; ${k}=${v}`).join("\n") + "\n";
  const path = join(GOLDEN, "protected.sb");
  if (update) Deno.writeTextFileSync(path, text);
  assertEquals(
    text,
    Deno.readTextFileSync(path),
    "protected.sb differs from the generated profile",
  );
  const lastAllow = profile.text.lastIndexOf("(allow file-write");
  assert(profile.text.indexOf('(subpath (param "PROTECTED_0"))') > lastAllow);
  assert(profile.text.indexOf('(literal (param "PROTECTED_ANCESTOR_0"))') > lastAllow);
});

Deno.test("on a Mac the set keeps protected paths that do not exist yet (denied by path), and both spellings of a linked one", () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "wisp-sb-protected-" }));
  try {
    const home = join(base, "home");
    Deno.mkdirSync(join(home, "dotfiles"), { recursive: true });
    Deno.writeTextFileSync(join(home, "dotfiles/zshrc"), "# rc\n");
    Deno.symlinkSync(join(home, "dotfiles/zshrc"), join(home, ".zshrc"));
    const env = (n: string) => ({ HOME: home, PATH: "/usr/bin:/bin" } as Record<string, string>)[n];
    const set = writableSet({
      config: configSchema.parse({}),
      root: home,
      home: join(base, "wisp-home"),
      os: "darwin",
      env,
      runtime: {},
    });
    const paths = set.protected!.map((p) => p.path);
    assert(paths.includes(join(home, ".envrc")), "a missing .envrc is denied by path");
    assert(paths.includes(join(home, ".bashrc")), "a missing .bashrc is denied by path");
    assert(paths.includes(join(home, "dotfiles/zshrc")), "the real file behind ~/.zshrc");
    assert(paths.includes(join(home, ".zshrc")), "and the link itself");
    assert(paths.includes(join(home, "Library/Caches/deno")), "Deno's cache on a Mac");
    assertEquals(set.unguarded, []);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

/**
 * The release build and the Homebrew formula agree: `deno task compile
 * --release` lays out and packs an archive per target (here with a small
 * executable standing in for the compiled one, since `deno compile` needs a
 * runtime download these machines cannot make), writes its SHA-256 into
 * SHA256SUMS and the formula, and every install line of the formula names
 * what the archive holds, and the other way round.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertThrows } from "../support/assert.ts";
import { PROJECT_ROOT, runWisp, tempDir } from "../support/wisp.ts";
import {
  archiveLayout,
  archiveName,
  COMPLETION_FILES,
  RELEASE_TARGETS,
  sha256File,
  updateFormula,
} from "../../scripts/compile.ts";
import { VERSION } from "../../src/version.ts";

const FORMULA = join(PROJECT_ROOT, "Formula/wisp.rb");
const COMPILE = join(PROJECT_ROOT, "scripts/compile.ts");

/** What the formula's `def install` block installs: literal sources, globs, and symlinked names. */
function installLines(formula: string) {
  const block = /^ {2}def install\n([\s\S]*?)^ {2}end$/m.exec(formula)?.[1];
  if (!block) throw new Error("the formula has no def install block");
  const literal: { dir: string; source: string }[] = [];
  const globs: string[] = [];
  const symlinked: string[] = [];
  for (const raw of block.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    let m = /^(\w+)\.install "([^"]+)"(?: => "[^"]+")?$/.exec(line);
    if (m) {
      literal.push({ dir: m[1], source: m[2] });
      continue;
    }
    m = /^\w+\.install Dir\["([^"]+)"\]$/.exec(line);
    if (m) {
      globs.push(m[1]);
      continue;
    }
    m = /^bin\.install_symlink libexec\/"([^"]+)"$/.exec(line);
    if (m) {
      symlinked.push(m[1]);
      continue;
    }
    throw new Error(`an install line this test does not know: ${line}`);
  }
  return { literal, globs, symlinked };
}

/** A shell-style glob of one path segment as a regular expression. */
function globPattern(glob: string): RegExp {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", "[^/]*");
  return new RegExp(`^${escaped}$`);
}

function filesUnder(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) out.push(...filesUnder(join(dir, entry.name), rel));
    else out.push(rel);
  }
  return out.sort();
}

function hasRuby(): boolean {
  try {
    return new Deno.Command("ruby", { args: ["-v"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

Deno.test({
  name: "ruby -c passes on the formula",
  // The test task and CI install ruby; without it this one check cannot run.
  ignore: !hasRuby(),
  fn: async () => {
    const out = await new Deno.Command("ruby", { args: ["-c", FORMULA], stdout: "piped" }).output();
    assertEquals(out.code, 0);
    assertMatch(new TextDecoder().decode(out.stdout), /Syntax OK/);
  },
});

Deno.test("the formula names an archive for every release target, at the version in deno.json", () => {
  const formula = Deno.readTextFileSync(FORMULA);
  assertMatch(formula, new RegExp(`^ {2}version "${VERSION.replaceAll(".", "\\.")}"$`, "m"));
  for (const target of RELEASE_TARGETS) {
    const url = new RegExp(
      `url "[^"]*/(wisp-#\\{version\\}-${target}\\.tar\\.gz)"\\n\\s*sha256 "[0-9a-f]{64}"`,
    )
      .exec(formula);
    assert(url, `no url and sha256 for ${target}`);
    assertEquals(url[1].replace("#{version}", VERSION), `${archiveName(VERSION, target)}.tar.gz`);
  }
  // Each shell's completions go where Homebrew's shell integration looks.
  const { literal } = installLines(formula);
  assertEquals(
    literal.filter((l) => l.dir.endsWith("_completion")).map((l) => [l.dir, l.source]),
    [
      ["bash_completion", COMPLETION_FILES.bash],
      ["zsh_completion", COMPLETION_FILES.zsh],
      ["fish_completion", COMPLETION_FILES.fish],
    ],
  );
});

Deno.test("updateFormula sets the version and each target's hash, and refuses a target it cannot find", () => {
  const formula = Deno.readTextFileSync(FORMULA);
  const hash = "ab".repeat(32);
  const updated = updateFormula(formula, "9.8.7", { "x86_64-apple-darwin": hash });
  assertMatch(updated, /^ {2}version "9\.8\.7"$/m);
  assertMatch(updated, new RegExp(`x86_64-apple-darwin\\.tar\\.gz"\\n\\s*sha256 "${hash}"`));
  assertEquals(updated.split(hash).length, 2, "only that target's hash changed");
  assertThrows(() => updateFormula(formula, "9.8.7", { "riscv64-unknown-linux-gnu": hash }));
});

Deno.test("compile --release --dry-run compiles every target under the one permission set", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", COMPILE, "--release", "--dry-run", "--out", "/nonexistent/release"],
    stdout: "piped",
  }).output();
  assertEquals(out.code, 0);
  const plan = JSON.parse(new TextDecoder().decode(out.stdout));
  assertEquals(plan.buildInfo, { kind: "release" });
  assertEquals(plan.targets.map((t: { target: string }) => t.target), [...RELEASE_TARGETS]);
  for (const step of plan.targets) {
    const command: string[] = step.command;
    assert(command.includes("-P=wisp"));
    assertEquals(command[command.indexOf("--target") + 1], step.target);
    const name = archiveName(VERSION, step.target);
    assertEquals(command[command.indexOf("--output") + 1], `/nonexistent/release/${name}/wisp`);
    assertEquals(step.archive, `/nonexistent/release/${name}.tar.gz`);
  }
  const bad = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", COMPILE, "--release", "--dry-run", "--target", "sparc-sun-solaris"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(bad.code, 64);
  assertMatch(new TextDecoder().decode(bad.stderr), /unknown target sparc-sun-solaris/);
});

Deno.test("a release archive holds exactly what the formula installs, and its hash is where the formula reads it", async () => {
  const dir = await tempDir("wisp-release-");
  try {
    const target = "x86_64-unknown-linux-gnu";
    const formula = join(dir, "wisp.rb");
    Deno.copyFileSync(FORMULA, formula);
    const out = join(dir, "out");
    // What the binary holds plays no part in the layout, the hash or the
    // formula; a few bytes pack at once, where the 90 MB Deno binary took 20 s.
    const standIn = join(dir, "stand-in");
    Deno.writeTextFileSync(standIn, "#!/bin/sh\necho 'a stand-in for the compiled wisp'\n");
    const build = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        COMPILE,
        "--release",
        "--target",
        target,
        "--stand-in-binary",
        standIn,
        "--out",
        out,
        "--formula",
        formula,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(build.code, 0, new TextDecoder().decode(build.stderr));
    const name = archiveName(VERSION, target);
    const archive = join(out, `${name}.tar.gz`);
    const hash = await sha256File(archive);
    assertEquals(Deno.readTextFileSync(join(out, "SHA256SUMS")), `${hash}  ${name}.tar.gz\n`);
    assertMatch(
      Deno.readTextFileSync(formula),
      new RegExp(`${target}\\.tar\\.gz"\\n\\s*sha256 "${hash}"`),
    );

    // Unpack it as Homebrew does: into a folder, then into its one top folder.
    const unpacked = join(dir, "unpacked");
    Deno.mkdirSync(unpacked);
    const tar = await new Deno.Command("tar", { args: ["-xzf", archive, "-C", unpacked] }).output();
    assertEquals(tar.code, 0);
    assertEquals([...Deno.readDirSync(unpacked)].map((e) => e.name), [name]);
    const top = join(unpacked, name);
    const files = filesUnder(top);
    assertEquals(files, [...archiveLayout(target, false)].sort());
    assert(((Deno.statSync(join(top, "wisp")).mode ?? 0) & 0o111) !== 0, "wisp is executable");

    const { literal, globs, symlinked } = installLines(Deno.readTextFileSync(FORMULA));
    for (const { source } of literal) {
      assert(files.includes(source), `the archive has no ${source}`);
    }
    for (const file of files) {
      const installed = literal.some((l) => l.source === file) ||
        globs.some((g) => globPattern(g).test(file));
      assert(installed, `the formula does not install ${file}`);
    }
    // bin/wisp links to libexec/wisp, so wisp finds its native library beside its real path.
    assertEquals(symlinked, ["wisp"]);
    assert(literal.some((l) => l.dir === "libexec" && l.source === "wisp"));
    // The darwin archives add the native library, which the formula's glob installs.
    assert(
      archiveLayout("aarch64-apple-darwin", true).some((f) =>
        globs.some((g) => globPattern(g).test(f))
      ),
    );

    // The scripts in the archive are what the binary prints.
    const printed = await runWisp(["completions", "zsh"]);
    assertEquals(Deno.readTextFileSync(join(top, COMPLETION_FILES.zsh)), printed.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

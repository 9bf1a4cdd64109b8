/**
 * `deno task compile [--target T] [--output PATH] [--dry-run]`: builds the
 * single wisp binary under exactly the permission set the tests and
 * `deno task wisp` run under (deno.json "permissions.wisp", passed as
 * -P=wisp). It records what build this is in src/build_info.ts for the
 * duration of the build and restores the file afterwards.
 *
 * `deno task compile --release [--target T]… [--out DIR] [--formula FILE]
 * [--native DIR] [--stand-in-binary FILE] [--dry-run]`: the release
 * archives. For each target (every one in RELEASE_TARGETS unless some are
 * named) it compiles the binary, lays out ARCHIVE_LAYOUT in
 * DIR/wisp-<version>-<target>/, packs it as DIR/wisp-<version>-<target>.tar.gz,
 * writes every archive's SHA-256 to DIR/SHA256SUMS, and rewrites the
 * formula's version and each built target's sha256 (Formula/wisp.rb unless
 * --formula names another). --native DIR adds the native library built for
 * macOS (DIR/libwisp.dylib) to the darwin archives. --stand-in-binary puts
 * the given file where the compiled binary goes instead of compiling: the
 * layout test uses the full Deno binary, because `deno compile` downloads
 * its runtime (denort), which some build machines cannot reach.
 */
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readGitState } from "../src/util/gitstate.ts";
import type { BuildInfo } from "../src/build_info.ts";
import { VERSION } from "../src/version.ts";
import { buildProgram } from "../src/cli/program.ts";
import { completionTree } from "../src/cli/completions_tree.ts";
import { completionScript, type Shell } from "../src/cli/completions_scripts.ts";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The targets a release is built for, as `deno compile --target` names them. */
export const RELEASE_TARGETS = [
  "aarch64-apple-darwin",
  "x86_64-apple-darwin",
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
] as const;

/** The completion scripts in an archive, by shell (the formula installs each). */
export const COMPLETION_FILES: Record<Shell, string> = {
  bash: "completions/wisp.bash",
  zsh: "completions/_wisp",
  fish: "completions/wisp.fish",
};

/** The native library's file name in a darwin archive, beside wisp. */
export const NATIVE_LIBRARY = "libwisp.dylib";

/** What one release archive holds, relative to its top folder. */
export function archiveLayout(target: string, withNative: boolean): string[] {
  return [
    "wisp",
    ...(withNative && target.endsWith("-apple-darwin") ? [NATIVE_LIBRARY] : []),
    ...Object.values(COMPLETION_FILES),
  ];
}

/** The archive's name without .tar.gz, which is also its top folder. */
export function archiveName(version: string, target: string): string {
  return `wisp-${version}-${target}`;
}

export function compileArgs(options: { target?: string; output: string }): string[] {
  return [
    "compile",
    "-q",
    "-P=wisp",
    "--config",
    join(ROOT, "deno.json"),
    "--no-check",
    // main.ts and the commands load their modules through computed
    // specifiers (ADR 0004), which compile cannot follow: name them all.
    "--include",
    join(ROOT, "src"),
    "--include",
    join(ROOT, "node_modules/tree-sitter-bash/tree-sitter-bash.wasm"),
    "--include",
    join(ROOT, "node_modules/web-tree-sitter/tree-sitter.wasm"),
    // The labelled set `wisp classifier measure` and `train` use without --examples.
    "--include",
    join(ROOT, "test/fixtures/gate/examples.tsv"),
    ...(options.target ? ["--target", options.target] : []),
    "--output",
    options.output,
    join(ROOT, "main.ts"),
  ];
}

export function buildInfoSource(info: BuildInfo): string {
  return `/** Written by scripts/compile.ts for one build; restored afterwards. */
export interface BuildInfo {
  kind: "source" | "dev" | "release";
  commit?: string;
  modified?: boolean;
}

export const BUILD: BuildInfo = ${JSON.stringify(info)};
`;
}

/**
 * The formula with `version` and each target's sha256 replaced. Each target's
 * `sha256` is the first one after the url line that names its archive; a
 * target whose url line is missing is an error, so a formula that no longer
 * matches the archives is never half-updated.
 */
export function updateFormula(
  text: string,
  version: string,
  hashes: Record<string, string>,
): string {
  if (!/^ {2}version "[^"]*"$/m.test(text)) throw new Error("the formula has no version line");
  let out = text.replace(/^( {2}version )"[^"]*"$/m, `$1"${version}"`);
  for (const [target, hash] of Object.entries(hashes)) {
    const pattern = new RegExp(
      `(url "[^"\\n]*-${target.replaceAll(".", "\\.")}\\.tar\\.gz"\\n\\s*sha256 )"[0-9a-f]*"`,
    );
    if (!pattern.test(out)) throw new Error(`the formula has no url line for ${target}`);
    out = out.replace(pattern, `$1"${hash}"`);
  }
  return out;
}

/** The SHA-256 of a file, as lowercase hex. */
export async function sha256File(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function option(name: string): string | undefined {
  const index = Deno.args.indexOf(name);
  return index >= 0 ? Deno.args[index + 1] : undefined;
}

function options(name: string): string[] {
  return Deno.args.flatMap((
    arg,
    i,
  ) => (arg === name && Deno.args[i + 1] ? [Deno.args[i + 1]] : []));
}

/** Run `deno compile` with build_info.ts rewritten for the build; its exit code. */
async function compile(info: BuildInfo, args: string[]): Promise<number> {
  const buildInfoPath = join(ROOT, "src", "build_info.ts");
  const original = Deno.readTextFileSync(buildInfoPath);
  try {
    Deno.writeTextFileSync(buildInfoPath, buildInfoSource(info));
    return (await new Deno.Command(Deno.execPath(), { args, stdin: "null" }).spawn().status).code;
  } finally {
    Deno.writeTextFileSync(buildInfoPath, original);
  }
}

function fail(message: string): never {
  console.error(`error: ${message}`);
  Deno.exit(1);
}

async function release(dryRun: boolean): Promise<void> {
  const named = options("--target");
  const unknown = named.filter((t) => !(RELEASE_TARGETS as readonly string[]).includes(t));
  if (unknown.length > 0) {
    console.error(
      `error: unknown target ${unknown.join(", ")}; the targets are ${RELEASE_TARGETS.join(", ")}`,
    );
    Deno.exit(64);
  }
  const targets = named.length > 0 ? named : [...RELEASE_TARGETS];
  const out = resolve(option("--out") ?? join(ROOT, "dist", "release"));
  const formula = resolve(option("--formula") ?? join(ROOT, "Formula", "wisp.rb"));
  const native = option("--native");
  const standIn = option("--stand-in-binary");
  const info: BuildInfo = { kind: "release" };
  const plan = targets.map((target) => {
    const name = archiveName(VERSION, target);
    return {
      target,
      folder: join(out, name),
      archive: join(out, `${name}.tar.gz`),
      command: [Deno.execPath(), ...compileArgs({ target, output: join(out, name, "wisp") })],
    };
  });
  if (dryRun) {
    console.log(
      JSON.stringify({ buildInfo: info, version: VERSION, formula, targets: plan }, null, 2),
    );
    return;
  }
  const nodes = completionTree(buildProgram());
  const hashes: Record<string, string> = {};
  const sums: string[] = [];
  for (const step of plan) {
    Deno.mkdirSync(out, { recursive: true });
    try {
      Deno.removeSync(step.folder, { recursive: true });
    } catch { /* a first build */ }
    Deno.mkdirSync(join(step.folder, "completions"), { recursive: true });
    const binary = join(step.folder, "wisp");
    if (standIn) {
      Deno.copyFileSync(standIn, binary);
      Deno.chmodSync(binary, 0o755);
    } else {
      const code = await compile(info, step.command.slice(1));
      if (code !== 0) fail(`deno compile failed for ${step.target}; see its message above`);
    }
    const darwin = step.target.endsWith("-apple-darwin");
    if (native && darwin) {
      try {
        Deno.copyFileSync(join(native, NATIVE_LIBRARY), join(step.folder, NATIVE_LIBRARY));
      } catch {
        fail(`--native names ${native}, which has no readable ${NATIVE_LIBRARY}`);
      }
    }
    for (const [shell, file] of Object.entries(COMPLETION_FILES)) {
      Deno.writeTextFileSync(
        join(step.folder, file),
        completionScript(shell as Shell, nodes, VERSION),
        { mode: 0o644 },
      );
    }
    const tar = await new Deno.Command("tar", {
      args: ["-czf", step.archive, "-C", out, basename(step.folder)],
      stdin: "null",
    }).output();
    if (!tar.success) {
      fail(`tar could not pack ${step.folder}: ${new TextDecoder().decode(tar.stderr).trim()}`);
    }
    hashes[step.target] = await sha256File(step.archive);
    sums.push(`${hashes[step.target]}  ${basename(step.archive)}`);
    console.log(`${basename(step.archive)}  ${hashes[step.target]}`);
  }
  Deno.writeTextFileSync(join(out, "SHA256SUMS"), sums.join("\n") + "\n");
  let text: string;
  try {
    text = Deno.readTextFileSync(formula);
  } catch {
    fail(`cannot read the formula at ${formula}`);
  }
  try {
    Deno.writeTextFileSync(formula, updateFormula(text, VERSION, hashes));
  } catch (error) {
    fail(`${(error as Error).message} (${formula}); it was left as it was`);
  }
  console.log(`wrote ${join(out, "SHA256SUMS")} and the hashes into ${formula}`);
}

if (import.meta.main) {
  const dryRun = Deno.args.includes("--dry-run");
  if (Deno.args.includes("--release")) {
    await release(dryRun);
    Deno.exit(0);
  }
  const output = option("--output") ?? join(ROOT, "dist", "wisp");
  const state = readGitState(ROOT);
  const info: BuildInfo = { kind: "dev", commit: state?.commit, modified: state?.modified };
  const args = compileArgs({ target: option("--target"), output });
  if (dryRun) {
    console.log(JSON.stringify({ buildInfo: info, command: [Deno.execPath(), ...args] }, null, 2));
    Deno.exit(0);
  }
  const code = await compile(info, args);
  if (code !== 0) console.error("error: deno compile failed; see its message above");
  Deno.exit(code);
}

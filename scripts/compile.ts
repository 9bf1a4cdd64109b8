/**
 * `deno task compile [--release] [--target T] [--output PATH] [--dry-run]`:
 * builds the single wisp binary under exactly the permission set the tests
 * and `deno task wisp` run under (deno.json "permissions.wisp", passed as
 * -P=wisp). It records what build this is in src/build_info.ts for the
 * duration of the build and restores the file afterwards.
 *
 * `deno compile` downloads its runtime (denort) on first use, which some
 * build machines cannot reach; --dry-run prints what would run instead.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readGitState } from "../src/util/gitstate.ts";
import type { BuildInfo } from "../src/build_info.ts";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

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

function option(name: string): string | undefined {
  const index = Deno.args.indexOf(name);
  return index >= 0 ? Deno.args[index + 1] : undefined;
}

if (import.meta.main) {
  const release = Deno.args.includes("--release");
  const dryRun = Deno.args.includes("--dry-run");
  const output = option("--output") ?? join(ROOT, "dist", "wisp");
  const state = readGitState(ROOT);
  const info: BuildInfo = release
    ? { kind: "release" }
    : { kind: "dev", commit: state?.commit, modified: state?.modified };
  const args = compileArgs({ target: option("--target"), output });
  if (dryRun) {
    console.log(JSON.stringify({ buildInfo: info, command: [Deno.execPath(), ...args] }, null, 2));
    Deno.exit(0);
  }
  const buildInfoPath = join(ROOT, "src", "build_info.ts");
  const original = Deno.readTextFileSync(buildInfoPath);
  let code = 1;
  try {
    Deno.writeTextFileSync(buildInfoPath, buildInfoSource(info));
    code = (await new Deno.Command(Deno.execPath(), { args, stdin: "null" }).spawn().status).code;
  } finally {
    Deno.writeTextFileSync(buildInfoPath, original);
  }
  if (code !== 0) console.error("error: deno compile failed; see its message above");
  Deno.exit(code);
}

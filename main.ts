/**
 * wisp's entry point: parse argv, pick a face, map errors to exit codes.
 *
 * `--version` is answered before the command tree loads. The tree is imported
 * through a computed specifier on purpose: Deno prepares every module a
 * literal import names, npm packages included, before running anything, and
 * that alone would double the cost of `wisp --version`. `deno task compile`
 * names the tree with --include so the binary still carries it
 * (docs/adr/0004-start-up-budget.md).
 */
const COMMAND_TREE = "./src/cli/" + "run.ts";

if (import.meta.main) {
  const args = Deno.args;
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    const { versionString } = await import("./src/cli/version.ts");
    console.log(versionString());
    Deno.exit(0);
  }
  const { runCli } = await import(COMMAND_TREE) as typeof import("./src/cli/run.ts");
  Deno.exit(await runCli(args));
}

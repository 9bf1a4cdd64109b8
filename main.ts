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
/**
 * The command lines read ahead of the tree (`wisp config`, `wisp sandbox -- …`), which then
 * load no commander (docs/adr/0641-light-commands-ahead-of-the-command-tree.md).
 */
const QUICK_FORMS = "./src/cli/" + "quick.ts";

if (import.meta.main) {
  const args = Deno.args;
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    const { versionString } = await import("./src/cli/version.ts");
    console.log(versionString());
    Deno.exit(0);
  }
  const { runQuick } = await import(QUICK_FORMS) as typeof import("./src/cli/quick.ts");
  const quick = await runQuick(args);
  if (quick !== undefined) Deno.exit(quick);
  const { runCli } = await import(COMMAND_TREE) as typeof import("./src/cli/run.ts");
  Deno.exit(await runCli(args));
}

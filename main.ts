/**
 * wisp's entry point: parse argv, pick a face, map errors to exit codes.
 * `--version` is answered before the command tree loads, so that it costs
 * little more than starting the runtime.
 */
if (import.meta.main) {
  const args = Deno.args;
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    const { versionString } = await import("./src/cli/version.ts");
    console.log(versionString());
    Deno.exit(0);
  }
  const { runCli } = await import("./src/cli/run.ts");
  Deno.exit(await runCli(args));
}

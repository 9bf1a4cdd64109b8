/**
 * wisp's entry point: parse argv, pick a face, map errors to exit codes.
 * Everything else lives under src/ (see docs/architecture.md).
 */
import { runCli } from "./src/cli/run.ts";

if (import.meta.main) {
  const code = await runCli(Deno.args);
  Deno.exit(code);
}

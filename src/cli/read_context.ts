/**
 * What the commands that only read settings start from (`wisp config show|
 * get|list`, `wisp sandbox`): the same paths and config as context.ts's
 * loadContext, read through src/config/read.ts, so a plain config.json loads
 * neither jsonc-parser nor zod (docs/adr/0640-config-read-without-npm.md).
 */
import { homePaths } from "../config/home.ts";
import { readConfig } from "../config/read.ts";
import { log } from "../util/log.ts";
import type { CliContext } from "./context.ts";

/** The home's paths and its config, as loadContext gives them. */
export async function readContext(): Promise<CliContext> {
  const paths = homePaths();
  const loaded = await readConfig(paths.config);
  log(
    "debug",
    () =>
      `home ${paths.root}; config ${paths.config} ${
        loaded.exists ? "read" : "absent, defaults used"
      }`,
  );
  return { paths, loaded, config: loaded.config };
}

/**
 * What the commands that only read settings start from (`wisp config show|
 * get|list`, `wisp sandbox`): the same paths and config as context.ts's
 * loadContext, read through src/config/read.ts, so a plain config.json loads
 * neither jsonc-parser nor zod (docs/adr/0640-config-read-without-npm.md).
 */
import { type HomePaths, homePaths } from "../config/home.ts";
import type { LoadedConfig } from "../config/read.ts";
import { readConfig } from "../config/read.ts";
import { log } from "../util/log.ts";
import type { CliContext } from "./context.ts";

/** The home's paths and its config, as loadContext gives them. */
export async function readContext(): Promise<CliContext> {
  const paths = homePaths();
  return contextFrom(paths, await readConfig(paths.config));
}

/** The context of a home and its loaded config, as both readers give it; says where in debug. */
export function contextFrom(paths: HomePaths, loaded: LoadedConfig): CliContext {
  log(
    "debug",
    () =>
      `home ${paths.root}; config ${paths.config} ${
        loaded.exists ? "read" : "absent, defaults used"
      }`,
  );
  return { paths, loaded, config: loaded.config };
}

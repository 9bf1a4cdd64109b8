/**
 * What most subcommands start from: wisp's home paths, the loaded config, and
 * (for commands that write) the audit log. Reading never creates the home.
 */
import { type HomePaths, homePaths } from "../config/home.ts";
import { loadConfig, type LoadedConfig } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import { log } from "../util/log.ts";

export interface CliContext {
  paths: HomePaths;
  loaded: LoadedConfig;
  config: Config;
}

export function loadContext(): CliContext {
  const paths = homePaths();
  const loaded = loadConfig(paths.config);
  log(
    "debug",
    () =>
      `home ${paths.root}; config ${paths.config} ${
        loaded.exists ? "read" : "absent, defaults used"
      }`,
  );
  return { paths, loaded, config: loaded.config };
}

export { commitConfigChange, type ConfigChangeSource } from "../audit/config_change.ts";

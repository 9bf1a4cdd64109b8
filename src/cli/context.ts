/**
 * What most subcommands start from: wisp's home paths, the loaded config, and
 * (for commands that write) the audit log. Reading never creates the home.
 */
import { type HomePaths, homePaths } from "../config/home.ts";
import { loadConfig, type LoadedConfig } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import { contextFrom } from "./read_context.ts";

export interface CliContext {
  paths: HomePaths;
  loaded: LoadedConfig;
  config: Config;
}

export function loadContext(): CliContext {
  const paths = homePaths();
  return contextFrom(paths, loadConfig(paths.config));
}

export { commitConfigChange, type ConfigChangeSource } from "../audit/config_change.ts";

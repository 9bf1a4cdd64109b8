/**
 * What most subcommands start from: wisp's home paths, the loaded config, and
 * (for commands that write) the audit log. Reading never creates the home.
 */
import { ensureHome, type HomePaths, homePaths } from "../config/home.ts";
import { loadConfig, type LoadedConfig } from "../config/load.ts";
import { AuditLog } from "../audit/writer.ts";
import type { Config } from "../config/schema.ts";

export interface CliContext {
  paths: HomePaths;
  loaded: LoadedConfig;
  config: Config;
}

export function loadContext(): CliContext {
  const paths = homePaths();
  const loaded = loadConfig(paths.config);
  return { paths, loaded, config: loaded.config };
}

/** Open the audit log for a command that writes; creates the home (0700). */
export function openAudit(paths: HomePaths, config: Config, session?: string): AuditLog {
  if (config.audit.enabled) ensureHome(paths, paths.logs);
  return new AuditLog({
    path: paths.auditLog,
    enabled: config.audit.enabled,
    maxBytes: config.audit.maxBytes,
    keep: config.audit.keep,
    session,
  });
}

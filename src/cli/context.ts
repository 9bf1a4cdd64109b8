/**
 * What most subcommands start from: wisp's home paths, the loaded config, and
 * (for commands that write) the audit log. Reading never creates the home.
 */
import { ensureHome, type HomePaths, homePaths } from "../config/home.ts";
import { loadConfig, type LoadedConfig } from "../config/load.ts";
import { AuditLog } from "../audit/writer.ts";
import type { Config } from "../config/schema.ts";
import { type ConfigChange, prepareConfig } from "../config/edit.ts";
import type { PreparedFile } from "../util/atomic.ts";
import { messageOf, WispError } from "../util/errors.ts";
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

/** Where a config change came from, as config.change records it. */
export type ConfigChangeSource = "cli" | "chat" | "tui" | "models";

/**
 * Make a planned config change (config/edit.ts). The new file is written
 * beside the old one first; then its config.change event is recorded; only
 * then does the new file replace the old. When the event cannot be written
 * the change is not made, so turning the audit off is itself audited
 * (docs/adr/0223-config-changes-audited-before-they-apply.md).
 */
export function commitConfigChange(
  paths: HomePaths,
  plan: ConfigChange,
  source: ConfigChangeSource,
): void {
  const notChanged = (error: unknown): never => {
    throw new WispError(`${messageOf(error)}; ${plan.key} was not changed`);
  };
  try {
    ensureHome(paths);
  } catch (error) {
    notChanged(error);
  }
  let prepared: PreparedFile | undefined;
  try {
    prepared = prepareConfig(paths.config, plan.text);
    // The log the change is recorded in: the one in force before it, or the one it turns on.
    const settings = plan.auditBefore.enabled ? plan.auditBefore : plan.config.audit;
    if (settings.enabled) {
      const audit = AuditLog.open(paths, settings);
      try {
        audit.record("config.change", {
          key: plan.key,
          from: plan.from,
          to: plan.to,
          source,
          ...(plan.weakens ? { weakens: true } : {}),
        });
      } finally {
        audit.close();
      }
    }
  } catch (error) {
    prepared?.abort();
    notChanged(error);
  }
  try {
    prepared!.commit();
  } catch (error) {
    notChanged(error);
  }
}

/**
 * The one way a planned config change (config/edit.ts) is made: the new file
 * is written beside the old one first; then its config.change event is
 * recorded; only then does the new file replace the old. When the event
 * cannot be written the change is not made, so turning the audit off is
 * itself audited (docs/adr/0223-config-changes-audited-before-they-apply.md).
 */
import { ensureHome, type HomePaths } from "../config/home.ts";
import { type ConfigChange, prepareConfig } from "../config/edit.ts";
import { AuditLog, type AuditSink } from "./writer.ts";
import type { PreparedFile } from "../util/atomic.ts";
import { messageOf, WispError } from "../util/errors.ts";

/** Where a config change came from, as config.change records it. */
export type ConfigChangeSource = "cli" | "chat" | "tui" | "models" | "tool";

/** Where the change is recorded, when not in a log of its own. */
export interface CommitOptions {
  /**
   * The conversation's audit (a tool's change): the event joins its session
   * and turn. Absent: a log is opened for this one event.
   */
  audit?: AuditSink;
  /** The approval request the person approved the change in (a change the model asked for). */
  approval?: string;
}

/** Make a planned config change, audited before it applies; throws a sentence when it cannot. */
export function commitConfigChange(
  paths: HomePaths,
  plan: ConfigChange,
  source: ConfigChangeSource,
  options: CommitOptions = {},
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
      const fields = {
        key: plan.key,
        from: plan.from,
        to: plan.to,
        source,
        ...(plan.weakens ? { weakens: true } : {}),
        ...(options.approval ? { approval: options.approval } : {}),
      };
      if (options.audit) options.audit.record("config.change", fields);
      else {
        const audit = AuditLog.open(paths, settings);
        try {
          audit.record("config.change", fields);
        } finally {
          audit.close();
        }
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

/**
 * The audit log for `wisp scan` and `wisp redact`, opened from the config as
 * the other commands open it. Their events carry kinds and counts only.
 */
import { AuditLog } from "../audit/writer.ts";
import { ensureHome, homePaths } from "../config/home.ts";
import { loadConfig } from "../config/load.ts";

export function openAudit(face: "scan" | "redact"): AuditLog {
  const paths = homePaths();
  const { config } = loadConfig(paths.config);
  if (config.audit.enabled) ensureHome(paths);
  const audit = new AuditLog({
    path: paths.auditLog,
    enabled: config.audit.enabled,
    maxBytes: config.audit.maxBytes,
    keep: config.audit.keep,
  });
  audit.record("session.start", { face, pid: Deno.pid, cwd: Deno.cwd() });
  return audit;
}

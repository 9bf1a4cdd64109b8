/**
 * The audit log for `wisp scan` and `wisp redact`, opened from the config as
 * the other commands open it. Their events carry kinds and counts only.
 * A scan records an event per file, so it writes them in batches (ADR 0690).
 */
import { AuditLog } from "../audit/writer.ts";
import { homePaths } from "../config/home.ts";
import { readConfig } from "../config/read.ts";

/**
 * The audit log a scan or a redaction writes to, its session started. The config is read the
 * light way (ADR 0640): jsonc-parser and zod load only for a file the quick reader is unsure of.
 */
export async function scanAudit(face: "scan" | "redact"): Promise<AuditLog> {
  const paths = homePaths();
  const { config } = await readConfig(paths.config);
  const audit = AuditLog.open(paths, config.audit);
  audit.record("session.start", { face, pid: Deno.pid, cwd: Deno.cwd() });
  // One write per file of a tree was a system call each; the scan closes the log, which writes
  // what is held.
  if (face === "scan") audit.holdWrites();
  return audit;
}

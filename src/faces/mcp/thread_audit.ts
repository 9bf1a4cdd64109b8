/**
 * The audit log of a `wisp mcp` server: every event recorded inside a
 * thread's turn names the thread (and its turn), which the thread's
 * resources and receipts read. Apart from the engine so the server can open
 * it at start without loading the turn loop.
 */
import type { AuditEvent, AuditFields, AuditKind } from "../../audit/catalogue.ts";
import { AuditLog, type AuditOptions } from "../../audit/writer.ts";
import { turnScope } from "./approval_host.ts";

/** The audit log of a server: each event recorded inside a thread's turn names the thread. */
export class ThreadAwareAuditLog extends AuditLog {
  constructor(options: AuditOptions) {
    super(options);
  }

  override record<K extends AuditKind>(kind: K, fields: AuditFields<K>): AuditEvent {
    const scope = turnScope.getStore();
    if (!scope) return super.record(kind, fields);
    return super.record(kind, {
      ...fields,
      thread: scope.thread,
      ...(scope.turn !== undefined ? { threadTurn: scope.turn } : {}),
    } as AuditFields<K>);
  }
}

/**
 * A turn's view of the session's audit log: every event recorded through it
 * goes to the one log (the session's AuditLog) with the turn's id added, and
 * is kept in the turn's own list. Receipts (`ran:`) and verification count
 * from that list, so turns running at once on one session (MCP threads)
 * never see each other's calls.
 */
import type { AuditEvent, AuditFields, AuditKind } from "../audit/catalogue.ts";
import type { AuditSink } from "../audit/writer.ts";

/** The most events a turn keeps for its receipts; a turn past this is still audited in full. */
export const TURN_EVENTS_MAX = 10_000;

export class TurnAudit implements AuditSink {
  readonly events: AuditEvent[] = [];
  #dropped = 0;

  constructor(readonly log: AuditSink, readonly turnId: string) {}

  get session(): string {
    return this.log.session;
  }

  /** Events not kept for receipts because the turn passed TURN_EVENTS_MAX. */
  get dropped(): number {
    return this.#dropped;
  }

  record<K extends AuditKind>(kind: K, fields: AuditFields<K>): AuditEvent {
    const event = this.log.record(kind, { ...fields, turn: this.turnId } as AuditFields<K>);
    if (this.events.length < TURN_EVENTS_MAX) this.events.push(event);
    else this.#dropped++;
    return event;
  }
}

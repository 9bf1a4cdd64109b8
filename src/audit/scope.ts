/**
 * Audit scopes: what events belong to (a turn, an MCP thread and its turn).
 * An event recorded through a scope, or on its log inside the scope's `run`
 * — in its async calls too, whoever records it — carries the scope's fields
 * and is kept in the scope's list, which the turn's receipt reads. Turns
 * running at once on one log never see each other's events.
 *
 * The scopes a caller runs inside follow its async calls through
 * node:async_hooks' AsyncLocalStorage. It lives here, apart from the writer,
 * because its first load starts Deno's Node compatibility layer: a process
 * that records events but never scopes them (`wisp sandbox`) does not pay for
 * it. Loading this module tells the writer where to read the active scopes
 * (docs/adr/0680).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { type AuditLog, type AuditSink, readScopesFrom } from "./writer.ts";
import type { AuditEvent, AuditFields, AuditKind } from "./catalogue.ts";

/** The most events a scope keeps in its list; past it, events are still recorded and counted. */
const SCOPE_EVENTS_MAX = 10_000;

const activeScopes = new AsyncLocalStorage<readonly AuditScope[]>();
readScopesFrom(() => activeScopes.getStore() ?? []);

/**
 * What events belong to: a turn (and an MCP thread). Recording through the
 * scope, or on its log inside `run`, adds the scope's fields to the event
 * and keeps the event in the scope's list.
 */
export class AuditScope implements AuditSink {
  /** The events recorded in this scope, in order (up to SCOPE_EVENTS_MAX). */
  readonly events: AuditEvent[] = [];
  #dropped = 0;

  constructor(readonly log: AuditLog, readonly fields: Readonly<Record<string, unknown>>) {}

  get session(): string {
    return this.log.session;
  }

  /** Events recorded but not kept in `events` because the scope passed SCOPE_EVENTS_MAX. */
  get dropped(): number {
    return this.#dropped;
  }

  record<K extends AuditKind>(kind: K, fields: AuditFields<K>): AuditEvent {
    return this.log.recordIn(kind, fields, this);
  }

  /** Run `work` with every event its log records meanwhile — in its async calls too — in this scope. */
  run<T>(work: () => T): T {
    const outer = activeScopes.getStore() ?? [];
    return activeScopes.run(outer.includes(this) ? outer : [...outer, this], work);
  }

  scopeFields(): Record<string, unknown> {
    return { ...this.log.scopeFields(), ...this.fields };
  }

  /** Called by the log for each event recorded in this scope. */
  keep(event: AuditEvent): void {
    if (this.events.length < SCOPE_EVENTS_MAX) this.events.push(event);
    else this.#dropped++;
  }
}

/** A scope of `log` whose events carry `fields` (see AuditScope). */
export function openScope(log: AuditLog, fields: Record<string, unknown>): AuditScope {
  return new AuditScope(log, fields);
}

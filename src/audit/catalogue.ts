/**
 * The audit event catalogue: every kind wisp writes, with the fields it must
 * carry. Each event line also has the envelope fields (ts, session, seq, id,
 * kind, version), added by the writer. Schemas are loose: an event may carry
 * more fields than listed, but never fewer. Later work adds its kinds here.
 */
import { z } from "zod";

const origin = z.enum([
  "model",
  "person",
  "custom_tool",
  "triage",
  "watch",
  "draft",
  "sandbox",
  "system",
]);
const level = z.enum(["safe", "moderate", "dangerous"]);

export const AUDIT_CATALOGUE = {
  /** A process opened an audit session (one per command line or MCP server). */
  "session.start": z.looseObject({
    face: z.string(),
    pid: z.number().int(),
    cwd: z.string(),
    argv: z.array(z.string()).optional(),
  }),
  /** A setting changed through `wisp config set|unset` or another face. */
  "config.change": z.looseObject({
    key: z.string(),
    from: z.unknown().optional(),
    to: z.unknown().optional(),
    source: z.enum(["cli", "chat", "tui", "models"]),
    weakens: z.boolean().optional(),
  }),
  "policy.decision": z.looseObject({
    command: z.string(),
    decision: z.enum(["allow", "deny"]),
    reason: z.string().optional(),
    origin: origin.optional(),
  }),
  "classifier.verdict": z.looseObject({
    command: z.string(),
    level,
    classifier: z.string(),
    reasons: z.array(z.string()).optional(),
  }),
  "approval.requested": z.looseObject({ command: z.string(), level }),
  "approval.decided": z.looseObject({
    command: z.string(),
    decision: z.string(),
    scope: z.string().optional(),
    pattern: z.string().optional(),
  }),
  "approval.pending": z.looseObject({ id: z.string().optional(), command: z.string() }),
  "approval.answered": z.looseObject({ command: z.string().optional(), decision: z.string() }),
  "command.outcome": z.looseObject({
    command: z.string(),
    exitStatus: z.number().int().nullable().optional(),
    origin: origin.optional(),
  }),
  "command.typed": z.looseObject({ command: z.string() }),
  "tool.call": z.looseObject({ tool: z.string(), arguments: z.unknown() }),
  "tool.result": z.looseObject({ tool: z.string(), ok: z.boolean().optional() }),
  /** edit_file changed a file (the content is in the tool.call's arguments). */
  "file.write": z.looseObject({
    path: z.string(),
    mode: z.enum(["write", "append", "replace"]),
    created: z.boolean(),
    bytesBefore: z.number().int(),
    bytesAfter: z.number().int(),
  }),
  prompt: z.looseObject({ text: z.string() }),
  response: z.looseObject({ text: z.string() }),
  "turn.stopped": z.looseObject({}),
  "model.fallback": z.looseObject({ from: z.string(), to: z.string() }),
  notification: z.looseObject({ route: z.string().nullable().optional() }),
  "secrets.scan": z.looseObject({ counts: z.record(z.string(), z.number()) }),
  redaction: z.looseObject({ counts: z.record(z.string(), z.number()) }),
  triage: z.looseObject({}),
} as const;

export type AuditKind = keyof typeof AUDIT_CATALOGUE;
export type AuditFields<K extends AuditKind> = z.input<(typeof AUDIT_CATALOGUE)[K]>;

export const AUDIT_KINDS = Object.keys(AUDIT_CATALOGUE) as AuditKind[];

export function isAuditKind(kind: string): kind is AuditKind {
  return Object.hasOwn(AUDIT_CATALOGUE, kind);
}

/** The envelope every line carries, whatever its kind. */
export interface AuditEnvelope {
  ts: string;
  session: string;
  seq: number;
  id: string;
  kind: string;
  version: string;
}

export type AuditEvent = AuditEnvelope & Record<string, unknown>;

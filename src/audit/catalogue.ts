/**
 * The audit event catalogue: every kind wisp writes, with the fields it must
 * carry. Each event line also has the envelope fields (ts, session, seq, id,
 * kind, version), added by the writer. Schemas are loose: an event may carry
 * more fields than listed, but never fewer. Later work adds its kinds here.
 */
// The catalogue is spelt with zod's names but checked without zod (fields.ts, ADR 0642).
import * as z from "./fields.ts";

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
    source: z.enum(["cli", "chat", "tui", "models", "tool"]),
    /** The approval request a change the model asked for was approved by (source tool). */
    approval: z.string().optional(),
    weakens: z.boolean().optional(),
  }),
  "policy.decision": z.looseObject({
    command: z.string(),
    decision: z.enum(["allow", "deny"]),
    reason: z.string().optional(),
    origin: origin.optional(),
    /** Which built-in rule or list refused it (privilege, rm-root, wisp-home, deny-pattern, …). */
    rule: z.string().optional(),
    outsideSandbox: z.boolean().optional(),
    cwd: z.string().optional(),
  }),
  "classifier.verdict": z.looseObject({
    command: z.string(),
    level,
    classifier: z.string(),
    reasons: z.array(z.string()).optional(),
    /** The whole line the part belongs to. */
    line: z.string().optional(),
    pattern: z.string().optional(),
    readOnly: z.boolean().optional(),
    seconds: z.number().optional(),
    /** Who judged it: rules (no second classifier asked), model, or trained. */
    by: z.enum(["rules", "model", "trained"]).optional(),
    /** The second classifier could not judge; the part was taken as at least moderate. */
    failed: z.boolean().optional(),
    /** The answer came from the session's cache. */
    cached: z.boolean().optional(),
    /** The model (ollama:…) or the trained version (risk@…) that judged it. */
    source: z.string().optional(),
  }),
  /** `wisp classifier train` made a new version of the trained risk classifier. */
  "classifier.train": z.looseObject({
    /** The new version (risk@X.Y.Z-local.<n>); `version` is the envelope's wisp version. */
    classifierVersion: z.string(),
    examples: z.number().int(),
    fromAudit: z.number().int().optional(),
    excluded: z.number().int().optional(),
    sources: z.array(z.string()).optional(),
    use: z.boolean().optional(),
  }),
  "approval.requested": z.looseObject({
    command: z.string(),
    level,
    line: z.string().optional(),
    cwd: z.string().optional(),
    pattern: z.string().optional(),
    reasons: z.array(z.string()).optional(),
    outsideSandbox: z.boolean().optional(),
    requestId: z.string().optional(),
    rememberable: z.array(z.string()).optional(),
  }),
  "approval.decided": z.looseObject({
    command: z.string(),
    decision: z.string(),
    scope: z.string().optional(),
    pattern: z.string().optional(),
    level: level.optional(),
    /** remembered, person, yes, no-host, timeout, aborted, error. */
    by: z.string().optional(),
    requestId: z.string().optional(),
    approvalId: z.string().optional(),
    outsideSandbox: z.boolean().optional(),
    line: z.string().optional(),
    reason: z.string().optional(),
  }),
  "approval.pending": z.looseObject({ id: z.string().optional(), command: z.string() }),
  "approval.answered": z.looseObject({ command: z.string().optional(), decision: z.string() }),
  /** A running server dropped an approval it held, at `wisp approvals revoke`. */
  "approval.revoked": z.looseObject({ approvalId: z.string(), pattern: z.string().optional() }),
  /** The model asked the person a question (the ask tool). */
  "inquiry.asked": z.looseObject({ inquiryId: z.string(), question: z.string() }),
  /** A question filed for a person elsewhere (wisp mcp): answered with wisp questions. */
  "inquiry.pending": z.looseObject({ inquiryId: z.string(), pendingId: z.string() }),
  /** What became of a question: answered, none-of-these, declined, timeout, no-person. */
  "inquiry.settled": z.looseObject({ inquiryId: z.string().optional(), outcome: z.string() }),
  /** A person's answer to a question waiting in wisp mcp, by the face that sent it. */
  "inquiry.answered": z.looseObject({ decision: z.string() }),
  "command.outcome": z.looseObject({
    command: z.string(),
    exitStatus: z.number().int().nullable().optional(),
    origin: origin.optional(),
    // the runner's fields (src/exec/runner.ts)
    signal: z.string().optional(),
    timedOut: z.boolean().optional(),
    stopped: z.boolean().optional(),
    durationMs: z.number().nonnegative().optional(),
    stdoutBytes: z.number().int().nonnegative().optional(),
    stderrBytes: z.number().int().nonnegative().optional(),
    stored: z.string().optional(),
    timeoutSource: z.enum(["call", "thread", "default"]).optional(),
    timeoutSeconds: z.number().nonnegative().optional(),
    timeoutClamped: z.boolean().optional(),
    sandbox: z.enum(["confined", "off", "outside", "nested"]).optional(),
    sandboxRefusal: z.enum(["refused", "guess"]).optional(),
    nested: z.boolean().optional(),
    outsideSandbox: z.boolean().optional(),
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
  /** A turn began: the person's (or caller's) message verbatim, the model, the tools offered. */
  prompt: z.looseObject({
    text: z.string(),
    model: z.string().optional(),
    tools: z.array(z.string()).optional(),
  }),
  /** One model response of a turn, verbatim, with the calls it asked for (a turn has one per request). */
  response: z.looseObject({
    text: z.string(),
    model: z.string().optional(),
    round: z.number().int().optional(),
    finishReason: z.enum(["stop", "length", "tool_calls"]).optional(),
    toolCalls: z.array(z.looseObject({ name: z.string() })).optional(),
    seconds: z.number().optional(),
  }),
  "turn.stopped": z.looseObject({ reason: z.string().optional() }),
  /**
   * A conversation was condensed to fit its model's window: why (the
   * threshold, or the server refused a request as too long), the tokens
   * before and after, the outputs shown as references and the turns dropped
   * into the running summary (the new summary verbatim).
   */
  /** A call of the memory tool: the request and what it did (recall, summarise, condense, note, task). */
  "context.memory": z.looseObject({
    request: z.string(),
    verb: z.string(),
  }),
  "context.condensed": z.looseObject({
    reason: z.enum(["threshold", "overflow"]),
    beforeTokens: z.number().int().nonnegative(),
    afterTokens: z.number().int().nonnegative(),
    window: z.number().int().positive(),
    referenced: z.array(z.number().int()),
    droppedTurns: z.array(z.number().int()),
    summary: z.string().optional(),
    summaryBy: z.enum(["model", "exact"]).optional(),
  }),
  "model.fallback": z.looseObject({ from: z.string(), to: z.string() }),
  /** A chat front end's hello: the host effects it carries (wisp chat --json). */
  "host.hello": z.looseObject({ effects: z.array(z.string()) }),
  /** `wisp models check` asked a model its questions: the capabilities that passed and failed. */
  "model.verified": z.looseObject({
    model: z.string(),
    passed: z.array(z.string()),
    failed: z.array(z.string()),
  }),
  /** `wisp models pull` fetched (or found, or refused) a model. */
  "model.pull": z.looseObject({
    model: z.string(),
    outcome: z.enum(["pulled", "cached", "linked", "refused", "failed", "interrupted"]),
    bytes: z.number().optional(),
  }),
  notification: z.looseObject({ route: z.string().nullable().optional() }),
  /** One input scanned by `wisp scan` or scan_secrets: kinds and counts, never values. */
  "secrets.scan": z.looseObject({
    counts: z.record(z.string(), z.number()),
    total: z.number().int().optional(),
    source: z.enum(["cli", "mcp"]).optional(),
    input: z.enum(["file", "stdin", "text"]).optional(),
    path: z.string().optional(),
    diff: z.boolean().optional(),
    binary: z.boolean().optional(),
    personal: z.boolean().optional(),
    /** Findings on a diff's removed lines (`leaked in history`), when there were any. */
    history: z.number().int().optional(),
    /** Findings left out as already judged (ignore file or `--baseline`), when there were any. */
    known: z.number().int().optional(),
  }),
  /** One input redacted by `wisp redact` or the redact tool: counts replaced per kind. */
  redaction: z.looseObject({
    counts: z.record(z.string(), z.number()),
    source: z.enum(["cli", "mcp"]).optional(),
    input: z.enum(["file", "stdin", "text"]).optional(),
    path: z.string().optional(),
    binary: z.boolean().optional(),
    personal: z.boolean().optional(),
  }),
  /** One run of `wisp watch`'s command: why it ran, how it ended, and the outcome before it. */
  "watch.run": z.looseObject({
    command: z.string(),
    run: z.number().int(),
    reason: z.enum(["start", "change", "every"]),
    pass: z.boolean(),
    exitStatus: z.number().int().nullable(),
    durationMs: z.number(),
    was: z.enum(["pass", "fail"]).optional(),
  }),
  /** A fact entered a conversation's book (src/context/facts/book.ts). */
  "fact.recorded": z.looseObject({
    factId: z.string(),
    subject: z.string(),
    name: z.string(),
    value: z.string(),
    class: z.enum(["permanent", "dynamic", "ephemeral"]),
    /** Who said it (person, caller, tool, model) and how (stated, observed, noted, distilled, kept). */
    by: z.string(),
    method: z.string(),
    /** The fact's source as its line reads ("from tool run_command, turn 2, entry 9"). */
    source: z.string(),
    /** The version it replaced, when it replaced one. */
    supersedes: z.string().optional(),
    /** A lower-ranked value recorded beside a higher one, which stays current. */
    outranked: z.boolean().optional(),
  }),
  /** The distiller ran on dropped turns: how many facts it gave, or why its reply was refused. */
  "fact.distilled": z.looseObject({
    model: z.string(),
    recorded: z.number().int().nonnegative(),
    refused: z.string().optional(),
    /** The first dropped turn it read (`turn` is the session's tag: the running turn's id). */
    fromTurn: z.number().int().optional(),
  }),
  /** An MCP caller asked the person to keep a thread's fact as a permanent fact. */
  "fact.pending": z.looseObject({
    pendingId: z.string(),
    factId: z.string(),
    thread: z.string(),
    client: z.string().optional(),
    fact: z.string(),
  }),
  /** A fact was admitted to wisp's home (facts.json) as the person's. */
  "fact.kept": z.looseObject({
    fact: z.string(),
    permanentId: z.string(),
    /** Who admitted it: a terminal (wisp facts keep), the server for a closed thread, … */
    by: z.string(),
    pendingId: z.string().optional(),
    thread: z.string().optional(),
  }),
  /** The person declined to keep a fact (wisp facts drop); it stays in its thread. */
  "fact.dropped": z.looseObject({
    fact: z.string(),
    by: z.string(),
    pendingId: z.string().optional(),
    thread: z.string().optional(),
  }),
  /** An answer to a fact waiting to be kept was refused (not wisp facts keep|drop at a terminal of its own, …). */
  "fact.answer_refused": z.looseObject({
    pendingId: z.string(),
    reason: z.string(),
    /** The process the kernel named as the socket's peer. */
    answererPid: z.number().int(),
    thread: z.string().optional(),
  }),
  /** An MCP caller set a fact's scope (set_fact_scope), with what came of it. */
  "fact.scope": z.looseObject({
    thread: z.string(),
    factId: z.string().optional(),
    scope: z.enum(["thread", "permanent"]),
    result: z.string(),
  }),
  /** One triage, at its end: what was read, the headline, counts; never the output itself. */
  triage: z.looseObject({
    source: z.enum(["command", "path", "stdin", "text"]),
    command: z.string().optional(),
    path: z.string().optional(),
    exitStatus: z.number().int().nullable().optional(),
    bytes: z.number().int(),
    headline: z.string(),
    counts: z.record(z.string(), z.number()),
    heldBack: z.number().int(),
    readers: z.array(z.string()),
    chunksUnexplained: z.number().int(),
    chunksJudged: z.number().int(),
    model: z.string().nullable(),
  }),
} as const;

export type AuditKind = keyof typeof AUDIT_CATALOGUE;
export type AuditFields<K extends AuditKind> = z.input<(typeof AUDIT_CATALOGUE)[K]>;

export const AUDIT_KINDS = Object.keys(AUDIT_CATALOGUE) as AuditKind[];

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

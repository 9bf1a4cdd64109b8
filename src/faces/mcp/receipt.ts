/**
 * The receipt a respond result carries in structuredContent: what the turn
 * did, read from its audit events (never from the reply), so a calling
 * agent can check a reply before trusting it. Pure.
 */
import { z } from "zod";
import type { AuditEvent } from "../../audit/catalogue.ts";
import type { TurnCall } from "../../audit/calls.ts";
import { type Claim, unsupportedLine } from "../../agent/verify.ts";
import { byteLength } from "../../util/bytes.ts";

/** A call's output is given inline up to this many bytes; above, by reference. */
const INLINE_OUTPUT_BYTES = 2048;

const receiptCall = z.object({
  id: z.string(),
  tool: z.string(),
  arguments: z.unknown(),
  outcome: z.enum(["ok", "failed", "denied", "declined", "unfinished"]),
  command: z.string().optional(),
  exitStatus: z.number().int().optional(),
  output: z.string().optional().describe("the result as the model saw it, when small"),
  outputRef: z.string().optional().describe(
    "where the result (or its whole output, when held back) can be read",
  ),
  outputBytes: z.number().int(),
});
/** One call of the turn, as the receipt lists it. */
export type ReceiptCall = z.output<typeof receiptCall>;

const receiptQuestion = z.object({
  id: z.string().describe("the question's id on the pending board"),
  question: z.string(),
  state: z.literal("waiting"),
});
/** A question the turn left waiting for the person (its turn was parked). */
export type ReceiptQuestion = z.output<typeof receiptQuestion>;

/** The line a parked turn's reply ends with, naming the question and how to answer it. Pure. */
export function parkedMarker(question: ReceiptQuestion): string {
  return `[a question waits for the person: ${question.question} — answer with wisp questions answer ${question.id}]`;
}

const refusal = z.object({
  tool: z.string(),
  command: z.string().optional(),
  kind: z.enum(["denied", "declined"]),
  reason: z.string(),
});
/** A call the policy denied or the person declined. */
export type Refusal = z.output<typeof refusal>;

const receiptNotification = z.object({
  source: z.string(),
  title: z.string().optional(),
  message: z.string().optional(),
  route: z.string().nullable(),
  posted: z.boolean(),
});
/** A notification the turn posted (or tried to). */
export type ReceiptNotification = z.output<typeof receiptNotification>;

const receiptFile = z.object({
  path: z.string(),
  mode: z.enum(["write", "append", "replace"]),
  created: z.boolean(),
  bytesBefore: z.number().int(),
  bytesAfter: z.number().int(),
});
/** A file an edit of the turn wrote, from its file.write event. */
export type ReceiptFile = z.output<typeof receiptFile>;

/** A claim verification found unsupported; typed by agent/verify.ts's Claim, so the two agree. */
const claim: z.ZodType<Claim> = z.object({
  quote: z.string(),
  why: z.string(),
  reader: z.string(),
});

/**
 * respond's structured result: the reply and what the turn did. The one
 * source of the Receipt type and of respond's outputSchema.
 */
export const receiptOutput = z.object({
  thread_id: z.string(),
  turn: z.number().int(),
  model: z.string(),
  reply: z.string().describe("the model's reply"),
  ran: z.string().nullable().describe("the ran: line, what the turn's calls did"),
  calls: z.array(receiptCall),
  refusals: z.array(refusal),
  verification: z.object({
    checked: z.boolean().describe("false when verification.mode is off or the turn stopped"),
    unsupported: z.array(claim).describe("claims in the reply no call produced"),
    line: z.string().nullable(),
  }),
  notifications: z.array(receiptNotification),
  condensed: z.boolean().describe(
    "the thread's context was condensed during the turn to fit the model's window",
  ),
  condensing: z.array(z.record(z.string(), z.unknown())).describe(
    "what condensing recorded during the turn: the context's condensings and triage's",
  ),
  files: z.array(receiptFile).describe("each file the turn's edits wrote"),
  stopped: z.boolean(),
  seconds: z.number(),
  notices: z.array(z.string()).optional().describe(
    "notes that reached the thread since its last turn (a model pull it asked for ended, the person answered a parked question), given to the model with this turn's prompt",
  ),
  questions: z.array(receiptQuestion).optional().describe(
    "questions of this turn still waiting for the person (the turn was parked): answered with wisp questions answer <id>, read by the thread's next turn",
  ),
});
/** What a respond result carries in structuredContent. */
export type Receipt = z.output<typeof receiptOutput>;

function outputUri(thread: string, id: string): string {
  return `wisp://threads/${thread}/output/${id}`;
}

/** The first line of a refusal, without its `error: ` prefix. */
function refusalReason(text: string): string {
  const first = text.split("\n", 1)[0];
  return first.replace(/^error: /, "");
}

export interface ReceiptInput {
  thread: string;
  turn: number;
  model: string;
  reply: string;
  events: readonly AuditEvent[];
  tools: readonly string[];
  stopped: boolean;
  seconds: number;
  /** Output references are given only when the audit is on (the resources read it). */
  auditEnabled: boolean;
  /** The turn's calls (the conversation read them from the events). */
  calls: readonly TurnCall[];
  /** The `ran:` line. */
  ran: string | null;
  /** Unsupported claims; null when the turn was not verified. */
  claims: readonly Claim[] | null;
  /** Notes that reached the thread since its last turn, given to the model with the prompt. */
  notices?: readonly string[];
}

export function buildReceipt(input: ReceiptInput): Receipt {
  const calls = input.calls;
  const outputIds = new Map<string, string>();
  for (const event of input.events) {
    if (
      event.kind === "tool.result" && typeof event.callId === "string" &&
      typeof event.outputId === "string"
    ) {
      outputIds.set(event.callId, event.outputId);
    }
  }
  const receiptCalls: ReceiptCall[] = calls.map((call) => {
    const bytes = byteLength(call.text);
    const stored = outputIds.get(call.id);
    const inline = bytes <= INLINE_OUTPUT_BYTES && stored === undefined;
    const ref = stored ?? call.id;
    return {
      id: call.id,
      tool: call.tool,
      arguments: call.arguments,
      outcome: call.outcome,
      ...(call.command !== undefined ? { command: call.command } : {}),
      ...(call.exitStatus !== undefined ? { exitStatus: call.exitStatus } : {}),
      ...(inline ? { output: call.text } : {}),
      ...(!inline && input.auditEnabled ? { outputRef: outputUri(input.thread, ref) } : {}),
      ...(!inline && !input.auditEnabled
        ? { output: call.text.slice(0, INLINE_OUTPUT_BYTES) }
        : {}),
      outputBytes: bytes,
    };
  });
  const refusals: Refusal[] = calls
    .filter((c) => c.outcome === "denied" || c.outcome === "declined")
    .map((c) => ({
      tool: c.tool,
      ...(c.command !== undefined ? { command: c.command } : {}),
      kind: c.outcome as "denied" | "declined",
      reason: refusalReason(c.text),
    }));
  const notifications: ReceiptNotification[] = input.events
    .filter((e) => e.kind === "notification")
    .map((e) => ({
      source: typeof e.source === "string" ? e.source : "model",
      ...(typeof e.title === "string" ? { title: e.title } : {}),
      ...(typeof e.message === "string" ? { message: e.message } : {}),
      route: typeof e.route === "string" ? e.route : null,
      posted: e.posted === true || (typeof e.route === "string" && e.posted !== false),
    }));
  const strip = (e: AuditEvent): Record<string, unknown> => {
    const { ts: _ts, session: _s, seq: _q, id: _i, version: _v, ...rest } = e;
    return rest as Record<string, unknown>;
  };
  const condensing = input.events
    .filter((e) => e.kind === "triage" || e.kind === "context.condensed")
    .map(strip);
  const files: ReceiptFile[] = input.events
    .filter((e) => e.kind === "file.write" && typeof e.path === "string")
    .map((e) => ({
      path: e.path as string,
      mode: e.mode as ReceiptFile["mode"],
      created: e.created === true,
      bytesBefore: typeof e.bytesBefore === "number" ? e.bytesBefore : 0,
      bytesAfter: typeof e.bytesAfter === "number" ? e.bytesAfter : 0,
    }));
  const claims = [...(input.claims ?? [])];
  // The ask tool records a question filed but not answered while the call waited (the turn was
  // parked) as inquiry.pending with outcome "waiting".
  const questions: ReceiptQuestion[] = input.events
    .filter((e) =>
      e.kind === "inquiry.pending" && e.outcome === "waiting" &&
      typeof e.pendingId === "string" && typeof e.question === "string"
    )
    .map((e) => ({ id: e.pendingId as string, question: e.question as string, state: "waiting" }));
  const reply = questions.length === 0
    ? input.reply
    : [input.reply.trimEnd(), ...questions.map(parkedMarker)].filter((l) => l !== "").join("\n\n");
  return {
    thread_id: input.thread,
    turn: input.turn,
    model: input.model,
    reply,
    ran: input.ran,
    calls: receiptCalls,
    refusals,
    verification: {
      checked: input.claims !== null,
      unsupported: claims,
      line: unsupportedLine(claims),
    },
    notifications,
    condensed: input.events.some((e) => e.kind === "context.condensed"),
    condensing,
    files,
    stopped: input.stopped,
    seconds: Number(input.seconds.toFixed(3)),
    ...(input.notices && input.notices.length > 0 ? { notices: [...input.notices] } : {}),
    ...(questions.length > 0 ? { questions } : {}),
  };
}

/** The text content of a respond result: the reply, then the receipt's lines. */
export function receiptText(receipt: Receipt): string {
  const lines = [
    ...(receipt.notices ?? []),
    ...(receipt.notices ? [""] : []),
    receipt.reply.trimEnd(),
  ];
  const notes = [
    ...(receipt.ran ? [receipt.ran] : []),
    ...(receipt.verification.line ? [receipt.verification.line] : []),
    ...(receipt.stopped ? ["stopped: the turn was cancelled"] : []),
  ];
  if (notes.length > 0) lines.push("", ...notes);
  lines.push(`[thread ${receipt.thread_id}, turn ${receipt.turn}]`);
  return lines.join("\n");
}

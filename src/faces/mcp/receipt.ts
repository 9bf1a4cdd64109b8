/**
 * The receipt a respond result carries in structuredContent: what the turn
 * did, read from its audit events (never from the reply), so a calling
 * agent can check a reply before trusting it. Pure.
 */
import type { AuditEvent } from "../../audit/catalogue.ts";
import { callsFromEvents, type TurnCall } from "../../agent/calls.ts";
import { ranLine } from "../../agent/receipts.ts";
import { type Claim, unsupportedClaims, unsupportedLine } from "../../agent/verify.ts";

/** A call's output is given inline up to this many bytes; above, by reference. */
export const INLINE_OUTPUT_BYTES = 2048;

export interface ReceiptCall {
  id: string;
  tool: string;
  arguments: unknown;
  outcome: TurnCall["outcome"];
  command?: string;
  exitStatus?: number;
  /** The result as the model saw it, when small. */
  output?: string;
  /** Where the result (or its whole output, when held back) can be read. */
  outputRef?: string;
  outputBytes: number;
}

export interface Refusal {
  tool: string;
  command?: string;
  kind: "denied" | "declined";
  reason: string;
}

export interface ReceiptNotification {
  source: string;
  title?: string;
  message?: string;
  route: string | null;
  posted: boolean;
}

export interface Receipt {
  thread_id: string;
  turn: number;
  model: string;
  reply: string;
  ran: string | null;
  calls: ReceiptCall[];
  refusals: Refusal[];
  /** Claims in the reply no call produced; `checked` false when verification.mode is off or the turn stopped. */
  verification: { checked: boolean; unsupported: Claim[]; line: string | null };
  notifications: ReceiptNotification[];
  condensed: Array<Record<string, unknown>>;
  stopped: boolean;
  seconds: number;
}

export function outputUri(thread: string, id: string): string {
  return `wisp://threads/${thread}/output/${id}`;
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
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
  /** The calls with their whole stored outputs (withWholeOutputs), for verification; absent: not verified. */
  verifyWith?: readonly TurnCall[];
}

export function buildReceipt(input: ReceiptInput): Receipt {
  const calls = callsFromEvents(input.events);
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
  const condensed = input.events
    .filter((e) => e.kind === "triage" || e.kind === "condensed")
    .map((e) => {
      const { ts: _ts, session: _s, seq: _q, id: _i, version: _v, ...rest } = e;
      return rest as Record<string, unknown>;
    });
  const claims = input.verifyWith
    ? unsupportedClaims(input.reply, input.verifyWith, input.tools)
    : [];
  return {
    thread_id: input.thread,
    turn: input.turn,
    model: input.model,
    reply: input.reply,
    ran: ranLine(calls, input.reply, input.tools),
    calls: receiptCalls,
    refusals,
    verification: {
      checked: input.verifyWith !== undefined,
      unsupported: claims,
      line: unsupportedLine(claims),
    },
    notifications,
    condensed,
    stopped: input.stopped,
    seconds: Number(input.seconds.toFixed(3)),
  };
}

/** The text content of a respond result: the reply, then the receipt's lines. */
export function receiptText(receipt: Receipt): string {
  const lines = [receipt.reply.trimEnd()];
  const notes = [
    ...(receipt.ran ? [receipt.ran] : []),
    ...(receipt.verification.line ? [receipt.verification.line] : []),
    ...(receipt.stopped ? ["stopped: the turn was cancelled"] : []),
  ];
  if (notes.length > 0) lines.push("", ...notes);
  lines.push(`[thread ${receipt.thread_id}, turn ${receipt.turn}]`);
  return lines.join("\n");
}

/**
 * A turn's calls as the audit log records them: each `tool.call` joined with
 * its `tool.result` (by the result's callId) and, for commands, the exit
 * status the runner recorded on `command.outcome`. Receipts and verification
 * read only this, never the reply, so a model cannot talk its way into them.
 * Pure.
 */
import type { AuditEvent } from "./catalogue.ts";

export type CallOutcome = "ok" | "failed" | "denied" | "declined" | "unfinished";

export interface TurnCall {
  /** The audit id of the tool.call event. */
  id: string;
  tool: string;
  arguments: unknown;
  outcome: CallOutcome;
  /** What the tool returned (as the model saw it). */
  text: string;
  /** run_command's (and custom tools') command line, when the arguments name one. */
  command?: string;
  /** The exit status the result reports, when it reports one. */
  exitStatus?: number;
  /** The stored whole output's id, when the result held some back. */
  outputId?: string;
  /** The whole output, when it was read back from the store (see whole_outputs.ts). */
  whole?: string;
}

/** How a refusal reads in a result: the policy (denied) or the person / no one to ask (declined). */
export function refusalKind(text: string): "denied" | "declined" | null {
  const head = text.slice(0, 400);
  if (/^error: command denied by policy\b/.test(head)) return "denied";
  if (/^error: (command|read|edit) not approved\b/.test(head)) {
    return /\b(denied|blocked) by policy\b/.test(head) ? "denied" : "declined";
  }
  return null;
}

/** The outcome of one result: refusals apart from failures (which ran, or tried to, and did not succeed). */
export function outcomeOf(ok: boolean | undefined, text: string): CallOutcome {
  const refusal = refusalKind(text);
  if (refusal) return refusal;
  return ok === false ? "failed" : "ok";
}

/** The exit status a run_command result states on its first line ("exit status: 1"). */
function exitStatusOf(text: string): number | undefined {
  const match = /^exit status: (-?\d+)/m.exec(text.slice(0, 200));
  return match ? Number(match[1]) : undefined;
}

function commandOf(args: unknown): string | undefined {
  let value = args;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (
    value && typeof value === "object" &&
    typeof (value as { command?: unknown }).command === "string"
  ) {
    return (value as { command: string }).command;
  }
  return undefined;
}

/** The turn's calls, in the order they were made, from its audit events (any order, any other kinds). */
export function callsFromEvents(events: readonly AuditEvent[]): TurnCall[] {
  const calls: TurnCall[] = [];
  const byId = new Map<string, TurnCall>();
  for (const event of events) {
    if (event.kind === "tool.call") {
      const call: TurnCall = {
        id: event.id,
        tool: String(event.tool),
        arguments: event.arguments,
        outcome: "unfinished",
        text: "",
        command: commandOf(event.arguments),
      };
      calls.push(call);
      byId.set(event.id, call);
    } else if (event.kind === "tool.result") {
      const call = typeof event.callId === "string" ? byId.get(event.callId) : undefined;
      if (!call) continue;
      call.text = typeof event.text === "string" ? event.text : "";
      call.outcome = outcomeOf(typeof event.ok === "boolean" ? event.ok : undefined, call.text);
      const status = exitStatusOf(call.text);
      if (status !== undefined) call.exitStatus = status;
      if (typeof event.outputId === "string") call.outputId = event.outputId;
    }
  }
  return calls;
}

/**
 * inspect: wisp's own state, for the model, read-only. Five views:
 *
 *   config     every setting with its default applied and wisp's paths —
 *              the object `wisp config show` prints (configView below)
 *   status     this session and turn: ids, the face, the model and tools of
 *              the turn, approvals held in memory, the audit file, the
 *              version, and the background processes
 *   approvals  the standing (stored) command approvals
 *   audit      one summary line per event, the lines `wisp logs` prints,
 *              filtered by `kind` and cut to the `last` N
 *   calls      this turn's tool calls, one numbered line each with its outcome
 *
 * Each view is fitted to the tool-output budget (the whole kept in the output
 * store and named when it does not fit). The same call made again in one
 * turn is marked `[repeated call: …]` above its result.
 */
import { z } from "zod";
import type { Config } from "../config/schema.ts";
import { AUDIT_KINDS, type AuditEvent } from "../audit/catalogue.ts";
import { filterEvents, readAuditLog } from "../audit/reader.ts";
import { summariseEvent } from "../audit/summary.ts";
import { callsFromEvents, type TurnCall } from "../audit/calls.ts";
import { ApprovalStore } from "../gate/approvals.ts";
import { VERSION } from "../version.ts";
import { configView } from "../config/view.ts";
import type { ProcessTable } from "../exec/background.ts";
import { fitted } from "./budget.ts";
import { byteLength } from "../util/bytes.ts";
import { normaliseArguments } from "./registry.ts";
import { errorResult, type Tool, type ToolContext, type ToolResult } from "./tool.ts";

const INSPECT_VIEWS = ["config", "status", "approvals", "audit", "calls"] as const;
const AUDIT_LAST_DEFAULT = 20;
const AUDIT_LAST_MAX = 500;
/** A pretty config view past this is printed compact, so no setting is cut. */
const CONFIG_PRETTY_MAX = 4 * 1024;

const inspectSchema = z.object({
  what: z.enum(INSPECT_VIEWS).describe(
    "config: the settings in effect; status: this session; approvals: the standing command approvals; " +
      "audit: recent audit events; calls: this turn's tool calls",
  ),
  last: z.number().int().min(1).max(AUDIT_LAST_MAX).optional().describe(
    `audit: how many of the most recent events (default ${AUDIT_LAST_DEFAULT})`,
  ),
  kind: z.string().min(1).optional().describe(
    "audit: only events of this kind, e.g. command.outcome or tool.call",
  ),
}).strict();

export type InspectArgs = z.infer<typeof inspectSchema>;

/** What inspect reads beside the ordinary context (the session fills these in). */
export interface InspectContext extends ToolContext {
  turnId?: string;
  face?: string;
  sessionApprovals?: () => number;
  processes?: ProcessTable;
}

/** The object `wisp config show` prints; its one home is src/config/view.ts. */
export { configView };

/** Pretty JSON, or compact on one line when pretty would pass `max` bytes. */
export function jsonView(value: unknown, max = CONFIG_PRETTY_MAX): string {
  const pretty = JSON.stringify(value, null, 2);
  return byteLength(pretty) <= max ? pretty : JSON.stringify(value);
}

function fileExists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The events a turn recorded, when the context's audit is a turn's view. */
function turnEvents(ctx: ToolContext): readonly AuditEvent[] | undefined {
  const events = (ctx.audit as { events?: unknown }).events;
  return Array.isArray(events) ? events as AuditEvent[] : undefined;
}

/** The turn's number from its id (`<session>-3` → 3). */
function turnNumber(turnId: string | undefined): number | undefined {
  const match = turnId ? /-(\d+)$/.exec(turnId) : null;
  return match ? Number(match[1]) : undefined;
}

function short(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

/**
 * The calls of the inspect call's own response that have no result yet: those
 * running beside it (by audit id) and those the schedule has not started.
 */
export interface SameResponse {
  running: ReadonlySet<string>;
  notStarted: Array<{ tool: string; arguments: unknown }>;
}

/** One call's outcome in a few words. Pure. */
function outcomeText(call: TurnCall, running?: ReadonlySet<string>): string {
  if (call.outcome === "unfinished") {
    // A call of this response still running has not failed to finish: it has no result yet.
    return running?.has(call.id) ? "no result yet: it runs beside this call" : "did not finish";
  }
  if (call.outcome === "denied") return "denied by policy; did not run";
  if (call.outcome === "declined") return "not approved; did not run";
  const timedOut = /^timed out: /m.test(call.text);
  if (call.exitStatus !== undefined) {
    return `exit status ${call.exitStatus}${timedOut ? ", timed out" : ""}`;
  }
  if (call.text.startsWith("error: ")) return short(call.text.split("\n")[0], 160);
  return `ok, ${byteLength(call.text)} bytes`;
}

/** The calls view; the calls of its own response not started yet come last, said so. Pure. */
export function renderCalls(
  calls: TurnCall[],
  turn: number | undefined,
  same?: SameResponse,
): string {
  const label = turn !== undefined ? `turn ${turn}` : "this turn";
  const waiting = same?.notStarted ?? [];
  const count = calls.length + waiting.length;
  if (count === 0) return `no tool calls in ${label}`;
  const lines = [`${label}: ${count} tool call${count === 1 ? "" : "s"}`];
  const argsOf = (value: unknown) => short(JSON.stringify(normaliseArguments(value)) ?? "{}", 120);
  calls.forEach((call, index) => {
    lines.push(
      `${index + 1}. ${call.tool} ${argsOf(call.arguments)} → ${outcomeText(call, same?.running)}`,
    );
  });
  waiting.forEach((call, index) => {
    lines.push(
      `${calls.length + index + 1}. ${call.tool} ${
        argsOf(call.arguments)
      } → not started yet (later in this response)`,
    );
  });
  return lines.join("\n");
}

/**
 * Which calls of the response that made the inspect call `callId` have no
 * result yet, from the turn's events: the `response` event before it lists
 * the response's calls, and those after it that have a `tool.call` have
 * started (in the response's order). Pure.
 */
function sameResponse(
  events: readonly AuditEvent[],
  callId: string | undefined,
): SameResponse {
  const own = events.findIndex((e) => e.id === callId);
  let at = -1;
  for (let i = (own >= 0 ? own : events.length) - 1; i >= 0; i--) {
    if (events[i].kind === "response") {
      at = i;
      break;
    }
  }
  if (at < 0) return { running: new Set(), notStarted: [] };
  const started = events.slice(at + 1).filter((e) => e.kind === "tool.call");
  const listed = Array.isArray(events[at].toolCalls)
    ? events[at].toolCalls as Array<{ name?: unknown; arguments?: unknown }>
    : [];
  return {
    running: new Set(started.map((e) => e.id)),
    notStarted: listed.slice(started.length).map((c) => ({
      tool: String(c.name),
      arguments: c.arguments,
    })),
  };
}

/** Whether this exact call was made earlier in the turn (same tool, same arguments). Pure. */
function isRepeated(
  events: readonly AuditEvent[],
  tool: string,
  args: unknown,
  callId: string | undefined,
): boolean {
  const key = JSON.stringify(sortKeys(normaliseArguments(args)));
  return events.some((e) =>
    e.kind === "tool.call" && e.tool === tool && e.id !== callId &&
    JSON.stringify(sortKeys(normaliseArguments(e.arguments))) === key
  );
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>).sort().map((
        k,
      ) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

function statusView(ctx: InspectContext): Record<string, unknown> {
  const events = turnEvents(ctx) ?? [];
  const prompt = [...events].reverse().find((e) => e.kind === "prompt");
  const now = ctx.processes?.now() ?? Date.now();
  return {
    session: ctx.session,
    entryPoint: ctx.face ?? null,
    turn: turnNumber(ctx.turnId) ?? null,
    model: typeof prompt?.model === "string" ? prompt.model : ctx.config.model,
    tools: Array.isArray(prompt?.tools) ? prompt.tools : null,
    sessionApprovals: ctx.sessionApprovals ? ctx.sessionApprovals() : null,
    auditFile: ctx.config.audit.enabled ? ctx.home.auditLog : null,
    version: VERSION,
    processes: (ctx.processes?.list() ?? []).map((p) => ({
      id: p.id,
      state: p.state,
      command: p.command,
      seconds: Math.round(((p.endedAt ?? now) - p.startedAt) / 1000),
      lifetimeSeconds: p.lifetimeSeconds,
      ...(p.result && p.result.exitStatus !== null ? { exitStatus: p.result.exitStatus } : {}),
    })),
  };
}

function approvalsView(ctx: ToolContext): unknown[] {
  const store = ApprovalStore.forHome(ctx.home);
  return store.stored().map((a) => ({
    id: a.id,
    pattern: a.pattern,
    workingDirectory: a.directory,
    scope: a.scope,
    level: a.level,
    grantedAt: a.created,
    expiresAt: a.expires,
    source: "stored",
  }));
}

/** The audit view: the lines `wisp logs` prints, oldest first. */
function auditView(events: AuditEvent[], kind: string | undefined, last: number): string {
  const kept = filterEvents(events, { ...(kind ? { kinds: [kind] } : {}), last });
  if (kept.length === 0) return "no matching audit events";
  // The width `wisp logs` uses when piped: whole lines (the budget bounds the view).
  return kept.map((e) => summariseEvent(e, 100_000)).join("\n");
}

function view(args: InspectArgs, ctx: InspectContext): string | ToolResult {
  switch (args.what) {
    case "config":
      return jsonView(configView(ctx.config, ctx.home, fileExists(ctx.home.config)));
    case "status":
      return JSON.stringify(statusView(ctx), null, 2);
    case "approvals":
      return JSON.stringify(approvalsView(ctx), null, 2);
    case "audit": {
      if (args.kind && !(AUDIT_KINDS as readonly string[]).includes(args.kind)) {
        return errorResult(`unknown kind '${args.kind}'; the kinds are ${AUDIT_KINDS.join(", ")}`);
      }
      if (!ctx.config.audit.enabled) {
        return "no matching audit events (the audit log is off: audit.enabled is false)";
      }
      const { events } = readAuditLog(ctx.home.auditLog);
      return auditView(events, args.kind, args.last ?? AUDIT_LAST_DEFAULT);
    }
    case "calls": {
      const events = turnEvents(ctx);
      if (!events) return "no tool calls in this turn (this conversation keeps no turn record)";
      const calls = callsFromEvents(events).filter((c) => c.id !== ctx.callId);
      return renderCalls(calls, turnNumber(ctx.turnId), sameResponse(events, ctx.callId));
    }
  }
}

async function runInspect(args: InspectArgs, ctx: InspectContext): Promise<ToolResult> {
  if (args.what !== "audit" && (args.last !== undefined || args.kind !== undefined)) {
    return errorResult("last and kind go with what: audit only");
  }
  const shown = view(args, ctx);
  if (typeof shown !== "string") return shown;
  const events = turnEvents(ctx);
  const repeated = events && isRepeated(events, "inspect", args, ctx.callId)
    ? `[repeated call: inspect ${
      JSON.stringify(args)
    } was already made in this turn; this is the view read again]\n`
    : "";
  const fit = await fitted(repeated + shown, ctx, "inspect");
  return { text: fit.text, ok: true, ...(fit.outputId ? { outputId: fit.outputId } : {}) };
}

function limits(config: Config): string[] {
  return [
    "Read-only: it changes nothing and runs no command.",
    "Each view is bounded to the tool-output budget; a longer one shows its first and last lines with a held back: note, the whole kept in the output store.",
    `audit shows the last ${AUDIT_LAST_DEFAULT} matching events unless last asks for up to ${AUDIT_LAST_MAX}${
      config.audit.enabled
        ? ""
        : "; the audit log is off here (audit.enabled is false), so it shows nothing"
    }.`,
    "The same call made again in a turn is marked [repeated call: …] above its result.",
  ];
}

export const inspectTool: Tool<InspectArgs> = {
  name: "inspect",
  description:
    "Shows wisp's own state, read-only: config (the settings in effect), status (this session), approvals (standing command " +
    "approvals), audit (recent audit events; last, kind) or calls (this turn's tool calls and their outcomes).",
  schema: inspectSchema,
  parallelSafe: true,
  gatesBeforeEffect: false,
  limits,
  examplePrompt:
    "Use inspect with what: audit, last: 5, kind: command.outcome and tell me which commands ran and their exit status.",
  run: (args, ctx) => runInspect(args, ctx as InspectContext),
};

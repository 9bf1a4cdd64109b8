/**
 * How the MCP face asks the person: two ways at once, the first answer
 * winning and the other withdrawn.
 *
 *   - the client's dialog (MCP elicitation), when the client declared it:
 *     accept with a scope, or decline; withdrawn with notifications/cancelled
 *     (the SDK sends it when the request's signal is aborted);
 *   - a request file in <home>/pending (approval.outOfBand), answered by
 *     `wisp approvals approve|deny` at a terminal over the request's socket
 *     (checked by the kernel's name for the sender, answerer.ts); withdrawn
 *     by settling it.
 *
 * A notification names the request once the dialog has gone unanswered for
 * approval.bannerDelaySeconds, at once when there is no dialog. The gate
 * bounds the whole wait by approval.timeoutSeconds and aborts the signal it
 * passes, which withdraws both. Nothing in the MCP conversation besides the
 * dialog can answer: the model's own tools cannot reach the pending folder.
 */
import type {
  ApprovalAnswer,
  ApprovalHost,
  ApprovalRequest,
  HostRefusal,
} from "../../gate/gate.ts";
import type { AuditSink } from "../../audit/writer.ts";
import {
  askedWords,
  type PendingAnswer,
  type PendingBoard,
  type Scope,
  SCOPES,
} from "../../gate/pending.ts";
import { callAnnouncer } from "./announce.ts";

export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}

export interface HostChannels {
  /** Whether the client declared elicitation (asked at each request: it is known after initialize). */
  canElicit(): boolean;
  /** Send elicitation/create; aborting `signal` withdraws it. */
  elicit(
    params: {
      message: string;
      requestedSchema: Record<string, unknown>;
      _meta?: Record<string, unknown>;
    },
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<ElicitResult>;
  /** Post a notification; resolves to the route taken, or null. */
  notify(title: string, message: string): Promise<string | null>;
  /** The client's name for the FROM column (WISP_MCP_CLIENT, else its clientInfo). */
  client(): string;
  log(level: "debug" | "info" | "error", text: string): void;
}

export interface HostOptions {
  channels: HostChannels;
  /** Absent when approval.outOfBand is false. */
  board?: PendingBoard;
  audit: AuditSink;
  session: string;
  timeoutSeconds: number;
  bannerDelaySeconds: number;
  /** How often the pending folder is looked at for an answer. */
  pollMs?: number;
}

const SCOPE_TITLES: Record<Scope, string> = {
  once: "Once (the rest of this turn)",
  session: "This session (the rest of the server's life)",
  project: "This project (kept only while this server runs)",
  always: "Always (kept only while this server runs)",
};

/** The elicitation form: one choice of scope; Decline refuses. */
export function elicitationFor(
  request: ApprovalRequest,
  thread: string,
  client: string,
  pendingId?: string,
): {
  message: string;
  requestedSchema: Record<string, unknown>;
  _meta: Record<string, unknown>;
} {
  const scopes = request.rememberable.filter((s): s is Scope =>
    s !== "no" && SCOPES.includes(s as Scope)
  );
  // Outside the sandbox, and a change to the models wisp can run: once or not at all.
  const onceOnly = request.outsideSandbox || request.kind === "modelAction";
  const offered = onceOnly ? ["once" as const] : scopes.length > 0 ? scopes : ["once" as const];
  const head = request.outsideSandbox
    ? `wisp: run OUTSIDE THE SANDBOX? (${request.level})`
    : request.kind === "modelAction"
    ? `wisp: approve a change to the models wisp can run? (${request.level})`
    : `wisp: approve a ${request.level} command?`;
  const lines = [
    head,
    `  ${request.command}`,
    ...(request.line !== request.command ? [`  in the line: ${request.line}`] : []),
    `  directory: ${request.cwd}`,
    ...request.reasons.map((r) => `  - ${r}`),
    `  from ${client}, thread ${thread}`,
    onceOnly ? "  Approved once or not at all." : `  Remembered as: ${request.pattern}`,
    ...(pendingId ? [`  Also answerable at a terminal: wisp approvals approve ${pendingId}`] : []),
    "Accept runs it with the scope chosen; Decline refuses it.",
  ];
  return {
    message: lines.join("\n"),
    requestedSchema: {
      type: "object",
      properties: {
        scope: {
          type: "string",
          title: "Approve for",
          enum: offered,
          enumNames: offered.map((s) => SCOPE_TITLES[s]),
          default: "once",
        },
      },
      required: ["scope"],
    },
    _meta: { "wisp/approval": pendingId ?? request.id },
  };
}

/** The answer an elicitation result gives, or why it is no. */
export function answerFromElicitation(result: ElicitResult, request: ApprovalRequest): {
  answer: ApprovalAnswer;
  why?: string;
} {
  if (result.action !== "accept") {
    return {
      answer: "no",
      why: result.action === "decline"
        ? "the client declined the dialog"
        : "the client dismissed the dialog",
    };
  }
  const scope = result.content?.scope;
  if (typeof scope !== "string" || !SCOPES.includes(scope as Scope)) return { answer: "once" };
  if (request.outsideSandbox) return { answer: "once" };
  // The client's dialog may be answered by the agent itself: what it approves lasts at most
  // this server's life (its one session) and is never stored for the person's own sessions.
  if (scope === "project" || scope === "always") {
    return {
      answer: request.rememberable.includes("session") ? "session" : "once",
      why: `${scope} from the client's dialog is kept for this server's life only`,
    };
  }
  if (!request.rememberable.includes(scope as ApprovalAnswer)) return { answer: "session" };
  return { answer: scope as ApprovalAnswer };
}

/** The answer a terminal's answer gives. */
export function answerFromTerminal(
  answer: PendingAnswer,
  request: ApprovalRequest,
): ApprovalAnswer {
  if (answer.decision === "deny") return "no";
  if (request.outsideSandbox) return "once";
  const scope = answer.scope ?? "once";
  return request.rememberable.includes(scope) ? scope : "session";
}

/** The sentence a waiting request announces to the client of the call it waits in. */
function waitingMessage(
  request: ApprovalRequest,
  dialog: boolean,
  pendingId: string | undefined,
): string {
  const where = [
    ...(dialog ? ["in the client's dialog"] : []),
    ...(pendingId ? [`at a terminal with wisp approvals approve ${pendingId}`] : []),
  ].join(" or ");
  return `wisp is waiting for approval of ${request.outsideSandbox ? "OUTSIDE THE SANDBOX: " : ""}${
    askedWords(request)
  } (${request.level}); answer ${where}`;
}

/** The per-client dialog setting (mcp.elicitation): client name → on or off. */
export type DialogSetting = Record<string, "on" | "off">;

/**
 * Whether approvals may be asked in the client's dialog: it declared
 * elicitation, and mcp.elicitation does not say off for any name it goes by
 * (its clientInfo name from initialize, WISP_MCP_CLIENT). Names match
 * without regard to case.
 */
export function dialogAllowed(
  declared: boolean,
  setting: DialogSetting,
  names: readonly (string | undefined)[],
): boolean {
  if (!declared) return false;
  const off = new Set(
    Object.entries(setting).filter(([, v]) => v === "off").map(([k]) => k.toLowerCase()),
  );
  return !names.some((n) => n !== undefined && off.has(n.toLowerCase()));
}

type Winner = {
  by: "elicitation" | "terminal";
  answer: ApprovalAnswer;
  why?: string;
  /** A terminal answer typed in a plain wisp chat (`/approvals approve ID`). */
  via?: "chat";
};

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * The pending request's id in an audit event, when it is not the request's
 * own id (only when that was taken in the pending folder). Never `id`, which
 * is the event's own.
 */
function pendingIdField(request: ApprovalRequest, id: string | undefined): { pendingId?: string } {
  return id !== undefined && id !== request.id ? { pendingId: id } : {};
}

export class McpApprovalHost implements ApprovalHost {
  /** Where each answer given came from, until the gate asks (sourceOf). */
  #sources = new Map<string, "elicitation" | "terminal">();

  constructor(readonly options: HostOptions) {}

  sourceOf(requestId: string): string | undefined {
    const source = this.#sources.get(requestId);
    this.#sources.delete(requestId);
    return source;
  }

  async approve(
    request: ApprovalRequest,
    signal?: AbortSignal,
  ): Promise<ApprovalAnswer | HostRefusal> {
    const { channels, board, audit } = this.options;
    // The thread whose turn asks: the turn's audit scope carries it (src/audit/writer.ts).
    const thread = String(audit.scopeFields?.().thread ?? "-");
    const client = channels.client();
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) return "no";
    signal?.addEventListener("abort", onAbort, { once: true });
    const canElicit = channels.canElicit();
    let filed: ReturnType<PendingBoard["file"]> | undefined;
    try {
      filed = board?.file({
        id: request.id,
        session: this.options.session,
        timeoutSeconds: this.options.timeoutSeconds,
        client,
        thread,
        command: request.command,
        level: request.level,
        cwd: request.cwd,
        reasons: request.reasons,
        pattern: request.pattern,
        outsideSandbox: request.outsideSandbox,
        // A model action says so, so that no face shows it as a command line (ADR 0625).
        ...(request.kind === "modelAction" && request.modelAction
          ? { asks: "model" as const, modelAction: request.modelAction }
          : { asks: "command" as const }),
      });
    } catch (error) {
      // The pending folder cannot be written: the dialog alone can answer (or nobody).
      channels.log(
        "error",
        `could not file the request in the pending folder: ${(error as Error).message}`,
      );
    }
    audit.record("approval.pending", {
      ...pendingIdField(request, filed?.id),
      command: request.command,
      requestId: request.id,
      thread,
      client,
      dialog: canElicit,
      outOfBand: filed !== undefined,
    });
    if (!canElicit && !filed) {
      signal?.removeEventListener("abort", onAbort);
      audit.record("approval.answered", {
        command: request.command,
        decision: "no",
        by: "nobody",
        reason: "the client has no dialog and approval.outOfBand is false",
        requestId: request.id,
        thread,
      });
      // Not a person's "no": the gate reports that the question could not be answered.
      throw new Error(
        "no one can be asked: the client has no dialog and approval.outOfBand is false",
      );
    }
    // The call the request waits in hears of it at once (progress, a log message).
    const announce = callAnnouncer.getStore();
    if (announce) {
      await announce(waitingMessage(request, canElicit, filed?.id)).catch(() => {});
    }
    const contenders: Promise<Winner | undefined>[] = [];
    if (canElicit) {
      contenders.push(this.#viaDialog(request, thread, client, filed?.id, controller.signal));
    }
    if (filed) contenders.push(this.#viaTerminal(request, filed.id, thread, controller.signal));
    const banner = this.#banner(request, thread, client, filed?.id, canElicit, controller.signal);
    const stopped = new Promise<undefined>((resolve) => {
      if (controller.signal.aborted) resolve(undefined);
      controller.signal.addEventListener("abort", () => resolve(undefined), { once: true });
    });
    // A contender that fails (the dialog errored) drops out; the other may still answer.
    const firstAnswer = new Promise<Winner | undefined>((resolve) => {
      let left = contenders.length;
      for (const c of contenders) {
        c.then((w) => {
          if (w) resolve(w);
          else if (--left === 0) resolve(undefined);
        }, () => {
          if (--left === 0) resolve(undefined);
        });
      }
    });
    const winner = await Promise.race([firstAnswer, stopped]);
    controller.abort("answered");
    signal?.removeEventListener("abort", onAbort);
    await banner.catch(() => {});
    const answer: ApprovalAnswer = winner?.answer ?? "no";
    const by = winner?.by ?? (signal?.aborted ? "withdrawn" : "nobody");
    // Only a yes is remembered, and the gate asks at once: nothing else is kept here.
    if (winner && answer !== "no") {
      this.#sources.set(request.id, winner.by);
      // A gate that gave up at the same moment never asks: keep the map small.
      if (this.#sources.size > 64) this.#sources.delete(this.#sources.keys().next().value!);
    }
    if (filed) {
      board!.settle(filed.id, {
        status: answer === "no" ? (winner ? "denied" : "closed") : "approved",
        by,
        ...(answer !== "no" ? { scope: answer as Scope } : {}),
        ...(winner?.why
          ? { reason: winner.why }
          : !winner
          ? { reason: "no longer waiting (the turn ended or the wait expired)" }
          : {}),
      });
    }
    audit.record("approval.answered", {
      command: request.command,
      decision: answer,
      by,
      // Where the answer came from: the client's dialog (which an agent may answer) or a
      // terminal the kernel named (answerer.ts).
      ...(winner ? { source: winner.by === "elicitation" ? "elicitation" : "terminal" } : {}),
      ...(winner?.via ? { via: winner.via } : {}),
      ...(winner?.why ? { reason: winner.why } : {}),
      ...pendingIdField(request, filed?.id),
      requestId: request.id,
      thread,
      client,
      ...(request.outsideSandbox ? { outsideSandbox: true } : {}),
    });
    // A dialog's "no" may be a headless agent's instant decline: say so, not that a person refused.
    if (answer === "no" && winner?.by === "elicitation" && winner.why) {
      return { answer: "no", by: "client", why: winner.why };
    }
    return answer;
  }

  async #viaDialog(
    request: ApprovalRequest,
    thread: string,
    client: string,
    pendingId: string | undefined,
    signal: AbortSignal,
  ): Promise<Winner | undefined> {
    try {
      const result = await this.options.channels.elicit(
        elicitationFor(request, thread, client, pendingId),
        signal,
        this.options.timeoutSeconds * 1000 + 1000,
      );
      if (signal.aborted) return undefined;
      const { answer, why } = answerFromElicitation(result, request);
      return { by: "elicitation", answer, ...(why ? { why } : {}) };
    } catch (error) {
      if (!signal.aborted) {
        this.options.channels.log(
          "info",
          `the approval dialog failed: ${(error as Error).message}`,
        );
      }
      return undefined;
    }
  }

  async #viaTerminal(
    request: ApprovalRequest,
    id: string,
    thread: string,
    signal: AbortSignal,
  ): Promise<Winner | undefined> {
    const board = this.options.board!;
    const every = this.options.pollMs ?? 100;
    while (!signal.aborted) {
      const answer = await board.take(id, ({ reason, pid }) => {
        this.options.audit.record("approval.answered", {
          command: request.command,
          decision: "refused-answer",
          by: "terminal",
          reason,
          // The process the kernel named as the socket's peer.
          answererPid: pid,
          ...pendingIdField(request, id),
          requestId: request.id,
          thread,
        });
        this.options.channels.log("info", `refused an answer to ${id}: ${reason}`);
      });
      if (answer) {
        return {
          by: "terminal",
          answer: answerFromTerminal(answer, request),
          ...(answer.via === "chat" ? { via: "chat" as const } : {}),
          ...(answer.decision === "deny"
            ? {
              why: answer.via === "chat"
                ? "denied with /approvals deny in wisp chat"
                : "denied with wisp approvals deny",
            }
            : {}),
        };
      }
      await sleep(every, signal);
    }
    return undefined;
  }

  async #banner(
    request: ApprovalRequest,
    thread: string,
    client: string,
    pendingId: string | undefined,
    canElicit: boolean,
    signal: AbortSignal,
  ): Promise<void> {
    if (!pendingId) return; // with no terminal route there is nothing a notification could point at
    if (canElicit) {
      await sleep(this.options.bannerDelaySeconds * 1000, signal);
      if (signal.aborted) return;
    }
    const title = "wisp: approval needed";
    const message = `${request.outsideSandbox ? "OUTSIDE THE SANDBOX: " : ""}${
      askedWords(request)
    } (${client}, thread ${thread}) — wisp approvals approve ${pendingId}`;
    const route = await this.options.channels.notify(title, message).catch(() => null);
    this.options.audit.record("notification", {
      route,
      posted: route !== null,
      source: "approval",
      title,
      message,
      id: pendingId,
      thread,
    });
  }
}

/**
 * The ask tool's inquiry effect under `wisp mcp`: the question is filed in
 * the pending folder like an approval (gate/pending.ts, kind "question"),
 * one notification names it, and the turn waits for the person's answer
 * from `wisp questions answer|decline <id>` or a plain chat's `/questions`
 * (the kernel names the sender; gate/answerer.ts), until the question's
 * wait runs out. Nothing in the MCP conversation answers it: the client's
 * dialog is never used for questions, so the calling agent cannot answer
 * for the person.
 *
 * MCP clients give up on a tool call after about a minute, so the turn
 * waits only `parkAfterSeconds` (inquiry.parkAfterSeconds). Unanswered by
 * then, the turn is parked: the ask tool returns at once (outcome
 * "waiting"), the turn ends, and the question goes on waiting on the board
 * until it is answered, declined, or its own wait runs out. That end is
 * recorded with a `note` on the thread, which the engine gives the model
 * before the thread's next prompt (engine.ts's notices), once.
 */
import type { AuditSink } from "../../audit/writer.ts";
import type { PendingBoard } from "../../gate/pending.ts";
import { type Inquirer, type InquiryOutcome, readAnswer } from "../../tools/ask.ts";

export interface McpInquirerOptions {
  /** Absent when approval.outOfBand is false: no terminal route, so no one can answer. */
  board?: PendingBoard;
  audit: AuditSink;
  session: string;
  /** How long a question waits: inquiry.timeoutSeconds, else approval.timeoutSeconds. */
  timeoutSeconds: number;
  client(): string;
  notify(title: string, message: string): Promise<string | null>;
  log(level: "info" | "error", message: string): void;
  /** How long the turn waits before it is parked; undefined: it waits the whole timeout. */
  parkAfterSeconds?: number;
  pollMs?: number;
}

/** How a parked question ended, as the thread's next turn is told of it. */
export type ParkedEnd =
  | { kind: "answered"; text: string }
  | { kind: "none-of-these" }
  | { kind: "declined" }
  | { kind: "timeout"; seconds: number };

/** The notice a parked question's end gives the thread's next turn. Pure. */
export function parkedNotice(question: string, end: ParkedEnd): string {
  switch (end.kind) {
    case "answered":
      return `[the person answered your question "${question}": ${end.text}]`;
    case "none-of-these":
      return `[the person answered your question "${question}": none of these]`;
    case "declined":
      return `[the person declined your question "${question}"]`;
    case "timeout":
      return `[the person did not answer your question "${question}" within ${end.seconds} s; it no longer waits. Do not guess the answer]`;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Questions of a wisp mcp server's turns, answered at a terminal. */
export class McpInquirer implements Inquirer {
  /** Parked questions still waiting: pending id → thread. */
  readonly #parked = new Map<string, string>();

  constructor(readonly options: McpInquirerOptions) {}

  /**
   * The thread closed or was evicted: its parked questions stop waiting,
   * so an answer given later is refused rather than told to no one.
   */
  withdrawThread(thread: string): void {
    for (const [pendingId, of] of [...this.#parked]) {
      if (of !== thread) continue;
      this.#parked.delete(pendingId);
      this.options.board?.settle(pendingId, {
        status: "closed",
        by: "server",
        reason: `its thread ${thread} closed`,
        parked: true,
      });
    }
  }

  async ask(
    inquiry: { id: string; question: string; options: string[] },
    signal?: AbortSignal,
  ): Promise<InquiryOutcome> {
    const { board, audit } = this.options;
    const thread = String(audit.scopeFields?.().thread ?? "-");
    const client = this.options.client();
    if (!board) {
      this.options.log("info", "a question was declined: approval.outOfBand is false");
      return { kind: "declined" };
    }
    const filed = board.fileQuestion({
      session: this.options.session,
      timeoutSeconds: this.options.timeoutSeconds,
      client,
      thread,
      question: inquiry.question,
      options: inquiry.options,
    });
    audit.record("inquiry.pending", {
      inquiryId: inquiry.id,
      pendingId: filed.id,
      question: inquiry.question,
      thread,
      client,
    });
    const title = "wisp: the model asks";
    const message =
      `${client}, thread ${thread}: ${inquiry.question} — wisp questions answer ${filed.id}`;
    void this.options.notify(title, message).then((route) =>
      audit.record("notification", {
        route,
        posted: route !== null,
        source: "question",
        title,
        message,
        id: filed.id,
        thread,
      })
    ).catch(() => {});
    const started = Date.now();
    const deadline = started + this.options.timeoutSeconds * 1000;
    const park = this.options.parkAfterSeconds;
    const parkAt = park === undefined ? deadline : Math.min(deadline, started + park * 1000);
    const taken = await this.#waitForAnswer(filed.id, inquiry, thread, parkAt, signal);
    if (taken) return taken;
    if (!signal?.aborted && Date.now() < deadline && board.waits(filed.id)) {
      // Parked: the call returns now; the question keeps waiting without the turn.
      void this.#watchParked(filed.id, inquiry, thread, deadline);
      return { kind: "waiting", pendingId: filed.id };
    }
    board.settle(filed.id, {
      status: "closed",
      by: signal?.aborted ? "server" : "timeout",
      reason: signal?.aborted ? "the turn ended" : "its wait expired (inquiry.timeoutSeconds)",
    });
    return signal?.aborted
      ? { kind: "declined" }
      : { kind: "timeout", seconds: this.options.timeoutSeconds };
  }

  /**
   * Take the person's answer to `pendingId` until `until` (or the signal, or
   * the request leaves the board); settle the request with it. Undefined
   * when none came.
   */
  async #waitForAnswer(
    pendingId: string,
    inquiry: { id: string; options: string[] },
    thread: string,
    until: number,
    signal?: AbortSignal,
    parked = false,
  ): Promise<InquiryOutcome | undefined> {
    const board = this.options.board!;
    const audit = this.options.audit;
    const every = this.options.pollMs ?? 100;
    while (!signal?.aborted && Date.now() < until && board.waits(pendingId)) {
      const answer = await board.take(pendingId, ({ reason, pid }) => {
        audit.record("inquiry.answered", {
          decision: "refused-answer",
          reason,
          answererPid: pid,
          pendingId,
          thread,
        });
      });
      if (answer) {
        const outcome: InquiryOutcome = answer.decision === "answer"
          ? readAnswer(inquiry.options, answer.text ?? "")
          : { kind: "declined" };
        board.settle(pendingId, {
          status: outcome.kind === "declined" ? "declined" : "answered",
          by: "terminal",
          ...(parked ? { parked: true } : {}),
        });
        audit.record("inquiry.answered", {
          decision: outcome.kind,
          by: "person",
          via: answer.via === "chat" ? "chat" : "terminal",
          pendingId,
          inquiryId: inquiry.id,
          thread,
        });
        return outcome;
      }
      await sleep(every, signal);
    }
    return undefined;
  }

  /**
   * A parked question waits on without its turn: its answer, decline or
   * timeout is recorded as `inquiry.settled` with the thread and the
   * notice its next turn reads. A server that stops withdraws it
   * (closeAll): nothing is told then, as the thread is gone with it.
   */
  async #watchParked(
    pendingId: string,
    inquiry: { id: string; question: string; options: string[] },
    thread: string,
    deadline: number,
  ): Promise<void> {
    const board = this.options.board!;
    this.#parked.set(pendingId, thread);
    const outcome = await this.#waitForAnswer(
      pendingId,
      inquiry,
      thread,
      deadline,
      undefined,
      true,
    );
    this.#parked.delete(pendingId);
    let end: ParkedEnd;
    if (outcome && outcome.kind !== "waiting") {
      end = outcome;
    } else if (board.waits(pendingId)) {
      board.settle(pendingId, {
        status: "closed",
        by: "timeout",
        reason: "its wait expired (inquiry.timeoutSeconds)",
        parked: true,
      });
      end = { kind: "timeout", seconds: this.options.timeoutSeconds };
    } else {
      return;
    }
    this.options.audit.record("inquiry.settled", {
      inquiryId: inquiry.id,
      outcome: end.kind,
      pendingId,
      thread,
      parked: true,
      note: parkedNotice(inquiry.question, end),
    });
  }
}

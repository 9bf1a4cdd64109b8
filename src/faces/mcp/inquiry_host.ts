/**
 * The ask tool's inquiry effect under `wisp mcp`: the question is filed in
 * the pending folder like an approval (gate/pending.ts, kind "question"),
 * one notification names it, and the turn waits for the person's answer
 * from `wisp questions answer|decline <id>` or a plain chat's `/questions`
 * (the kernel names the sender; gate/answerer.ts), until the question's
 * wait runs out. Nothing in the MCP conversation answers it: the client's
 * dialog is never used for questions, so the calling agent cannot answer
 * for the person.
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
  pollMs?: number;
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
  constructor(readonly options: McpInquirerOptions) {}

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
    const message = `${client}, thread ${thread}: ${inquiry.question} — wisp questions answer ${filed.id}`;
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
    const deadline = Date.now() + this.options.timeoutSeconds * 1000;
    const every = this.options.pollMs ?? 100;
    while (!signal?.aborted && Date.now() < deadline) {
      const answer = await board.take(filed.id, ({ reason, pid }) => {
        audit.record("inquiry.answered", {
          decision: "refused-answer",
          reason,
          answererPid: pid,
          pendingId: filed.id,
          thread,
        });
      });
      if (answer) {
        const outcome: InquiryOutcome = answer.decision === "answer"
          ? readAnswer(inquiry.options, answer.text ?? "")
          : { kind: "declined" };
        board.settle(filed.id, {
          status: outcome.kind === "declined" ? "declined" : "answered",
          by: "terminal",
        });
        audit.record("inquiry.answered", {
          decision: outcome.kind,
          by: "person",
          via: answer.via === "chat" ? "chat" : "terminal",
          pendingId: filed.id,
          inquiryId: inquiry.id,
          thread,
        });
        return outcome;
      }
      await sleep(every, signal);
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
}

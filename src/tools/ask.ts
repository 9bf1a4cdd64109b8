/**
 * ask: the model asks the person one question in the middle of a turn —
 * which of two things they meant, a value it cannot find — and goes on with
 * the answer. A question is not a permission: no answer runs anything, and
 * every command after it still passes the policy, the gate and the sandbox.
 *
 * Off by default (tools.ask, or a tool list naming it). Each face carries
 * the inquiry effect (`ctx.inquirer`): the plain chat shows the question and
 * reads a line, `wisp chat --json` sends a choice line, `wisp mcp` files it
 * in the pending folder for `wisp questions answer`. Without one (wisp
 * respond) no person can answer, and the model is told so. Silence is never
 * an answer: every outcome other than an answer is a fixed sentence telling
 * the model not to guess.
 */
import { z } from "zod";
import type { Tool, ToolResult } from "./tool.ts";
import { randomHex } from "../util/random_id.ts";

/** The most options a question may offer (none of these comes on top). */
export const MAX_OPTIONS = 8;
const MAX_QUESTION = 500;
const MAX_OPTION = 120;
/** The most an answer typed as free text may hold. */
export const MAX_ANSWER = 2000;

/** The option every choice ends with. */
export const NONE_OF_THESE = "none of these";

const askSchema = z.object({
  question: z.string().min(1).max(MAX_QUESTION).describe("one short question for the person"),
  options: z.array(z.string().min(1).max(MAX_OPTION)).max(MAX_OPTIONS).optional().describe(
    "the answers to choose from (up to 8); leave out for a free-text answer",
  ),
}).strict();

type Args = z.infer<typeof askSchema>;

/** A question as a face shows it. */
export interface Inquiry {
  id: string;
  question: string;
  /** Empty: a free-text answer. Faces add "none of these" after them. */
  options: string[];
}

/** What became of a question. */
export type InquiryOutcome =
  | { kind: "answered"; text: string }
  | { kind: "none-of-these" }
  | { kind: "declined" }
  | { kind: "timeout"; seconds: number }
  /** Filed for a person elsewhere (wisp mcp): the id they answer with. */
  | { kind: "waiting"; pendingId: string };

/** The inquiry effect a face carries. */
export interface Inquirer {
  ask(inquiry: Inquiry, signal?: AbortSignal): Promise<InquiryOutcome>;
}

/**
 * An answer typed for a question, as a face reads it: a number picks an
 * option (the one after the last is none of these), an option's own text
 * picks it, anything else is free text; empty declines. Pure.
 */
export function readAnswer(options: string[], typed: string): InquiryOutcome {
  const text = typed.trim();
  if (text === "") return { kind: "declined" };
  if (options.length > 0) {
    const n = Number(text);
    if (Number.isInteger(n) && n >= 1 && n <= options.length) {
      return { kind: "answered", text: options[n - 1] };
    }
    if (Number.isInteger(n) && n === options.length + 1) return { kind: "none-of-these" };
    if (text.toLowerCase() === NONE_OF_THESE) return { kind: "none-of-these" };
    const named = options.find((o) => o.toLowerCase() === text.toLowerCase());
    if (named) return { kind: "answered", text: named };
  }
  return { kind: "answered", text: text.slice(0, MAX_ANSWER) };
}

/** The sentence the model reads for an outcome. Pure. */
export function outcomeText(outcome: InquiryOutcome, question: string): string {
  switch (outcome.kind) {
    case "answered":
      return `chose: ${outcome.text}`;
    case "none-of-these":
      return "the person chose none of these. Say in your reply what you needed, or ask differently";
    case "declined":
      return "the person declined to answer. Do not ask this again; say in your reply what you needed";
    case "timeout":
      return `no answer within ${
        outcome.seconds >= 60 && outcome.seconds % 60 === 0
          ? `${outcome.seconds / 60} min`
          : `${outcome.seconds} s`
      }. Do not guess what the person would say. Say in your reply what you need, and stop`;
    case "waiting":
      return `under wisp mcp, waiting for the person: "${question}" (question ${outcome.pendingId}). Their answer reaches you as a note on a later turn. Do not guess it: say in your reply what you asked, and stop.`;
  }
}

export const askTool: Tool<Args> = {
  name: "ask",
  description:
    "Asks the person one question and waits for the answer: which of several things they meant, or a value you cannot find. " +
    "Give options when the answer is a choice. Ask only what you cannot find out with your other tools; never ask for permission to run a command (the approval dialog does that).",
  schema: askSchema,
  parallelSafe: false,
  gatesBeforeEffect: false,
  limits: (config) => [
    `One question of up to ${MAX_QUESTION} characters, up to ${MAX_OPTIONS} options.`,
    config.inquiry.timeoutSeconds !== undefined
      ? `A question waits ${config.inquiry.timeoutSeconds} s for an answer (inquiry.timeoutSeconds).`
      : "A question waits as long as the person takes.",
  ],
  examplePrompt: "Ask me which of ./a.json and ./b.json I meant, then read that one.",
  async run(args, ctx): Promise<ToolResult> {
    const inquiry: Inquiry = {
      id: randomHex(4),
      question: args.question,
      options: args.options ?? [],
    };
    ctx.audit.record("inquiry.asked", {
      inquiryId: inquiry.id,
      question: inquiry.question,
      options: inquiry.options,
    });
    const inquirer = ctx.inquirer;
    if (!inquirer) {
      ctx.audit.record("inquiry.settled", { inquiryId: inquiry.id, outcome: "no-person" });
      return {
        ok: false,
        text: "no person can answer here (wisp respond); say in your reply what you need",
      };
    }
    const seconds = ctx.config.inquiry.timeoutSeconds;
    const stop = new AbortController();
    const onAbort = () => stop.abort(ctx.signal?.reason);
    ctx.signal?.addEventListener("abort", onAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = seconds === undefined
      ? new Promise<never>(() => {})
      : new Promise<InquiryOutcome>((resolve) => {
        timer = setTimeout(() => {
          stop.abort(new Error("no answer in time"));
          resolve({ kind: "timeout", seconds });
        }, seconds * 1000);
      });
    let outcome: InquiryOutcome;
    try {
      outcome = await Promise.race([
        inquirer.ask(inquiry, stop.signal).catch((): InquiryOutcome => ({ kind: "declined" })),
        deadline,
      ]);
    } finally {
      clearTimeout(timer);
      ctx.signal?.removeEventListener("abort", onAbort);
    }
    if (ctx.signal?.aborted && outcome.kind !== "answered") outcome = { kind: "declined" };
    ctx.audit.record(outcome.kind === "waiting" ? "inquiry.pending" : "inquiry.settled", {
      inquiryId: inquiry.id,
      outcome: outcome.kind,
      ...(outcome.kind === "waiting"
        ? { pendingId: outcome.pendingId, question: inquiry.question }
        : {}),
    });
    return {
      ok: outcome.kind === "answered" || outcome.kind === "waiting",
      text: outcomeText(outcome, inquiry.question),
      ...(outcome.kind === "answered" ? { meta: { answer: outcome.text } } : {}),
    };
  },
};

/**
 * What waits for the person in `wisp mcp` servers, as a plain chat shows it
 * and answers it. The chat face calls `notes()` before each prompt and the
 * `/approvals` and `/questions` slash commands call `pendingLines()` and
 * `answer()`; nothing here reads a terminal or prints.
 *
 * - A request newly waiting is noted once, with its id; the first of each
 *   kind also says how to answer (in the chat when its stdin is a terminal,
 *   else with `wisp approvals` at a terminal, since piped lines never
 *   answer).
 * - A request seen before and gone now is noted once with how it ended, from
 *   the outcome its server left; one answered in this chat is not noted
 *   again.
 * - An answer goes over the request's socket exactly as `wisp approvals
 *   approve|deny` sends it (faces/mcp/answer.ts): bound to the request file
 *   as read, first answer wins, and the server checks that the sender is a
 *   plain chat reading a terminal (gate/answerer.ts). It is audited on the
 *   chat's own session as `approval.answered` with `via: "chat"`.
 */
import { answerPending, type AnswerResult } from "../mcp/answer.ts";
import {
  approvalWords,
  isPendingId,
  listPending,
  listPendingItems,
  listQuestions,
  listUnreadable,
  outcomePath,
  outcomeWords,
  parseOutcome,
  type PendingItem,
  type PendingOutcome,
  type PendingQuestion,
  type PendingRequest,
  type Scope,
  SCOPES,
} from "../../gate/pending.ts";
import { probeProcess, type Prober } from "../../platform/process_probe.ts";
import { tildePath } from "../terminal/approval_dialog.ts";

/** Where an answer from the chat is audited (the chat session's audit log). */
export interface AnswerAudit {
  record(type: "approval.answered" | "inquiry.answered", fields: Record<string, unknown>): void;
}

export interface WaitingOptions {
  /** The pending folder (`<home>/pending`). */
  dir: string;
  /** Whether the chat's standard input is a terminal: only then does it answer. */
  stdinIsTerminal: boolean;
  prober?: Prober;
  home?: string;
  /**
   * A program drives this chat (`wisp chat --json`): the server refuses its
   * answers whatever its input is (gate/answerer.ts), so it says so.
   */
  drivenByProgram?: boolean;
  /** Which face answers, for the audit's `via`: the plain chat or wisp-tui. Default "chat". */
  via?: "chat" | "tui";
}

/**
 * Why a chat that cannot answer request `id` refuses, naming the terminal
 * command that answers it (`approvals approve`, `facts keep`, …). Pure.
 */
export function cannotAnswerHere(id: string, command: string, drivenByProgram: boolean): string {
  return drivenByProgram
    ? `wisp chat --json cannot answer ${id}: a program drives it, and wisp mcp takes answers only from a person at a terminal; run wisp ${command} ${id} in a terminal`
    : `this chat does not read a terminal, so it cannot answer ${id}; run wisp ${command} ${id} in a terminal`;
}

/**
 * The ids this process's chat answered: shared by every WaitingInMcp, so the
 * slash command that answers and the prompt that notes agree.
 */
const answeredInThisChat = new Set<string>();

/** Record that this chat answered request `id` (a fact kept with /facts), so it is not noted again. */
export function answeredInChat(id: string): void {
  answeredInThisChat.add(id);
}

/**
 * The words for a waiting approval, as a note names it: a command to run, or
 * a model action as what it is (`pull model …`, asked every time). Pure.
 */
export function requestWords(request: PendingRequest, home?: string): string {
  const where = tildePath(request.cwd, home);
  if (request.asks === "model") {
    return `${approvalWords(request)}, a model action asked of you every time, ${request.level}`;
  }
  if (request.outsideSandbox) {
    return `run ${request.command} OUTSIDE THE SANDBOX, this once, in ${where}, ${request.level}`;
  }
  return `run ${request.command} in ${where}, ${request.level}`;
}

/** The note for a request newly waiting (and, first of its kind, how to answer). Pure. */
export function waitingNote(
  request: PendingRequest,
  firstOfKind: boolean,
  canAnswer: boolean,
  home?: string,
): string[] {
  const lines = [
    `⚠ ${request.id} waiting in wisp mcp (${request.client}, thread ${request.thread}): ${
      requestWords(request, home)
    }`,
  ];
  if (firstOfKind) {
    lines.push(
      canAnswer
        ? "  answer with /approvals approve ID [once|session|project|always] or /approvals deny ID"
        : "  answer with wisp approvals approve|deny ID at a terminal (this chat's input is not one)",
    );
  }
  return lines;
}

/** The note for a question newly waiting (and, first of its kind, how to answer). Pure. */
export function questionNote(
  question: PendingQuestion,
  firstOfKind: boolean,
  canAnswer: boolean,
): string[] {
  const options = question.options.length > 0 ? ` (${question.options.join(" | ")})` : "";
  const lines = [
    `? ${question.id} waiting in wisp mcp (${question.client}, thread ${question.thread}): the model asks: ${question.question}${options}`,
  ];
  if (firstOfKind) {
    lines.push(
      canAnswer
        ? "  answer with /questions answer ID, which prompts for the answer, or /questions decline ID"
        : "  answer with wisp questions answer|decline ID at a terminal (this chat's input is not one)",
    );
  }
  return lines;
}

/**
 * The note for a request file that cannot be read: it is not shown as
 * anything it might be, and nothing answers it (ADR 0625). Pure.
 */
export function unreadableNote(id: string, why: string): string {
  return `⚠ ${id} waits in wisp mcp, but its request cannot be read (${why}): wisp cannot tell what it asks and will not answer it`;
}

/** How a request that stopped waiting ended: the pending board's own words, under the name the chat uses. */
export { outcomeWords as endedWords } from "../../gate/pending.ts";

/** The outcome its server left for request `id`, if any. */
export function readOutcome(dir: string, id: string): PendingOutcome | undefined {
  try {
    return parseOutcome(Deno.readTextFileSync(outcomePath(dir, id)));
  } catch {
    return undefined;
  }
}

/** What waits in `wisp mcp` servers, for one chat. */
export class WaitingInMcp {
  readonly #dir: string;
  #canAnswer: boolean;
  readonly #prober: Prober;
  readonly #home: string | undefined;
  readonly #drivenByProgram: boolean;
  readonly #via: "chat" | "tui";
  /** Requests noted and still waiting when last looked. */
  #seen = new Map<string, PendingItem>();
  /** Unreadable request files already noted (each is noted once). */
  #unreadableSeen = new Set<string>();
  /** Ids this chat answered: not noted again when they go. */
  #answeredHere = answeredInThisChat;
  /** How many approvals and questions waited when last looked (notes). */
  counts = { approvals: 0, questions: 0 };
  /** The kinds whose first note said how to answer. */
  #toldHow = new Set<string>();

  constructor(options: WaitingOptions) {
    this.#dir = options.dir;
    this.#canAnswer = options.stdinIsTerminal;
    this.#prober = options.prober ?? probeProcess;
    this.#home = options.home ?? Deno.env.get("HOME");
    this.#drivenByProgram = options.drivenByProgram ?? false;
    this.#via = options.via ?? "chat";
    if (this.#drivenByProgram) this.#canAnswer = false;
  }

  /** The lines to print before the next prompt: requests newly waiting, and those gone since. */
  async notes(): Promise<string[]> {
    const now = await listPendingItems(this.#dir, this.#prober);
    this.counts = {
      approvals: now.filter((l) => l.request.kind === "approval").length,
      questions: now.filter((l) => l.request.kind === "question").length,
    };
    const lines: string[] = [];
    const current = new Map(now.map((l) => [l.request.id, l.request]));
    for (const id of [...this.#seen.keys()]) {
      if (current.has(id)) continue;
      this.#seen.delete(id);
      if (this.#answeredHere.delete(id)) continue;
      lines.push(`· ${id} no longer waiting: ${outcomeWords(readOutcome(this.#dir, id))}`);
    }
    for (const { id, why } of listUnreadable(this.#dir)) {
      if (this.#unreadableSeen.has(id)) continue;
      this.#unreadableSeen.add(id);
      lines.push(unreadableNote(id, why));
    }
    for (const [id, request] of current) {
      if (this.#seen.has(id)) continue;
      this.#seen.set(id, request);
      const first = !this.#toldHow.has(request.kind);
      lines.push(
        ...(request.kind === "question"
          ? questionNote(request, first, this.#canAnswer)
          : waitingNote(request, first, this.#canAnswer, this.#home)),
      );
      this.#toldHow.add(request.kind);
    }
    return lines;
  }

  /** `/approvals pending`: every request waiting, one line each. */
  async pendingLines(): Promise<string[]> {
    const now = await listPending(this.#dir, this.#prober);
    const unreadable = listUnreadable(this.#dir);
    if (now.length === 0 && unreadable.length === 0) return ["nothing waits in wisp mcp servers"];
    return [
      ...now.map(({ request, waited }) =>
        `${request.id}  ${waited} s  ${request.client}/${request.thread}  ${
          requestWords(request, this.#home)
        }`
      ),
      ...unreadable.map(({ id, why }) =>
        `${id}  UNREADABLE: ${why}; wisp cannot tell what it asks and will not answer it`
      ),
    ];
  }

  /** The ids waiting now, for `/approvals approve` without an id to offer. */
  async waitingIds(): Promise<string[]> {
    return (await listPending(this.#dir, this.#prober)).map((l) => l.request.id);
  }

  /**
   * `/approvals approve ID [scope]` or `/approvals deny ID`: refused unless
   * the chat reads a terminal; otherwise sent as `wisp approvals` sends it.
   */
  async answer(
    id: string,
    decision: "approve" | "deny",
    scope: string | undefined,
    audit: AnswerAudit,
  ): Promise<AnswerResult> {
    if (!this.#canAnswer) {
      return {
        exitCode: 1,
        message: cannotAnswerHere(id, `approvals ${decision}`, this.#drivenByProgram),
      };
    }
    if (
      decision === "approve" && scope !== undefined &&
      !(SCOPES as readonly string[]).includes(scope)
    ) {
      return {
        exitCode: 64,
        message: `the scope must be one of ${SCOPES.join(", ")} (it is "${scope}")`,
      };
    }
    if (!isPendingId(id)) {
      return {
        exitCode: 1,
        message: `no request waits with the id ${id}; /approvals pending lists them`,
      };
    }
    const seen = this.#seen.get(id);
    const request = seen?.kind === "approval" ? seen : undefined;
    const result = await answerPending(this.#dir, id, {
      decision,
      ...(scope ? { scope: scope as Scope } : {}),
      prober: this.#prober,
    });
    if (result.exitCode === 0) this.#answeredHere.add(id);
    audit.record("approval.answered", {
      ...(request
        ? { command: request.command, thread: request.thread, client: request.client }
        : {}),
      decision: result.exitCode === 0
        ? (decision === "deny" ? "no" : scope ?? "once")
        : "not-taken",
      by: "person",
      via: this.#via,
      pendingId: id,
      ...(result.exitCode === 0 ? {} : { reason: result.message }),
    });
    return result;
  }

  /**
   * The answer to a fact a caller asks to keep, from a chat that cannot
   * answer (a program drives it, or its input is no terminal): refused with
   * the terminal command. A plain chat at a terminal keeps or drops facts
   * with /facts keep|drop (facts.ts).
   */
  refuseFact(id: string, decision: "keep" | "drop"): AnswerResult {
    return {
      exitCode: 1,
      message: cannotAnswerHere(id, `facts ${decision}`, this.#drivenByProgram),
    };
  }

  /** The questions waiting now (`/questions` lists them; `/questions answer` shows one). */
  async questions(): Promise<PendingQuestion[]> {
    return (await listQuestions(this.#dir, this.#prober)).map((l) => l.request);
  }

  /**
   * `/questions answer ID` (with the text typed at its own prompt) or
   * `/questions decline ID`: refused unless the chat reads a terminal; sent
   * as `wisp questions` sends it, audited as inquiry.answered via chat.
   */
  async answerQuestion(
    id: string,
    decision: "answer" | "decline",
    text: string | undefined,
    audit: AnswerAudit,
  ): Promise<AnswerResult> {
    if (!this.#canAnswer) {
      return {
        exitCode: 1,
        message: cannotAnswerHere(id, `questions ${decision}`, this.#drivenByProgram),
      };
    }
    if (!isPendingId(id)) {
      return { exitCode: 1, message: `no question waits with the id ${id}; /questions lists them` };
    }
    const result = await answerPending(this.#dir, id, {
      decision,
      ...(text !== undefined ? { text } : {}),
      prober: this.#prober,
    });
    if (result.exitCode === 0) this.#answeredHere.add(id);
    audit.record("inquiry.answered", {
      decision: result.exitCode === 0 ? decision : "not-taken",
      by: "person",
      via: this.#via,
      pendingId: id,
      ...(result.exitCode === 0 ? {} : { reason: result.message }),
    });
    return result;
  }
}

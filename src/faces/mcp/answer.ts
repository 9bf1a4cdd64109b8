/**
 * The terminal's side of a pending request: `wisp approvals approve|deny`
 * sends an answer bound to the request file it read over the request's
 * socket, where the server learns from the kernel which process sent it,
 * then waits (up to five seconds) for the server's reply and reports it.
 */
import { dirname, join } from "node:path";
import { keepPermanentFact } from "../../context/facts/permanent.ts";
import { connectLocal, type PeerConnection } from "../../platform/peer_socket.ts";
import {
  isPendingId,
  outcomePath,
  parseOutcome,
  parseRequest,
  type PendingAnswer,
  type PendingFactRequest,
  type PendingOutcome,
  type PendingQuestion,
  type PendingRequest,
  requestPath,
  requestText,
  type Scope,
  serverAlive,
  sha256Hex,
  socketPath,
  staleness,
  writeOutcome,
} from "../../gate/pending.ts";
import { probeProcess, type Prober } from "../../platform/process_probe.ts";

const ANSWER_WAIT_MS = 5000;

export interface AnswerResult {
  /** 0 taken, 1 refused or not taken, 64 misuse. */
  exitCode: 0 | 1 | 64;
  message: string;
}

export interface AnswerOptions {
  /** approve|deny for a command; keep|drop for a fact; answer|decline for a question. */
  decision: "approve" | "deny" | "keep" | "drop" | "answer" | "decline";
  scope?: Scope;
  /** The typed answer to a question. */
  text?: string;
  waitMs?: number;
  pollMs?: number;
  prober?: Prober;
  /** Where permanent facts are kept (default: facts.json beside the pending folder). */
  factsPath?: string;
  /** A fact whose server had stopped was kept (or dropped) here: for the audit. */
  onKept?: (request: PendingFactRequest, permanentId: string) => void;
  onDropped?: (request: PendingFactRequest) => void;
  /** Where the answer was given, for a fact kept here and its outcome: "terminal" by default, "chat". */
  via?: string;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function readOutcome(dir: string, id: string): PendingOutcome | undefined {
  try {
    return parseOutcome(Deno.readTextFileSync(outcomePath(dir, id)));
  } catch {
    return undefined;
  }
}

function describeBy(by: string): string {
  switch (by) {
    case "elicitation":
      return "in the client's dialog";
    case "terminal":
      return "at a terminal";
    case "timeout":
      return "by the time limit";
    default:
      return `by ${by}`;
  }
}

/** What a final outcome says to a terminal that did not cause it. */
export function answeredElsewhere(outcome: PendingOutcome): string {
  if (outcome.status === "kept" || outcome.status === "dropped") {
    return `${outcome.id} was already answered ${
      describeBy(outcome.by)
    }: ${outcome.status}: ${outcome.command}`;
  }
  if (outcome.status === "answered" || outcome.status === "declined") {
    return `${outcome.id} was already ${outcome.status} ${
      describeBy(outcome.by)
    }: ${outcome.command}`;
  }
  if (outcome.status === "approved") {
    return `${outcome.id} was already answered ${describeBy(outcome.by)}: approved (${
      outcome.scope ?? "once"
    }): ${outcome.command}`;
  }
  if (outcome.status === "denied") {
    return `${outcome.id} was already answered ${
      describeBy(outcome.by)
    }: refused: ${outcome.command}`;
  }
  return `${outcome.id} no longer waits${
    outcome.reason ? `: ${outcome.reason}` : ""
  } (${outcome.command})`;
}

/** The line printed when the server took the answer. */
export function takenLine(outcome: PendingOutcome, asked: Scope | undefined): string {
  const thread = `for thread ${outcome.thread}`;
  if (outcome.status === "denied") return `denied: ${outcome.command} ${thread}`;
  if (outcome.outsideSandbox) {
    const note = asked && asked !== "once" ? ` (${asked} is taken as once)` : "";
    return `approved once, outside the sandbox${note}: ${outcome.command} ${thread}`;
  }
  return `approved (${outcome.scope ?? "once"}): ${outcome.command} ${thread}`;
}

/** The line printed when the server took the answer to a question. */
export function questionTakenLine(outcome: PendingOutcome): string {
  // A parked turn has ended: the thread learns the answer when its caller next sends respond.
  const when = outcome.parked ? "on its next turn" : "in this turn";
  return outcome.status === "declined"
    ? `declined: ${outcome.command}; thread ${outcome.thread} is told you did not answer ${
      outcome.parked ? "on its next turn" : ""
    }`.trimEnd()
    : `answered: ${outcome.command}; thread ${outcome.thread} reads it ${when}`;
}

/** A sentence for an error reading or reaching something in the pending folder. */
function unreachable(path: string, error: unknown): string {
  const why = error instanceof Deno.errors.PermissionDenied
    ? "permission denied"
    : (error as Error).message;
  return `${path} cannot be read (${why}); the pending folder must be yours and 0700: chmod 700 ${
    dirname(path)
  }`;
}

export async function answerPending(
  dir: string,
  id: string,
  options: AnswerOptions,
): Promise<AnswerResult> {
  const fail = (message: string): AnswerResult => ({ exitCode: 1, message });
  const lister = options.decision === "keep" || options.decision === "drop"
    ? "wisp facts pending"
    : options.decision === "answer" || options.decision === "decline"
    ? "wisp questions pending"
    : "wisp approvals pending";
  if (!isPendingId(id)) {
    return fail(`no request waits with the id ${id}; ${lister} lists them`);
  }
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(requestPath(dir, id));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      return fail(unreachable(requestPath(dir, id), error));
    }
    const outcome = readOutcome(dir, id);
    if (outcome && outcome.status !== "refused") return fail(answeredElsewhere(outcome));
    return fail(`no request waits with the id ${id}; ${lister} lists them`);
  }
  const parsed = parseRequest(new TextDecoder().decode(bytes));
  if (!parsed) {
    return fail(`the request file of ${id} is not one wisp wrote (it was altered); it is refused`);
  }
  if (options.decision === "keep" || options.decision === "drop") {
    return await answerFact(dir, id, bytes, parsed, options);
  }
  const wanted = options.decision === "answer" || options.decision === "decline"
    ? "question"
    : "approval";
  if (parsed.kind !== wanted) {
    return {
      exitCode: 64,
      message: parsed.kind === "fact"
        ? `${id} is a fact to keep, not a ${
          wanted === "question" ? "question" : "command"
        }: answer it with wisp facts keep|drop ${id}`
        : parsed.kind === "question"
        ? `${id} is a question, not a command: answer it with wisp questions answer|decline ${id}`
        : parsed.kind === "approval"
        ? `${id} is a command waiting for approval, not a question: answer it with wisp approvals approve|deny ${id}`
        : `${id} is not a ${wanted === "question" ? "question" : "command waiting for approval"}`,
    };
  }
  const request = parsed as PendingRequest | PendingQuestion;
  if (request.id !== id) {
    return fail(`the request file of ${id} names another id (it was altered); it is refused`);
  }
  let mtime: number | undefined;
  try {
    mtime = Deno.statSync(requestPath(dir, id)).mtime?.getTime();
  } catch { /* gone meanwhile: taken as stale below if so */ }
  const state = staleness(
    request,
    mtime,
    await serverAlive(request.server, options.prober ?? probeProcess),
  );
  if (state.stale) {
    writeOutcome(dir, {
      id,
      status: "closed",
      by: "server",
      reason: `stale: ${state.why}`,
      command: requestText(request),
      thread: request.thread,
      at: new Date().toISOString(),
    });
    try {
      Deno.removeSync(requestPath(dir, id));
    } catch { /* gone */ }
    return fail(
      `${id} is stale: ${state.why}; nothing was ${wanted === "question" ? "sent" : "approved"}`,
    );
  }
  const answer: PendingAnswer = {
    version: 1,
    id,
    decision: options.decision,
    ...(options.decision === "approve" ? { scope: options.scope ?? "once" } : {}),
    ...(options.decision === "answer" && options.text !== undefined ? { text: options.text } : {}),
    digest: await sha256Hex(bytes),
  };
  return await sendAnswer(
    dir,
    id,
    answer,
    options,
    (outcome) =>
      outcome.status === "answered" || outcome.status === "declined"
        ? questionTakenLine(outcome)
        : takenLine(outcome, options.scope),
  );
}

/**
 * Send `answer` over the request's socket and report the server's reply:
 * `taken` words the outcome when this terminal's answer was the one taken.
 */
async function sendAnswer(
  dir: string,
  id: string,
  answer: PendingAnswer,
  options: AnswerOptions,
  taken: (outcome: PendingOutcome) => string,
): Promise<AnswerResult> {
  const fail = (message: string): AnswerResult => ({ exitCode: 1, message });
  const nothing = answer.decision === "keep" || answer.decision === "drop"
    ? "nothing was kept"
    : answer.decision === "answer" || answer.decision === "decline"
    ? "nothing was sent"
    : "nothing was approved";
  let conn: PeerConnection | undefined;
  try {
    conn = connectLocal(socketPath(dir, id));
  } catch (error) {
    return fail(unreachable(socketPath(dir, id), error));
  }
  if (!conn) {
    const outcome = readOutcome(dir, id);
    if (outcome && outcome.status !== "refused") return fail(answeredElsewhere(outcome));
    return fail(
      `the server of ${id} does not listen for answers (it may have stopped); ${nothing}`,
    );
  }
  try {
    conn.writeLine(JSON.stringify(answer));
    const waitMs = options.waitMs ?? ANSWER_WAIT_MS;
    const deadline = Date.now() + waitMs;
    const poll = options.pollMs ?? 20;
    for (;;) {
      const line = conn.readLine();
      if (line !== undefined) {
        const outcome = parseOutcome(line);
        if (!outcome) return fail(`the server's reply about ${id} could not be read`);
        if (outcome.status === "refused") {
          return fail(`${id}: the answer was refused: ${outcome.reason ?? "no reason given"}`);
        }
        if (outcome.by === "terminal") return { exitCode: 0, message: taken(outcome) };
        return fail(answeredElsewhere(outcome));
      }
      if (conn.peerGone()) {
        return fail(`the server of ${id} closed the connection without a reply; ${nothing}`);
      }
      if (Date.now() >= deadline) {
        return fail(
          `the server did not reply about ${id} within ${
            Math.round(waitMs / 1000)
          } s; look again with wisp ${
            answer.decision === "keep" || answer.decision === "drop"
              ? "facts"
              : answer.decision === "answer" || answer.decision === "decline"
              ? "questions"
              : "approvals"
          } pending`,
        );
      }
      await sleep(poll);
    }
  } finally {
    conn.close();
  }
}

/** The line `wisp facts keep|drop` prints when the server took the answer. */
export function factTakenLine(outcome: PendingOutcome): string {
  return outcome.status === "kept"
    ? `kept as a permanent fact: ${outcome.command} (thread ${outcome.thread})`
    : `not kept: ${outcome.command} stays in thread ${outcome.thread} only, which will not ask again`;
}

/**
 * `wisp facts keep|drop`: the request must be a fact's; while its server
 * runs the answer goes over the socket like an approval's; once the server
 * has stopped, keep admits the fact to facts.json here and drop ends the
 * request.
 */
async function answerFact(
  dir: string,
  id: string,
  bytes: Uint8Array,
  parsed: NonNullable<ReturnType<typeof parseRequest>>,
  options: AnswerOptions,
): Promise<AnswerResult> {
  const fail = (message: string): AnswerResult => ({ exitCode: 1, message });
  if (parsed.kind !== "fact") {
    return {
      exitCode: 64,
      message: parsed.kind === "approval"
        ? `${id} is a command waiting for approval, not a fact: answer it with wisp approvals approve|deny ${id}`
        : parsed.kind === "question"
        ? `${id} is a question, not a fact: answer it with wisp questions answer|decline ${id}`
        : `${id} is not a fact waiting to be kept`,
    };
  }
  const request = parsed as PendingFactRequest;
  if (request.id !== id) {
    return fail(`the request file of ${id} names another id (it was altered); it is refused`);
  }
  const alive = await serverAlive(request.server, options.prober ?? probeProcess);
  if (alive === false) return settleStopped(dir, request, options);
  const answer: PendingAnswer = {
    version: 1,
    id,
    decision: options.decision,
    digest: await sha256Hex(bytes),
  };
  const result = await sendAnswer(dir, id, answer, options, factTakenLine);
  // The server stopped between the look and the answer: its request is still here to apply.
  if (
    result.exitCode !== 0 &&
    (await serverAlive(request.server, options.prober ?? probeProcess)) === false
  ) {
    try {
      if (Deno.readFileSync(requestPath(dir, id)).length > 0) {
        return settleStopped(dir, request, options);
      }
    } catch { /* gone: answered */ }
  }
  return result.exitCode === 0 ? result : fail(result.message);
}

/** Apply an answer to a fact whose server has stopped: keep it here, or end the request. */
function settleStopped(
  dir: string,
  request: PendingFactRequest,
  options: AnswerOptions,
): AnswerResult {
  const text = `${request.fact.name || request.fact.subject} = ${request.fact.value}`;
  let message: string;
  if (options.decision === "keep") {
    let permanentId: string;
    try {
      permanentId = keepPermanentFact(options.factsPath ?? join(dirname(dir), "facts.json"), {
        subject: request.fact.subject,
        name: request.fact.name,
        key: request.fact.key,
        value: request.fact.value,
        from: {
          client: request.client,
          thread: request.thread,
          factId: request.fact.id,
          source: request.fact.source,
        },
        via: options.via ?? "terminal",
      }).fact.id;
    } catch (error) {
      return {
        exitCode: 1,
        message: `${request.id}: ${(error as Error).message}; nothing was kept`,
      };
    }
    options.onKept?.(request, permanentId);
    message =
      `kept as a permanent fact: ${text} (thread ${request.thread}); its server had stopped, so wisp kept it itself`;
  } else {
    options.onDropped?.(request);
    message = `not kept: ${text}; its server had stopped, so the request just ends`;
  }
  writeOutcome(dir, {
    id: request.id,
    status: options.decision === "keep" ? "kept" : "dropped",
    by: options.via ?? "terminal",
    reason: "its server had stopped",
    command: text,
    thread: request.thread,
    at: new Date().toISOString(),
  });
  try {
    Deno.removeSync(requestPath(dir, request.id));
  } catch { /* gone */ }
  return { exitCode: 0, message };
}

/**
 * The terminal's side of a pending request: `wisp approvals approve|deny`
 * writes an answer bound to the request file it read, then waits (up to
 * three seconds) for the server to take it and reports what happened.
 */
import { join } from "node:path";
import {
  answerPath,
  isPendingId,
  outcomePath,
  parseOutcome,
  parseRequest,
  type PendingAnswer,
  type PendingOutcome,
  type PendingRequest,
  requestPath,
  type Scope,
  serverAlive,
  sha256Hex,
  staleness,
  writeOutcome,
} from "./pending.ts";
import { probeProcess, type Prober } from "./procinfo.ts";

export const ANSWER_WAIT_MS = 3000;

export interface AnswerResult {
  /** 0 taken, 1 refused or not taken, 64 misuse. */
  exitCode: 0 | 1 | 64;
  message: string;
}

export interface AnswerOptions {
  decision: "approve" | "deny";
  scope?: Scope;
  /** The answering process's terminal (its stdin), when known. */
  tty?: string;
  waitMs?: number;
  pollMs?: number;
  prober?: Prober;
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

/** Write `answer` as `<id>.answer`, exclusively and whole (a temp file linked into place). */
function writeAnswerExclusive(dir: string, id: string, answer: PendingAnswer): boolean {
  const temp = join(dir, `.${id}.answer.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  const file = Deno.openSync(temp, { write: true, createNew: true, mode: 0o600 });
  try {
    file.writeSync(new TextEncoder().encode(JSON.stringify(answer) + "\n"));
    file.syncSync();
  } finally {
    file.close();
  }
  try {
    Deno.linkSync(temp, answerPath(dir, id));
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  } finally {
    try {
      Deno.removeSync(temp);
    } catch { /* gone */ }
  }
}

export async function answerPending(
  dir: string,
  id: string,
  options: AnswerOptions,
): Promise<AnswerResult> {
  const fail = (message: string): AnswerResult => ({ exitCode: 1, message });
  if (!isPendingId(id)) {
    return fail(`no request waits with the id ${id}; wisp approvals pending lists them`);
  }
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(requestPath(dir, id));
  } catch {
    const outcome = readOutcome(dir, id);
    if (outcome && outcome.status !== "refused") return fail(answeredElsewhere(outcome));
    return fail(`no request waits with the id ${id}; wisp approvals pending lists them`);
  }
  const parsed = parseRequest(new TextDecoder().decode(bytes));
  if (!parsed) {
    return fail(`the request file of ${id} is not one wisp wrote (it was altered); it is refused`);
  }
  if (parsed.kind !== "approval") {
    return {
      exitCode: 64,
      message: parsed.kind === "fact"
        ? `${id} is a fact to keep, not a command: answer it with wisp facts keep|drop ${id}`
        : parsed.kind === "question"
        ? `${id} is a question, not a command: answer it with wisp questions answer|decline ${id}`
        : `${id} is not a command waiting for approval`,
    };
  }
  const request = parsed as PendingRequest;
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
      command: request.command,
      thread: request.thread,
      at: new Date().toISOString(),
    });
    try {
      Deno.removeSync(requestPath(dir, id));
    } catch { /* gone */ }
    return fail(`${id} is stale: ${state.why}; nothing was approved`);
  }
  const nonce = crypto.randomUUID();
  const answer: PendingAnswer = {
    version: 1,
    id,
    decision: options.decision,
    ...(options.decision === "approve" ? { scope: options.scope ?? "once" } : {}),
    digest: await sha256Hex(bytes),
    nonce,
    by: { pid: Deno.pid, ...(options.tty ? { tty: options.tty } : {}) },
    at: new Date().toISOString(),
  };
  if (!writeAnswerExclusive(dir, id, answer)) {
    return fail(`${id} is already being answered from another terminal`);
  }
  const deadline = Date.now() + (options.waitMs ?? ANSWER_WAIT_MS);
  const poll = options.pollMs ?? 50;
  let withdrawn = false;
  for (;;) {
    const outcome = readOutcome(dir, id);
    if (outcome) {
      if (outcome.status === "refused" && outcome.nonce === nonce) {
        return fail(`${id}: the answer was refused: ${outcome.reason ?? "no reason given"}`);
      }
      if (outcome.status !== "refused") {
        if (outcome.by === "terminal") {
          return { exitCode: 0, message: takenLine(outcome, options.scope) };
        }
        return fail(answeredElsewhere(outcome));
      }
    }
    if (Date.now() >= deadline) {
      if (withdrawn) break;
      // Take the answer back unless the server has just claimed it; then give it one more second.
      try {
        Deno.removeSync(answerPath(dir, id));
        return fail(
          `the server did not take the answer to ${id} within ${
            Math.round((options.waitMs ?? ANSWER_WAIT_MS) / 1000)
          } s (it may have stopped); nothing was approved`,
        );
      } catch {
        withdrawn = true;
      }
    }
    await sleep(poll);
    if (withdrawn && Date.now() > deadline + 1000) break;
  }
  return fail(`the server took the answer to ${id} but did not say what it made of it`);
}

/**
 * Requests waiting for a person, in `<home>/pending`, so that a terminal
 * (`wisp approvals approve|deny`) can answer what a `wisp mcp` server asks.
 * Per request, all 0600:
 *
 *   <id>.json     the request, written whole by the server; the person reads it
 *   <id>.sock     the server's socket for answers (ADR 0270)
 *   <id>.outcome  what the server made of it, for a late terminal to report
 *
 * An answer is one line sent over the socket, never a file: the kernel names
 * the process that connected (peer_socket.ts), and the server refuses it
 * unless that process is wisp's own `approvals approve|deny <id>` at a
 * terminal of its own and does not descend from the MCP client or from the
 * server (answerer.ts). The answer is bound to exactly what was shown: it
 * carries the SHA-256 of the request file as the terminal read it, compared
 * with the bytes the server wrote (kept in memory). The server replies with
 * the outcome on the same connection. A request whose server has stopped, or
 * whose wait expired, is stale and removed by whoever lists the folder.
 *
 * A fact an MCP caller asks the person to keep (kind "fact") is filed and
 * answered the same way, by `wisp facts keep|drop <id>`, with two
 * differences: it waits with no time limit, and it outlives its server (when
 * the server stops, its socket goes but its request file stays, and the
 * terminal applies the answer itself).
 */
import { join } from "node:path";
import { ensurePrivateDir } from "../config/home.ts";
import { writeFileAtomicSync } from "../util/atomic.ts";
import { type PeerConnection, PeerListener } from "../platform/peer_socket.ts";
import { probeProcess, type Prober } from "../platform/process_probe.ts";
import {
  type AnswererCheck,
  type AnswererVia,
  checkAnswerer,
  ownIdentity,
  serverLineage,
  type WispIdentity,
} from "./answerer.ts";
import type { Level } from "../config/schema.ts";
import { randomHex } from "../util/random_id.ts";
import { removeQuietly } from "../util/fs_safe.ts";

export const SCOPES = ["once", "session", "project", "always"] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * A change to the models wisp can run that the models tool asks for (ADR
 * 0561), as its request records it, so that every face names it as what it
 * is rather than as a command line (ADR 0625).
 */
export interface PendingModelAction {
  verb: "pull" | "enable" | "disable" | "check";
  /** The model as the tool names it: ollama:qwen3:8b, or a Hugging Face repository for a pull. */
  model: string;
  /** Why a person is asked: "downloads a model through Ollama". */
  reason: string;
  /** What it would do: the download's size, the publisher, what changes in config.json. */
  details: string[];
}

const MODEL_VERBS: readonly string[] = ["pull", "enable", "disable", "check"];

export interface PendingRequest {
  version: 1;
  kind: "approval";
  id: string;
  server: { pid: number; start?: string; session: string };
  client: string;
  thread: string;
  /**
   * What is asked: a command line ("command", and so when absent, as older
   * files are) or a model action ("model", with `modelAction`). Any other
   * value makes the file unreadable: it is never shown as a command.
   */
  asks?: "command" | "model";
  /** For `asks: "model"`: the change, as the person is shown it. */
  modelAction?: PendingModelAction;
  /** The line the gate judged (for a model action, `models pull <name>`). */
  command: string;
  level: Level;
  cwd: string;
  reasons: string[];
  pattern?: string;
  outsideSandbox: boolean;
  createdAt: string;
  expiresAt: string;
}

/** The fact a caller asks the person to keep, as the request shows it. */
export interface PendingFact {
  /** The fact's id in its thread (c3). */
  id: string;
  subject: string;
  name: string;
  /** The name as its kind's normaliser reads it. */
  key: string;
  value: string;
  /** Who proposed it in the thread (model, caller, tool, person). */
  by: string;
  /** Its source as its line reads (model, noted, turn 4). */
  source: string;
}

/** A caller's request that the person keep a thread's fact as a permanent fact. */
export interface PendingFactRequest {
  version: 1;
  kind: "fact";
  id: string;
  server: { pid: number; start?: string; session: string };
  client: string;
  thread: string;
  fact: PendingFact;
  createdAt: string;
}

/**
 * A question the model asked through the ask tool, waiting for the person
 * like an approval: answered with `wisp questions answer|decline <id>` or
 * from a plain chat.
 */
export interface PendingQuestion {
  version: 1;
  kind: "question";
  id: string;
  server: { pid: number; start?: string; session: string };
  client: string;
  thread: string;
  question: string;
  /** Empty: a free-text answer. */
  options: string[];
  createdAt: string;
  expiresAt: string;
}

/** A request that waits with a time limit: an approval or a question. */
export type PendingItem = PendingRequest | PendingQuestion;

/** Any request the board files: an approval, a question, or a fact to keep. */
export type FiledRequest = PendingItem | PendingFactRequest;

/** A model action in a few words: `pull model ollama:qwen3:8b`. Pure. */
export function modelActionTitle(action: PendingModelAction): string {
  return `${action.verb} model ${action.model}`;
}

/**
 * A model action as a person is shown it, with what it would do first:
 * `pull model mlx-community/X (downloads 2.3 GB in 4 of 7 files from
 * Hugging Face, as mlx:X)`. Pure.
 */
export function modelActionWords(action: PendingModelAction): string {
  const what = action.details[0] ?? action.reason;
  return what ? `${modelActionTitle(action)} (${what})` : modelActionTitle(action);
}

/**
 * What an approval asks, as every face shows it: the command line, or for a
 * model action its words (modelActionWords). Pure.
 */
export function approvalWords(request: PendingRequest): string {
  return request.asks === "model" && request.modelAction
    ? modelActionWords(request.modelAction)
    : request.command;
}

/**
 * What a gate's approval request asks in words (before or without a file):
 * the command, or a model action as what it is. Pure.
 */
export function askedWords(
  request: { kind?: string; command: string; modelAction?: PendingModelAction },
): string {
  return request.kind === "modelAction" && request.modelAction
    ? modelActionWords(request.modelAction)
    : request.command;
}

/** What a request is about, in a few words: the command, the model action, the question, or the fact's `name = value`. */
export function requestText(request: FiledRequest): string {
  if (request.kind === "approval") {
    return request.asks === "model" && request.modelAction
      ? modelActionTitle(request.modelAction)
      : request.command;
  }
  if (request.kind === "question") return request.question;
  const { name, subject, value } = request.fact;
  return `${name || subject} = ${value}`;
}

/** The decisions each kind of request takes. */
export const DECISIONS = {
  approval: ["approve", "deny"],
  fact: ["keep", "drop"],
  question: ["answer", "decline"],
} as const;

/** The most a typed answer to a question may hold on the socket. */
export const ANSWER_TEXT_MAX = 2000;

/**
 * The line an answering face sends over the request's socket: approve|deny
 * for an approval, keep|drop for a fact, answer|decline for a question.
 */
export interface PendingAnswer {
  version: 1;
  id: string;
  decision: "approve" | "deny" | "keep" | "drop" | "answer" | "decline";
  scope?: Scope;
  /** The answer typed for a question (decision "answer"). */
  text?: string;
  /** SHA-256 (hex) of the request file as the answering terminal read it. */
  digest: string;
}

export type OutcomeStatus =
  | "approved"
  | "denied"
  | "kept"
  | "dropped"
  | "answered"
  | "declined"
  | "refused"
  | "closed";

export interface PendingOutcome {
  id: string;
  status: OutcomeStatus;
  /** Who decided: terminal, elicitation, timeout, server. */
  by: string;
  scope?: Scope;
  reason?: string;
  command: string;
  thread: string;
  outsideSandbox?: boolean;
  /** A question whose turn was parked (wisp mcp): its thread reads the answer on its next turn. */
  parked?: boolean;
  at: string;
}

/** An outcome as far as its words need it: how it ended and who ended it, the rest when known. */
export type OutcomeFacts = Pick<PendingOutcome, "status" | "by"> & Partial<PendingOutcome>;

/**
 * How a request that stopped waiting ended, in a few words, for any face that
 * says so (`wisp approvals pending --watch`, the chat's notes and withdrawn
 * lines): `approved (once) from a terminal`, `denied in the client's dialog`,
 * `its wait ran out unanswered`, `withdrawn: its server stopped`, with the
 * command in brackets when the outcome names it. With no outcome left behind
 * it says so. Pure.
 */
export function outcomeWords(outcome: OutcomeFacts | undefined): string {
  if (!outcome) return "answered elsewhere or withdrawn";
  const what = outcome.command ? ` (${outcome.command})` : "";
  const reason = outcome.reason ?? "";
  // Closed: nobody decided; it stopped waiting, and why is what matters.
  if (outcome.status === "closed") {
    if (outcome.by === "timeout" || /expired/.test(reason)) {
      return `its wait ran out unanswered${what}`;
    }
    if (outcome.by === "server" && /stopped/.test(reason)) {
      return `withdrawn: its server stopped${what}`;
    }
    return `withdrawn${reason ? `: ${reason}` : ""}${what}`;
  }
  const decided = `${outcome.status}${outcome.scope ? ` (${outcome.scope})` : ""}`;
  switch (outcome.by) {
    case "terminal":
      return `${decided} from a terminal${what}`;
    case "elicitation":
      return `${decided} in the client's dialog${what}`;
    case "timeout":
      return `${decided}: its wait ran out${what}`;
    case "server":
      return `${decided}: ${reason || "its server stopped"}${what}`;
    default:
      return `${decided} by ${outcome.by}${what}`;
  }
}

/** How long an outcome file is kept for a late terminal to read. */
const OUTCOME_KEEP_MS = 10 * 60 * 1000;
/** Where /proc cannot tell whether a server runs, its heartbeat must be this fresh. */
const HEARTBEAT_STALE_MS = 30 * 1000;
const HEARTBEAT_EVERY_MS = 5 * 1000;

const ID_PATTERN = /^[0-9a-f]{8}$/;

export function isPendingId(id: string): boolean {
  return ID_PATTERN.test(id);
}

function newPendingId(): string {
  return randomHex(4);
}

export function requestPath(dir: string, id: string): string {
  return join(dir, `${id}.json`);
}
export function socketPath(dir: string, id: string): string {
  return join(dir, `${id}.sock`);
}
export function outcomePath(dir: string, id: string): string {
  return join(dir, `${id}.outcome`);
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function readBytes(path: string): Uint8Array | undefined {
  try {
    return Deno.readFileSync(path);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A fact request's fields, checked; undefined when they are not one. */
function parseFactRequest(value: Record<string, unknown>): PendingFactRequest | undefined {
  const server = value.server;
  const fact = value.fact;
  if (
    typeof value.id !== "string" || !isObject(server) || typeof server.pid !== "number" ||
    typeof value.thread !== "string" || typeof value.client !== "string" ||
    typeof value.createdAt !== "string" || !isObject(fact)
  ) return undefined;
  for (const field of ["id", "subject", "name", "key", "value", "by", "source"]) {
    if (typeof fact[field] !== "string") return undefined;
  }
  return value as unknown as PendingFactRequest;
}

/** Parse a request file's text; undefined when it is not one. */
export function parseRequest(
  text: string,
): FiledRequest | { kind: string; id?: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || typeof value.kind !== "string") return undefined;
  if (value.kind === "fact") return parseFactRequest(value);
  if (value.kind === "question") {
    const server = value.server;
    if (
      typeof value.id !== "string" || !isObject(server) || typeof server.pid !== "number" ||
      typeof value.question !== "string" || !Array.isArray(value.options) ||
      !value.options.every((o) => typeof o === "string") ||
      typeof value.expiresAt !== "string" || typeof value.createdAt !== "string"
    ) return undefined;
    return value as unknown as PendingQuestion;
  }
  if (value.kind !== "approval") {
    return { kind: value.kind, id: typeof value.id === "string" ? value.id : undefined };
  }
  const server = value.server;
  if (
    typeof value.id !== "string" || !isObject(server) || typeof server.pid !== "number" ||
    typeof value.command !== "string" || typeof value.level !== "string" ||
    typeof value.expiresAt !== "string" || typeof value.createdAt !== "string"
  ) return undefined;
  // Fail closed: a request that asks something this wisp cannot read is no command.
  const asks = value.asks ?? "command";
  if (asks === "command") {
    if (value.modelAction !== undefined) return undefined;
  } else if (asks !== "model" || !isModelAction(value.modelAction)) {
    return undefined;
  }
  return value as unknown as PendingRequest;
}

function isModelAction(value: unknown): value is PendingModelAction {
  return isObject(value) && MODEL_VERBS.includes(value.verb as string) &&
    typeof value.model === "string" && value.model !== "" && typeof value.reason === "string" &&
    Array.isArray(value.details) && value.details.every((d) => typeof d === "string");
}

/**
 * Why a request file's text cannot be read as a request this wisp knows, or
 * undefined when it can. Pure.
 */
export function unreadableWhy(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "it is not JSON";
  }
  const parsed = parseRequest(text);
  if (
    parsed && (parsed.kind === "approval" || parsed.kind === "question" || parsed.kind === "fact")
  ) {
    return undefined;
  }
  if (!isObject(value) || typeof value.kind !== "string") return "it names no kind of request";
  if (!(value.kind in DECISIONS)) return `it is of a kind this wisp does not know (${value.kind})`;
  if (
    value.kind === "approval" && value.asks !== undefined && value.asks !== "command" &&
    value.asks !== "model"
  ) {
    return `it asks something this wisp does not know (${String(value.asks)})`;
  }
  return `its ${value.kind} fields cannot be read`;
}

/** A request file in the pending folder that cannot be read: shown as such, never as harmless. */
export interface UnreadableRequest {
  id: string;
  /** Why it cannot be read (unreadableWhy). */
  why: string;
}

/**
 * The ids of the request files in the pending folder (`<id>.json` with an id
 * wisp makes), in the folder's order; none when the folder cannot be read.
 */
function requestIds(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)]
      .filter((e) => e.isFile && e.name.endsWith(".json"))
      .map((e) => e.name.slice(0, -".json".length))
      .filter(isPendingId);
  } catch {
    return [];
  }
}

/**
 * The request files that cannot be read as any request this wisp knows
 * (altered, damaged, or written by another version), in id order. None is
 * removed: whether its server still waits cannot be known from it.
 */
export function listUnreadable(dir: string): UnreadableRequest[] {
  const out: UnreadableRequest[] = [];
  for (const id of requestIds(dir)) {
    let text: string;
    try {
      text = Deno.readTextFileSync(join(dir, `${id}.json`));
    } catch (error) {
      // Removed between the listing and the read: answered meanwhile.
      if (error instanceof Deno.errors.NotFound) continue;
      out.push({ id, why: `it cannot be read (${(error as Error).name})` });
      continue;
    }
    const why = unreadableWhy(text);
    if (why !== undefined) out.push({ id, why });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

function parseAnswer(text: string): PendingAnswer | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const decisions: readonly string[] = Object.values(DECISIONS).flat();
  if (
    typeof value.id !== "string" || !decisions.includes(value.decision as string) ||
    typeof value.digest !== "string" ||
    (value.scope !== undefined && !SCOPES.includes(value.scope as Scope)) ||
    (value.text !== undefined &&
      (typeof value.text !== "string" || value.text.length > ANSWER_TEXT_MAX))
  ) return undefined;
  return value as unknown as PendingAnswer;
}

export function parseOutcome(text: string): PendingOutcome | undefined {
  try {
    const value = JSON.parse(text);
    if (isObject(value) && typeof value.id === "string" && typeof value.status === "string") {
      return value as unknown as PendingOutcome;
    }
  } catch { /* torn or not ours */ }
  return undefined;
}

export type Staleness = { stale: false } | { stale: true; why: string };

/** Whether a process recorded as (pid, start) still runs: true, false, or undefined (cannot tell). */
export async function serverAlive(
  server: { pid: number; start?: string },
  prober: Prober,
): Promise<boolean | undefined> {
  const facts = await prober(server.pid);
  if (!facts) return undefined;
  if (!facts.alive) return false;
  return server.start === undefined || facts.start === undefined || facts.start === server.start;
}

/**
 * Whether a request still waits: its wait has not expired, and its server
 * runs (or, where that cannot be told, its heartbeat is fresh).
 */
export function staleness(
  request: PendingItem,
  mtimeMs: number | undefined,
  alive: boolean | undefined,
  now = Date.now(),
): Staleness {
  if (Date.parse(request.expiresAt) <= now) {
    return {
      stale: true,
      why: `its wait expired (${
        request.kind === "question" ? "inquiry.timeoutSeconds" : "approval.timeoutSeconds"
      })`,
    };
  }
  if (alive === false) return { stale: true, why: "the wisp mcp server that asked has stopped" };
  if (alive === undefined && mtimeMs !== undefined && now - mtimeMs > HEARTBEAT_STALE_MS) {
    return { stale: true, why: "the wisp mcp server that asked has stopped (no heartbeat)" };
  }
  return { stale: false };
}

export interface Listed<T extends PendingItem = PendingRequest> {
  request: T;
  /** Seconds it has waited. */
  waited: number;
}

/**
 * The approval requests waiting, oldest first, after removing stale ones
 * and outcomes older than OUTCOME_KEEP_MS. Files that are not requests are
 * left alone.
 */
export async function listPending(
  dir: string,
  prober: Prober = probeProcess,
  now = Date.now(),
): Promise<Listed[]> {
  return (await listPendingItems(dir, prober, now)).filter((l): l is Listed =>
    l.request.kind === "approval"
  );
}

/** The questions waiting, oldest first (stale ones removed, as listPending does). */
export async function listQuestions(
  dir: string,
  prober: Prober = probeProcess,
  now = Date.now(),
): Promise<Listed<PendingQuestion>[]> {
  return (await listPendingItems(dir, prober, now)).filter((l): l is Listed<PendingQuestion> =>
    l.request.kind === "question"
  );
}

/** Every request waiting, approvals and questions, oldest first, stale ones removed. */
export async function listPendingItems(
  dir: string,
  prober: Prober = probeProcess,
  now = Date.now(),
): Promise<Listed<PendingItem>[]> {
  const out: Listed<PendingItem>[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!entry.isFile) continue;
    const full = join(dir, entry.name);
    if (entry.name.endsWith(".outcome")) {
      try {
        const mtime = Deno.statSync(full).mtime?.getTime() ?? now;
        if (now - mtime > OUTCOME_KEEP_MS) removeQuietly(full);
      } catch { /* gone */ }
      continue;
    }
    if (!entry.name.endsWith(".json")) continue;
    const id = entry.name.slice(0, -".json".length);
    if (!isPendingId(id)) continue;
    let text: string;
    let mtime: number | undefined;
    try {
      text = Deno.readTextFileSync(full);
      mtime = Deno.statSync(full).mtime?.getTime();
    } catch {
      continue;
    }
    const request = parseRequest(text);
    if (!request || (request.kind !== "approval" && request.kind !== "question")) continue;
    const r = request as PendingItem;
    const state = staleness(r, mtime, await serverAlive(r.server, prober), now);
    if (state.stale) {
      removeStale(dir, r, state.why, now);
      continue;
    }
    out.push({
      request: r,
      waited: Math.max(0, Math.floor((now - Date.parse(r.createdAt)) / 1000)),
    });
  }
  out.sort((a, b) => Date.parse(a.request.createdAt) - Date.parse(b.request.createdAt));
  return out;
}

/** A fact request waiting, and whether the server that filed it still runs. */
export interface ListedFact {
  request: PendingFactRequest;
  /** Seconds it has waited. */
  waited: number;
  /** false: its server stopped (the terminal applies an answer itself); undefined: cannot tell. */
  serverRunning: boolean | undefined;
}

/**
 * The fact requests waiting, oldest first. They have no time limit and
 * outlive their server, so none is stale; a file that is not a request is
 * left alone.
 */
export async function listPendingFacts(
  dir: string,
  prober: Prober = probeProcess,
  now = Date.now(),
): Promise<ListedFact[]> {
  const out: ListedFact[] = [];
  for (const id of requestIds(dir)) {
    let text: string;
    try {
      text = Deno.readTextFileSync(join(dir, `${id}.json`));
    } catch {
      continue;
    }
    const request = parseRequest(text);
    if (!request || request.kind !== "fact") continue;
    const r = request as PendingFactRequest;
    out.push({
      request: r,
      waited: Math.max(0, Math.floor((now - Date.parse(r.createdAt)) / 1000)),
      serverRunning: await serverAlive(r.server, prober),
    });
  }
  out.sort((a, b) => Date.parse(a.request.createdAt) - Date.parse(b.request.createdAt));
  return out;
}

/** What an outcome names the request by: the command, or the question asked. */
export function itemWords(item: PendingItem): string {
  return requestText(item);
}

function removeStale(dir: string, request: PendingItem, why: string, now: number): void {
  writeOutcome(dir, {
    id: request.id,
    status: "closed",
    by: "server",
    reason: `stale: ${why}`,
    command: itemWords(request),
    thread: request.thread,
    at: new Date(now).toISOString(),
  });
  removeQuietly(requestPath(dir, request.id));
  removeQuietly(socketPath(dir, request.id));
}

export function writeOutcome(dir: string, outcome: PendingOutcome): void {
  try {
    writeFileAtomicSync(outcomePath(dir, outcome.id), JSON.stringify(outcome) + "\n");
  } catch { /* the folder went away: nobody is waiting for it */ }
}

/** Why an answer is refused, checked by the server against what it filed. */
export type AnswerCheck = { ok: true; answer: PendingAnswer } | { ok: false; reason: string };

/** An answer the server took, with the face the kernel's name for its sender showed (answerer.ts). */
export type TakenAnswer = PendingAnswer & { via: AnswererVia };

/** How long a connection may take to send its answer line before it is dropped. */
const ANSWER_LINE_MS = 2000;

/**
 * Check an answer's bytes against the request as filed (`filed`, the bytes
 * the server wrote) and the request file as it is now (`current`). Who sent
 * it is checked apart, from the kernel's name for the peer (answerer.ts).
 */
export async function checkAnswer(
  answerText: string,
  id: string,
  filed: Uint8Array,
  current: Uint8Array | undefined,
): Promise<AnswerCheck> {
  const answer = parseAnswer(answerText);
  if (!answer || answer.id !== id) {
    return { ok: false, reason: "the message is not an answer wisp sends" };
  }
  const filedDigest = await sha256Hex(filed);
  const altered = current === undefined || (await sha256Hex(current)) !== filedDigest;
  if (altered || answer.digest !== filedDigest) {
    return {
      ok: false,
      reason: altered
        ? "its request file was altered after the server wrote it, so what you were shown is not what waits; the server restored it, look again with wisp approvals pending"
        : "the answer does not match the request as it was filed",
    };
  }
  return { ok: true, answer };
}

/** A connection on a request's socket that has not sent its answer line yet. */
interface Incoming {
  conn: PeerConnection;
  deadline: number;
}

interface Filed {
  bytes: Uint8Array;
  request: FiledRequest;
  listener: PeerListener;
  incoming: Incoming[];
  /** The connection whose answer was taken; it gets the outcome at settle. */
  taker?: PeerConnection;
}

/** A refused answer, for the audit: why, and which process sent it. */
export interface Refusal {
  reason: string;
  pid: number;
}

/** The server's side: files requests, takes answers from their sockets, withdraws requests. */
export class PendingBoard {
  #filed = new Map<string, Filed>();
  #start: string | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  private constructor(
    readonly dir: string,
    readonly prober: Prober,
    readonly identity: WispIdentity,
    /** Processes an answer must not descend from (this server up to the MCP client). */
    readonly lineage: Set<string>,
  ) {}

  /**
   * A board for this server: learns its own start time (so a reused pid is
   * not taken for it) and the processes between it and its client.
   */
  static async open(
    dir: string,
    prober: Prober = probeProcess,
    identity: WispIdentity = ownIdentity(),
  ): Promise<PendingBoard> {
    const lineage = await serverLineage(prober);
    const board = new PendingBoard(dir, prober, identity, lineage);
    board.#start = (await prober(Deno.pid))?.start;
    return board;
  }

  get serverStart(): string | undefined {
    return this.#start;
  }

  /** Approval requests this server has waiting. */
  waiting(): PendingRequest[] {
    return [...this.#filed.values()].map((f) => f.request).filter((r): r is PendingRequest =>
      r.kind === "approval"
    );
  }

  /** Fact requests this server has waiting. */
  waitingFacts(): PendingFactRequest[] {
    return [...this.#filed.values()].map((f) => f.request).filter((r): r is PendingFactRequest =>
      r.kind === "fact"
    );
  }

  /**
   * Write a request file and open its socket; returns the request as filed.
   * It is filed under `id` (the gate's request id, so that one id names the
   * request in `wisp approvals pending`, the notification and `wisp logs`)
   * when that is free.
   */
  file(
    fields:
      & Omit<PendingRequest, "version" | "kind" | "id" | "server" | "createdAt" | "expiresAt">
      & {
        session: string;
        timeoutSeconds: number;
        id?: string;
      },
    now = Date.now(),
  ): PendingRequest {
    ensurePrivateDir(this.dir);
    const { session, timeoutSeconds, id: wanted, ...rest } = fields;
    const id = this.#freeId(wanted);
    const request: PendingRequest = {
      version: 1,
      kind: "approval",
      id,
      server: { pid: Deno.pid, ...(this.#start ? { start: this.#start } : {}), session },
      ...rest,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + timeoutSeconds * 1000).toISOString(),
    };
    return this.#write(request);
  }

  /** File a question of the ask tool, as `file` files an approval; returns it as filed. */
  fileQuestion(
    fields: {
      session: string;
      timeoutSeconds: number;
      client: string;
      thread: string;
      question: string;
      options: string[];
    },
    now = Date.now(),
  ): PendingQuestion {
    ensurePrivateDir(this.dir);
    const { session, timeoutSeconds, ...rest } = fields;
    const id = this.#freeId();
    const question: PendingQuestion = {
      version: 1,
      kind: "question",
      id,
      server: { pid: Deno.pid, ...(this.#start ? { start: this.#start } : {}), session },
      ...rest,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + timeoutSeconds * 1000).toISOString(),
    };
    return this.#write(question);
  }

  /**
   * File a caller's request that the person keep a thread's fact; returns
   * the request as filed. It waits with no time limit.
   */
  fileFact(
    fields: { session: string; client: string; thread: string; fact: PendingFact },
    now = Date.now(),
  ): PendingFactRequest {
    ensurePrivateDir(this.dir);
    const id = this.#freeId();
    const request: PendingFactRequest = {
      version: 1,
      kind: "fact",
      id,
      server: {
        pid: Deno.pid,
        ...(this.#start ? { start: this.#start } : {}),
        session: fields.session,
      },
      client: fields.client,
      thread: fields.thread,
      fact: fields.fact,
      createdAt: new Date(now).toISOString(),
    };
    return this.#write(request);
  }

  /** An id no request of this board or file in the folder has: `wanted` when it is free. */
  #freeId(wanted?: string): string {
    const taken = (id: string) =>
      this.#filed.has(id) || readBytes(requestPath(this.dir, id)) !== undefined;
    let id = wanted !== undefined && isPendingId(wanted) ? wanted : newPendingId();
    while (taken(id)) id = newPendingId();
    return id;
  }

  #write<T extends FiledRequest>(request: T): T {
    const id = request.id;
    // The socket first: a request no terminal could answer is not filed.
    const listener = PeerListener.open(socketPath(this.dir, id));
    const bytes = new TextEncoder().encode(JSON.stringify(request, null, 2) + "\n");
    try {
      writeFileAtomicSync(requestPath(this.dir, id), bytes);
    } catch (error) {
      listener.close();
      throw error;
    }
    this.#filed.set(id, { bytes, request, listener, incoming: [] });
    this.#startHeartbeat();
    return request;
  }

  /**
   * Look for an answer to `id` on its socket. Returns the accepted answer,
   * or undefined (none yet, or refused: the sender is told why on its
   * connection, `onRefused` hears of it, and the request keeps waiting,
   * restored if its file was altered).
   */
  async take(
    id: string,
    onRefused?: (refusal: Refusal) => void,
    now = Date.now(),
  ): Promise<TakenAnswer | undefined> {
    const filed = this.#filed.get(id);
    if (!filed || filed.taker) return undefined;
    for (let conn = filed.listener.accept(); conn; conn = filed.listener.accept()) {
      filed.incoming.push({ conn, deadline: now + ANSWER_LINE_MS });
    }
    const still: Incoming[] = [];
    let taken: TakenAnswer | undefined;
    for (const item of filed.incoming) {
      if (taken) {
        still.push(item);
        continue;
      }
      const line = item.conn.readLine();
      if (line === undefined) {
        if (now < item.deadline && !item.conn.peerGone()) still.push(item);
        else item.conn.close();
        continue;
      }
      const check = await this.#check(filed, id, line, item.conn);
      if (check.ok) {
        taken = { ...check.answer, via: check.via };
        filed.taker = item.conn;
        continue;
      }
      this.#refuse(filed, id, item.conn, check.reason);
      onRefused?.({ reason: check.reason, pid: item.conn.peer.pid });
    }
    filed.incoming = still;
    return taken;
  }

  async #check(
    filed: Filed,
    id: string,
    line: string,
    conn: PeerConnection,
  ): Promise<
    { ok: true; answer: PendingAnswer; via: AnswererVia } | { ok: false; reason: string }
  > {
    const bound = await checkAnswer(line, id, filed.bytes, readBytes(requestPath(this.dir, id)));
    if (!bound.ok) return bound;
    const kind = filed.request.kind;
    if (!(DECISIONS[kind] as readonly string[]).includes(bound.answer.decision)) {
      return {
        ok: false,
        reason: kind === "fact"
          ? "a fact is answered with wisp facts keep|drop, not with another request's answer"
          : kind === "question"
          ? "it is a question: answer it with wisp questions answer|decline"
          : "a command is answered with wisp approvals approve|deny, not with another request's answer",
      };
    }
    const ownUid = Deno.uid();
    if (ownUid !== null && conn.peer.uid !== ownUid) {
      return { ok: false, reason: "the answer came from another user" };
    }
    let who: AnswererCheck;
    try {
      who = await checkAnswerer(conn.peer.pid, id, this.identity, this.lineage, this.prober);
    } catch {
      who = { ok: false, reason: "wisp could not check which process answered" };
    }
    if (!who.ok) return who;
    if (who.decisions !== undefined && !who.decisions.includes(bound.answer.decision)) {
      return { ok: false, reason: `the answering command does not ${bound.answer.decision}` };
    }
    // The pid was read while the peer waits on its connection; gone now, it may name another.
    if (conn.peerGone()) return { ok: false, reason: "the answering process went away" };
    return { ...bound, via: who.via };
  }

  #refuse(filed: Filed, id: string, conn: PeerConnection, reason: string): void {
    // Put the request back as it was filed, so the next reader sees the truth.
    try {
      writeFileAtomicSync(requestPath(this.dir, id), filed.bytes);
    } catch { /* the folder went away */ }
    const outcome: PendingOutcome = {
      id,
      status: "refused",
      by: "server",
      reason,
      command: requestText(filed.request),
      thread: filed.request.thread,
      at: new Date().toISOString(),
    };
    conn.writeLine(JSON.stringify(outcome));
    conn.close();
  }

  /** Whether the request `id` is still filed here (not yet settled or withdrawn). */
  waits(id: string): boolean {
    return this.#filed.has(id);
  }

  /** The request is decided (or withdrawn): tell who is connected, remove it, keep the outcome. */
  settle(id: string, outcome: Omit<PendingOutcome, "id" | "command" | "thread" | "at">): void {
    const filed = this.#filed.get(id);
    if (!filed) return;
    this.#filed.delete(id);
    const full: PendingOutcome = {
      id,
      ...outcome,
      command: requestText(filed.request),
      thread: filed.request.thread,
      ...(filed.request.kind === "approval"
        ? { outsideSandbox: filed.request.outsideSandbox }
        : {}),
      at: new Date().toISOString(),
    };
    writeOutcome(this.dir, full);
    const line = JSON.stringify(full);
    for (
      const conn of [
        ...(filed.taker ? [filed.taker] : []),
        ...filed.incoming.map((i) => i.conn),
      ]
    ) {
      conn.writeLine(line);
      conn.close();
    }
    filed.listener.close();
    removeQuietly(requestPath(this.dir, id));
    if (this.#filed.size === 0) this.#stopHeartbeat();
  }

  /**
   * Withdraw every approval request (the server is stopping). A fact
   * request outlives its server: its socket closes, its file stays for
   * `wisp facts keep|drop` to answer (pending.ts's module comment).
   */
  closeAll(reason = "the wisp mcp server stopped"): void {
    for (const [id, filed] of [...this.#filed.entries()]) {
      if (filed.request.kind === "fact") {
        this.#release(id, filed);
        continue;
      }
      this.settle(id, { status: "closed", by: "server", reason });
    }
    this.#stopHeartbeat();
  }

  #release(id: string, filed: Filed): void {
    for (
      const conn of [
        ...(filed.taker ? [filed.taker] : []),
        ...filed.incoming.map((i) => i.conn),
      ]
    ) {
      conn.close();
    }
    filed.listener.close();
    this.#filed.delete(id);
  }

  /** Remove stale requests left by servers that died (run at start). */
  async sweep(): Promise<void> {
    await listPending(this.dir, this.prober);
  }

  #startHeartbeat(): void {
    if (this.#heartbeat !== undefined) return;
    const timer = setInterval(() => {
      const now = new Date();
      for (const id of this.#filed.keys()) {
        try {
          Deno.utimeSync(requestPath(this.dir, id), now, now);
        } catch { /* removed meanwhile */ }
      }
    }, HEARTBEAT_EVERY_MS);
    Deno.unrefTimer(timer);
    this.#heartbeat = timer;
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }
}

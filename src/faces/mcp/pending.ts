/**
 * Requests waiting for a person, as files in `<home>/pending`, so that a
 * terminal (`wisp approvals approve|deny`) can answer what a `wisp mcp`
 * server asks. Three files per request, all 0600, written whole:
 *
 *   <id>.json     the request, written by the server; the person reads it
 *   <id>.answer   the answer, created once (exclusively) by the terminal
 *   <id>.outcome  what the server made of it, for the terminal to report
 *
 * An answer is bound to exactly what was shown: it carries the SHA-256 of
 * the request file as the terminal read it, and the server compares that
 * with the bytes it wrote (kept in memory). A request file altered since is
 * refused, and so is an answer that no `wisp approvals` process at a
 * terminal wrote (checked through /proc while that process waits for the
 * outcome, through procinfo.ts). A request whose server has stopped, or
 * whose wait expired, is stale and removed by whoever lists the folder.
 */
import { join } from "node:path";
import { ensurePrivateDir } from "../../config/home.ts";
import { writeFileAtomicSync } from "../../util/atomic.ts";
import { isTerminalPath, probeProcess, type Prober } from "./procinfo.ts";

export const SCOPES = ["once", "session", "project", "always"] as const;
export type Scope = (typeof SCOPES)[number];
export type Level = "safe" | "moderate" | "dangerous";

export interface PendingRequest {
  version: 1;
  kind: "approval";
  id: string;
  server: { pid: number; start?: string; session: string };
  client: string;
  thread: string;
  command: string;
  level: Level;
  cwd: string;
  reasons: string[];
  pattern?: string;
  outsideSandbox: boolean;
  createdAt: string;
  expiresAt: string;
}

export interface PendingAnswer {
  version: 1;
  id: string;
  decision: "approve" | "deny";
  scope?: Scope;
  /** SHA-256 (hex) of the request file as the answering terminal read it. */
  digest: string;
  /** Names this answer, so its outcome can be told from an earlier one. */
  nonce: string;
  by: { pid: number; tty?: string };
  at: string;
}

export type OutcomeStatus = "approved" | "denied" | "refused" | "closed";

export interface PendingOutcome {
  id: string;
  status: OutcomeStatus;
  /** The answer this outcome replies to, when it replies to one. */
  nonce?: string;
  /** Who decided: terminal, elicitation, timeout, server. */
  by: string;
  scope?: Scope;
  reason?: string;
  command: string;
  thread: string;
  outsideSandbox?: boolean;
  at: string;
}

/** How long an outcome file is kept for a late terminal to read. */
export const OUTCOME_KEEP_MS = 10 * 60 * 1000;
/** Where /proc cannot tell whether a server runs, its heartbeat must be this fresh. */
export const HEARTBEAT_STALE_MS = 30 * 1000;
export const HEARTBEAT_EVERY_MS = 5 * 1000;

const ID_PATTERN = /^[0-9a-f]{8}$/;

export function isPendingId(id: string): boolean {
  return ID_PATTERN.test(id);
}

export function newPendingId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function requestPath(dir: string, id: string): string {
  return join(dir, `${id}.json`);
}
export function answerPath(dir: string, id: string): string {
  return join(dir, `${id}.answer`);
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

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch { /* already gone */ }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Parse a request file's text; undefined when it is not one. */
export function parseRequest(
  text: string,
): PendingRequest | { kind: string; id?: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || typeof value.kind !== "string") return undefined;
  if (value.kind !== "approval") {
    return { kind: value.kind, id: typeof value.id === "string" ? value.id : undefined };
  }
  const server = value.server;
  if (
    typeof value.id !== "string" || !isObject(server) || typeof server.pid !== "number" ||
    typeof value.command !== "string" || typeof value.level !== "string" ||
    typeof value.expiresAt !== "string" || typeof value.createdAt !== "string"
  ) return undefined;
  return value as unknown as PendingRequest;
}

export function parseAnswer(text: string): PendingAnswer | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const by = value.by;
  if (
    typeof value.id !== "string" || (value.decision !== "approve" && value.decision !== "deny") ||
    typeof value.digest !== "string" || typeof value.nonce !== "string" || !isObject(by) ||
    typeof by.pid !== "number" ||
    (value.scope !== undefined && !SCOPES.includes(value.scope as Scope))
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
  request: PendingRequest,
  mtimeMs: number | undefined,
  alive: boolean | undefined,
  now = Date.now(),
): Staleness {
  if (Date.parse(request.expiresAt) <= now) {
    return { stale: true, why: "its wait expired (approval.timeoutSeconds)" };
  }
  if (alive === false) return { stale: true, why: "the wisp mcp server that asked has stopped" };
  if (alive === undefined && mtimeMs !== undefined && now - mtimeMs > HEARTBEAT_STALE_MS) {
    return { stale: true, why: "the wisp mcp server that asked has stopped (no heartbeat)" };
  }
  return { stale: false };
}

export interface Listed {
  request: PendingRequest;
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
  const out: Listed[] = [];
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
    if (!request || request.kind !== "approval") continue;
    const r = request as PendingRequest;
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

function removeStale(dir: string, request: PendingRequest, why: string, now: number): void {
  writeOutcome(dir, {
    id: request.id,
    status: "closed",
    by: "server",
    reason: `stale: ${why}`,
    command: request.command,
    thread: request.thread,
    at: new Date(now).toISOString(),
  });
  removeQuietly(requestPath(dir, request.id));
  removeQuietly(answerPath(dir, request.id));
}

export function writeOutcome(dir: string, outcome: PendingOutcome): void {
  try {
    writeFileAtomicSync(outcomePath(dir, outcome.id), JSON.stringify(outcome) + "\n");
  } catch { /* the folder went away: nobody is waiting for it */ }
}

/** Why an answer is refused, checked by the server against what it filed. */
export type AnswerCheck = { ok: true; answer: PendingAnswer } | {
  ok: false;
  reason: string;
  nonce?: string;
};

/**
 * Check an answer file's bytes against the request as filed (`filed`, the
 * bytes the server wrote) and the request file as it is now (`current`).
 */
export async function checkAnswer(
  answerText: string,
  id: string,
  filed: Uint8Array,
  current: Uint8Array | undefined,
  prober: Prober = probeProcess,
): Promise<AnswerCheck> {
  const answer = parseAnswer(answerText);
  if (!answer || answer.id !== id) {
    return { ok: false, reason: "the answer file is not an answer wisp approvals wrote" };
  }
  const filedDigest = await sha256Hex(filed);
  const altered = current === undefined || (await sha256Hex(current)) !== filedDigest;
  if (altered || answer.digest !== filedDigest) {
    return {
      ok: false,
      nonce: answer.nonce,
      reason: altered
        ? "its request file was altered after the server wrote it, so what you were shown is not what waits; the server restored it, look again with wisp approvals pending"
        : "the answer does not match the request as it was filed",
    };
  }
  // The answering process waits for the outcome: it must be wisp approvals, at a terminal.
  // Where that cannot be told, the answer is refused (fail closed).
  const facts = await prober(answer.by.pid);
  if (!facts) {
    return {
      ok: false,
      nonce: answer.nonce,
      reason: "wisp could not check which process wrote the answer, so it is refused",
    };
  }
  const argv = facts.argv ?? [];
  const fromWisp = facts.alive && argv.includes("approvals") && argv.includes(id) &&
    (argv.includes("approve") || argv.includes("deny"));
  if (
    !fromWisp || !isTerminalPath(facts.stdin) ||
    (answer.by.tty !== undefined && answer.by.tty !== facts.stdin)
  ) {
    return {
      ok: false,
      nonce: answer.nonce,
      reason: "the answer did not come from wisp approvals run at a terminal",
    };
  }
  return { ok: true, answer };
}

/** The server's side: files requests, notices answers, withdraws requests. */
export class PendingBoard {
  #filed = new Map<string, { bytes: Uint8Array; request: PendingRequest }>();
  #start: string | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  private constructor(readonly dir: string, readonly prober: Prober) {}

  /** A board for this server: learns its own start time (so a reused pid is not taken for it). */
  static async open(dir: string, prober: Prober = probeProcess): Promise<PendingBoard> {
    const board = new PendingBoard(dir, prober);
    board.#start = (await prober(Deno.pid))?.start;
    return board;
  }

  get serverStart(): string | undefined {
    return this.#start;
  }

  /** Requests this server has waiting. */
  waiting(): PendingRequest[] {
    return [...this.#filed.values()].map((f) => f.request);
  }

  /**
   * Write a request file; returns the request as filed. It is filed under
   * `id` (the gate's request id, so that one id names the request in `wisp
   * approvals pending`, the notification and `wisp logs`) when that is free.
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
    const taken = (id: string) =>
      this.#filed.has(id) || readBytes(requestPath(this.dir, id)) !== undefined;
    let id = wanted !== undefined && isPendingId(wanted) ? wanted : newPendingId();
    while (taken(id)) id = newPendingId();
    const request: PendingRequest = {
      version: 1,
      kind: "approval",
      id,
      server: { pid: Deno.pid, ...(this.#start ? { start: this.#start } : {}), session },
      ...rest,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + timeoutSeconds * 1000).toISOString(),
    };
    const bytes = new TextEncoder().encode(JSON.stringify(request, null, 2) + "\n");
    writeFileAtomicSync(requestPath(this.dir, id), bytes);
    this.#filed.set(id, { bytes, request });
    this.#startHeartbeat();
    return request;
  }

  /**
   * Look for an answer to `id`. Returns the accepted answer, or undefined
   * (none yet, or one refused: the terminal is told why and the request
   * keeps waiting, restored if it was altered).
   */
  async take(id: string, onRefused?: (reason: string) => void): Promise<PendingAnswer | undefined> {
    const filed = this.#filed.get(id);
    if (!filed) return undefined;
    const path = answerPath(this.dir, id);
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(path);
    } catch {
      return undefined;
    }
    // Claim it: a terminal that gave up removes the answer file, and only one side can win.
    const claimed = `${path}.taken-${Deno.pid}`;
    try {
      Deno.renameSync(path, claimed);
    } catch {
      return undefined;
    }
    let text = "";
    try {
      text = info.isFile ? Deno.readTextFileSync(claimed) : "";
    } catch { /* unreadable: refused below */ }
    removeQuietly(claimed);
    const ownUid = Deno.uid();
    let check: AnswerCheck;
    if (!info.isFile) check = { ok: false, reason: "the answer is not a regular file" };
    else if (ownUid !== null && info.uid !== null && info.uid !== ownUid) {
      check = { ok: false, reason: "the answer file belongs to another user" };
    } else {
      check = await checkAnswer(
        text,
        id,
        filed.bytes,
        readBytes(requestPath(this.dir, id)),
        this.prober,
      );
    }
    if (check.ok) return check.answer;
    // Put the request back as it was filed, so the next reader sees the truth.
    try {
      writeFileAtomicSync(requestPath(this.dir, id), filed.bytes);
    } catch { /* the folder went away */ }
    writeOutcome(this.dir, {
      id,
      status: "refused",
      ...(check.nonce ? { nonce: check.nonce } : {}),
      by: "server",
      reason: check.reason,
      command: filed.request.command,
      thread: filed.request.thread,
      at: new Date().toISOString(),
    });
    onRefused?.(check.reason);
    return undefined;
  }

  /** The request is decided (or withdrawn): remove it and leave the outcome for a late terminal. */
  settle(id: string, outcome: Omit<PendingOutcome, "id" | "command" | "thread" | "at">): void {
    const filed = this.#filed.get(id);
    if (!filed) return;
    this.#filed.delete(id);
    writeOutcome(this.dir, {
      id,
      ...outcome,
      command: filed.request.command,
      thread: filed.request.thread,
      outsideSandbox: filed.request.outsideSandbox,
      at: new Date().toISOString(),
    });
    removeQuietly(requestPath(this.dir, id));
    removeQuietly(answerPath(this.dir, id));
    if (this.#filed.size === 0) this.#stopHeartbeat();
  }

  /** Withdraw every request (the server is stopping). */
  closeAll(reason = "the wisp mcp server stopped"): void {
    for (const id of [...this.#filed.keys()]) {
      this.settle(id, { status: "closed", by: "server", reason });
    }
    this.#stopHeartbeat();
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

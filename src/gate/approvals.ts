/**
 * Remembered approvals. "once" (the rest of the turn) and "session" live in
 * the memory of the process; "project" (30 days, one folder) and "always"
 * (30 days, anywhere) in <home>/approvals.json, written whole through a temp
 * file and a rename. An approval covers a part only when the part's pattern
 * is the approval's, the part's level is at or below the level it was given
 * at, and the part shows no feature the approved line lacked (features.ts:
 * code in an option or a variable, variables set, targets outside the
 * project, recursive or forcing options, …); a dangerous part is never
 * remembered beyond the session. An approval saved before features were kept
 * has none, so it covers only parts that show no feature at all.
 *
 * The matching and the scope rules are pure functions; `ApprovalStore` does
 * the file work. Requests waiting for an answer from another process
 * (`wisp approvals pending|approve|deny`) are kept apart, in <home>/pending,
 * and end up here through `remember()` like any other answer.
 */
import { dirname } from "../util/path.ts";
import type { Level } from "../config/schema.ts";
import { ensurePrivateDir, type HomePaths } from "../config/home.ts";
import { writeFileAtomicSync } from "../util/atomic.ts";
import { WispError } from "../util/errors.ts";
import { featuresCovered } from "./features.ts";
import { randomHex } from "../util/random_id.ts";
import { isWithin } from "../util/fs_safe.ts";

export type Scope = "once" | "session" | "project" | "always";

export const APPROVAL_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The most approvals kept on disk; the oldest go first past this. */
const MAX_STORED_APPROVALS = 2000;

const RANK: Record<Level, number> = { safe: 0, moderate: 1, dangerous: 2 };

export interface Approval {
  id: string;
  scope: Scope;
  /** `head *`, `git commit *`, or a command's exact text. */
  pattern: string;
  /** The highest level this approval covers. */
  level: Level;
  /** The folder a project approval is for; null otherwise. */
  directory: string | null;
  created: string;
  /** When it stops covering anything (project and always); null for once and session. */
  expires: string | null;
  /** The turn a once approval belongs to. */
  turnId?: string;
  /**
   * The features of the line approved (features.ts). A part showing any other is not covered;
   * absent (an approval saved before features were kept) is none.
   */
  features?: string[];
  /**
   * Where the answer came from, when the face says (the MCP face: `elicitation` for the
   * client's dialog, `terminal` for `wisp approvals approve`). Kept for approvals held in
   * memory only; the stored ones are all a person's at a terminal.
   */
  source?: string;
}

export interface ApprovalQuery {
  pattern: string;
  level: Level;
  /** The folder wisp works in (the project). */
  root: string;
  cwd: string;
  turnId?: string;
  /** The features of the part asked about (features.ts); absent is none. */
  features?: string[];
  now?: Date;
}

function newApprovalId(): string {
  return randomHex(4);
}

/** An answer to remember: its scope and pattern, the part's level, and where it was given. */
export interface AnswerToRemember {
  scope: Scope;
  pattern: string;
  level: Level;
  root: string;
  turnId?: string;
  features?: string[];
  source?: string;
  now?: Date;
}

/**
 * The approval an answer makes. A dangerous part is never remembered beyond
 * the session, so project and always become session for it.
 */
export function makeApproval(input: AnswerToRemember): Approval {
  const now = input.now ?? new Date();
  let scope = input.scope;
  if (input.level === "dangerous" && (scope === "project" || scope === "always")) scope = "session";
  const lasting = scope === "project" || scope === "always";
  return {
    id: newApprovalId(),
    scope,
    pattern: input.pattern,
    level: input.level,
    directory: scope === "project" ? input.root : null,
    created: now.toISOString(),
    expires: lasting ? new Date(now.getTime() + APPROVAL_DAYS * DAY_MS).toISOString() : null,
    ...(scope === "once" && input.turnId ? { turnId: input.turnId } : {}),
    features: [...new Set(input.features ?? [])].sort(),
    ...(input.source && !lasting ? { source: input.source } : {}),
  };
}

export function isExpired(approval: Approval, now = new Date()): boolean {
  return approval.expires !== null && Date.parse(approval.expires) <= now.getTime();
}

/** Does this approval cover the part asked about? */
export function covers(approval: Approval, query: ApprovalQuery): boolean {
  const now = query.now ?? new Date();
  if (approval.pattern !== query.pattern) return false;
  if (RANK[query.level] > RANK[approval.level]) return false;
  if (!featuresCovered(approval.features ?? [], query.features ?? [])) return false;
  if (isExpired(approval, now)) return false;
  switch (approval.scope) {
    case "once":
      return approval.turnId !== undefined && approval.turnId === query.turnId;
    case "session":
      return true;
    case "project":
      return approval.directory !== null &&
        (query.root === approval.directory || isWithin(query.cwd, approval.directory));
    case "always":
      return approval.level !== "dangerous";
  }
}

/** A project approval whose folder no longer exists can never match again. */
export function isGone(approval: Approval, exists: (dir: string) => boolean): boolean {
  return approval.scope === "project" && approval.directory !== null && !exists(approval.directory);
}

export function directoryExists(dir: string): boolean {
  try {
    return Deno.statSync(dir).isDirectory;
  } catch {
    return false;
  }
}

interface ApprovalsFile {
  version: 1;
  approvals: Approval[];
}

function validApproval(value: unknown): value is Approval {
  if (!value || typeof value !== "object") return false;
  const a = value as Record<string, unknown>;
  return typeof a.id === "string" && (a.scope === "project" || a.scope === "always") &&
    typeof a.pattern === "string" &&
    (a.level === "safe" || a.level === "moderate" || a.level === "dangerous") &&
    (a.directory === null || typeof a.directory === "string") && typeof a.created === "string" &&
    (a.expires === null || typeof a.expires === "string") &&
    (a.features === undefined ||
      (Array.isArray(a.features) && a.features.every((f) => typeof f === "string")));
}

/** Read the stored approvals; a missing file is none, a malformed one an error. */
export function readApprovals(path: string): Approval[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw new WispError(
      `${path} cannot be read (${(error as Error).message}); check its owner and mode`,
    );
  }
  if (text.trim() === "") return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new WispError(
      `${path} is not valid JSON; move it aside to start with no remembered approvals`,
    );
  }
  const list = (data as ApprovalsFile | null)?.approvals;
  if (!Array.isArray(list)) {
    throw new WispError(
      `${path} has no approvals list; move it aside to start with no remembered approvals`,
    );
  }
  // An entry that is not a valid approval is ignored rather than trusted.
  return list.filter(validApproval).map((a) => ({
    id: a.id,
    scope: a.scope,
    pattern: a.pattern,
    level: a.scope === "always" && a.level === "dangerous" ? "moderate" : a.level,
    directory: a.directory,
    created: a.created,
    expires: a.expires,
    ...(a.features ? { features: a.features } : {}),
  }));
}

export function writeApprovals(path: string, approvals: Approval[]): void {
  ensurePrivateDir(dirname(path));
  const kept = approvals.filter((a) => a.scope === "project" || a.scope === "always")
    .slice(-MAX_STORED_APPROVALS);
  const file: ApprovalsFile = { version: 1, approvals: kept };
  writeFileAtomicSync(path, JSON.stringify(file, null, 2) + "\n");
}

/**
 * What identifies one version of approvals.json: a stat per check instead of a read and a parse.
 * The file is replaced by a rename on every write, so the inode changes; an edit in place changes
 * the change time, which no one can set back. Deno gives the change time in whole seconds only,
 * so a file changed less than RACY_MS before it was read is read again at the next check (as git
 * does with its index): a second edit within the same second cannot hide behind an equal key.
 */
const RACY_MS = 2000;

function fileKey(info: Deno.FileInfo): string {
  return [
    info.ino ?? "",
    info.dev,
    info.size,
    info.mtime?.getTime() ?? "",
    info.ctime?.getTime() ?? "",
  ].join(":");
}

/** The approvals of one session, with the lasting ones from the home. */
export class ApprovalStore {
  #memory: Approval[] = [];
  #cache: { key: string; list: Approval[]; racy: boolean } | undefined;
  /** Called after the approvals held in memory changed (the MCP face publishes them). */
  onMemoryChange?: () => void;

  constructor(readonly path: string) {}

  static forHome(home: HomePaths): ApprovalStore {
    return new ApprovalStore(home.approvals);
  }

  /** The stored approvals (read again when the file changed). */
  stored(): Approval[] {
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(this.path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        this.#cache = undefined;
        return [];
      }
      throw error;
    }
    const key = fileKey(info);
    if (this.#cache && this.#cache.key === key && !this.#cache.racy) return this.#cache.list;
    const changed = Math.max(info.mtime?.getTime() ?? 0, info.ctime?.getTime() ?? 0);
    const list = readApprovals(this.path);
    this.#cache = { key, list, racy: Date.now() - changed < RACY_MS };
    return list;
  }

  /** Session and once approvals held in memory. */
  inMemory(): Approval[] {
    return [...this.#memory];
  }

  /** The first approval that covers the query, if any. */
  find(query: ApprovalQuery): Approval | undefined {
    const now = query.now ?? new Date();
    const q = { ...query, now };
    return this.#memory.find((a) => covers(a, q)) ?? this.stored().find((a) => covers(a, q));
  }

  /** Remember an answer; returns the approval made (after the scope rules). */
  remember(input: AnswerToRemember): Approval {
    const approval = makeApproval(input);
    if (approval.scope === "once" || approval.scope === "session") {
      if (approval.scope === "once" && !approval.turnId) return approval;
      this.#memory.push(approval);
      if (this.#memory.length > 4096) this.#memory.splice(0, this.#memory.length - 4096);
      this.#memoryChanged();
      return approval;
    }
    const now = input.now ?? new Date();
    const current = readApprovals(this.path).filter((a) => !isExpired(a, now));
    // The same pattern with the same features in the same place replaces the older approval.
    const sameFeatures = (a: Approval) =>
      (a.features ?? []).join("\u0000") === (approval.features ?? []).join("\u0000");
    const rest = current.filter((a) =>
      !(a.pattern === approval.pattern && a.scope === approval.scope &&
        a.directory === approval.directory && sameFeatures(a))
    );
    writeApprovals(this.path, [...rest, approval]);
    this.#cache = undefined;
    return approval;
  }

  /** Forget the once approvals of a turn that ended. */
  endTurn(turnId: string): void {
    const before = this.#memory.length;
    this.#memory = this.#memory.filter((a) => !(a.scope === "once" && a.turnId === turnId));
    if (this.#memory.length !== before) this.#memoryChanged();
  }

  #memoryChanged(): void {
    try {
      this.onMemoryChange?.();
    } catch { /* a listener's failure is its own: the approval stands */ }
  }

  /** Remove one stored approval by id; false when there is none. */
  revoke(id: string): boolean {
    const memIndex = this.#memory.findIndex((a) => a.id === id);
    if (memIndex >= 0) {
      this.#memory.splice(memIndex, 1);
      this.#memoryChanged();
      return true;
    }
    const current = readApprovals(this.path);
    const rest = current.filter((a) => a.id !== id);
    if (rest.length === current.length) return false;
    writeApprovals(this.path, rest);
    this.#cache = undefined;
    return true;
  }

  /**
   * Remove the stored approvals `which` picks, deciding again for each as it
   * goes (a folder made again since a listing keeps its approvals).
   */
  clear(which: (a: Approval) => boolean = () => true): Approval[] {
    const current = readApprovals(this.path);
    const removed = current.filter((a) => which(a));
    if (removed.length === 0) return [];
    writeApprovals(this.path, current.filter((a) => !removed.includes(a)));
    this.#cache = undefined;
    return removed;
  }
}

/**
 * The one audit writer. Each event is one JSON line written with a single
 * append (O_APPEND) so that several processes writing the same log neither
 * lose nor interleave lines. The log rotates by size: audit.jsonl becomes
 * audit.jsonl.1, .1 becomes .2, …, keeping `keep` old files. Rotation is
 * serialised across processes by a lock file; a writer whose file was rotated
 * away notices (the inode changed) and reopens.
 *
 * Listeners see every event in process, whether or not the log is enabled:
 * receipts (`ran:`) count from them.
 *
 * Scopes (src/audit/scope.ts) tag events by what they belong to: an event
 * recorded through a scope, or on the log inside the scope's `run` (in its
 * async calls too, whoever records it), carries the scope's fields (a turn's
 * id; an MCP thread and its turn) and is kept in the scope's list, which the
 * turn's receipt reads. Turns running at once on one log (MCP threads) never
 * see each other's events.
 */
import { dirname } from "../util/path.ts";
import { AUDIT_CATALOGUE, type AuditEvent, type AuditFields, type AuditKind } from "./catalogue.ts";
import { ensureHome, ensurePrivateDir, type HomePaths } from "../config/home.ts";
import type { Config } from "../config/schema.ts";
import { VERSION } from "../version.ts";
import { homeWriteError } from "../util/errors.ts";
import { randomHex } from "../util/random_id.ts";
import type { AuditScope } from "./scope.ts";

export interface AuditOptions {
  /** Path of audit.jsonl. */
  path: string;
  enabled: boolean;
  /** Rotate when the file reaches this many bytes. */
  maxBytes: number;
  /** How many rotated files to keep. */
  keep: number;
  /** A session id to continue; a new one is made when absent. */
  session?: string;
  /** Validate fields against the catalogue (on by default). */
  validate?: boolean;
}

export type AuditListener = (event: AuditEvent) => void;

/** Anything that records audit events: the writer, or a face's view of it. */
export interface AuditSink {
  readonly session: string;
  record<K extends AuditKind>(kind: K, fields: AuditFields<K>): AuditEvent;
  /** The fields of the audit scopes the caller runs inside (AuditScope.run), merged. */
  scopeFields?(): Record<string, unknown>;
}

/**
 * The scopes the caller runs inside, outermost first: src/audit/scope.ts
 * installs its reader when it loads. A scope can only be made there, so
 * before that module loads there are none, and a process that never scopes
 * events (`wisp sandbox`, `wisp config`) never loads node:async_hooks, whose
 * first load starts Deno's Node compatibility layer (docs/adr/0680).
 */
let activeScopes: () => readonly AuditScope[] = () => [];

/** Called once by src/audit/scope.ts: where the active scopes are read from. */
export function readScopesFrom(reader: () => readonly AuditScope[]): void {
  activeScopes = reader;
}

export function newSessionId(): string {
  return randomHex(4);
}

/** Random bytes fetched a block at a time: one call to the system's source per 512 event ids. */
const idBytes = new Uint8Array(8 * 512);
let idUsed = idBytes.length;
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/**
 * An event's id: 8 random bytes as 16 hex digits, as `randomHex(8)` makes them, from a block of
 * the same secure source (one call per id cost a scan of thousands of files about 1% of its time).
 */
function newEventId(): string {
  if (idUsed === idBytes.length) {
    crypto.getRandomValues(idBytes);
    idUsed = 0;
  }
  let id = "";
  const end = idUsed + 8;
  for (; idUsed < end; idUsed++) id += HEX[idBytes[idUsed]];
  return id;
}

const encoder = new TextEncoder();
/** How often (in events) a writer re-checks the real file against its estimate. */
const RECHECK_EVERY = 512;

export class AuditLog implements AuditSink {
  readonly session: string;
  #seq = 0;
  #file: Deno.FsFile | undefined;
  #ino: number | null = null;
  #estimatedSize = 0;
  #sinceCheck = 0;
  #listeners = new Set<AuditListener>();
  #rotationListeners = new Set<(file: string) => void>();
  #closed = false;
  /** Lines recorded but not yet written (holdWrites), their size, and when the first was held. */
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  #heldSince = 0;
  #hold: { bytes: number; ms: number } | undefined;
  #flushAtExit: (() => void) | undefined;

  constructor(readonly options: AuditOptions) {
    this.session = options.session ?? newSessionId();
  }

  /**
   * The audit log of wisp's home as the configuration sets it up: the one way
   * a command, a session or a server opens it. Creates the home's log folder
   * (0700) when the log is on; `session` continues one, else a new id.
   */
  static open(paths: HomePaths, settings: Config["audit"], session?: string): AuditLog {
    if (settings.enabled) ensureHome(paths, paths.logs);
    return new AuditLog({
      path: paths.auditLog,
      enabled: settings.enabled,
      maxBytes: settings.maxBytes,
      keep: settings.keep,
      ...(session ? { session } : {}),
    });
  }

  get enabled(): boolean {
    return this.options.enabled;
  }

  /** How many listeners are subscribed now (a long run should not gather more). */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** Subscribe to every event this process records; returns the unsubscribe. */
  onEvent(listener: AuditListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Be told which log file goes next, while it is still there to read: the
   * file this writer is about to remove as it rotates, and, when it notices
   * that another process rotated the log, the oldest kept file (the next
   * rotation's to remove). What refers into the log (the conversation store,
   * ADR 0590) copies what it still needs. Called synchronously, inside
   * `record`; a listener's failure never stops the record. Returns the
   * unsubscribe.
   */
  onRotation(listener: (file: string) => void): () => void {
    this.#rotationListeners.add(listener);
    return () => this.#rotationListeners.delete(listener);
  }

  #tellRotation(file: string): void {
    for (const listener of this.#rotationListeners) {
      try {
        listener(file);
      } catch { /* a listener's failure never stops the record */ }
    }
  }

  /** The fields of this log's scopes the caller runs inside (AuditScope.run), outermost first, merged. */
  scopeFields(): Record<string, unknown> {
    const merged: Record<string, unknown> = {};
    for (const scope of activeScopes()) {
      if (scope.log === this) Object.assign(merged, scope.fields);
    }
    return merged;
  }

  record<K extends AuditKind>(kind: K, fields: AuditFields<K>): AuditEvent {
    return this.recordIn(kind, fields, undefined);
  }

  /** Record an event in the active scopes and, when given, one more (AuditScope.record). */
  recordIn<K extends AuditKind>(
    kind: K,
    given: AuditFields<K>,
    explicit: AuditScope | undefined,
  ): AuditEvent {
    const scopes = activeScopes().filter((scope) => scope.log === this);
    if (explicit && !scopes.includes(explicit)) scopes.push(explicit);
    let fields = given;
    if (scopes.length > 0) {
      const tags: Record<string, unknown> = {};
      for (const scope of scopes) Object.assign(tags, scope.fields);
      fields = { ...given, ...tags } as AuditFields<K>;
    }
    // Checking the fields costs microseconds; an event nobody will read or
    // receive (log off, no listener) need not pay it.
    const read = (this.options.enabled && !this.#closed) || this.#listeners.size > 0;
    if (this.options.validate !== false && read) {
      const result = AUDIT_CATALOGUE[kind].safeParse(fields);
      if (!result.success) {
        throw new Error(
          `audit event ${kind} is missing or has a bad field: ${
            result.error.issues.map((i) => `${i.path.join(".") || "(event)"}: ${i.message}`).join(
              "; ",
            )
          }`,
        );
      }
    }
    const event: AuditEvent = {
      ts: new Date().toISOString(),
      session: this.session,
      seq: ++this.#seq,
      id: newEventId(),
      kind,
      version: VERSION,
      ...(fields as Record<string, unknown>),
    };
    if (this.options.enabled && !this.#closed) {
      try {
        this.#append(JSON.stringify(event) + "\n");
      } catch (error) {
        // One sentence naming the log and the fix (util/errors.ts), never a raw OS error.
        throw homeWriteError(error, this.options.path, "the audit log");
      }
    }
    for (const scope of scopes) scope.keep(event);
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch { /* a listener's failure never stops the record */ }
    }
    return event;
  }

  /**
   * From now on, write events in batches: lines are held and appended together, with one write,
   * once `bytes` of them are held or, when the next comes, the first has waited `ms`, and at
   * `flush` or `close`. For a command that records an event per item of a long run (`wisp scan`
   * over a tree: one per file), where a write per event is a system call each. Listeners and
   * scopes still see each event at once; another process reading the log sees them at the next
   * write. What a killed process held is lost, so the bounds are small.
   */
  holdWrites(bytes = 64 * 1024, ms = 1000): void {
    this.#hold = { bytes, ms };
    // A process that ends without closing the log (`Deno.exit` when stdout's reader has gone,
    // the end of the program) still writes what it held.
    if (!this.#flushAtExit) {
      this.#flushAtExit = () => {
        try {
          this.#writeHeld();
        } catch { /* nowhere left to say it */ }
      };
      globalThis.addEventListener("unload", this.#flushAtExit);
    }
  }

  /** Write the events held so far (holdWrites), as one append. */
  flush(): void {
    try {
      this.#writeHeld();
    } catch (error) {
      throw homeWriteError(error, this.options.path, "the audit log");
    }
  }

  #writeHeld(): void {
    if (this.#held.length === 0) return;
    const lines = this.#held.length === 1 ? this.#held[0] : new Uint8Array(this.#heldBytes);
    if (this.#held.length > 1) {
      let at = 0;
      for (const line of this.#held) {
        lines.set(line, at);
        at += line.length;
      }
    }
    this.#held = [];
    this.#heldBytes = 0;
    this.#write(lines);
  }

  close(): void {
    try {
      this.flush();
    } finally {
      this.#close();
    }
  }

  #close(): void {
    if (this.#flushAtExit) globalThis.removeEventListener("unload", this.#flushAtExit);
    this.#flushAtExit = undefined;
    this.#closed = true;
    try {
      this.#file?.close();
    } catch { /* already closed */ }
    this.#file = undefined;
  }

  #open(): Deno.FsFile {
    ensurePrivateDir(dirname(this.options.path), "the audit log's folder");
    const file = Deno.openSync(this.options.path, { append: true, create: true, mode: 0o600 });
    const info = file.statSync();
    this.#ino = info.ino;
    this.#estimatedSize = info.size;
    this.#sinceCheck = 0;
    return file;
  }

  #append(line: string): void {
    const bytes = encoder.encode(line);
    if (this.#hold) {
      if (this.#held.length === 0) this.#heldSince = Date.now();
      this.#held.push(bytes);
      this.#heldBytes += bytes.length;
      if (
        this.#heldBytes >= this.#hold.bytes || Date.now() - this.#heldSince >= this.#hold.ms
      ) this.#writeHeld();
      return;
    }
    this.#write(bytes);
  }

  /** Append whole lines with one write, rotating first when they would overfill the file. */
  #write(bytes: Uint8Array): void {
    if (!this.#file) this.#file = this.#open();
    if (
      this.#estimatedSize + bytes.length > this.options.maxBytes ||
      ++this.#sinceCheck >= RECHECK_EVERY
    ) {
      this.#maybeRotate(bytes.length);
    }
    // One write call per event (or per batch of whole lines): with O_APPEND the kernel places it
    // at the end atomically, so concurrent writers never interleave within a line.
    const written = this.#file.writeSync(bytes);
    if (written !== bytes.length) {
      // A short write on a regular file means the disk is full; finish the
      // line so that the next one starts clean.
      let offset = written;
      while (offset < bytes.length) offset += this.#file.writeSync(bytes.subarray(offset));
    }
    this.#estimatedSize += bytes.length;
  }

  /** Reopen when another process rotated the file; rotate when it is full. */
  #maybeRotate(incoming: number): void {
    this.#sinceCheck = 0;
    let current: Deno.FileInfo | null = null;
    try {
      current = Deno.statSync(this.options.path);
    } catch { /* gone: reopen creates it */ }
    if (!current || current.ino !== this.#ino) {
      // Another process rotated the log: what it removed is gone, and the oldest kept file is next.
      if (this.#ino !== null) this.#tellRotation(`${this.options.path}.${this.#keep}`);
      this.#reopen();
      return;
    }
    this.#estimatedSize = current.size;
    if (current.size + incoming <= this.options.maxBytes || current.size === 0) return;
    this.#rotate();
    this.#reopen();
  }

  /** How many rotated files are kept (at least one). */
  get #keep(): number {
    return Math.max(1, this.options.keep);
  }

  #reopen(): void {
    try {
      this.#file?.close();
    } catch { /* already closed */ }
    this.#file = this.#open();
  }

  #rotate(): void {
    const path = this.options.path;
    const lock = `${path}.lock`;
    let lockFile: Deno.FsFile | undefined;
    try {
      lockFile = Deno.openSync(lock, { write: true, createNew: true, mode: 0o600 });
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) {
        // Another process is rotating; a lock older than 10 s is stale.
        try {
          const age = Date.now() - (Deno.statSync(lock).mtime?.getTime() ?? Date.now());
          if (age > 10_000) Deno.removeSync(lock);
        } catch { /* it finished meanwhile */ }
        return;
      }
      throw error;
    }
    try {
      // Re-check under the lock: another process may have just rotated.
      let info: Deno.FileInfo;
      try {
        info = Deno.statSync(path);
      } catch {
        return; // another process rotated it away and has not recreated it yet
      }
      if (info.ino !== this.#ino || info.size < this.options.maxBytes / 2) return;
      const keep = this.#keep;
      this.#tellRotation(`${path}.${keep}`);
      try {
        Deno.removeSync(`${path}.${keep}`);
      } catch { /* fewer files so far */ }
      for (let n = keep - 1; n >= 1; n--) {
        try {
          Deno.renameSync(`${path}.${n}`, `${path}.${n + 1}`);
        } catch { /* fewer files so far */ }
      }
      Deno.renameSync(path, `${path}.1`);
    } finally {
      lockFile.close();
      try {
        Deno.removeSync(lock);
      } catch { /* removed as stale by another process */ }
    }
  }
}

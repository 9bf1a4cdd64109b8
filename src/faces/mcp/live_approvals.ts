/**
 * The approvals a running `wisp mcp` holds in memory (session scope: what
 * the client's dialog granted, ADR 0271, and session answers from a
 * terminal), where `wisp approvals` can see them and revoke one
 * (docs/adr/0331-live-approvals-of-running-servers.md). In <home>/servers,
 * all 0600:
 *
 *   <session>.json               this server: pid, start time, client, and
 *                                its approvals with their source; written
 *                                whole on every change, removed on exit
 *   <session>.<id>.revoke        a revocation filed by `wisp approvals
 *                                revoke <id>`; the server drops the approval,
 *                                writes its file again without it, and
 *                                removes the revocation
 *
 * A file whose server no longer runs (its pid gone, or taken by a process
 * that started at another time) is stale: whoever lists the folder removes
 * it. Nothing here can add an approval to a server: a revocation only takes
 * one away, and commands cannot write wisp's home (it is read-only in the
 * sandbox).
 */
import { join } from "node:path";
import { ensurePrivateDir } from "../../config/home.ts";
import type { Approval, ApprovalStore } from "../../gate/approvals.ts";
import type { AuditSink } from "../../audit/writer.ts";
import type { Logger } from "./log.ts";
import { writeFileAtomicSync } from "../../util/atomic.ts";
import { serverAlive } from "../../gate/pending.ts";
import { probeProcess, type Prober } from "../../platform/process_probe.ts";
import { removeQuietly } from "../../util/fs_safe.ts";

/** Who holds the approvals: enough to tell the live server from a reused pid. */
export interface LiveServer {
  pid: number;
  /** The process's start time as the platform states it (procinfo.ts). */
  start?: string;
  /** The server's audit session, which names its file. */
  session: string;
  /** The client's name (WISP_MCP_CLIENT, else its clientInfo). */
  client: string;
}

/** One server's file. */
export interface LiveFile {
  version: 1;
  server: LiveServer;
  approvals: Approval[];
}

const SESSION = /^[A-Za-z0-9_-]{1,64}$/;
const APPROVAL_ID = /^[0-9a-f]{8}$/;

/** Parse a server's file; undefined when it is not one (torn files cannot occur: renamed whole). */
export function parseLiveFile(text: string): LiveFile | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const v = value as Partial<LiveFile> | null;
  const server = v?.server;
  if (
    !v || v.version !== 1 || !server || !Number.isInteger(server.pid) ||
    typeof server.session !== "string" || !SESSION.test(server.session) ||
    typeof server.client !== "string" || !Array.isArray(v.approvals)
  ) return undefined;
  const approvals = v.approvals.filter((a): a is Approval =>
    !!a && typeof a.id === "string" && APPROVAL_ID.test(a.id) && typeof a.pattern === "string" &&
    typeof a.scope === "string" && typeof a.created === "string"
  );
  return { version: 1, server, approvals };
}

/** This server's entry in the folder: published on every change, removed on close. */
export class LiveApprovals {
  #closed = false;

  constructor(readonly dir: string, readonly server: LiveServer) {
    if (!SESSION.test(server.session)) throw new Error(`not a session id: ${server.session}`);
  }

  get path(): string {
    return join(this.dir, `${this.server.session}.json`);
  }

  /** Write the server's session approvals (once approvals end with their turn and are left out). */
  publish(approvals: Approval[]): void {
    if (this.#closed) return;
    ensurePrivateDir(this.dir);
    const file: LiveFile = {
      version: 1,
      server: this.server,
      approvals: approvals.filter((a) => a.scope === "session"),
    };
    writeFileAtomicSync(this.path, JSON.stringify(file, null, 2) + "\n");
  }

  /** The approval ids revoked for this server since the last look; their files are removed. */
  takeRevocations(): string[] {
    const prefix = `${this.server.session}.`;
    const ids: string[] = [];
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(this.dir)];
    } catch {
      return [];
    }
    for (const entry of entries) {
      if (!entry.name.startsWith(prefix) || !entry.name.endsWith(".revoke")) continue;
      const id = entry.name.slice(prefix.length, -".revoke".length);
      removeQuietly(join(this.dir, entry.name));
      if (APPROVAL_ID.test(id)) ids.push(id);
    }
    return ids;
  }

  /** The server stops: its file and any revocation left for it go. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    removeQuietly(this.path);
    this.takeRevocations();
  }
}

/** A live server's file as listed, with where it lies. */
export interface Listed extends LiveFile {
  path: string;
}

/**
 * The files of servers that still run. A file whose server has stopped is
 * removed, with its revocations; one whose server cannot be checked here is
 * left alone and not listed (it cannot be told live).
 */
export async function listLive(dir: string, prober: Prober = probeProcess): Promise<Listed[]> {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return [];
  }
  const out: Listed[] = [];
  for (const entry of entries) {
    if (!entry.isFile || !entry.name.endsWith(".json")) continue;
    const path = join(dir, entry.name);
    let file: LiveFile | undefined;
    try {
      file = parseLiveFile(Deno.readTextFileSync(path));
    } catch {
      continue; // removed meanwhile
    }
    if (!file || `${file.server.session}.json` !== entry.name) continue;
    const alive = await serverAlive(file.server, prober);
    if (alive === false) {
      new LiveApprovals(dir, file.server).close();
      continue;
    }
    if (alive) out.push({ ...file, path });
  }
  return out.sort((a, b) => a.server.pid - b.server.pid);
}

/** Ask a running server to drop one approval: the file it looks for. */
export function fileRevocation(dir: string, session: string, id: string): void {
  if (!SESSION.test(session) || !APPROVAL_ID.test(id)) {
    throw new Error(`not a session and approval id: ${session} ${id}`);
  }
  writeFileAtomicSync(join(dir, `${session}.${id}.revoke`), "");
}

/** How often a server looks for revocations filed by `wisp approvals revoke`. */
const REVOCATION_POLL_MS = 200;

/**
 * For `wisp mcp`'s life: publish the approvals `store` holds in memory each
 * time they change, and drop one whose revocation is filed (audited as
 * `approval.revoked`). Without a writable home the server runs on, unlisted.
 */
export async function serveLiveApprovals(options: {
  dir: string;
  audit: AuditSink;
  store: ApprovalStore;
  /** The client's name, known once it has introduced itself. */
  client: () => string;
  /** The server's start time, when already known. */
  start?: string;
  log: Logger;
  prober?: Prober;
}): Promise<{ close(): void }> {
  const { store, audit, log } = options;
  const start = options.start ?? (await (options.prober ?? probeProcess)(Deno.pid))?.start;
  const live = new LiveApprovals(options.dir, {
    pid: Deno.pid,
    ...(start ? { start } : {}),
    session: audit.session,
    client: options.client(),
  });
  const publish = () => {
    try {
      live.server.client = options.client();
      live.publish(store.inMemory());
    } catch (error) {
      log("error", `could not list this server's approvals: ${(error as Error).message}`);
    }
  };
  store.onMemoryChange = publish;
  publish();
  const timer = setInterval(() => {
    for (const id of live.takeRevocations()) {
      const approval = store.inMemory().find((a) => a.id === id);
      if (!approval || !store.revoke(id)) continue;
      audit.record("approval.revoked", {
        approvalId: id,
        pattern: approval.pattern,
        scope: approval.scope,
        ...(approval.source ? { source: approval.source } : {}),
        by: "terminal",
      });
    }
  }, REVOCATION_POLL_MS);
  // The poll must not keep the server alive once stdin has closed.
  Deno.unrefTimer(timer);
  return {
    close() {
      clearInterval(timer);
      store.onMemoryChange = undefined;
      live.close();
    },
  };
}

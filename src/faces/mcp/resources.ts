/**
 * The wisp:// resources: read-only views of wisp's own state that cost no
 * model turn. Each reader returns the text to serve, or throws
 * ResourceError (served as invalidParams) for a page past the last, an
 * unknown thread or output, or a malformed URI.
 */
import type { AuditEvent } from "../../audit/catalogue.ts";
import { auditFiles, readAuditLog } from "../../audit/reader.ts";
import type { Config } from "../../config/schema.ts";
import type { HomePaths } from "../../config/home.ts";
import { catalogueJson, catalogueMarkdown } from "../../tools/catalogue.ts";
import type { AnyTool } from "../../tools/tool.ts";
import { OutputStore } from "../../audit/output_store.ts";
import { auditPageOf, pageOf, ROWS_PER_PAGE, textPageOf } from "./paging.ts";
import { parseWispUri, type ResourceTarget } from "./uri.ts";
import type { ClosedThread, Thread, ThreadShape } from "./threads.ts";
import type { FactDesk } from "./facts.ts";

export class ResourceError extends Error {}

export interface ResourceContent {
  uri: string;
  mimeType: string;
  text: string;
}

export interface ResourceWorld {
  config: Config;
  paths: HomePaths;
  /** The server's audit session id. */
  session: string;
  /** What `wisp config show` prints. */
  configView(): Record<string, unknown>;
  tools(): AnyTool[];
  openThread(id: string): Thread<unknown> | undefined;
  closedThread(id: string): ClosedThread | undefined;
  openThreads(): Thread<unknown>[];
  /** The composed context of an open thread that has had a turn (the next request's view). */
  threadContext?(id: string): string | undefined;
  /** The audit events (oldest first); injectable for tests. */
  auditEvents?(): AuditEvent[];
  /** The threads' facts and the permanent ones (facts.ts); absent, no facts are kept. */
  facts?: Pick<FactDesk, "permanentRows" | "threadRows">;
}

export interface ResourceInfo {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
}

export const STATIC_RESOURCES: ResourceInfo[] = [
  {
    uri: "wisp://tools",
    name: "tools",
    title: "The model's tools (JSON)",
    description:
      "Every tool wisp's model can call through respond: description, JSON Schema arguments, limits and an example prompt.",
    mimeType: "application/json",
  },
  {
    uri: "wisp://tools.md",
    name: "tools.md",
    title: "The model's tools (Markdown)",
    description: "The same catalogue as wisp://tools, as Markdown.",
    mimeType: "text/markdown",
  },
  {
    uri: "wisp://config",
    name: "config",
    title: "Effective configuration",
    description:
      "Every setting with its default applied, and wisp's paths (what wisp config show prints).",
    mimeType: "application/json",
  },
  {
    uri: "wisp://audit",
    name: "audit",
    title: "Audit log",
    description: "Every audit event, oldest first, 100 a page (?page=N, &limit=M from 1 to 500).",
    mimeType: "application/json",
  },
  {
    uri: "wisp://threads",
    name: "threads",
    title: "Open threads",
    description: "The respond threads this server holds, least recently used first, 50 a page.",
    mimeType: "application/json",
  },
  // The facts resources (facts.ts): the permanent facts; a thread's are a template.
  {
    uri: "wisp://facts",
    name: "facts",
    title: "Permanent facts",
    description:
      "The facts the person kept for every conversation (facts.json), and the requests to keep one this server has waiting.",
    mimeType: "application/json",
  },
];

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: "wisp://audit/{session}",
    name: "audit-session",
    title: "Audit events of one session",
    description: "One audit session's events, oldest first, 100 a page (?page=N, &limit=M).",
    mimeType: "application/json",
  },
  {
    uriTemplate: "wisp://threads/{thread_id}",
    name: "thread",
    title: "A respond thread",
    description: "A thread's shape, turns, and the URIs of its audit, outputs and summary.",
    mimeType: "application/json",
  },
  {
    uriTemplate: "wisp://threads/{thread_id}/audit",
    name: "thread-audit",
    title: "A thread's audit events",
    description:
      "Every audit event of the thread's turns, oldest first, 100 a page (?page=N, &limit=M).",
    mimeType: "application/json",
  },
  {
    uriTemplate: "wisp://threads/{thread_id}/outputs",
    name: "thread-outputs",
    title: "A thread's stored outputs",
    description: "The outputs its calls kept (too long for a result), 50 a page.",
    mimeType: "application/json",
  },
  {
    uriTemplate: "wisp://threads/{thread_id}/output/{id}",
    name: "thread-output",
    title: "One output, whole",
    description:
      "A call's whole output; longer than 16 KiB, paged (?page=N), each later page starting with a line naming it.",
    mimeType: "text/plain",
  },
  {
    uriTemplate: "wisp://threads/{thread_id}/facts",
    name: "thread-facts",
    title: "A thread's facts",
    description:
      "The thread's facts as the model is given them, and every version with its source and state, 50 a page; only while the thread is open.",
    mimeType: "application/json",
  },
  {
    uriTemplate: "wisp://threads/{thread_id}/context",
    name: "thread-context",
    title: "A thread's context",
    description:
      "What the thread's next request would carry: instructions, facts, the running summary, the turns in view with references; only while the thread is open; longer than 16 KiB, paged (?page=N).",
    mimeType: "text/plain",
  },
  {
    uriTemplate: "wisp://threads/{thread_id}/summary",
    name: "thread-summary",
    title: "A thread's summary",
    description: "Each turn of the thread: the prompt, the reply, and what ran, 50 a page.",
    mimeType: "application/json",
  },
];

function json(uri: string, value: unknown): ResourceContent {
  return { uri, mimeType: "application/json", text: JSON.stringify(value, null, 2) + "\n" };
}

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

function shapeView(shape: ThreadShape): Record<string, unknown> {
  return { ...shape };
}

/** Parsed audit events are kept between reads while the log's files total at most this. */
const AUDIT_CACHE_MAX_BYTES = 32 * 1024 * 1024;

export class Resources {
  #cache: { key: string; events: AuditEvent[] } | undefined;

  constructor(readonly world: ResourceWorld) {}

  #events(): AuditEvent[] {
    if (this.world.auditEvents) return this.world.auditEvents();
    if (!this.world.config.audit.enabled) return [];
    // A client paging through the log reads it once while nothing is appended: the key is every
    // file's identity, size and modification time.
    let total = 0;
    const parts: string[] = [];
    for (const file of auditFiles(this.world.paths.auditLog)) {
      try {
        const info = Deno.statSync(file);
        total += info.size;
        parts.push(`${file}:${info.ino}:${info.size}:${info.mtime?.getTime()}`);
      } catch {
        parts.push(`${file}:gone`);
      }
    }
    const key = parts.join("|");
    if (this.#cache?.key === key) return this.#cache.events;
    const events = readAuditLog(this.world.paths.auditLog).events;
    this.#cache = total <= AUDIT_CACHE_MAX_BYTES ? { key, events } : undefined;
    return events;
  }

  #threadEvents(thread: string): AuditEvent[] {
    return this.#events().filter((e) => e.session === this.world.session && e.thread === thread);
  }

  /** The facts, or a sentence saying why there are none to read. */
  #facts(fail: (error: string) => never): NonNullable<ResourceWorld["facts"]> {
    if (!this.world.config.facts.enabled) {
      fail("facts.enabled is false in the config, so threads keep no facts");
    }
    if (!this.world.facts) fail("this server keeps no facts");
    const facts = this.world.facts!;
    return {
      permanentRows: () => {
        try {
          return facts.permanentRows();
        } catch (error) {
          return fail((error as Error).message);
        }
      },
      threadRows: (thread) => {
        try {
          return facts.threadRows(thread);
        } catch (error) {
          return fail((error as Error).message);
        }
      },
    };
  }

  /** The thread must be known to this server: open, closed, or in its audit. */
  #knownThread(thread: string): void {
    if (this.world.openThread(thread) || this.world.closedThread(thread)) return;
    throw new ResourceError(
      `there is no thread ${thread} in this server; wisp://threads lists the open ones`,
    );
  }

  read(uri: string): ResourceContent {
    const parsed = parseWispUri(uri);
    if (!parsed.ok) throw new ResourceError(parsed.error);
    const { target, page, limit, base } = parsed.value;
    const fail = (error: string): never => {
      throw new ResourceError(`${uri}: ${error}`);
    };
    switch (target.kind) {
      case "tools":
        return {
          uri,
          mimeType: "application/json",
          text: catalogueJson(this.world.tools(), this.world.config),
        };
      case "tools.md":
        return {
          uri,
          mimeType: "text/markdown",
          text: catalogueMarkdown(this.world.tools(), this.world.config),
        };
      case "config":
        return json(uri, this.world.configView());
      case "audit":
      case "audit.session":
      case "thread.audit": {
        const events = this.#auditFor(target);
        const result = auditPageOf(events, page, base, limit);
        if (!result.ok) return fail(result.error);
        return json(uri, result.value);
      }
      case "threads": {
        const rows = this.world.openThreads().map((t) => ({
          thread_id: t.id,
          uri: `wisp://threads/${t.id}`,
          turns: t.turns,
          busy: t.busy > 0,
          lastUsed: new Date(t.lastUsed).toISOString(),
          shape: shapeView(t.shape),
        }));
        const result = pageOf(rows, page, ROWS_PER_PAGE, base);
        if (!result.ok) return fail(result.error);
        return json(uri, { threads: result.rows, ...result.info });
      }
      case "thread":
        return json(uri, this.#thread(target.thread));
      case "thread.outputs": {
        this.#knownThread(target.thread);
        const rows = this.#outputsOf(target.thread).map((id) => {
          let bytes: number | undefined;
          try {
            bytes = this.#store().size(id);
          } catch { /* not in the store */ }
          return {
            id,
            uri: `wisp://threads/${target.thread}/output/${id}`,
            ...(bytes !== undefined ? { bytes } : {}),
          };
        });
        const result = pageOf(rows, page, ROWS_PER_PAGE, base);
        if (!result.ok) return fail(result.error);
        return json(uri, { outputs: result.rows, ...result.info });
      }
      case "thread.output": {
        this.#knownThread(target.thread);
        const bytes = this.#output(target.thread, target.output);
        if (!bytes) {
          return fail(
            `thread ${target.thread} has no output ${target.output} (wisp://threads/${target.thread}/outputs lists them)`,
          );
        }
        const result = textPageOf(bytes, page, base, `output ${target.output}`);
        if (!result.ok) return fail(result.error);
        return { uri, mimeType: "text/plain", text: result.value.text };
      }
      case "facts": {
        const rows = this.#facts(fail).permanentRows();
        const result = pageOf(rows.facts, page, ROWS_PER_PAGE, base);
        if (!result.ok) return fail(result.error);
        return json(uri, { facts: result.rows, pending: rows.pending, ...result.info });
      }
      case "thread.facts": {
        this.#knownThread(target.thread);
        const facts = this.#facts(fail);
        if (!this.world.openThread(target.thread)) {
          return fail(
            `thread ${target.thread} is closed, and its facts went with it (what was kept is in wisp://facts)`,
          );
        }
        const rows = facts.threadRows(target.thread);
        const result = pageOf(rows.versions, page, ROWS_PER_PAGE, base);
        if (!result.ok) return fail(result.error);
        return json(uri, {
          thread_id: target.thread,
          lines: rows.lines,
          versions: result.rows,
          ...result.info,
        });
      }
      case "thread.context": {
        this.#knownThread(target.thread);
        const closed = this.world.closedThread(target.thread);
        if (!this.world.openThread(target.thread) && closed) {
          return fail(
            `thread ${target.thread} was ${closed.why}, and its context went with it; its summary, outputs and audit remain`,
          );
        }
        const view = this.world.threadContext?.(target.thread);
        if (view === undefined) return fail(`thread ${target.thread} has had no turn yet`);
        const result = textPageOf(new TextEncoder().encode(view), page, base, "the context");
        if (!result.ok) return fail(result.error);
        return { uri, mimeType: "text/plain", text: result.value.text };
      }
      case "thread.summary": {
        this.#knownThread(target.thread);
        const rows = this.#summary(target.thread);
        const result = pageOf(rows, page, ROWS_PER_PAGE, base);
        if (!result.ok) return fail(result.error);
        return json(uri, { thread_id: target.thread, turns: result.rows, ...result.info });
      }
    }
  }

  /**
   * The values a resource template's argument can take that start with what
   * the client typed (completion/complete): thread ids this server can read,
   * a thread's output ids (the thread named in `context`), audit session ids
   * (newest first). An argument or template it does not know has none.
   */
  complete(
    template: string,
    argument: string,
    typed: string,
    context: Record<string, string> = {},
  ): string[] {
    let values: string[] = [];
    if (template === "wisp://audit/{session}" && argument === "session") {
      values = [...new Set(this.#events().map((e) => e.session))].reverse();
    } else if (template.startsWith("wisp://threads/{thread_id}") && argument === "thread_id") {
      values = this.#threadIds();
    } else if (template === "wisp://threads/{thread_id}/output/{id}" && argument === "id") {
      const thread = context.thread_id;
      if (thread && this.#threadIds().includes(thread)) values = this.#readableOutputs(thread);
    }
    return values.filter((v) => typeof v === "string" && v.startsWith(typed));
  }

  /** The ids wisp://threads/{thread_id}/output/{id} reads: stored outputs, then calls' results. */
  #readableOutputs(thread: string): string[] {
    const ids = this.#outputsOf(thread);
    for (const e of this.#threadEvents(thread)) {
      if (e.kind !== "tool.result" || typeof e.callId !== "string") continue;
      if (typeof e.text === "string" && !ids.includes(e.callId)) ids.push(e.callId);
    }
    return ids;
  }

  /** Threads a read can name: the open ones, then those of this server's audit it still knows. */
  #threadIds(): string[] {
    const ids = this.world.openThreads().map((t) => t.id);
    for (const e of this.#events()) {
      if (e.session !== this.world.session || typeof e.thread !== "string") continue;
      if (!ids.includes(e.thread) && this.world.closedThread(e.thread)) ids.push(e.thread);
    }
    return ids;
  }

  #auditFor(target: ResourceTarget): AuditEvent[] {
    const events = this.#events();
    if (target.kind === "audit.session") return events.filter((e) => e.session === target.session);
    if (target.kind === "thread.audit") {
      this.#knownThread(target.thread);
      return events.filter((e) => e.session === this.world.session && e.thread === target.thread);
    }
    return events;
  }

  #thread(id: string): Record<string, unknown> {
    const links = {
      audit: `wisp://threads/${id}/audit`,
      outputs: `wisp://threads/${id}/outputs`,
      summary: `wisp://threads/${id}/summary`,
      context: `wisp://threads/${id}/context`,
    };
    const open = this.world.openThread(id);
    if (open) {
      return {
        thread_id: id,
        open: true,
        shape: shapeView(open.shape),
        turns: open.turns,
        busy: open.busy > 0,
        createdAt: new Date(open.createdAt).toISOString(),
        lastUsed: new Date(open.lastUsed).toISOString(),
        session: this.world.session,
        ...links,
      };
    }
    const closed = this.world.closedThread(id);
    if (closed) {
      return {
        thread_id: id,
        open: false,
        [closed.why]: new Date(closed.closedAt).toISOString(),
        note: `the thread was ${closed.why}; its audit, outputs and summary remain`,
        shape: shapeView(closed.shape),
        turns: closed.turns,
        session: this.world.session,
        ...links,
      };
    }
    throw new ResourceError(
      `there is no thread ${id} in this server; wisp://threads lists the open ones`,
    );
  }

  #store(): OutputStore {
    return new OutputStore(this.world.paths, this.world.session);
  }

  #outputsOf(thread: string): string[] {
    const ids: string[] = [];
    const open = this.world.openThread(thread);
    for (const id of open?.outputs ?? []) if (!ids.includes(id)) ids.push(id);
    for (const e of this.#threadEvents(thread)) {
      if (e.kind === "tool.result" && typeof e.outputId === "string" && !ids.includes(e.outputId)) {
        ids.push(e.outputId);
      }
    }
    return ids;
  }

  /** A stored output of the thread, or a call's whole result from the audit. */
  #output(thread: string, id: string): Uint8Array | undefined {
    if (this.#outputsOf(thread).includes(id)) {
      try {
        return Deno.readFileSync(this.#store().pathOf(id));
      } catch { /* gone from the store */ }
    }
    for (const e of this.#threadEvents(thread)) {
      if (e.kind === "tool.result" && e.callId === id && typeof e.text === "string") {
        return new TextEncoder().encode(e.text);
      }
    }
    return undefined;
  }

  #summary(thread: string): Record<string, unknown>[] {
    const turns = new Map<number, { prompt?: string; reply?: string; tools: string[] }>();
    for (const e of this.#threadEvents(thread)) {
      const n = typeof e.threadTurn === "number" ? e.threadTurn : undefined;
      if (n === undefined) continue;
      const turn = turns.get(n) ?? { tools: [] };
      turns.set(n, turn);
      if (e.kind === "prompt" && typeof e.text === "string") turn.prompt = clip(e.text, 300);
      if (e.kind === "response" && typeof e.text === "string") turn.reply = clip(e.text, 600);
      if (e.kind === "tool.call" && typeof e.tool === "string") turn.tools.push(e.tool);
    }
    return [...turns.entries()].sort((a, b) => a[0] - b[0]).map(([turn, t]) => ({
      turn,
      prompt: t.prompt ?? "",
      reply: t.reply ?? "",
      calls: t.tools,
    }));
  }
}

/**
 * wisp's MCP server: respond on threads, close_thread, the ten condensing
 * tools that keep their input on this machine (condensing.ts: each served
 * from its one implementation), and the wisp:// resources. Built on the
 * SDK's low-level Server, so every argument and URI is checked here: a tool
 * call whose arguments do not fit the tool's schema is an isError result with
 * one sentence, an unknown tool or a malformed URI an invalidParams error.
 * Over the LineTransport, a malformed message gets an error reply; the server
 * keeps serving either way.
 */
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/server/index"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  type LoggingLevel,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { contextView } from "../../context/view.ts";
import { VERSION } from "../../version.ts";
import { messageOf, WispError } from "../../util/errors.ts";
import { ToolInputError } from "../../util/tool_input.ts";
import type { Session } from "../../session/session.ts";
import type { Conversation, SessionEngine } from "./engine.ts";
import { ThreadError, type ThreadShape, ThreadTable, TurnFailure } from "./threads.ts";
import { FactDesk, type FactDeskOptions, FactScopeError } from "./facts.ts";
import { bookSink } from "../../context/facts/sink.ts";
import { receiptOutput, receiptText } from "./receipt.ts";
import { RESOURCE_TEMPLATES, ResourceError, Resources, STATIC_RESOURCES } from "./resources.ts";
import type { Logger } from "./log.ts";
import { addLogSink, type LogLevel } from "../../util/log.ts";
import { skipRequestIdZero } from "./request_ids.ts";
import { announcerFor, callAnnouncer } from "./announce.ts";
import {
  callDirectory,
  CONDENSING_TOOLS,
  folderFrom,
  gateReads,
  type ToolAnnotations,
} from "./condensing.ts";

const respondArgs = z.object({
  prompt: z.string().min(1).describe(
    "What to ask wisp's model: name the tool, give exact arguments, say how to report.",
  ),
  thread_id: z.string().optional().describe(
    "The thread to continue; absent, a new thread is made and its id returned.",
  ),
  task: z.string().optional().describe("A sentence the model sees beside this request."),
  schema: z.record(z.string(), z.unknown()).optional().describe(
    "A JSON Schema the reply must match (this call only).",
  ),
  model: z.string().optional().describe(
    "The model for a new thread (ollama:<name>, llamacpp:<name>, lmstudio:<name>); only when the thread starts.",
  ),
  tools: z.array(z.string()).optional().describe(
    "The tools a new thread offers (wisp://tools lists them; [] for none); only when the thread starts.",
  ),
  instructions: z.string().optional().describe(
    "Instructions for a new thread, after wisp's own; only when the thread starts.",
  ),
  commandTimeoutSeconds: z.number().int().min(0).optional().describe(
    "The time limit of the thread's commands (0: none, up to the operator's cap); only when the thread starts.",
  ),
  workingDirectory: z.string().optional().describe(
    "Where the thread's commands and relative paths start (default: where the server was started); only when the thread starts.",
  ),
}).strict();

const closeThreadArgs = z.object({
  thread_id: z.string().describe("The thread to free."),
}).strict();

const setFactScopeArgs = z.object({
  thread_id: z.string().describe("The thread whose fact it is."),
  fact: z.string().optional().describe(
    "The fact's id in the thread (c3; wisp://threads/{thread_id}/facts lists them).",
  ),
  subject: z.string().optional().describe(
    "Instead of an id, state a fact: its kind (entity, preference, decision, …)…",
  ),
  name: z.string().optional().describe("…what it is about…"),
  value: z.string().optional().describe("…and its value."),
  scope: z.enum(["thread", "permanent"]).describe(
    "permanent: ask the person to keep it for later conversations (only they can; the call returns at once with the request's id); thread: keep it to this thread, withdrawing such a request.",
  ),
}).strict();

/** set_fact_scope's result: the fact, its scope now, and the request that waits. */
const setFactScopeOutput = z.object({
  thread_id: z.string(),
  fact: z.string().optional(),
  line: z.string().optional(),
  scope: z.enum(["thread", "permanent", "pending"]),
  pending_id: z.string().optional(),
  message: z.string(),
});

/** respond's result: the receipt, or (isError) the thread and what went wrong. */
const respondOutput = z.union([
  receiptOutput,
  z.object({ thread_id: z.string(), error: z.string() }),
]);

/** close_thread's result: the thread named and whether it was open. */
const closeThreadOutput = z.object({ thread_id: z.string(), closed: z.boolean() });

export interface ToolEntry {
  name: string;
  description: string;
  schema: z.ZodType;
  /** What the result's structuredContent holds (tools/list's outputSchema). */
  output: z.ZodType;
  /** What a client may assume about the tool (ADR 0341). */
  annotations: ToolAnnotations;
}

export const TOOLS: ToolEntry[] = [
  {
    name: "respond",
    description:
      "Ask wisp's local model to do something on this machine with its own tools (run_command, read_file, edit_file, …), " +
      "under wisp's policy, sandbox, the person's approval and its audit log. Runs on a thread (thread_id); the result is the " +
      "reply, and in structuredContent a receipt of what ran (read it before trusting the reply). Read wisp://tools for the " +
      "model's tools and prompts that work.",
    schema: respondArgs,
    output: respondOutput,
    // The model runs commands and edits files (under the gate and the person's approval);
    // a command may reach the network where the config or an approval allows it.
    annotations: {
      title: "Ask wisp's local model to do it",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
  },
  {
    name: "close_thread",
    description:
      "Free a respond thread when its work is done. Its audit, outputs and summary stay readable.",
    schema: closeThreadArgs,
    output: closeThreadOutput,
    // It forgets the thread's conversation (its audit and outputs stay); a second call changes nothing.
    annotations: {
      title: "Close a respond thread",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
  {
    name: "set_fact_scope",
    description:
      "Keep a thread's fact for later conversations (scope permanent) or to the thread alone (scope thread). Only the " +
      "person admits a permanent fact: the request waits for them (wisp facts keep ID at their terminal); tell them " +
      "the id it returns and never answer it yourself. Name the fact by its id, or state one with subject, name and value.",
    schema: setFactScopeArgs,
    output: setFactScopeOutput,
    // It files a request for the person and changes only the thread's facts.
    annotations: {
      title: "Set a fact's scope",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
  ...CONDENSING_TOOLS,
];

type ListedTool = {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
};
let listed: ListedTool[] | undefined;

/** A zod schema as tools/list gives it: JSON Schema without the $schema line. */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/**
 * An outputSchema must be an object schema at the top (the MCP spec): a
 * union of objects is given as an object whose alternatives are its anyOf.
 */
function outputSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const json = jsonSchema(schema, "output");
  return json.type === "object" ? json : { type: "object", ...json };
}

/** tools/list's answer, made once: the schemas never change while the server runs. */
function toolList(): ListedTool[] {
  return listed ??= TOOLS.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: jsonSchema(t.schema, "input"),
    outputSchema: outputSchemaOf(t.output),
    annotations: t.annotations,
  }));
}

/** The first thing wrong with a call's arguments, as one sentence (the rest are counted). */
export function argumentsProblem(tool: string, error: z.ZodError): string {
  const [first, ...rest] = error.issues;
  const where = first.path.length > 0 ? `${first.path.join(".")}: ` : "";
  const more = rest.length > 0 ? ` (and ${rest.length} more)` : "";
  return `the arguments of ${tool} do not fit its schema: ${where}${
    first.message.replace(/^Invalid input: /, "")
  }${more}; tools/list gives the schema`;
}

/** Errors a caller can act on; anything else is logged too. */
function isCallersProblem(error: unknown): boolean {
  return error instanceof ToolInputError || error instanceof WispError;
}

/** What the face works with: the server's session, the engine of its turns, the config's view. */
export interface FaceBackend {
  session: Session;
  engine: SessionEngine;
  configView: () => Record<string, unknown>;
}

export interface McpFaceOptions {
  /**
   * Opens the backend, once, at the first request that needs it: initialize
   * and tools/list are answered without loading the session, the gate and
   * the tools (ADR 0344).
   */
  open: () => Promise<FaceBackend>;
  /** Thread defaults from wisp mcp's flags. */
  defaults: ThreadShape;
  maxThreads: number;
  log: Logger;
  /** The facts of threads and set_fact_scope; absent, threads keep no facts (tests of other parts). */
  facts?: Omit<FactDeskOptions, "threadOpen" | "threadDirectory">;
}

type ToolResult = {
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

function textResult(
  text: string,
  structured?: Record<string, unknown>,
  isError = false,
): ToolResult {
  return {
    content: [{ type: "text", text }],
    ...(structured ? { structuredContent: structured } : {}),
    ...(isError ? { isError: true } : {}),
  };
}

/** MCP's log levels, least severe first. */
const MCP_LEVELS: LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** What a client gets before it sets a level with logging/setLevel (ADR 0371). */
const DEFAULT_CLIENT_LOG_LEVEL: LoggingLevel = "warning";

/** The lowest of wisp's levels a client at `level` takes, or undefined for none. */
function wispLevelFor(level: LoggingLevel): LogLevel | undefined {
  const rank = MCP_LEVELS.indexOf(level);
  if (rank <= MCP_LEVELS.indexOf("debug")) return "debug";
  if (rank <= MCP_LEVELS.indexOf("info")) return "info";
  if (rank <= MCP_LEVELS.indexOf("error")) return "error";
  return undefined;
}

/** Most values one completion answer carries (the MCP limit). */
const COMPLETION_MAX = 100;

/** A completion/complete answer: the first hundred values, and how many there are. */
function completionOf(values: string[]): {
  completion: { values: string[]; total: number; hasMore: boolean };
} {
  return {
    completion: {
      values: values.slice(0, COMPLETION_MAX),
      total: values.length,
      hasMore: values.length > COMPLETION_MAX,
    },
  };
}

export class McpFace {
  readonly server: Server;
  readonly threads: ThreadTable<Conversation>;
  readonly facts: FactDesk | undefined;
  #opened: Promise<{ backend: FaceBackend; resources: Resources }> | undefined;
  #backend: FaceBackend | undefined;
  /** The level the client asked for with logging/setLevel. */
  #clientLevel: LoggingLevel = DEFAULT_CLIENT_LOG_LEVEL;
  #removeSink: (() => void) | undefined;

  constructor(readonly options: McpFaceOptions) {
    this.threads = new ThreadTable<Conversation>(
      options.maxThreads,
      // Threads are opened only once the backend is (respond awaits ready() first).
      () => this.#backend!.engine.newConversation(),
      (thread, why) => {
        options.log("debug", `thread ${thread.id} ${why}`);
        this.#backend?.engine.threadEnded(thread.id);
      },
    );
    this.facts = options.facts
      ? new FactDesk({
        ...options.facts,
        threadOpen: (id) => this.threads.get(id) !== undefined,
        threadDirectory: (id) => this.threads.get(id)?.shape.workingDirectory,
      })
      : undefined;
    this.server = new Server(
      { name: "wisp", version: VERSION },
      {
        capabilities: { tools: {}, resources: {}, logging: {}, completions: {} },
        instructions:
          "wisp runs a local model with tools on this machine. Use respond to delegate work (it runs under the person's " +
          "approval, the sandbox and the audit); read wisp://tools for what the model can do. The condensing tools " +
          "(triage first for build and test output, then summarise_diff, draft_change, condense_log, json_shape, " +
          "dependency_audit, flaky_tests, hot_paths, scan_secrets, redact) read on this machine and return a small " +
          "result. Approvals reach only the person: never try to answer one.",
      },
    );
    if (!skipRequestIdZero(this.server)) {
      options.log(
        "error",
        "the SDK's request counter was not found: the first dialog may use id 0",
      );
    }
    this.#register();
  }

  /** The backend and the resources on it, opened at the first request that needs them. */
  ready(): Promise<{ backend: FaceBackend; resources: Resources }> {
    return this.#opened ??= this.options.open().then((backend) => {
      this.#backend = backend;
      const { session } = backend;
      const resources = new Resources({
        config: session.config,
        paths: session.paths,
        session: session.id,
        configView: backend.configView,
        tools: () => session.tools(),
        openThread: (id) => this.threads.get(id),
        closedThread: (id) => this.threads.closed(id),
        openThreads: () => this.threads.list(),
        ...(this.facts ? { facts: this.facts } : {}),
        threadContext: (id) => {
          const agent = this.threads.get(id)?.conversation.agent;
          return agent ? contextView(agent.context) : undefined;
        },
      });
      return { backend, resources };
    });
  }

  /** The opening of the backend, if it has begun (so a stopping server can wait for it). */
  opening(): Promise<unknown> | undefined {
    return this.#opened;
  }

  #register(): void {
    const server = this.server;
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args } = request.params;
      // What waits inside the call (an approval) announces itself to this call's client.
      const announce = announcerFor({
        progressToken: extra._meta?.progressToken,
        progress: (params) =>
          extra.sendNotification({ method: "notifications/progress", params } as never),
        log: (params) => this.sendLog(params.level, params.data),
      });
      return await callAnnouncer.run(
        announce,
        () => this.callTool(name, args ?? {}, extra.signal),
      );
    });
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: STATIC_RESOURCES }));
    server.setRequestHandler(
      ListResourceTemplatesRequestSchema,
      () => ({ resourceTemplates: RESOURCE_TEMPLATES }),
    );
    // The SDK's own handler keeps the level where this face cannot read it; this one keeps it here.
    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      this.#clientLevel = request.params.level;
      return {};
    });
    server.setRequestHandler(CompleteRequestSchema, async (request) => {
      const { ref, argument, context } = request.params;
      // wisp offers no prompts, and a template that is not its own has nothing to offer:
      // completion is a hint while typing, so either is an empty list, not an error (ADR 0370).
      if (ref.type !== "ref/resource") return completionOf([]);
      const { resources } = await this.ready();
      return completionOf(
        resources.complete(ref.uri, argument.name, argument.value, context?.arguments ?? {}),
      );
    });
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      const { resources } = await this.ready();
      try {
        return { contents: [resources.read(request.params.uri)] };
      } catch (error) {
        if (error instanceof ResourceError) {
          throw new McpError(ErrorCode.InvalidParams, error.message);
        }
        throw error;
      }
    });
  }

  async callTool(name: string, args: unknown, signal?: AbortSignal): Promise<ToolResult> {
    const entry = TOOLS.find((t) => t.name === name);
    if (!entry) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `there is no tool named ${name}; tools/list gives ${TOOLS.map((t) => t.name).join(", ")}`,
      );
    }
    const parsed = entry.schema.safeParse(args);
    if (!parsed.success) {
      return textResult(`error: ${argumentsProblem(name, parsed.error)}`, undefined, true);
    }
    switch (name) {
      case "respond":
        return await this.respond(parsed.data as z.infer<typeof respondArgs>, signal);
      case "set_fact_scope": {
        await this.ready();
        const args = parsed.data as z.infer<typeof setFactScopeArgs>;
        if (!this.facts) {
          return textResult("error: this server keeps no facts", undefined, true);
        }
        try {
          const result = await this.facts.setScope(args);
          return textResult(result.message, { ...result });
        } catch (error) {
          if (error instanceof FactScopeError) {
            return textResult(`error: ${error.message}`, undefined, true);
          }
          throw error;
        }
      }
      case "close_thread": {
        const id = (parsed.data as z.infer<typeof closeThreadArgs>).thread_id;
        const closed = this.threads.close(id);
        if (closed) this.facts?.forget(id);
        return closed
          ? textResult(`closed thread ${id}`, { thread_id: id, closed: true })
          : textResult(`there is no open thread ${id}`, { thread_id: id, closed: false }, true);
      }
    }
    const tool = CONDENSING_TOOLS.find((t) => t.name === name)!;
    const { working_directory, ...own } = parsed.data as Record<string, unknown>;
    const { session } = (await this.ready()).backend;
    try {
      const cwd = callDirectory(working_directory as string | undefined, session.root);
      const env = { session, cwd, signal };
      // triage gates its path itself, inside its own audit session.
      if (name !== "triage") await gateReads(own, env);
      const result = await tool.run(own, env);
      return textResult(result.text, result.structured);
    } catch (error) {
      if (!isCallersProblem(error)) {
        this.options.log("error", `${name} failed: ${messageOf(error)}`);
      }
      return textResult(`error: ${messageOf(error).replace(/^error: /, "")}`, undefined, true);
    }
  }

  #workingDirectory(given: string | undefined, root: string): string | undefined {
    if (given === undefined) return undefined;
    const { path, problem } = folderFrom(given, root, "workingDirectory");
    if (problem) throw new ThreadError(problem);
    return path;
  }

  async respond(args: z.infer<typeof respondArgs>, signal?: AbortSignal): Promise<ToolResult> {
    const { session, engine } = (await this.ready()).backend;
    let opened;
    try {
      const shape: Partial<ThreadShape> = {
        ...(args.model !== undefined ? { model: args.model } : {}),
        ...(args.tools !== undefined ? { tools: args.tools } : {}),
        ...(args.instructions !== undefined ? { instructions: args.instructions } : {}),
        ...(args.commandTimeoutSeconds !== undefined
          ? { commandTimeoutSeconds: args.commandTimeoutSeconds }
          : {}),
        ...(args.workingDirectory !== undefined
          ? { workingDirectory: this.#workingDirectory(args.workingDirectory, session.root) }
          : {}),
      };
      const isNew = args.thread_id === undefined || !this.threads.get(args.thread_id);
      if (isNew) engine.toolsFor({ ...this.options.defaults, ...shape });
      opened = this.threads.open(args.thread_id, shape, this.options.defaults);
    } catch (error) {
      if (error instanceof ThreadError) throw new McpError(ErrorCode.InvalidParams, error.message);
      return textResult(`error: ${messageOf(error)}`, undefined, true);
    }
    const { thread } = opened;
    if (opened.evicted) {
      this.facts?.forget(opened.evicted);
      this.options.log("info", `dropped thread ${opened.evicted} (maxThreads ${this.threads.max})`);
    }
    // The thread's book is its conversation's facts: composition shows them, condensing
    // distils dropped turns into them, and the memory tool notes into them.
    const book = this.facts?.bookFor(thread.id);
    if (book && !thread.conversation.factsFor) {
      thread.conversation.factsFor = (backend) => bookSink({ book, backend, audit: session.audit });
    }
    // The caller's task is the thread's task fact, the caller's own (it outranks the model's).
    if (args.task) this.facts?.recordStated(thread.id, thread.turns + 1, "task", args.task);
    try {
      const receipt = await this.threads.runTurn(thread, () =>
        engine.turn(thread, {
          prompt: args.prompt,
          ...(args.task ? { task: args.task } : {}),
          ...(args.schema ? { schema: args.schema } : {}),
          ...(signal ? { signal } : {}),
        }));
      // What the turn's commands showed becomes the thread's facts (the tools' observations).
      this.facts?.observeTurn(thread.id, thread.turns, receipt.calls, session.root);
      return textResult(receiptText(receipt), receipt);
    } catch (error) {
      if (error instanceof TurnFailure) {
        return textResult(
          `error: ${error.message}`,
          { thread_id: thread.id, error: error.message },
          true,
        );
      }
      this.options.log("error", `respond failed: ${messageOf(error)}`);
      return textResult(`error: ${messageOf(error)}`, {
        thread_id: thread.id,
        error: messageOf(error),
      }, true);
    }
  }

  /**
   * Send the client a log message (notifications/message, logger `wisp`) if
   * its level takes `level`; a client that has gone cannot be told.
   */
  async sendLog(level: LoggingLevel, data: string): Promise<void> {
    if (MCP_LEVELS.indexOf(level) < MCP_LEVELS.indexOf(this.#clientLevel)) return;
    await this.server.sendLoggingMessage({ level, logger: "wisp", data }).catch(() => {});
  }

  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
    // wisp's diagnostics reach the client too, at the level it set (one logger, two sinks).
    const clientLevel = () => this.#clientLevel;
    this.#removeSink ??= addLogSink({
      remote: true,
      get level() {
        return wispLevelFor(clientLevel()) ?? "error";
      },
      write: (level, text) => {
        if (wispLevelFor(clientLevel()) === undefined) return;
        void this.sendLog(level, text);
      },
    });
  }

  close(): void {
    this.facts?.close();
    this.#removeSink?.();
    this.#removeSink = undefined;
    this.threads.closeAll();
  }
}

/**
 * wisp's MCP server: respond on threads, close_thread, the condensing tools
 * that keep their input on this machine, and the wisp:// resources. Built on
 * the SDK's low-level Server (so every argument and URI is checked here, and
 * a malformed one is an invalidParams error with a sentence), over the
 * LineTransport (so a malformed message gets an error reply and the server
 * keeps serving).
 */
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/server/index"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { isAbsolute, resolve } from "node:path";
import { z } from "zod";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { VERSION } from "../../version.ts";
import { messageOf, WispError } from "../../util/errors.ts";
import { resolveModel } from "../../models/registry.ts";
import {
  redactInput,
  redactTool,
  scanSecretsInput,
  scanSecretsTool,
  ToolInputError,
} from "../../secrets/tools.ts";
import type { Session } from "../../session/session.ts";
import { type Conversation, type SessionEngine, TurnFailure } from "./engine.ts";
import { ThreadError, type ThreadShape, ThreadTable } from "./threads.ts";
import { receiptText } from "./receipt.ts";
import { RESOURCE_TEMPLATES, ResourceError, Resources, STATIC_RESOURCES } from "./resources.ts";
import type { Logger } from "./log.ts";
import {
  CondenseInputError,
  dependencyAuditArgs,
  dependencyAuditTool,
  draftChangeArgs,
  draftChangeTool,
  jsonShapeArgs,
  jsonShapeTool,
  summariseDiffArgs,
  summariseDiffTool,
} from "./condensing.ts";

export const respondArgs = z.object({
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

export const closeThreadArgs = z.object({
  thread_id: z.string().describe("The thread to free."),
}).strict();

export const triageArgs = z.object({
  command: z.string().min(1).optional().describe(
    "A build or test command to run (through the same gate, approval and sandbox as run_command) and read.",
  ),
  path: z.string().min(1).optional().describe(
    "An output file already on this machine to read instead.",
  ),
  working_directory: z.string().optional().describe(
    "Where the command runs (default: where the server was started).",
  ),
  cap: z.number().int().min(1).max(200).optional().describe(
    "List at most this many findings (default 25).",
  ),
}).strict();

export interface ToolEntry {
  name: string;
  description: string;
  schema: z.ZodType;
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
  },
  {
    name: "close_thread",
    description:
      "Free a respond thread when its work is done. Its audit, outputs and summary stay readable.",
    schema: closeThreadArgs,
  },
  {
    name: "triage",
    description:
      "The failures in a build or test output, without a model turn for what known formats explain (Swift, clang, rustc, " +
      "cargo, pytest, go test, tsc, jest, …): give command (run under wisp's gate and sandbox) or path. Returns a headline " +
      "and the findings; the raw output stays on this machine.",
    schema: triageArgs,
  },
  {
    name: "summarise_diff",
    description:
      "A short summary of a unified diff on this machine (text or a file): files changed with their status, lines " +
      "added and removed, and the functions the hunks name, largest changes first. No model.",
    schema: summariseDiffArgs,
  },
  {
    name: "json_shape",
    description:
      "The structure of a JSON document or JSON Lines on this machine without its data: keys and their types, " +
      "optional keys, array lengths, unions and small enums, as an indented outline. No model.",
    schema: jsonShapeArgs,
  },
  {
    name: "dependency_audit",
    description:
      "What a lockfile pins (package-lock.json, deno.lock, Cargo.lock, go.sum, poetry.lock, uv.lock, " +
      "Package.resolved), from the lockfile alone: package counts, names at several versions, and what it marks " +
      "(sources outside the registry, plain http, missing integrity, install scripts). No network, no model.",
    schema: dependencyAuditArgs,
  },
  {
    name: "draft_change",
    description:
      "Draft a commit message, a pull request description or a changelog line from a diff on this machine (text, a " +
      "file, or the staged change). The configured model writes from an exact summary; without one, a plain draft. " +
      "A commit message ends in a Why: line for you to fill.",
    schema: draftChangeArgs,
  },
  {
    name: "scan_secrets",
    description:
      "Look for credentials (and with personal: true, personal data) in a text or a file on this machine; returns each " +
      "finding's place, kind and a masked preview, never the value.",
    schema: scanSecretsInput,
  },
  {
    name: "redact",
    description:
      "Return a text or a file on this machine with every credential (and personal data unless personal: false) replaced by " +
      "[REDACTED:kind#n].",
    schema: redactInput,
  },
];

type ListedTool = { name: string; description: string; inputSchema: Record<string, unknown> };
let listed: ListedTool[] | undefined;

/** tools/list's answer, made once: the schemas never change while the server runs. */
export function toolList(): ListedTool[] {
  return listed ??= TOOLS.map((t) => {
    const schema = z.toJSONSchema(t.schema, { io: "input" }) as Record<string, unknown>;
    delete schema.$schema;
    return { name: t.name, description: t.description, inputSchema: schema };
  });
}

function describeZod(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "(arguments)"}: ${i.message}`).join("; ");
}

export interface McpFaceOptions {
  session: Session;
  engine: SessionEngine;
  /** Thread defaults from wisp mcp's flags. */
  defaults: ThreadShape;
  maxThreads: number;
  configView: () => Record<string, unknown>;
  log: Logger;
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

export class McpFace {
  readonly server: Server;
  readonly threads: ThreadTable<Conversation>;
  readonly resources: Resources;

  constructor(readonly options: McpFaceOptions) {
    const { session } = options;
    this.threads = new ThreadTable<Conversation>(
      options.maxThreads,
      () => options.engine.newConversation(),
      (thread, why) => options.log("debug", `thread ${thread.id} ${why}`),
    );
    this.resources = new Resources({
      config: session.config,
      paths: session.paths,
      session: session.id,
      configView: options.configView,
      tools: () => session.tools(),
      openThread: (id) => this.threads.get(id),
      closedThread: (id) => this.threads.closed(id),
      openThreads: () => this.threads.list(),
    });
    this.server = new Server(
      { name: "wisp", version: VERSION },
      {
        capabilities: { tools: {}, resources: {} },
        instructions:
          "wisp runs a local model with tools on this machine. Use respond to delegate work (it runs under the person's " +
          "approval, the sandbox and the audit); read wisp://tools for what the model can do. Approvals reach only the " +
          "person: never try to answer one.",
      },
    );
    this.#register();
  }

  #register(): void {
    const server = this.server;
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args } = request.params;
      return await this.callTool(name, args ?? {}, extra.signal);
    });
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: STATIC_RESOURCES }));
    server.setRequestHandler(
      ListResourceTemplatesRequestSchema,
      () => ({ resourceTemplates: RESOURCE_TEMPLATES }),
    );
    server.setRequestHandler(ReadResourceRequestSchema, (request) => {
      try {
        return { contents: [this.resources.read(request.params.uri)] };
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
      throw new McpError(ErrorCode.InvalidParams, `${name}: ${describeZod(parsed.error)}`);
    }
    switch (name) {
      case "respond":
        return await this.respond(parsed.data as z.infer<typeof respondArgs>, signal);
      case "close_thread": {
        const id = (parsed.data as z.infer<typeof closeThreadArgs>).thread_id;
        const closed = this.threads.close(id);
        return closed
          ? textResult(`closed thread ${id}`, { thread_id: id, closed: true })
          : textResult(`there is no open thread ${id}`, { thread_id: id, closed: false }, true);
      }
      case "scan_secrets":
      case "redact":
        return await this.#secrets(name, parsed.data);
      case "triage":
        return await this.#triage(parsed.data as z.infer<typeof triageArgs>, signal);
      case "draft_change":
        return await this.#draft(parsed.data as z.infer<typeof draftChangeArgs>, signal);
      case "summarise_diff":
      case "json_shape":
      case "dependency_audit":
        return await this.#condense(name, parsed.data);
    }
    throw new McpError(ErrorCode.InvalidParams, `there is no tool named ${name}`);
  }

  async #secrets(name: "scan_secrets" | "redact", args: unknown): Promise<ToolResult> {
    const context = { audit: this.options.session.audit, cwd: this.options.session.root };
    try {
      if (name === "scan_secrets") {
        const r = await scanSecretsTool(args as z.input<typeof scanSecretsInput>, context);
        const { text, ...rest } = r;
        return textResult(text, rest as unknown as Record<string, unknown>);
      }
      const r = await redactTool(args as z.input<typeof redactInput>, context);
      return textResult(r.text === "" ? r.summary : r.text, {
        summary: r.summary,
        counts: r.counts,
        heldBack: r.heldBack,
      });
    } catch (error) {
      if (error instanceof ToolInputError) {
        return textResult(`error: ${error.message}`, undefined, true);
      }
      throw error;
    }
  }

  async #condense(
    name: "summarise_diff" | "json_shape" | "dependency_audit",
    args: unknown,
  ): Promise<ToolResult> {
    const root = this.options.session.root;
    try {
      const result = name === "summarise_diff"
        ? await summariseDiffTool(args as z.infer<typeof summariseDiffArgs>, root)
        : name === "json_shape"
        ? await jsonShapeTool(args as z.infer<typeof jsonShapeArgs>, root)
        : await dependencyAuditTool(args as z.infer<typeof dependencyAuditArgs>, root);
      return textResult(result.text, result.structured);
    } catch (error) {
      if (error instanceof CondenseInputError) {
        return textResult(`error: ${error.message}`, undefined, true);
      }
      throw error;
    }
  }

  async #draft(args: z.infer<typeof draftChangeArgs>, signal?: AbortSignal): Promise<ToolResult> {
    const { session } = this.options;
    const config = session.config;
    try {
      const result = await draftChangeTool(args, {
        root: session.root,
        stagedDiff: async (cwd) => {
          const { runCaptured } = await import("../../condense/run_command.ts");
          const ran = await runCaptured("git diff --cached", "draft", {
            config,
            paths: session.paths,
            audit: session.audit,
            gate: session.gate,
            cwd,
            root: session.root,
            ...(session.host ? { host: session.host } : {}),
            ...(session.yes ? { yes: true } : {}),
            ...(signal ? { signal } : {}),
          });
          if (ran.exitStatus !== 0) {
            throw new CondenseInputError(
              `git diff --cached failed (exit ${ran.exitStatus}): ${
                ran.text.trim().split("\n")[0] ?? ""
              }`,
            );
          }
          return ran.text;
        },
        backend: () => {
          const name = config.routing.tasks.draft ?? config.model;
          try {
            return { backend: resolveModel(name, config) };
          } catch {
            return { reason: `no model configured: ${name} is not available here` };
          }
        },
        onTurn: (prompt, reply, model) => {
          session.audit.record("prompt", { text: prompt, model, tool: "draft_change" });
          session.audit.record("response", { text: reply, model, tool: "draft_change" });
        },
      });
      return textResult(result.text, result.structured);
    } catch (error) {
      if (error instanceof CondenseInputError || error instanceof WispError) {
        return textResult(`error: ${error.message}`, undefined, true);
      }
      throw error;
    }
  }

  async #triage(args: z.infer<typeof triageArgs>, signal?: AbortSignal): Promise<ToolResult> {
    const { session } = this.options;
    if ((args.command === undefined) === (args.path === undefined)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        "triage: give either command or path, not both and not neither",
      );
    }
    const { readFileBounded } = await import("../../condense/input.ts");
    const service = await import("../../condense/service.ts");
    let input: { text: string; bytes: number; droppedBytes: number };
    let exitStatus: number | null | undefined;
    try {
      if (args.command !== undefined) {
        const { runForTriage } = await import("../../condense/run_command.ts");
        let cwd: string | undefined;
        try {
          cwd = this.#workingDirectory(args.working_directory);
        } catch (error) {
          throw new McpError(ErrorCode.InvalidParams, `triage: ${(error as Error).message}`);
        }
        const ran = await runForTriage(args.command, {
          config: session.config,
          paths: session.paths,
          audit: session.audit,
          gate: session.gate,
          cwd: cwd ?? session.root,
          root: session.root,
          ...(session.host ? { host: session.host } : {}),
          ...(session.yes ? { yes: true } : {}),
          ...(signal ? { signal } : {}),
        });
        input = ran;
        exitStatus = ran.exitStatus;
      } else {
        const path = isAbsolute(args.path!) ? args.path! : resolve(session.root, args.path!);
        input = await readFileBounded(path);
      }
    } catch (error) {
      if (error instanceof McpError) throw error;
      if (error instanceof Deno.errors.NotFound) {
        return textResult(`error: ${args.path} does not exist`, undefined, true);
      }
      return textResult(`error: ${messageOf(error)}`, undefined, true);
    }
    const choice = await service.chooseJudge(session.config, { audit: session.audit });
    const result = await service.runTriage({
      text: input.text,
      source: args.command !== undefined ? "command" : "path",
      ...(args.command !== undefined ? { command: args.command } : { path: args.path }),
      exitStatus,
      bytes: input.bytes,
      droppedBytes: input.droppedBytes,
      ...(args.cap ? { cap: args.cap } : {}),
      choice,
      audit: session.audit,
      ...(signal ? { signal } : {}),
    });
    return textResult(service.renderTriage(result), {
      ...service.triageJson(result),
      counts: { ...result.counts },
      ...(exitStatus !== undefined ? { exitStatus } : {}),
      heldBack: result.heldBack,
    });
  }

  #workingDirectory(given: string | undefined): string | undefined {
    if (given === undefined) return undefined;
    const path = isAbsolute(given) ? given : resolve(this.options.session.root, given);
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(path);
    } catch {
      throw new ThreadError(`workingDirectory ${path} does not exist`);
    }
    if (!info.isDirectory) throw new ThreadError(`workingDirectory ${path} is not a directory`);
    return path;
  }

  async respond(args: z.infer<typeof respondArgs>, signal?: AbortSignal): Promise<ToolResult> {
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
          ? { workingDirectory: this.#workingDirectory(args.workingDirectory) }
          : {}),
      };
      const isNew = args.thread_id === undefined || !this.threads.get(args.thread_id);
      if (isNew) this.options.engine.toolsFor({ ...this.options.defaults, ...shape });
      opened = this.threads.open(args.thread_id, shape, this.options.defaults);
    } catch (error) {
      if (error instanceof ThreadError) throw new McpError(ErrorCode.InvalidParams, error.message);
      return textResult(`error: ${messageOf(error)}`, undefined, true);
    }
    const { thread } = opened;
    if (opened.evicted) {
      this.options.log("info", `dropped thread ${opened.evicted} (maxThreads ${this.threads.max})`);
    }
    try {
      const receipt = await this.threads.runTurn(thread, () =>
        this.options.engine.turn(thread, {
          prompt: args.prompt,
          ...(args.task ? { task: args.task } : {}),
          ...(args.schema ? { schema: args.schema } : {}),
          ...(signal ? { signal } : {}),
        }));
      return textResult(receiptText(receipt), receipt as unknown as Record<string, unknown>);
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

  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
  }

  close(): void {
    this.threads.closeAll();
  }
}

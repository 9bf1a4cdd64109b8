/**
 * Session: what every face (respond, chat, the MCP server and its threads)
 * opens first, and shares between its conversations.
 *
 * It holds
 * - `config`: the configuration as loaded when the session opened (a
 *   snapshot: a later `wisp config set` applies from the next session);
 * - `paths`: wisp's home;
 * - `audit`: the one audit log, opened for this session (`id` is its audit
 *   session id, recorded on every event);
 * - `gate`: the gate, whose approvals in memory (once, session) live as long
 *   as the session;
 * - `outputStore`: where whole outputs that did not fit a result are kept
 *   (`<home>/output/<session id>/`);
 * - `registry`: the tools this session can offer (the built-ins with
 *   run_command, less tools.disabled when listed);
 * - `root`: the directory wisp was launched in, the sandbox's writable root;
 * - the face's host effects: `host` (asks the person; absent = no one can be
 *   asked), `notifier` (the one notifier, with the routes the face can post
 *   through; absent = the notify tool says no notification can be posted),
 *   `yes` (--yes: approve what would be asked, never a command outside the
 *   sandbox), `unsafe` (--unsafe: commands run unconfined).
 *
 * API, for faces:
 *   const session = Session.open({ face: "respond", yes, unsafe, host, notifier });
 *   const tools = session.tools({ only, noTools });        // AnyTool[] for a conversation
 *   const turn = session.beginTurn({ cwd, budgetBytes, signal, commandTimeoutSeconds, tags });
 *   await turn.run(() => work(turn.context));  // events inside are tagged; turn.events lists them
 *   turn.end();
 *   session.close();
 *
 * Faces do not run turns by hand: src/agent/conversation.ts does, through
 * beginTurn.
 *
 * Nothing here prints or reads a terminal: that is the face's job.
 */
import type { Config } from "../config/schema.ts";
import { type HomePaths, homePaths } from "../config/home.ts";
import { loadConfig } from "../config/load.ts";
import type { AuditEvent } from "../audit/catalogue.ts";
import { AuditLog } from "../audit/writer.ts";
import { type AuditScope, openScope } from "../audit/scope.ts";
import { Gate } from "../gate/gate.ts";
import type { ApprovalHost, GateContext, GateDecision } from "../gate/gate.ts";
import { OutputStore } from "../audit/output_store.ts";
import { builtinRegistry } from "../tools/builtins.ts";
import { memoryTool } from "../context/memory_tool.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { AnyTool, ToolContext, ToolGate } from "../tools/tool.ts";
import { runCommandTool } from "../tools/run_command.ts";
import { registerCustomTools } from "../tools/custom.ts";
import { ProcessTable } from "../exec/background.ts";
import type { Notifier } from "../notify/notifier.ts";
import { ModelPulls } from "../models/background_pulls.ts";
import type { TurnHandle, TurnRequest } from "../agent/conversation.ts";
import type { Inquirer } from "../tools/ask.ts";

export interface SessionOptions {
  /** Which face opened it: respond, chat, mcp, … (recorded on session.start). */
  face: string;
  paths?: HomePaths;
  config?: Config;
  /** The launch directory; the process's working directory by default. */
  root?: string;
  /** An audit log to use; one is opened from the config otherwise. */
  audit?: AuditLog;
  /** Asks the person; absent: no one can be asked, and what needs asking is refused. */
  host?: ApprovalHost;
  /**
   * The session's one notifier, built by the face with the routes it can
   * post through (src/notify/world.ts), so the per-minute limit covers every
   * conversation; absent: the notify tool refuses with the reason.
   */
  notifier?: Notifier;
  /** The face's inquiry effect, for the ask tool; absent: no person can answer a question. */
  inquirer?: Inquirer;
  yes?: boolean;
  unsafe?: boolean;
  /** The tool registry; the built-ins (with run_command) by default. */
  registry?: ToolRegistry;
  gate?: Gate;
  argv?: string[];
}

/** What a turn is begun with (the conversation's request). */
export type TurnOptions = TurnRequest;

/** What run_command (and custom tools) read beside the ordinary ToolContext. */
export interface SessionToolContext extends ToolContext {
  /** The thread's command time limit, when it has one (0: none, up to the operator's cap). */
  commandTimeoutSeconds?: number;
  /** The turn's id, for once approvals. */
  turnId?: string;
  /** The session's background processes (the process tool, inspect status). */
  processes?: ProcessTable;
  /** Which face opened the session, and how many approvals it holds in memory (inspect status). */
  face?: string;
  sessionApprovals?: () => number;
}

/** A turn of this session: its id, the context its calls run with, and its events. */
export interface Turn extends TurnHandle {
  readonly context: SessionToolContext;
  /** The turn's audit scope: its calls record through it, and it lists the turn's events. */
  readonly audit: AuditScope;
}

/**
 * The registry a session offers by default: wisp's built-ins, run_command
 * right after current_date, and the config's custom tools last.
 */
export function sessionRegistry(config?: Config): ToolRegistry {
  const registry = builtinRegistry();
  if (!registry.get("run_command")) registry.register(runCommandTool);
  // The conversation's memory: offered only when context.memory is on or a tool list names it.
  if (!registry.get("memory")) registry.register(memoryTool);
  if (config) registerCustomTools(registry, config);
  return registry;
}

export class Session {
  readonly face: string;
  readonly config: Config;
  readonly paths: HomePaths;
  readonly audit: AuditLog;
  readonly gate: Gate;
  readonly outputStore: OutputStore;
  readonly registry: ToolRegistry;
  readonly root: string;
  readonly host?: ApprovalHost;
  readonly notifier?: Notifier;
  readonly inquirer?: Inquirer;
  readonly yes: boolean;
  readonly unsafe: boolean;
  /** Background processes the model started; killed when the session closes. */
  readonly processes = new ProcessTable();
  /** Model pulls the models tool started, beside the conversation; cancelled when the session closes. */
  readonly modelPulls = new ModelPulls();
  #turns = 0;
  #ownsAudit: boolean;

  private constructor(
    options: SessionOptions & {
      config: Config;
      paths: HomePaths;
      audit: AuditLog;
      ownsAudit: boolean;
    },
  ) {
    this.face = options.face;
    this.config = options.config;
    this.paths = options.paths;
    this.audit = options.audit;
    this.#ownsAudit = options.ownsAudit;
    this.root = options.root ?? Deno.cwd();
    this.host = options.host;
    this.notifier = options.notifier;
    this.inquirer = options.inquirer;
    this.yes = options.yes === true;
    this.unsafe = options.unsafe === true;
    this.registry = options.registry ?? sessionRegistry(this.config);
    this.gate = options.gate ??
      new Gate({ config: this.config, home: this.paths, audit: this.audit });
    this.outputStore = new OutputStore(this.paths, this.audit.session);
  }

  /** Open a session: load the config (unless given), open the audit log, record session.start. */
  static open(options: SessionOptions): Session {
    const paths = options.paths ?? homePaths();
    const config = options.config ?? loadConfig(paths.config).config;
    let audit = options.audit;
    const ownsAudit = audit === undefined;
    if (!audit) audit = AuditLog.open(paths, config.audit);
    const session = new Session({ ...options, config, paths, audit, ownsAudit });
    audit.record("session.start", {
      face: options.face,
      pid: Deno.pid,
      cwd: session.root,
      ...(options.argv ? { argv: options.argv } : {}),
      ...(session.yes ? { yes: true } : {}),
      ...(session.unsafe ? { unsafe: true } : {}),
    });
    return session;
  }

  /** The audit session id. */
  get id(): string {
    return this.audit.session;
  }

  /** The tools a conversation gets: all (the default), exactly `only`, or none. Unknown names are a usage error. */
  tools(select: { only?: string[]; noTools?: boolean } = {}): AnyTool[] {
    return this.registry.list({ config: this.config, only: select.only, noTools: select.noTools });
  }

  /** The gate as a tool sees it, with the session's host, --yes, root and the turn filled in. */
  toolGate(turnId: string, cwd: string, signal?: AbortSignal): ToolGate {
    return {
      check: (line: string, given: unknown): Promise<GateDecision> => {
        const partial = (given ?? {}) as Partial<GateContext> & { signal?: AbortSignal };
        const ctx: GateContext = {
          cwd: partial.cwd ?? cwd,
          root: this.root,
          origin: partial.origin ?? "model",
          ...(partial.outsideSandbox ? { outsideSandbox: true } : {}),
          ...(partial.modelAction ? { modelAction: partial.modelAction } : {}),
          ...(this.host ? { host: this.host } : {}),
          ...(this.yes ? { yes: true } : {}),
          turnId,
          ...(partial.signal ?? signal ? { signal: partial.signal ?? signal } : {}),
        };
        return this.gate.check(line, ctx);
      },
    };
  }

  /**
   * Start a turn: its id, and the context its calls run with. Work run
   * through the turn's `run` has every audit event tagged with the turn's id
   * (and the request's tags) and listed in `events`; `end` lapses the
   * turn's "once" approvals.
   */
  beginTurn(options: TurnOptions): Turn {
    const id = `${this.id}-${++this.#turns}`;
    const audit = openScope(this.audit, { turn: id, ...options.tags });
    const cwd = options.cwd ?? this.root;
    const context: SessionToolContext = {
      cwd,
      root: this.root,
      config: this.config,
      home: this.paths,
      audit,
      budgetBytes: options.budgetBytes,
      session: this.id,
      gate: this.toolGate(id, cwd, options.signal),
      outputStore: this.outputStore,
      unsafe: this.unsafe,
      turnId: id,
      processes: this.processes,
      modelPulls: this.modelPulls,
      face: this.face,
      sessionApprovals: () => this.gate.approvals.inMemory().length,
      ...(this.notifier ? { notifier: this.notifier } : {}),
      ...(this.inquirer ? { inquirer: this.inquirer } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      // 0 is a thread's choice (no limit, up to the operator's cap), not "unset".
      ...(options.commandTimeoutSeconds !== undefined
        ? { commandTimeoutSeconds: options.commandTimeoutSeconds }
        : {}),
    };
    const gate = this.gate;
    return {
      id,
      context,
      audit,
      get events(): readonly AuditEvent[] {
        return audit.events;
      },
      run: <T>(work: () => Promise<T>): Promise<T> => audit.run(work),
      end(): void {
        gate.endTurn(id);
      },
    };
  }

  close(): void {
    // Nothing the model started outlives the session.
    this.processes.killAll();
    this.modelPulls.cancelAll();
    if (this.#ownsAudit) this.audit.close();
  }
}

/**
 * The shape every tool the model can call has. A tool is a description
 * written for the model, zod arguments (offered as JSON Schema), limits
 * rendered from the live options, an example prompt, and `run`, which never
 * throws at the model: what went wrong comes back as `error: …` text.
 */
import type { z } from "zod";
import type { Config } from "../config/schema.ts";
import type { HomePaths } from "../config/home.ts";
import type { AuditSink } from "../audit/writer.ts";

/** The verdict of the approval gate on one line. */
export interface GateVerdict {
  allowed: boolean;
  /** Why it was refused, one sentence, when it was. */
  refusal?: string;
  /** The approval request a person answered for it, when one was asked. */
  requestId?: string;
}

/** The part of the gate a tool needs: judge a line as if it were a command. */
export interface ToolGate {
  check(line: string, ctx: unknown): Promise<GateVerdict>;
}

export interface ToolContext {
  /** Where relative paths start (a thread's working directory, else the launch directory). */
  cwd: string;
  /** The directory wisp was launched in: the sandbox's writable root. */
  root: string;
  config: Config;
  home: HomePaths;
  audit: AuditSink;
  /** The tool-output budget in bytes (budgetBytes of the model's window). */
  budgetBytes: number;
  signal?: AbortSignal;
  /** The audit session id. */
  session: string;
  /** The approval gate; a tool that needs one and finds none refuses (fail closed). */
  gate?: ToolGate;
  /** The conversation's output store, when there is one (src/audit/output_store.ts). */
  outputStore?: unknown;
  /** --unsafe: the sandbox is off for this session (the policy's deny list stays on). */
  unsafe?: boolean;
  /**
   * The sandbox's writable roots, realpath'd, when the session computed them
   * already; otherwise edit_file computes them from the platform.
   */
  writableRoots?: string[];
  /** The audit id of the tool call being run (names stored output). */
  callId?: string;
  /** Which face opened the session: respond, chat, mcp, … */
  face?: string;
  /** The session's model pulls (the models tool starts them beside the conversation). */
  modelPulls?: import("../models/background_pulls.ts").ModelPulls;
  /**
   * The conversation the call belongs to (src/context/context.ts's
   * ConversationContext), which the memory tool reads; the turn sets it.
   */
  conversation?: object;
  /** The conversation offers the memory tool (held-back notes name its recalls only then). */
  memory?: boolean;
  /** The session's one notifier (src/notify/notifier.ts), so the per-minute limit covers every conversation. */
  notifier?: import("../notify/notifier.ts").Notifier;
  /** The face's inquiry effect, for the ask tool; absent: no person can answer here. */
  inquirer?: import("./ask.ts").Inquirer;
}

export interface ToolResult {
  /** What the model sees, bounded to the budget. */
  text: string;
  ok: boolean;
  /** The stored output's id when something was held back. */
  outputId?: string;
  meta?: Record<string, unknown>;
}

export interface Tool<A = unknown> {
  name: string;
  /** Prompt text: written for the model. */
  description: string;
  schema: z.ZodType<A>;
  /** Whether calls of this tool may run at the same time as other parallel-safe calls. */
  parallelSafe: boolean;
  /** Its limits as sentences, rendered from the live options. */
  limits(config: Config): string[];
  /** A prompt that makes a model call this tool. */
  examplePrompt: string;
  /** Custom tools (from config) are listed after the built-ins. */
  custom?: boolean;
  /**
   * Whether a call asks the approval gate (`ctx.gate.check`) before it has
   * any effect: `true` for every call, `false` for none, or a function of the
   * arguments for a tool whose calls differ (process's start, a search of a
   * credential path). The turn asks the gate for every such call of a
   * response before any call of it runs (src/agent/prepare.ts), by running
   * the tool only up to its question. A call declared `false` that asks the
   * gate anyway is refused (ToolRegistry.call), so a tool cannot reach the
   * gate without being prepared. The function is a cheap check with no
   * effect: the tool must ask the gate exactly when it says so.
   */
  gatesBeforeEffect: boolean | ((args: A, ctx: ToolContext) => boolean);
  run(args: A, ctx: ToolContext): Promise<ToolResult>;
}

/** Whether this call of the tool asks the gate before its effect (its `gatesBeforeEffect`). */
export function callGates<A>(tool: Tool<A>, args: A, ctx: ToolContext): boolean {
  const gates = tool.gatesBeforeEffect;
  return typeof gates === "function" ? gates(args, ctx) === true : gates === true;
}

/**
 * The gate a call gets when it declared that it does not ask: every question
 * is refused (fail closed), with a sentence that names the tool's mistake.
 */
export function undeclaredGate(tool: string): ToolGate {
  return {
    check: () =>
      Promise.resolve({
        allowed: false,
        refusal:
          `${tool} asked for approval in a call it declares needs none, so it was refused (its gatesBeforeEffect is wrong; this is a bug in wisp)`,
      }),
  };
}

/** A tool of any argument type, as the registry holds it. */
// deno-lint-ignore no-explicit-any
export type AnyTool = Tool<any>;

/** An error result the model can react to. */
export function errorResult(message: string, meta?: Record<string, unknown>): ToolResult {
  return { text: `error: ${message}`, ok: false, ...(meta ? { meta } : {}) };
}

/**
 * The gate's refusal as a file tool reports it: `error: read not approved: …`
 * or `error: edit not approved: …`, whatever prefix the gate gave it.
 */
export function gateRefusal(what: "read" | "edit", refusal: string | undefined): ToolResult {
  let text = (refusal ?? "").trim().replace(/^error: /, "");
  const policy = /^command denied by policy: /.exec(text);
  if (policy) text = `denied by policy: ${text.slice(policy[0].length)}`;
  else text = text.replace(/^command not approved: /, "");
  return errorResult(`${what} not approved: ${text || "the gate refused it"}`);
}

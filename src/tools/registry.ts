/**
 * The one place tools are registered, chosen for a session, offered to a
 * model and called. Every built-in tool (and later custom tools, MCP
 * condensing tools, grep/find/ls) registers here; `tools.disabled` removes a
 * built-in everywhere because every face gets its tools from `list`.
 *
 * `call` is how a model's tool call runs: arguments validated against the
 * tool's schema, `tool.call` and `tool.result` audited verbatim around it, and
 * a tool that throws turned into an `error: …` result rather than a crash. A
 * call whose tool declares it asks no approval (`gatesBeforeEffect`) runs
 * with a gate that refuses, so an undeclared question cannot slip past the
 * turn's approval preparation.
 */
import { z } from "zod";
import type { Config } from "../config/schema.ts";
import { UsageError } from "../util/errors.ts";
import {
  type AnyTool,
  callGates,
  errorResult,
  type ToolContext,
  type ToolResult,
  undeclaredGate,
} from "./tool.ts";

import { fitted } from "./budget.ts";
import { byteLength } from "../util/bytes.ts";
import type { ToolSpec } from "../models/backend.ts";

export { budgetBytes } from "./budget.ts";

/** Tools a session has only when a setting turns them on (or a named list names them). */
const OPT_IN_TOOLS: Record<string, (config: Config) => boolean> = {
  memory: (config) => config.context.memory,
  models: (config) => config.tools.models,
  ask: (config) => config.tools.ask,
};

export interface ListOptions {
  /** An explicit list (--tool, MCP respond's tools): exactly these, less tools.disabled. */
  only?: string[];
  /** --no-tools: none. */
  noTools?: boolean;
  config: Config;
}

export class ToolRegistry {
  #tools = new Map<string, AnyTool>();

  register(tool: AnyTool): this {
    if (!/^[a-z][a-z0-9_]*$/.test(tool.name)) {
      throw new Error(
        `tool name '${tool.name}' must be lower-case letters, digits and underscores`,
      );
    }
    if (this.#tools.has(tool.name)) throw new Error(`tool '${tool.name}' is registered twice`);
    this.#tools.set(tool.name, tool);
    return this;
  }

  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  /** Every registered tool: built-ins in registration order, custom ones last. */
  all(): AnyTool[] {
    const tools = [...this.#tools.values()];
    return [...tools.filter((t) => !t.custom), ...tools.filter((t) => t.custom)];
  }

  /**
   * The tools a session gets. The default is every registered tool but the
   * opt-in ones whose setting is off; a named list is exactly that list (an
   * unknown name is a usage error); tools.disabled leaves built-ins out of
   * both.
   */
  list(options: ListOptions): AnyTool[] {
    if (options.noTools) return [];
    const disabled = new Set(options.config.tools.disabled);
    const usable = (t: AnyTool) => t.custom || !disabled.has(t.name);
    if (options.only) {
      const wanted = new Set<string>();
      for (const name of options.only) {
        if (!this.#tools.has(name)) {
          const known = this.all().map((t) => t.name).join(", ");
          throw new UsageError(
            `there is no tool named '${name}' (known: ${known}); wisp tools lists them`,
          );
        }
        wanted.add(name);
      }
      return this.all().filter((t) => wanted.has(t.name) && usable(t));
    }
    return this.all().filter((t) => {
      const optIn = OPT_IN_TOOLS[t.name];
      if (optIn && !t.custom && !optIn(options.config)) return false;
      return usable(t);
    });
  }

  /** The tools as offered to a model. */
  specs(tools: AnyTool[] = this.all()): ToolSpec[] {
    return tools.map(toolSpec);
  }

  /**
   * Run one call as the model made it. `args` is what the model sent (an
   * object, or a JSON string as some servers deliver it).
   */
  async call(name: string, args: unknown, ctx: ToolContext): Promise<ToolResult> {
    const callEvent = ctx.audit.record("tool.call", { tool: name, arguments: args });
    const context: ToolContext = { ...ctx, callId: callEvent.id };
    let result = await this.#run(name, args, context);
    // The last line of defence of the budget: a tool that returned more than
    // fits (an error quoting a huge argument, a tool that forgot to page) is
    // fitted here, the whole kept in the output store.
    if (byteLength(result.text) > ctx.budgetBytes) {
      const fit = await fitted(result.text, context, name);
      result = { ...result, text: fit.text, ...(fit.outputId ? { outputId: fit.outputId } : {}) };
    }
    ctx.audit.record("tool.result", {
      tool: name,
      ok: result.ok,
      callId: callEvent.id,
      text: result.text,
      ...(result.outputId ? { outputId: result.outputId } : {}),
    });
    return result;
  }

  async #run(name: string, args: unknown, ctx: ToolContext): Promise<ToolResult> {
    const tool = this.#tools.get(name);
    if (!tool) {
      return errorResult(
        `there is no tool named ${name}; the tools you have are listed in this request`,
      );
    }
    const parsed = tool.schema.safeParse(normaliseArguments(args));
    if (!parsed.success) {
      return errorResult(`bad arguments for ${name}: ${describeIssues(parsed.error)}`);
    }
    if (ctx.signal?.aborted) return errorResult(`${name} was stopped before it ran`);
    try {
      // A call that declares no gate question was not prepared: it gets a gate that refuses.
      const gated = callGates(tool, parsed.data, ctx);
      const context = gated || !ctx.gate ? ctx : { ...ctx, gate: undeclaredGate(name) };
      return await tool.run(parsed.data, context);
    } catch (error) {
      return errorResult(
        `${name} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

/** The JSON Schema of a tool's arguments, as a model is offered it. */
export function toolSpec(tool: AnyTool): ToolSpec {
  const schema = z.toJSONSchema(tool.schema, { io: "input" }) as Record<string, unknown>;
  delete schema.$schema;
  return { name: tool.name, description: tool.description, parameters: schema };
}

/** Models send arguments as an object, a JSON string, or nothing for a tool without any. */
export function normaliseArguments(args: unknown): unknown {
  if (args === undefined || args === null || args === "") return {};
  if (typeof args === "string") {
    try {
      return JSON.parse(args);
    } catch {
      return args;
    }
  }
  return args;
}

/** One sentence from zod's issues, naming each argument and what is wrong with it. */
function describeIssues(error: z.ZodError): string {
  return error.issues.slice(0, 4).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join(".") : "arguments";
    if (issue.code === "invalid_type") {
      const expected = issue.expected === "object" && issue.path.length === 0
        ? "an object"
        : `a ${issue.expected}`;
      return `${where} must be ${expected}`;
    }
    if (issue.code === "unrecognized_keys") return `unknown argument ${issue.keys.join(", ")}`;
    if (issue.code === "invalid_value" && "values" in issue) {
      return `${where} must be one of ${(issue.values as unknown[]).map(String).join(", ")}`;
    }
    return `${where}: ${issue.message}`;
  }).join("; ");
}

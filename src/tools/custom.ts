/**
 * Custom tools: command templates the person declares in their own
 * config.json (tools.custom), offered to the model as ordinary tools. A call
 * fills the template's {placeholders} in one pass — strings single-quoted for
 * /bin/sh and checked against their enum, numbers and booleans as written —
 * and hands the line to run_command's own code path: the same gate (policy,
 * classifier, approval), the same runner (sandbox, process group, output
 * bound, audit), with the template's own time limit. A custom tool grants
 * nothing run_command does not; it saves the model composing the line.
 *
 * Only the config in wisp's home defines them (the loader reads no other
 * file), and the definitions were checked when it loaded
 * (src/tools/custom_validate.ts).
 */
import { z } from "zod";
import type { Config } from "../config/schema.ts";
import { runCommand as runOnRunner } from "../exec/runner.ts";
import { runCommand } from "./run_command.ts";
import type { ToolRegistry } from "./registry.ts";
import type { AnyTool, Tool, ToolContext, ToolResult } from "./tool.ts";
import { errorResult } from "./tool.ts";
import {
  type ArgumentType,
  type CustomArgumentDef,
  type CustomToolDef,
  substitute,
  valueFits,
} from "./custom_validate.ts";
import { quoteWord } from "../util/shell_words.ts";

export type { CustomToolDef } from "./custom_validate.ts";

/** One value as it goes into the line: strings quoted, numbers and booleans as written. */
export function renderValue(type: ArgumentType, value: string | number | boolean): string {
  if (type === "string") return quoteWord(String(value));
  return String(value);
}

/**
 * The command line for one call: every placeholder replaced by its value
 * (the given one, else the default), in one pass. Throws when a value is
 * missing or does not fit (the schema has refused those already; this is the
 * second check, so the line is never built from a bad value).
 */
export function renderCommand(def: CustomToolDef, values: Record<string, unknown>): string {
  const args = def.arguments ?? {};
  return substitute(def.command, (name) => {
    const arg = args[name];
    if (!arg) throw new Error(`the command uses {${name}}, which is not a declared argument`);
    const value = values[name] ?? arg.default;
    if (value === undefined) throw new Error(`${name} is required`);
    if (!valueFits(arg, value)) {
      throw new Error(
        arg.enum
          ? `${name} must be one of ${arg.enum.join(", ")}`
          : `${name} must be a ${arg.type}`,
      );
    }
    if (typeof value === "string" && value.includes("\0")) {
      throw new Error(`${name} must not hold a NUL character`);
    }
    return renderValue(arg.type, value as string | number | boolean);
  });
}

function argumentSchema(arg: CustomArgumentDef): z.ZodType {
  let schema: z.ZodType;
  switch (arg.type) {
    case "string":
      schema = arg.enum && arg.enum.length > 0
        ? z.enum(arg.enum as [string, ...string[]])
        : z.string().refine((v) => !v.includes("\0"), "must not hold a NUL character");
      break;
    case "integer":
      schema = z.number().int();
      break;
    case "number":
      schema = z.number();
      break;
    case "boolean":
      schema = z.boolean();
      break;
  }
  if (arg.description) schema = schema.describe(arg.description);
  // A default makes the argument optional; the schema fills it in.
  if (arg.default !== undefined) {
    schema = (schema as z.ZodType<unknown>).default(arg.default as never) as unknown as z.ZodType;
  }
  return schema;
}

/** The zod schema of a definition's arguments, as the model is offered it. */
function customSchema(def: CustomToolDef): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, arg] of Object.entries(def.arguments ?? {})) shape[name] = argumentSchema(arg);
  return z.object(shape).strict() as unknown as z.ZodType<Record<string, unknown>>;
}

function exampleValue(arg: CustomArgumentDef): string | number | boolean {
  if (arg.default !== undefined) return arg.default;
  if (arg.enum?.length) return arg.enum[0];
  switch (arg.type) {
    case "integer":
      return 1;
    case "number":
      return 1.5;
    case "boolean":
      return true;
    default:
      return "README.md";
  }
}

/** "Use issue with number: 1 and report what it returns." */
function examplePromptOf(def: CustomToolDef): string {
  const entries = Object.entries(def.arguments ?? {});
  const given = entries.map(([name, arg]) => `${name}: ${JSON.stringify(exampleValue(arg))}`);
  const withArgs = given.length > 0 ? ` with ${given.join(", ")}` : "";
  return `Use ${def.name}${withArgs} and report what it returns.`;
}

function limitsOf(def: CustomToolDef, config: Config): string[] {
  const timeout = def.timeoutSeconds ?? config.commandTimeoutSeconds;
  const cap = config.commandTimeoutCapSeconds;
  const seconds = cap > 0 && (timeout === 0 || timeout > cap) ? cap : timeout;
  return [
    `A custom tool from your config.json: it runs \`${def.command}\`${
      def.workingDirectory ? ` in ${def.workingDirectory}` : ""
    }, each value substituted once (strings single-quoted), through run_command's gate and runner.`,
    seconds > 0
      ? `It runs for at most ${seconds} s (${
        def.timeoutSeconds ? "its own timeoutSeconds" : "commandTimeoutSeconds"
      }${
        seconds !== timeout ? ", lowered to the operator's cap" : ""
      }); a thread's time limit does not apply.`
      : "It has no time limit (commandTimeoutSeconds is 0 and there is no cap).",
    "The substituted line is judged by the policy, the risk classifier and approval exactly as the same command given to run_command; the result is run_command's, bounded to the tool-output budget.",
  ];
}

/** The tool a definition offers. */
export function customTool(def: CustomToolDef): Tool<Record<string, unknown>> {
  return {
    name: def.name,
    description: def.description.trim(),
    schema: customSchema(def),
    parallelSafe: false,
    // The filled-in line goes to run_command's gate before anything runs.
    gatesBeforeEffect: true,
    custom: true,
    limits: (config) => limitsOf(def, config),
    examplePrompt: examplePromptOf(def),
    run: (args, ctx) => runCustom(def, args, ctx),
  };
}

/** Run one call: build the line, then run_command's path with the template's own options. */
async function runCustom(
  def: CustomToolDef,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolResult> {
  let line: string;
  try {
    line = renderCommand(def, args);
  } catch (error) {
    return errorResult(`bad arguments for ${def.name}: ${(error as Error).message}`);
  }
  // The template's timeout, else the configured default: never the thread's.
  const context = { ...ctx, commandTimeoutSeconds: undefined };
  const result = await runCommand(
    {
      command: line,
      ...(def.workingDirectory ? { workingDirectory: def.workingDirectory } : {}),
      ...(def.timeoutSeconds ? { timeoutSeconds: def.timeoutSeconds } : {}),
    },
    context,
    (request) => runOnRunner({ ...request, origin: "custom_tool" }),
  );
  return { ...result, meta: { ...(result.meta ?? {}), command: line } };
}

/** The custom tools a config declares (already validated when it loaded). */
function customTools(config: Config): AnyTool[] {
  return (config.tools.custom as unknown as CustomToolDef[]).map(customTool);
}

/** Add the config's custom tools to a registry (listed after the built-ins). */
export function registerCustomTools(registry: ToolRegistry, config: Config): ToolRegistry {
  for (const tool of customTools(config)) {
    if (!registry.get(tool.name)) registry.register(tool);
  }
  return registry;
}

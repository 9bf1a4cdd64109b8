/**
 * `wisp mcp`: serve the Model Context Protocol over stdio until the client
 * closes stdin. Takes respond's flags as the defaults of every thread.
 * Nothing but protocol goes to stdout; diagnostics go to stderr as WISP_LOG
 * says.
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";

/** The options of `wisp mcp`, as commander gives them. */
export interface McpOptions {
  model?: string;
  tool?: string[];
  instructions?: string;
  tools?: boolean;
  yes?: boolean;
  unsafe?: boolean;
  http?: string;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * `wisp mcp` with its options; `args` are the command's own words as typed (for the audit's argv).
 * Read ahead of the command tree when bare (src/cli/quick.ts).
 */
export async function mcp(options: McpOptions, args: readonly string[]): Promise<void> {
  const { UsageError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  if (options.tools === false && options.tool && options.tool.length > 0) {
    throw new UsageError("choose one of --tool and --no-tools");
  }
  // The light read: a plain config.json loads no jsonc-parser and builds no zod schema.
  const { readContext } = await load<typeof import("./read_context.ts")>(
    import.meta.resolve("./read_context.ts"),
  );
  const { errLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const { faceLogger } = await load<typeof import("../faces/mcp/log.ts")>(
    import.meta.resolve("../faces/mcp/log.ts"),
  );
  const log = faceLogger();
  const { serveMcp } = await load<typeof import("../faces/mcp/serve.ts")>(
    import.meta.resolve("../faces/mcp/serve.ts"),
  );
  let http;
  if (options.http !== undefined) {
    const { parseHttpAddress } = await load<typeof import("../faces/mcp/http.ts")>(
      import.meta.resolve("../faces/mcp/http.ts"),
    );
    http = parseHttpAddress(options.http);
  }
  const { paths, loaded, config } = await readContext();
  const tools = options.tools === false ? [] : options.tool;
  if (tools && tools.length > 0) {
    // An unknown tool name is a usage error now, not at the first respond.
    const { sessionRegistry } = await load<typeof import("../session/session.ts")>(
      import.meta.resolve("../session/session.ts"),
    );
    sessionRegistry(config).list({ config, only: tools });
  }
  if (options.model) {
    const { resolveModel } = await load<typeof import("../models/registry.ts")>(
      import.meta.resolve("../models/registry.ts"),
    );
    resolveModel(options.model, config);
  }
  if (options.unsafe) {
    errLine(
      "warning: --unsafe: every thread's commands run without the sandbox and can write anywhere you can, wisp's home included; the policy's deny list still applies",
    );
  }
  if (options.yes) {
    errLine(
      "warning: --yes: commands that would need your approval run without asking (never one outside the sandbox)",
    );
  }
  const env = (name: string) => {
    try {
      return Deno.env.get(name);
    } catch {
      return undefined;
    }
  };
  await serveMcp({
    paths,
    config,
    configExists: loaded.exists,
    defaults: {
      ...(options.model ? { model: options.model } : {}),
      ...(tools !== undefined ? { tools } : {}),
      ...(options.instructions ? { instructions: options.instructions } : {}),
    },
    yes: options.yes === true,
    unsafe: options.unsafe === true,
    argv: ["mcp", ...args],
    log,
    clientName: env("WISP_MCP_CLIENT") || undefined,
    ...(http ? { http } : {}),
  });
}

export function register(program: Command): void {
  program
    .command("mcp")
    .description(
      "serve the Model Context Protocol over stdio, for Claude Code, Codex and other agents",
    )
    .option("-m, --model <name>", "the model of every thread that does not choose one")
    .option(
      "--tool <name>",
      "offer only this tool to threads that do not choose (repeatable)",
      collect,
    )
    .option("--no-tools", "offer no tools to threads that do not choose")
    .option("--instructions <text>", "instructions for threads that do not give their own")
    .option("-y, --yes", "approve what would be asked (never a command outside the sandbox)")
    .option("--unsafe", "run commands without the sandbox (the deny list still applies)")
    .option(
      "--http <host:port>",
      "serve streamable HTTP on this loopback address (a bearer token is printed on stderr)",
    )
    .action((options: McpOptions, command: Command) => mcp(options, command.args));
}

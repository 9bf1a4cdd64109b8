/**
 * The thread the condensing tools that only read and compute run on
 * (offload.ts): json_shape, summarise_diff, dependency_audit, and condense_log
 * and hot_paths when they read a text or a file. Each request is one tool call
 * with its arguments and working directory; the reply is the tool's output,
 * or the one sentence of a ToolInputError, or any other error by name and
 * message. Requests are answered one at a time, in order.
 */
/// <reference lib="deno.worker" />
import {
  condenseLogTool,
  dependencyAuditTool,
  hotPathsTool,
  jsonShapeTool,
  summariseDiffTool,
  type ToolOutput,
} from "./tools.ts";
import { ToolInputError } from "../util/tool_input.ts";
import { WispError } from "../util/errors.ts";
import type { ThreadReply, ThreadRequest } from "./offload.ts";

const TOOLS: Record<string, (args: never, ctx: { cwd: string }) => Promise<ToolOutput>> = {
  json_shape: jsonShapeTool,
  summarise_diff: summariseDiffTool,
  dependency_audit: dependencyAuditTool,
  condense_log: condenseLogTool,
  hot_paths: hotPathsTool,
};

async function handle(request: ThreadRequest): Promise<ThreadReply> {
  const tool = TOOLS[request.tool];
  if (!tool) {
    return { id: request.id, error: { name: "Error", message: `no tool ${request.tool}` } };
  }
  try {
    const output = await tool(request.args as never, { cwd: request.cwd });
    return { id: request.id, output };
  } catch (error) {
    if (error instanceof ToolInputError) return { id: request.id, inputError: error.message };
    if (error instanceof WispError) return { id: request.id, wispError: error.message };
    return {
      id: request.id,
      error: {
        name: error instanceof Error ? error.name : "Error",
        message: error instanceof Error ? error.message : String(error),
      },
    };
  }
}

let queue: Promise<void> = Promise.resolve();

self.onmessage = (event: MessageEvent<ThreadRequest>) => {
  const request = event.data;
  queue = queue.then(async () => self.postMessage(await handle(request)));
};

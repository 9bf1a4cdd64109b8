/**
 * The registry every face starts from: wisp's built-in tools, in the order
 * `wisp tools` lists them. A new built-in tool is one import and one line
 * here (run_command goes right after current_date).
 */
import { ToolRegistry } from "./registry.ts";
import { currentDateTool } from "./current_date.ts";
import { runCommandTool } from "./run_command.ts";
import { readFileTool } from "./read_file.ts";
import { editFileTool } from "./edit_file.ts";
import { systemInfoTool } from "./system_info.ts";
import { notifyTool } from "./notify.ts";
import { grepTool } from "./grep.ts";
import { findTool } from "./find.ts";
import { lsTool } from "./ls.ts";
import { processTool } from "./process.ts";
import { inspectTool } from "./inspect.ts";
import { modelsTool } from "./models.ts";
import { askTool } from "./ask.ts";

export function builtinRegistry(): ToolRegistry {
  return new ToolRegistry()
    .register(currentDateTool)
    .register(runCommandTool)
    .register(readFileTool)
    .register(editFileTool)
    .register(inspectTool)
    .register(notifyTool)
    .register(systemInfoTool)
    .register(grepTool)
    .register(findTool)
    .register(lsTool)
    .register(processTool)
    .register(modelsTool)
    // Listed only when tools.ask is on or a tool list names it (registry.ts, OPT_IN_TOOLS).
    .register(askTool);
}

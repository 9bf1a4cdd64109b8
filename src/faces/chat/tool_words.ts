/**
 * What a tool call is called where a person reads it: the tool line under a
 * reply (`⚙ run_command git status`) and the working line while it runs
 * (`running git status`, `working: read_file README.md`). Both faces and the
 * engine name a call the same way, so the words live here. Pure.
 */

/** The argument that says most about a call, in the order tools name it. */
const MAIN_ARGUMENTS = ["command", "path", "pattern", "question", "query", "name"];

/** The call's main argument (a command, a path, a pattern, …), or "" when it has none. */
export function argumentWords(args: unknown): string {
  if (!args || typeof args !== "object") return "";
  const named = args as Record<string, unknown>;
  for (const key of MAIN_ARGUMENTS) {
    if (typeof named[key] === "string") return named[key] as string;
  }
  return "";
}

/** The command a call runs, when its arguments name one. */
export function commandOf(args: unknown): string | undefined {
  const command = (args as { command?: unknown } | null | undefined)?.command;
  return typeof command === "string" ? command : undefined;
}

/** The tool and its main argument: `read_file README.md`, `run_command git status`. */
export function callWords(tool: string, args: unknown): string {
  const what = argumentWords(args);
  return what ? `${tool} ${what}` : tool;
}

/**
 * The working line while a model's call runs. A command reads as the command
 * itself (`running git status`), as a terminal agent's spinner shows it;
 * any other tool as `working: read_file README.md`.
 */
export function activityWords(tool: string, args: unknown): string {
  const command = commandOf(args);
  if (tool === "run_command" && command !== undefined) return `running ${command}`;
  return `working: ${callWords(tool, args)}`;
}

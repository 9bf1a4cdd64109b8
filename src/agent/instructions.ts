/**
 * The instructions a model is given, in three layers, each after the one
 * before: wisp's own prompt (how to use tools honestly), the operator's
 * `systemPromptExtension` from config.json, and the conversation's own
 * instructions (--instructions, an MCP thread's instructions). Pure: the
 * turn loop sends the result as the one system message.
 */

/** wisp's own prompt, written for small local models: short sentences, one rule each. */
export function wispPrompt(tools: readonly string[]): string {
  const lines = [
    "You are wisp, an assistant that runs on the user's own computer.",
    "Answer plainly and briefly.",
  ];
  if (tools.length === 0) {
    lines.push(
      "You have no tools in this conversation. You cannot run commands, read or change files, or look anything up.",
      "Never say that you ran, read, checked or changed anything: answer from what you know, and say so when you are unsure.",
    );
    return lines.join("\n");
  }
  lines.push(
    `Your tools: ${
      tools.join(", ")
    }. Use a tool when the answer depends on this machine, its files or the current time.`,
    "Call tools with complete, valid arguments. After a tool result, either call another tool or reply.",
    "Report only what tool results show. Never claim a command ran, a file changed, a test passed or a count, unless a tool result in this turn shows it.",
    "Quote output exactly as the tool returned it, or not at all.",
  );
  if (tools.includes("run_command")) {
    lines.push(
      "run_command runs one shell command line in a sandbox that lets it write only under the launch directory and the temporary directories.",
      "A result that starts with error: command denied by policy, or error: command not approved, means the command did not run: say so in your reply, and do not try to get around it.",
      "A held back note means part of the output is kept elsewhere: do not run the command again to see it.",
    );
  }
  if (tools.includes("edit_file")) {
    lines.push(
      "To change a file, read it first with read_file, then use edit_file; never rewrite a file with run_command.",
    );
  }
  return lines.join("\n");
}

export interface InstructionLayers {
  /** The names of the tools offered this turn. */
  tools: readonly string[];
  /** config.json's systemPromptExtension. */
  extension?: string;
  /** The conversation's own instructions. */
  instructions?: string;
  /** The working directory commands and relative paths start from. */
  cwd?: string;
}

/** The system message: the three layers, blank-line separated, empty layers left out. */
export function composeInstructions(layers: InstructionLayers): string {
  const parts = [wispPrompt(layers.tools)];
  if (layers.cwd && layers.tools.length > 0) {
    parts[0] += `\nThe working directory is ${layers.cwd}.`;
  }
  const extension = layers.extension?.trim();
  if (extension) parts.push(extension);
  const own = layers.instructions?.trim();
  if (own) parts.push(own);
  return parts.join("\n\n");
}

/**
 * `wisp tools`: the tools a session gets with this config. On a terminal a
 * TOOLS: list like --help's, descriptions wrapped to the width; piped, one
 * name<TAB>description line per tool; --json and --markdown print the full
 * catalogue (the texts MCP serves as wisp://tools and wisp://tools.md).
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";
import { wrapWords } from "../util/wrap.ts";

interface ToolsOptions {
  json?: boolean;
  markdown?: boolean;
}

/** A tool's text in lines of at most `width` columns; a word too long is cut. */
export function wrapText(text: string, width: number): string[] {
  return wrapWords(text, width, { breakLongWords: true });
}

/** The terminal listing: TOOLS:, the names in a column, the descriptions wrapped beside them. */
export function renderToolList(
  tools: { name: string; description: string }[],
  width: number,
): string {
  const nameWidth = Math.max(0, ...tools.map((t) => t.name.length));
  const indent = 2;
  const descColumn = indent + nameWidth + 2;
  const descWidth = Math.max(20, width - descColumn);
  const out = ["TOOLS:"];
  if (tools.length === 0) out.push("  (none: every tool is disabled by tools.disabled)");
  for (const tool of tools) {
    const lines = wrapText(tool.description, descWidth);
    out.push(" ".repeat(indent) + tool.name.padEnd(nameWidth) + "  " + lines[0]);
    for (const more of lines.slice(1)) out.push(" ".repeat(descColumn) + more);
  }
  out.push("");
  const pointer = "See 'wisp tools --markdown' (or --json) for parameters and example prompts.";
  for (const line of wrapText(pointer, Math.max(20, width - indent))) {
    out.push(" ".repeat(indent) + line);
  }
  return out.join("\n") + "\n";
}

/** name<TAB>description per line, for scripts. */
function renderToolLines(tools: { name: string; description: string }[]): string {
  return tools.map((t) => `${t.name}\t${t.description.replace(/[\t\r\n]+/g, " ")}\n`).join("");
}

/** The width to wrap to: the terminal's, else COLUMNS, else 80. */
export function listingWidth(
  terminalColumns: number | undefined,
  env: (name: string) => string | undefined,
): number {
  if (terminalColumns && terminalColumns > 0) return terminalColumns;
  const columns = Number.parseInt(env("COLUMNS") ?? "", 10);
  return Number.isFinite(columns) && columns > 0 ? columns : 80;
}

async function tools(options: ToolsOptions): Promise<void> {
  const { UsageError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  if (options.json && options.markdown) throw new UsageError("choose one of --json and --markdown");
  const { loadContext } = await load<typeof import("./context.ts")>(
    import.meta.resolve("./context.ts"),
  );
  const { sessionRegistry } = await load<typeof import("../session/session.ts")>(
    import.meta.resolve("../session/session.ts"),
  );
  const { out } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const { config } = loadContext();
  const list = sessionRegistry(config).list({ config });
  if (options.json || options.markdown) {
    const { catalogueJson, catalogueMarkdown } = await load<typeof import("../tools/catalogue.ts")>(
      import.meta.resolve("../tools/catalogue.ts"),
    );
    out(options.json ? catalogueJson(list, config) : catalogueMarkdown(list, config));
    return;
  }
  if (!Deno.stdout.isTerminal()) {
    out(renderToolLines(list));
    return;
  }
  let columns: number | undefined;
  try {
    columns = Deno.consoleSize().columns;
  } catch { /* not a console after all */ }
  out(renderToolList(list, listingWidth(columns, (n) => Deno.env.get(n))));
}

export function register(program: Command): void {
  program
    .command("tools")
    .description("list the tools the model can call (--json or --markdown for the full catalogue)")
    .option("--json", "print the catalogue as JSON (what MCP serves as wisp://tools)")
    .option("--markdown", "print the catalogue as Markdown (what MCP serves as wisp://tools.md)")
    .action(tools);
}

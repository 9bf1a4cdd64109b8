/**
 * The tool catalogue: every tool a session gets, with its description, JSON
 * Schema arguments, limits rendered from the live config and an example
 * prompt. `wisp tools --json` / `--markdown` print these texts, and the MCP
 * server serves the same ones as wisp://tools and wisp://tools.md, so they
 * cannot drift from what the model can call.
 */
import type { Config } from "../config/schema.ts";
import { toolSpec } from "./registry.ts";
import type { AnyTool } from "./tool.ts";

interface CatalogueEntry {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  limits: string[];
  examplePrompt: string;
  parallelSafe: boolean;
  custom: boolean;
}

function catalogueEntries(tools: AnyTool[], config: Config): CatalogueEntry[] {
  return tools.map((tool) => {
    const spec = toolSpec(tool);
    return {
      name: tool.name,
      description: tool.description,
      parameters: spec.parameters,
      limits: tool.limits(config),
      examplePrompt: tool.examplePrompt,
      parallelSafe: tool.parallelSafe,
      custom: tool.custom === true,
    };
  });
}

/** wisp://tools: the catalogue as JSON, pretty, ending in a newline. */
export function catalogueJson(tools: AnyTool[], config: Config): string {
  return JSON.stringify({ tools: catalogueEntries(tools, config) }, null, 2) + "\n";
}

interface PropertySchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  items?: PropertySchema;
}

/** A JSON Schema type in a few words: "string", "integer ≥ 1", "write | append | replace". */
function describeType(schema: PropertySchema): string {
  if (schema.enum) return schema.enum.map((v) => String(v)).join(" \\| ");
  let type = Array.isArray(schema.type) ? schema.type.join(" or ") : schema.type ?? "any";
  if (type === "array" && schema.items) type = `array of ${describeType(schema.items)}`;
  const bounds: string[] = [];
  if (schema.minimum !== undefined) bounds.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER) {
    bounds.push(`≤ ${schema.maximum}`);
  }
  return bounds.length > 0 ? `${type} ${bounds.join(", ")}` : type;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/[\r\n]+/g, " ");
}

/** One tool's section of wisp://tools.md. */
function markdownSection(entry: CatalogueEntry): string {
  const out: string[] = [`## ${entry.name}`, "", entry.description, ""];
  const properties = (entry.parameters.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set((entry.parameters.required ?? []) as string[]);
  const names = Object.keys(properties);
  out.push("### Arguments", "");
  if (names.length === 0) out.push("None.", "");
  else {
    out.push("| name | type | required | description |", "| --- | --- | --- | --- |");
    for (const name of names) {
      const p = properties[name];
      const fallback = p.default !== undefined ? ` (default ${JSON.stringify(p.default)})` : "";
      const type = p.enum ? describeType(p) : cell(describeType(p));
      out.push(
        `| ${name} | ${type} | ${required.has(name) ? "yes" : "no"} | ${
          cell((p.description ?? "") + fallback)
        } |`,
      );
    }
    out.push("");
  }
  out.push("### Limits", "");
  for (const limit of entry.limits) out.push(`- ${limit}`);
  out.push(
    "",
    "### Example prompt",
    "",
    ...entry.examplePrompt.split("\n").map((l) => `> ${l}`),
    "",
  );
  if (entry.custom) out.push("A custom tool, from your config.", "");
  return out.join("\n");
}

/** wisp://tools.md: the catalogue as Markdown. */
export function catalogueMarkdown(tools: AnyTool[], config: Config): string {
  const entries = catalogueEntries(tools, config);
  const head = [
    "# wisp's tools",
    "",
    "The tools wisp's model can call in a session with this configuration, generated from the live registry.",
    "Name a tool, give exact arguments, and say how to report the result; restrict a conversation to the tools",
    "its task needs (`--tool` on the command line, `tools` on MCP respond).",
    "",
    ...entries.map((e) => `- [${e.name}](#${e.name})`),
    "",
  ].join("\n");
  return [head, ...entries.map(markdownSection)].join("\n").replace(/\n+$/, "\n");
}

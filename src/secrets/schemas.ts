/**
 * scan_secrets' and redact's contracts, apart from their work: arguments and
 * structured results as zod schemas, so the MCP server can list them without
 * loading the scanner (tools.ts parses and types with these).
 */
import { z } from "zod";

const common = {
  text: z.string().optional().describe("The text to look at (give this or path)."),
  path: z.string().optional().describe("A file on this machine to read instead of text."),
  personal: z.boolean().optional().describe(
    "Also look for personal data: emails, phones, IBANs, cards, ids, IPs.",
  ),
  thorough: z.boolean().optional().describe(
    "Looser thresholds and nameless high-entropy strings; implies personal.",
  ),
};

export const scanSecretsInput = z.object(common);
export const redactInput = z.object({
  ...common,
  personal: z.boolean().optional().describe(
    "Redact personal data as well as credentials (default true).",
  ),
});

/** scan_secrets' structured result for the MCP face: the summary and every finding listed. */
export const scanSecretsOutput = z.object({
  summary: z.string().describe("what was found, by kind"),
  findings: z.array(z.object({
    path: z.string().optional(),
    line: z.number().int(),
    column: z.number().int(),
    kind: z.string(),
    preview: z.string().describe("masked: never the value"),
  })),
  counts: z.record(z.string(), z.number().int()),
  total: z.number().int(),
  heldBack: z.number().int().describe("findings not listed"),
  binary: z.boolean(),
});

/** redact's structured result for the MCP face: the redacted text itself and what was replaced. */
export const redactOutput = z.object({
  text: z.string().describe("the input with every value found replaced by [REDACTED:kind#n]"),
  summary: z.string(),
  counts: z.record(z.string(), z.number().int()),
  heldBack: z.number().int().describe("characters of redacted text not returned (size bound)"),
});

/**
 * The MCP tools scan_secrets and redact, as plain functions over the same
 * module as `wisp scan` and `wisp redact`: each takes the tool's arguments
 * (inline text, or a path on this machine) and returns its result text and
 * structure, so the MCP server only has to wire them. The raw text stays on
 * the machine; the audit gets kinds and counts, never values.
 */
import type { z } from "zod";
import { redactInput, scanSecretsInput } from "./schemas.ts";
import { isAbsolute, resolve } from "node:path";
import type { AuditSink } from "../audit/writer.ts";
import type { SecretFinding } from "./types.ts";
import { countByKind, scanText } from "./scanner.ts";
import { looksLikeDiff, scanDiff } from "./diff.ts";
import { RedactionNumbering, redactionSummary } from "./redact.ts";
import { redactStream } from "./stream.ts";
import { scanInput } from "./scan_input.ts";
import { scanSummary } from "./summary.ts";
import { openInputFile, ToolInputError } from "../util/tool_input.ts";

export { scanSummary };

/** At most this many findings are listed in a result; the rest are counted and named as held back. */
export const MAX_LISTED_FINDINGS = 200;
/** Redacted text returned by the redact tool is at most this long (more is held back and said so). */
export const MAX_REDACTED_CHARS = 256 * 1024;

export type ScanSecretsArgs = z.input<typeof scanSecretsInput>;
export type RedactArgs = z.input<typeof redactInput>;

export interface ToolContext {
  audit?: AuditSink;
  /** Relative paths resolve against this (default: the process's cwd). */
  cwd?: string;
}

export interface ListedFinding {
  path?: string;
  line: number;
  column: number;
  kind: string;
  preview: string;
  /** On a line a diff removes: still in the repository's history. */
  history?: true;
}

export interface ScanSecretsResult {
  findings: ListedFinding[];
  counts: Record<string, number>;
  total: number;
  heldBack: number;
  binary: boolean;
  /** The first line of the text: what was found, by kind. */
  summary: string;
  /** The result as text, one finding a line, for the tool's content. */
  text: string;
}

export interface RedactResult {
  text: string;
  counts: Record<string, number>;
  summary: string;
  /** Characters of redacted text not returned because of the size bound. */
  heldBack: number;
}

export { ToolInputError };

function inputOf(
  args: { text?: string; path?: string },
  context: ToolContext,
): { text?: string; path?: string } {
  const hasText = typeof args.text === "string";
  const hasPath = typeof args.path === "string" && args.path !== "";
  if (hasText === hasPath) {
    throw new ToolInputError("give either text or path, not both and not neither");
  }
  if (hasPath) {
    const path = isAbsolute(args.path!)
      ? args.path!
      : resolve(context.cwd ?? Deno.cwd(), args.path!);
    return { path };
  }
  return { text: args.text };
}

/** A regular file's bytes as a stream (a device, FIFO or socket is refused before it is opened). */
function fileStream(path: string): ReadableStream<Uint8Array> {
  return openInputFile(path).file.readable;
}

function listFinding(f: SecretFinding): ListedFinding {
  return {
    ...(f.path !== undefined ? { path: f.path } : {}),
    line: f.line,
    column: f.column,
    kind: f.kind,
    preview: f.preview,
    ...(f.history ? { history: true as const } : {}),
  };
}

/** One finding as `wisp scan` prints it: `path:line:column  kind  preview[  leaked in history]`. */
export function renderFinding(f: ListedFinding, fallbackPath = "-"): string {
  return `${f.path ?? fallbackPath}:${f.line}:${f.column}  ${f.kind}  ${f.preview}${
    f.history ? "  leaked in history" : ""
  }`;
}

/** scan_secrets: findings with location, kind and masked preview. */
export async function scanSecretsTool(
  args: ScanSecretsArgs,
  context: ToolContext = {},
): Promise<ScanSecretsResult> {
  const parsed = scanSecretsInput.parse(args);
  const input = inputOf(parsed, context);
  const options = { personal: parsed.personal, thorough: parsed.thorough };
  const listed: ListedFinding[] = [];
  let counts: Record<string, number>;
  let binary = false;
  if (input.text !== undefined) {
    const found = looksLikeDiff(input.text)
      ? scanDiff(input.text, options)
      : scanText(input.text, options);
    counts = countByKind(found);
    for (const f of found.slice(0, MAX_LISTED_FINDINGS)) listed.push(listFinding(f));
  } else {
    const result = await scanInput(
      fileStream(input.path!),
      { ...options, path: input.path },
      (batch) => {
        for (const f of batch) if (listed.length < MAX_LISTED_FINDINGS) listed.push(listFinding(f));
      },
    );
    counts = result.counts;
    binary = result.binary;
  }
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  context.audit?.record("secrets.scan", {
    counts,
    total,
    source: "mcp",
    input: input.path !== undefined ? "file" : "text",
    ...(input.path !== undefined ? { path: input.path } : {}),
    personal: parsed.personal === true || parsed.thorough === true,
    ...(binary ? { binary: true } : {}),
  });
  const lines = listed.map((f) => renderFinding(f, input.path ?? "-"));
  const heldBack = total - listed.length;
  if (heldBack > 0) lines.push(`${heldBack} more held back (counted above, not listed)`);
  const summary = binary
    ? `${input.path}: binary file, its printable strings scanned: ${scanSummary(counts)}`
    : scanSummary(counts);
  return {
    findings: listed,
    counts,
    total,
    heldBack,
    binary,
    summary,
    text: [summary, ...lines].join("\n"),
  };
}

/** redact: the text with each value replaced by [REDACTED:kind#n]. */
export async function redactTool(
  args: RedactArgs,
  context: ToolContext = {},
): Promise<RedactResult> {
  const parsed = redactInput.parse(args);
  const input = inputOf(parsed, context);
  const options = { personal: parsed.personal !== false, thorough: parsed.thorough };
  const stream = input.text !== undefined
    ? new Blob([input.text]).stream() as ReadableStream<Uint8Array>
    : fileStream(input.path!);
  let out = "";
  let heldBack = 0;
  const result = await redactStream(stream, { ...options, path: input.path }, (chunk) => {
    const room = MAX_REDACTED_CHARS - out.length;
    if (room >= chunk.length) out += chunk;
    else {
      out += chunk.slice(0, Math.max(0, room));
      heldBack += chunk.length - Math.max(0, room);
    }
  }, new RedactionNumbering());
  context.audit?.record("redaction", {
    counts: result.counts,
    source: "mcp",
    input: input.path !== undefined ? "file" : "text",
    ...(input.path !== undefined ? { path: input.path } : {}),
    personal: options.personal || parsed.thorough === true,
    ...(result.binary ? { binary: true } : {}),
  });
  if (result.binary) {
    return {
      text: "",
      counts: {},
      summary: `${input.path ?? "input"}: binary, not redacted`,
      heldBack: 0,
    };
  }
  let summary = redactionSummary(result.counts);
  if (heldBack > 0) {
    summary +=
      ` (${heldBack} characters held back: the result is bounded to ${MAX_REDACTED_CHARS})`;
  }
  return { text: out, counts: result.counts, summary, heldBack };
}

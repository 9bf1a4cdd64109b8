/**
 * read_file: a page of numbered lines from a text file, and how to get the
 * next one. The file is streamed: the first page of a multi-gigabyte log costs
 * the bytes up to the end of that page, and memory stays a chunk plus the page.
 * Reading is judged by the gate as `cat '<path>'`, so credential paths (the one list in
 * src/util/credential_paths.ts, by the name given or where a link leads) ask, or are refused
 * where nobody can answer; it is not confined to any folder.
 */
import { z } from "zod";
import { resolve } from "node:path";
import type { Config } from "../config/schema.ts";
import { expandTilde } from "../config/home.ts";
import { openForRead, UnsafePath } from "../util/fs_safe.ts";
import { formatBytes, formatCount } from "../util/bytes.ts";
import { type Page, readPage } from "./text_lines.ts";
import { errorResult, gateRefusal, type Tool, type ToolContext, type ToolResult } from "./tool.ts";
import { quoteWord } from "../util/shell_words.ts";

const READ_DEFAULT_LIMIT = 200;
const READ_MAX_LIMIT = 2000;
/** Bytes of a page kept for the closing marker and notes. */
const MARKER_ROOM = 200;

const readFileSchema = z.object({
  path: z.string().min(1).describe(
    "The file to read: an absolute path, or relative to the working directory.",
  ),
  offset: z.number().int().min(1).default(1).describe(
    "The line to start at, from 1. Use the number the previous page's [more: …] line gave.",
  ),
  limit: z.number().int().min(1).max(READ_MAX_LIMIT).default(READ_DEFAULT_LIMIT).describe(
    "How many lines to return at most.",
  ),
}).strict();

export type ReadFileArgs = z.infer<typeof readFileSchema>;

/** The line the gate judges a read as. */
export function readApprovalLine(given: string, realPath: string | null, absolute: string): string {
  const line = `cat ${quoteWord(given)}`;
  return realPath && realPath !== absolute ? `${line} # resolves to ${quoteWord(realPath)}` : line;
}

/** The model-facing text of a page. */
function renderPage(page: Page): string {
  const out: string[] = [];
  if (page.lines.length === 0) out.push("(no lines in range)");
  for (const line of page.lines) {
    out.push(line.text === "" ? String(line.number) : `${line.number}\t${line.text}`);
  }
  const cut = page.lines.find((line) => line.cut);
  if (cut) {
    out.push(
      `[line ${formatCount(cut.number)} is ${
        formatBytes(cut.bytes)
      } long; only its start is shown: ` +
        `use run_command with cut, fold or grep -o to see more of it]`,
    );
  }
  if (page.next !== null) out.push(`[more: call again with offset ${page.next}]`);
  else out.push("[end of file]");
  return out.join("\n");
}

function readLimits(config: Config): string[] {
  void config;
  return [
    `A page is at most ${READ_MAX_LIMIT} lines (${READ_DEFAULT_LIMIT} unless limit says otherwise) and ` +
    "never more than the tool-output budget (an eighth of the model's window, 4 to 64 KiB); a line longer " +
    "than a page shows only its start.",
    "Lines end at \\n, \\r\\n or a lone \\r; returned lines never include the breaks.",
    "Reads forward only: no search, no tail. Binary files (holding NUL bytes) are refused.",
    "Every read is judged by the approval gate as cat '<path>'; credential paths (keys in .ssh, " +
    ".aws, .netrc, .npmrc, .kube/config, agents' and cloud CLIs' logins, browser profiles, keychains, " +
    ".env files; public keys and .env.example are not) are dangerous: they ask, or are refused where " +
    "nobody can answer. Reads are not confined to a folder.",
  ];
}

export async function readFile(args: ReadFileArgs, ctx: ToolContext): Promise<ToolResult> {
  const given = args.path;
  const absolute = resolve(ctx.cwd, expandTilde(given));
  let realPath: string | null = null;
  try {
    realPath = Deno.realPathSync(absolute);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return errorResult(`cannot read ${given}: no such file`);
    }
    if (!(error instanceof Deno.errors.NotADirectory)) {
      return errorResult(
        `cannot read ${given}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return errorResult(`cannot read ${given}: no such file`);
  }
  if (!ctx.gate) {
    return errorResult("read not approved: no approval gate is set up for this session");
  }
  const verdict = await ctx.gate.check(readApprovalLine(given, realPath, absolute), {
    origin: "model",
    cwd: ctx.cwd,
    tool: "read_file",
    path: absolute,
    realPath,
    signal: ctx.signal,
  });
  if (!verdict.allowed) {
    return gateRefusal("read", verdict.refusal);
  }

  let opened;
  try {
    opened = openForRead(realPath);
  } catch (error) {
    if (error instanceof UnsafePath) {
      return errorResult(`cannot read ${given}: ${error.detail}`);
    }
    if (error instanceof Deno.errors.PermissionDenied) {
      return errorResult(`cannot read ${given}: permission denied`);
    }
    return errorResult(
      `cannot read ${given}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    const room = Math.max(256, ctx.budgetBytes - MARKER_ROOM);
    const page = readPage((buffer) => opened.file.readSync(buffer), {
      offset: args.offset,
      limit: args.limit,
      room,
    });
    if (page.binary) {
      return errorResult(
        `cannot read ${given}: it is binary (it holds NUL bytes); read_file reads text only`,
      );
    }
    return {
      text: renderPage(page),
      ok: true,
      meta: {
        path: realPath,
        lines: page.lines.length,
        next: page.next,
        bytesRead: page.bytesRead,
      },
    };
  } finally {
    opened.file.close();
  }
}

export const readFileTool: Tool<ReadFileArgs> = {
  name: "read_file",
  description:
    "Reads a page of numbered lines from a text file. Each line starts with its number and a tab; " +
    "the page ends with [more: call again with offset N] or [end of file]. Use the numbers with edit_file's line.",
  schema: readFileSchema,
  parallelSafe: true,
  gatesBeforeEffect: true,
  limits: readLimits,
  examplePrompt:
    "Use read_file to read README.md from line 1. Report the first three lines verbatim.",
  run: readFile,
};

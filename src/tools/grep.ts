/**
 * grep: find lines in files under a folder, literal by default or as a
 * regular expression, honouring ignore files and skipping hidden names,
 * links, binary files and credential files. Regular expressions run on a
 * linear-time engine and the whole search has a time limit.
 */
import { z } from "zod";
import { errorResult, type Tool } from "./tool.ts";
import { fitted } from "./budget.ts";
import { compileRegex, type GrepMessage, type GrepRequest, runGrep } from "./search/grep_core.ts";
import { globToRegExp } from "./search/glob.ts";
import { namesCredentialPath, searchTarget } from "./search/target.ts";

const GREP_TIME_LIMIT_MS = 10_000;

const grepSchema = z.object({
  pattern: z.string().min(1).describe("the text to find (literal unless regex is true)"),
  path: z.string().optional().describe(
    "the folder or file to search (default: the working directory)",
  ),
  regex: z.boolean().optional().describe("treat pattern as a regular expression (RE2 syntax)"),
  ignoreCase: z.boolean().optional().describe("match regardless of case"),
  context: z.number().int().min(0).max(5).optional().describe(
    "lines of context around each match (0-5)",
  ),
  include: z.string().optional().describe("only files whose name matches this glob, e.g. *.ts"),
  maxMatches: z.number().int().min(1).max(500).optional().describe(
    "stop after this many matching lines (default 100)",
  ),
}).strict();

type Args = z.infer<typeof grepSchema>;

/** Run a search to its end or its deadline, collecting what it found. */
export function grepSearch(request: GrepRequest): GrepMessage[] {
  const messages: GrepMessage[] = [];
  runGrep(request, (m) => messages.push(m));
  return messages;
}

export function renderGrep(messages: GrepMessage[], maxMatches: number): string {
  const out: string[] = [];
  let matches = 0;
  let files = 0;
  for (const m of messages) {
    if (m.type !== "file") continue;
    files++;
    matches += m.total;
    out.push(m.path);
    let last = 0;
    for (const line of m.lines) {
      if (last && line.line > last + 1) out.push("--");
      out.push(`${line.line}${line.match ? ":" : "-"}${line.text}`);
      last = line.line;
    }
  }
  const done = messages.find((m): m is Extract<GrepMessage, { type: "done" }> => m.type === "done");
  const summary = matches === 0
    ? "no matches"
    : `${Math.min(matches, maxMatches)}${matches > maxMatches ? "+" : ""} matching line${
      matches === 1 ? "" : "s"
    } in ${files} file${files === 1 ? "" : "s"}`;
  const searched = done
    ? ` (searched ${done.files} file${done.files === 1 ? "" : "s"}${
      done.skippedBinary ? `, ${done.skippedBinary} binary skipped` : ""
    })`
    : "";
  out.push(summary + searched);
  if (done) out.push(...done.notes);
  return out.join("\n");
}

export const grepTool: Tool<Args> = {
  name: "grep",
  description:
    "Finds lines containing a text in the files under a folder (or in one file), as file, line number and line. " +
    "Literal by default; set regex for a regular expression. Skips hidden files, ignored files (.gitignore), binary files and links.",
  schema: grepSchema,
  parallelSafe: true,
  gatesBeforeEffect: (args, ctx) => namesCredentialPath(args.path, ctx.cwd),
  limits: () => [
    `At most 100 matching lines unless maxMatches says (up to 500); each line shown up to 300 characters.`,
    `Stops after ${
      GREP_TIME_LIMIT_MS / 1000
    } s or 100,000 files and says so; regular expressions use RE2 syntax (linear time: no backreferences or lookaround).`,
    "Credential files are left out; a credential path named directly is asked about as cat would be.",
  ],
  examplePrompt:
    "Use grep with pattern TODO and include *.ts to list the TODO comments in this project.",
  async run(args, ctx) {
    const target = await searchTarget(
      args.path,
      ctx,
      "grep",
      (p) => `grep -r -- ${JSON.stringify(args.pattern)} ${p}`,
    );
    if ("error" in target) return errorResult(target.error);
    if (args.regex) {
      try {
        compileRegex(args.pattern, args.ignoreCase ?? false);
      } catch (error) {
        return errorResult(
          `pattern is not a regular expression grep can run (${
            (error as Error).message
          }); it takes RE2 syntax ` +
            "(no backreferences or lookaround), or leave regex off for a literal search",
        );
      }
    }
    let include: string | undefined;
    if (args.include) {
      try {
        include = globToRegExp(args.include).source;
      } catch (error) {
        return errorResult((error as Error).message);
      }
    }
    const maxMatches = args.maxMatches ?? 100;
    const request: GrepRequest = {
      root: target.real,
      rootIsFile: target.isFile,
      pattern: args.pattern,
      regex: args.regex ?? false,
      ignoreCase: args.ignoreCase ?? false,
      context: args.context ?? 0,
      maxMatches,
      include,
      deadline: Date.now() + GREP_TIME_LIMIT_MS,
    };
    const text = renderGrep(grepSearch(request), maxMatches);
    const out = await fitted(text, ctx, "grep");
    return { ok: true, text: out.text, ...(out.outputId ? { outputId: out.outputId } : {}) };
  },
};

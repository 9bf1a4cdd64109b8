/**
 * find: the files (or folders) under a folder whose name or path matches a
 * glob, with the same traversal and ignore rules as grep.
 */
import { z } from "zod";
import { errorResult, type Tool } from "./tool.ts";
import { fitted } from "./budget.ts";
import { describeNotes, newNotes, walk } from "../util/walk.ts";
import { globMatcher } from "./search/glob.ts";
import { namesCredentialPath, searchTarget } from "./search/target.ts";

const findSchema = z.object({
  pattern: z.string().min(1).describe("a glob: *.ts matches names; src/**/*.test.ts matches paths"),
  path: z.string().optional().describe("the folder to search (default: the working directory)"),
  type: z.enum(["file", "folder", "any"]).optional().describe("what to list (default: file)"),
  maxResults: z.number().int().min(1).max(1000).optional().describe(
    "stop after this many (default 200)",
  ),
}).strict();

type Args = z.infer<typeof findSchema>;

export const findTool: Tool<Args> = {
  name: "find",
  description:
    "Lists the files under a folder whose name or path matches a glob (*.md, src/**/test_*.py), skipping hidden files, " +
    "ignored files (.gitignore) and links. Set type to folder for folders.",
  schema: findSchema,
  parallelSafe: true,
  gatesBeforeEffect: (args, ctx) => namesCredentialPath(args.path, ctx.cwd),
  limits: () => [
    "At most 200 paths unless maxResults says (up to 1,000); stops after 10 s or 100,000 files and says so.",
  ],
  examplePrompt: "Use find with pattern *.md to list the Markdown files in this project.",
  async run(args, ctx) {
    const target = await searchTarget(
      args.path,
      ctx,
      "find",
      (p) => `find ${p} -name ${JSON.stringify(args.pattern)}`,
    );
    if ("error" in target) return errorResult(target.error);
    if (target.isFile) return errorResult(`${args.path} is a file; give a folder to search`);
    let matches: (path: string) => boolean;
    try {
      matches = globMatcher(args.pattern);
    } catch (error) {
      return errorResult((error as Error).message);
    }
    const type = args.type ?? "file";
    const max = args.maxResults ?? 200;
    const notes = newNotes();
    const found: string[] = [];
    let more = false;
    for (
      const entry of walk({
        root: target.real,
        deadline: Date.now() + 10_000,
        folders: type !== "file",
      }, notes)
    ) {
      if (type === "folder" && !entry.isDir) continue;
      if (!matches(entry.relative)) continue;
      if (found.length >= max) {
        more = true;
        break;
      }
      found.push(entry.isDir ? `${entry.relative}/` : entry.relative);
    }
    const lines = found.length > 0 ? [...found] : ["no matches"];
    lines.push(
      `${found.length}${more ? "+" : ""} match${
        found.length === 1 ? "" : "es"
      } for ${args.pattern}${more ? ` (stopped at ${max})` : ""}`,
    );
    lines.push(...describeNotes(notes));
    const out = await fitted(lines.join("\n"), ctx, "find");
    return { ok: true, text: out.text, ...(out.outputId ? { outputId: out.outputId } : {}) };
  },
};

/**
 * ls: one folder's entries — no recursion and no ignore rules (a listing
 * shows what is there) — hidden names only when asked. Links are shown as
 * links, never followed.
 */
import { z } from "zod";
import { errorResult, type Tool } from "./tool.ts";
import { fitted } from "./budget.ts";
import { formatBytes } from "../util/bytes.ts";
import { namesCredentialPath, searchTarget } from "./search/target.ts";

const LS_MAX_ENTRIES = 1000;

const lsSchema = z.object({
  path: z.string().optional().describe("the folder to list (default: the working directory)"),
  hidden: z.boolean().optional().describe("include names starting with a dot"),
}).strict();

type Args = z.infer<typeof lsSchema>;

export const lsTool: Tool<Args> = {
  name: "ls",
  description:
    "Lists one folder's entries with their kind and size: folders end in /, links show where they point. Not recursive.",
  schema: lsSchema,
  parallelSafe: true,
  gatesBeforeEffect: (args, ctx) => namesCredentialPath(args.path, ctx.cwd),
  limits:
    () => [`At most ${LS_MAX_ENTRIES.toLocaleString("en")} entries, in name order, folders first.`],
  examplePrompt: "Use ls to show what is in the current folder.",
  async run(args, ctx) {
    const target = await searchTarget(args.path, ctx, "ls", (p) => `ls -la ${p}`);
    if ("error" in target) return errorResult(target.error);
    if (target.isFile) {
      return errorResult(`${args.path} is a file, not a folder; use read_file to read it`);
    }
    const rows: Array<{ name: string; dir: boolean; text: string }> = [];
    let total = 0;
    for (const entry of Deno.readDirSync(target.real)) {
      if (!args.hidden && entry.name.startsWith(".")) continue;
      total++;
      if (rows.length >= LS_MAX_ENTRIES * 4) continue; // keep memory bounded in a huge folder
      const full = `${target.real}/${entry.name}`;
      let text: string;
      if (entry.isSymlink) {
        let to = "?";
        try {
          to = Deno.readLinkSync(full);
        } catch { /* unreadable link */ }
        text = `${entry.name} -> ${to}`;
      } else if (entry.isDirectory) text = `${entry.name}/`;
      else {
        let size = "";
        try {
          size = formatBytes(Deno.lstatSync(full).size);
        } catch { /* gone */ }
        text = `${entry.name}  ${size}`;
      }
      rows.push({ name: entry.name, dir: entry.isDirectory, text });
    }
    rows.sort((a, b) => (a.dir === b.dir ? (a.name < b.name ? -1 : 1) : a.dir ? -1 : 1));
    const shown = rows.slice(0, LS_MAX_ENTRIES).map((r) => r.text);
    const header = `${target.absolute}: ${total} entr${total === 1 ? "y" : "ies"}${
      args.hidden ? "" : " (hidden names left out)"
    }`;
    const more = total > LS_MAX_ENTRIES
      ? [`(+${total - LS_MAX_ENTRIES} more entries not shown)`]
      : [];
    const out = await fitted([header, ...shown, ...more].join("\n"), ctx, "ls");
    return { ok: true, text: out.text, ...(out.outputId ? { outputId: out.outputId } : {}) };
  },
};

/**
 * The condensing tools beside triage and the secrets tools, as MCP tools
 * over src/condense's exported functions: summarise_diff, json_shape and
 * dependency_audit. Each reads its input on this machine (inline text or a
 * path), returns a small text, and never needs a thread or a model.
 */
import { isAbsolute, join, resolve } from "node:path";
import { z } from "zod";
import { summariseDiff } from "../../condense/diff.ts";
import { jsonShape } from "../../condense/json_shape.ts";
import { auditLockfile, LOCKFILE_NAMES, renderAudits } from "../../condense/lockfiles.ts";

/** The most a structured input (a diff, a JSON document, a lockfile) may hold: it is read whole. */
export const STRUCTURED_INPUT_MAX = 16 * 1024 * 1024;

export class CondenseInputError extends Error {}

export const summariseDiffArgs = z.object({
  diff: z.string().optional().describe(
    "A unified diff (git diff, diff -u) as text; give this or path.",
  ),
  path: z.string().optional().describe("A file on this machine holding the diff."),
  max_files: z.number().int().min(1).max(200).optional().describe(
    "List at most this many files (default 40).",
  ),
}).strict();

export const jsonShapeArgs = z.object({
  text: z.string().optional().describe("A JSON document or JSON Lines; give this or path."),
  path: z.string().optional().describe("A JSON or JSON Lines file on this machine."),
  max_depth: z.number().int().min(1).max(32).optional().describe("Nesting shown (default 8)."),
  max_keys: z.number().int().min(1).max(500).optional().describe(
    "Keys shown per object (default 40).",
  ),
}).strict();

export const dependencyAuditArgs = z.object({
  path: z.string().describe(
    `A lockfile (${LOCKFILE_NAMES.join(", ")}) or a folder holding some, on this machine.`,
  ),
  max_items: z.number().int().min(1).max(200).optional().describe(
    "List at most this many per section (default 20).",
  ),
}).strict();

function resolvePath(path: string, root: string): string {
  return isAbsolute(path) ? path : resolve(root, path);
}

/** A whole text file, bounded: a larger one is refused, since a cut diff or JSON would mislead. */
export async function readWhole(path: string): Promise<string> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new CondenseInputError(`${path} does not exist`);
    }
    throw new CondenseInputError(`${path} cannot be read (${(error as Error).message})`);
  }
  if (info.isDirectory) throw new CondenseInputError(`${path} is a folder; give a file`);
  if (info.size > STRUCTURED_INPUT_MAX) {
    throw new CondenseInputError(
      `${path} is ${info.size} bytes, over the ${STRUCTURED_INPUT_MAX}-byte limit for a document read whole`,
    );
  }
  return await Deno.readTextFile(path);
}

async function textOrPath(
  args: { text?: string; path?: string },
  root: string,
  what: string,
): Promise<{
  text: string;
  path?: string;
}> {
  const hasText = typeof args.text === "string";
  const hasPath = typeof args.path === "string" && args.path !== "";
  if (hasText === hasPath) {
    throw new CondenseInputError(`give either ${what} or path, not both and not neither`);
  }
  if (hasText) return { text: args.text! };
  const path = resolvePath(args.path!, root);
  return { text: await readWhole(path), path };
}

export interface Condensed {
  text: string;
  structured: Record<string, unknown>;
}

export async function summariseDiffTool(
  args: z.infer<typeof summariseDiffArgs>,
  root: string,
): Promise<Condensed> {
  const input = await textOrPath({ text: args.diff, path: args.path }, root, "diff");
  const summary = summariseDiff(input.text, { maxLines: args.max_files });
  if (summary.files.length === 0) {
    throw new CondenseInputError("the input holds no unified diff (no file headers or hunks)");
  }
  return {
    text: summary.text,
    structured: { totals: summary.totals, files: summary.files.slice(0, args.max_files ?? 40) },
  };
}

export async function jsonShapeTool(
  args: z.infer<typeof jsonShapeArgs>,
  root: string,
): Promise<Condensed> {
  const input = await textOrPath(args, root, "text");
  let result;
  try {
    result = jsonShape(input.text, { maxDepth: args.max_depth, maxKeys: args.max_keys });
  } catch (error) {
    throw new CondenseInputError((error as Error).message);
  }
  return {
    text: result.text,
    structured: {
      kind: result.kind,
      ...(result.records !== undefined ? { records: result.records } : {}),
    },
  };
}

export async function dependencyAuditTool(
  args: z.infer<typeof dependencyAuditArgs>,
  root: string,
): Promise<Condensed> {
  const path = resolvePath(args.path, root);
  let files: string[];
  try {
    const info = await Deno.stat(path);
    files = info.isDirectory
      ? LOCKFILE_NAMES.map((name) => join(path, name)).filter((p) => {
        try {
          return Deno.statSync(p).isFile;
        } catch {
          return false;
        }
      })
      : [path];
  } catch {
    throw new CondenseInputError(`${path} does not exist`);
  }
  if (files.length === 0) {
    throw new CondenseInputError(
      `${path} holds no lockfile wisp reads (${LOCKFILE_NAMES.join(", ")})`,
    );
  }
  const audits = [];
  for (const file of files) {
    try {
      audits.push(auditLockfile(file, await readWhole(file)));
    } catch (error) {
      throw new CondenseInputError((error as Error).message);
    }
  }
  return {
    text: renderAudits(audits, { maxItems: args.max_items }),
    structured: {
      lockfiles: audits.map((a) => ({
        path: a.path,
        ecosystem: a.ecosystem,
        format: a.format,
        packages: a.packages.length,
        duplicates: a.duplicates.slice(0, args.max_items ?? 20),
        marked: a.packages.filter((p) => p.marks.length > 0).slice(0, args.max_items ?? 20),
      })),
    },
  };
}

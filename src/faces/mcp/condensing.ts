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
import { type DraftKind, draftMessages, exactDraft, finishDraft } from "../../condense/draft.ts";
import type { Backend } from "../../models/backend.ts";

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

export const draftChangeArgs = z.object({
  kind: z.enum(["commit", "pr", "changelog"]).optional().describe(
    "commit (the default: subject of at most 72 characters, body, a Why: line to fill), pr, or changelog.",
  ),
  diff: z.string().optional().describe(
    "The diff as text; absent with path too, the staged change (git diff --cached).",
  ),
  path: z.string().optional().describe("A file on this machine holding the diff."),
  working_directory: z.string().optional().describe(
    "Where git diff --cached runs (default: where the server was started).",
  ),
}).strict();

/** What draft_change needs from the server: running git diff --cached through the gate, and a model. */
export interface DraftWorld {
  root: string;
  stagedDiff(cwd: string): Promise<string>;
  /** The model to write with, or why there is none. */
  backend(): { backend?: Backend; reason?: string };
  onTurn?(prompt: string, reply: string, model: string): void;
}

export async function draftChangeTool(
  args: z.infer<typeof draftChangeArgs>,
  world: DraftWorld,
): Promise<Condensed> {
  const kind: DraftKind = args.kind ?? "commit";
  let diff: string;
  if (args.diff !== undefined || args.path !== undefined) {
    diff = (await textOrPath({ text: args.diff, path: args.path }, world.root, "diff")).text;
  } else {
    diff = await world.stagedDiff(
      args.working_directory ? resolvePath(args.working_directory, world.root) : world.root,
    );
  }
  if (diff.trim() === "") {
    throw new CondenseInputError("the diff is empty; stage changes with git add, or give a diff");
  }
  const summary = summariseDiff(diff);
  if (summary.files.length === 0) {
    throw new CondenseInputError("the input holds no unified diff (no file headers or hunks)");
  }
  const { backend, reason } = world.backend();
  if (!backend) {
    return {
      text: exactDraft(kind, summary),
      structured: {
        kind,
        model: null,
        note: `${reason ?? "no model"}; a plain draft from the diff's summary`,
      },
    };
  }
  const messages = draftMessages(kind, diff, summary);
  let written = "";
  try {
    for await (const event of backend.chat({ messages, think: false })) {
      if (event.type === "text") written += event.text;
    }
  } catch (error) {
    throw new CondenseInputError(
      `${backend.name} could not write the draft: ${(error as Error).message}`,
    );
  }
  world.onTurn?.(messages[messages.length - 1].content, written, backend.name);
  if (written.trim() === "") {
    throw new CondenseInputError(`${backend.name} wrote nothing; try again`);
  }
  return { text: finishDraft(kind, written), structured: { kind, model: backend.name } };
}

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

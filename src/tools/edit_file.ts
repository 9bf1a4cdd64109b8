/**
 * edit_file: write a whole text file, add to its end, or make one exact
 * replacement — by line number (as read_file numbered it), by the text to
 * find, or both. The counterpart of read_file.
 *
 * A line edit writes the content as given, but for two slips small models make
 * most, each acting only on an exact condition and saying what it did:
 *  1. content without indentation for an indented line whose stripped text it
 *     does not equal keeps the line's indentation (a pure dedent is written);
 *  2. with both line and find, when the numbered line does not contain find
 *     but exactly one line does, that line is edited (a stale line number).
 * A guard re-splits the edited text and refuses, writing nothing, any result
 * that changes a line the edit does not name, has another number of line
 * breaks than the edit removes and adds, or changes the touched line's ending.
 *
 * Writes are confined to the sandbox's writable roots (unless the sandbox is
 * off), never touch wisp's home, are judged by the gate as
 * `edit_file <mode> '<path>'`, and are race-free as src/util/fs_safe.ts
 * describes.
 */
import { z } from "zod";
import { dirname, resolve } from "node:path";
import type { Config } from "../config/schema.ts";
import { expandTilde } from "../config/home.ts";
import {
  appendToFile,
  canonicalPath,
  ConcurrentChange,
  createNewFile,
  type FileStamp,
  isWithin,
  lstatOrNull,
  makeFolders,
  openForRead,
  readAllBounded,
  replaceFile,
  resolveWriteTarget,
  sameFile,
  UnsafePath,
  type WriteHooks,
  type WriteTarget,
} from "../util/fs_safe.ts";
import { formatBytes, formatCount } from "../util/bytes.ts";
import { quoteWord } from "../util/shell_words.ts";
import { countBreaks, joinLines, splitLines, type TextLine } from "./text_lines.ts";
import { errorResult, gateRefusal, type Tool, type ToolContext, type ToolResult } from "./tool.ts";
import { writableSet } from "../platform/paths.ts";
import type { Protection } from "../platform/protected.ts";

/** The largest file replace reads, and the largest content any mode writes. */
const EDIT_MAX_BYTES = 8 * 1024 * 1024;
/** Characters of an edited line shown in the result. */
const SHOWN_CHARS = 200;

const editFileSchema = z.object({
  path: z.string().min(1).describe(
    "The file to write: an absolute path, or relative to the working directory.",
  ),
  mode: z.enum(["write", "append", "replace"]).describe(
    "write: the whole file becomes content (created if missing). append: content is added at the end. " +
      "replace: one exact replacement, by line and/or find.",
  ),
  content: z.string().describe(
    "write/append: the text, exactly, line breaks included. replace with line: the new text of that line " +
      "(without its line break). replace with find: the text that replaces find.",
  ),
  find: z.string().min(1).optional().describe(
    "replace: text that occurs exactly once in the file (or, with line, on that line) and is replaced by content.",
  ),
  line: z.number().int().min(1).optional().describe(
    "replace: the line number read_file showed; content replaces that whole line (or only find on it).",
  ),
}).strict();

export type EditFileArgs = z.infer<typeof editFileSchema>;

// ---------------------------------------------------------------------------
// Pure planning: the new text of a replacement, and the guard.

export interface PlannedEdit {
  text: string;
  /** The first original line the edit touched, and the last. */
  from: number;
  to: number;
  /** Line breaks the edit removes and adds, as the arguments name them. */
  breaksRemoved: number;
  breaksAdded: number;
  /** What the slip rules did, as the result says it. */
  reconciled?: { named: number; used: number; find: string };
  indentation?: string;
  /** Whether this was a line edit (the touched line's ending must stay). */
  lineEdit: boolean;
}

export type PlanOutcome = { ok: true; edit: PlannedEdit } | { ok: false; error: string };

/** "4 spaces", "1 tab", "2 tabs and 3 spaces". */
export function describeIndentation(indent: string): string {
  const parts: string[] = [];
  let i = 0;
  while (i < indent.length) {
    const c = indent[i];
    let j = i;
    while (j < indent.length && indent[j] === c) j++;
    const n = j - i;
    parts.push(c === "\t" ? `${n} tab${n === 1 ? "" : "s"}` : `${n} space${n === 1 ? "" : "s"}`);
    i = j;
  }
  return parts.join(" and ");
}

/** A text quoted for the result: tabs, quotes, backslashes and breaks escaped, cut at 200 characters. */
export function quoteShown(text: string): string {
  const chars = Array.from(text);
  const cut = chars.length > SHOWN_CHARS ? chars.slice(0, SHOWN_CHARS).join("") : text;
  const escaped = cut.replace(
    /[\\"\t\n\r]/g,
    (c) =>
      c === "\\" ? "\\\\" : c === '"' ? '\\"' : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r",
  );
  return `"${escaped}"${chars.length > SHOWN_CHARS ? "…" : ""}`;
}

function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  let at = haystack.indexOf(needle);
  while (at !== -1) {
    found.push(at);
    at = haystack.indexOf(needle, at + 1);
  }
  return found;
}

/** Offsets where each line starts, for mapping a character offset to its line. */
function lineStarts(lines: TextLine[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.text.length + line.ending.length;
  }
  return starts;
}

function lineOfOffset(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** Replace the whole of line `n` (1-based) with `content`, keeping its ending. */
function planLineEdit(lines: TextLine[], n: number, content: string): PlannedEdit {
  const original = lines[n - 1];
  let written = content;
  let indentation: string | undefined;
  const indent = /^[ \t]+/.exec(original.text)?.[0] ?? "";
  // Slip 1: the model dropped the indentation. Only when content is one
  // non-empty line that starts at the margin and is not the line's own text
  // dedented (that is a deliberate dedent, written as given).
  if (
    indent !== "" && content !== "" && countBreaks(content) === 0 && !/^[ \t]/.test(content) &&
    content.trim() !== original.text.trim()
  ) {
    written = indent + content;
    indentation = indent;
  }
  const edited = [
    ...lines.slice(0, n - 1),
    { text: written, ending: original.ending },
    ...lines.slice(n),
  ];
  // `written` may hold breaks: re-split what is joined so that lines stay honest.
  return {
    text: joinLines(edited),
    from: n,
    to: n,
    breaksRemoved: 0,
    breaksAdded: countBreaks(written),
    indentation,
    lineEdit: true,
  };
}

/** Replace the one occurrence of `find` that starts at `offset`. */
function planFindEdit(
  text: string,
  starts: number[],
  offset: number,
  find: string,
  content: string,
): PlannedEdit {
  const endOffset = offset + find.length;
  const from = lineOfOffset(starts, offset);
  // The last line the found text reaches (a find ending right after a break ends on that break's line).
  const to = lineOfOffset(starts, Math.max(offset, endOffset - 1));
  return {
    text: text.slice(0, offset) + content + text.slice(endOffset),
    from,
    to,
    breaksRemoved: countBreaks(find),
    breaksAdded: countBreaks(content),
    lineEdit: false,
  };
}

/** "1 byte", "42 bytes", "1,024 bytes". */
function sizeText(n: number): string {
  return `${formatCount(n)} byte${n === 1 ? "" : "s"}`;
}

function lineCountText(n: number): string {
  return `${formatCount(n)} line${n === 1 ? "" : "s"}`;
}

/** Work out a replacement, or say why there is none. Nothing here touches a file. */
export function planReplace(
  original: string,
  args: { find?: string; line?: number; content: string },
): PlanOutcome {
  const lines = splitLines(original);
  const { find, line, content } = args;
  if (find === undefined && line === undefined) {
    return {
      ok: false,
      error:
        "replace needs line (the number read_file showed) or find (the exact text); nothing changed",
    };
  }
  if (find === undefined) {
    const n = line!;
    if (n > lines.length) {
      return {
        ok: false,
        error: `line ${formatCount(n)} is past the end of the file (it has ${
          lineCountText(lines.length)
        }); nothing changed`,
      };
    }
    return { ok: true, edit: planLineEdit(lines, n, content) };
  }
  const starts = lineStarts(lines);
  if (line === undefined) {
    const found = occurrences(original, find);
    if (found.length === 0) {
      return { ok: false, error: `text to replace not found: ${quoteShown(find)}` };
    }
    if (found.length > 1) {
      return {
        ok: false,
        error: `text to replace occurs ${found.length} times, include more surrounding text: ${
          quoteShown(find)
        }`,
      };
    }
    return { ok: true, edit: planFindEdit(original, starts, found[0], find, content) };
  }
  // Both: find names text on the numbered line.
  if (countBreaks(find) > 0) {
    return {
      ok: false,
      error: "with line, find must be text on that one line (no line breaks); nothing changed",
    };
  }
  const onLine = (n: number) => n <= lines.length ? occurrences(lines[n - 1].text, find) : [];
  const named = onLine(line);
  if (named.length > 1) {
    return {
      ok: false,
      error: `text to replace occurs ${named.length} times on line ${
        formatCount(line)
      }, include more surrounding text: ${quoteShown(find)}`,
    };
  }
  let used = line;
  let reconciled: PlannedEdit["reconciled"];
  if (named.length === 0) {
    // Slip 2: a stale line number. Only when exactly one line holds find, once.
    const holders: number[] = [];
    for (let n = 1; n <= lines.length; n++) if (lines[n - 1].text.includes(find)) holders.push(n);
    const where = line <= lines.length
      ? `line ${formatCount(line)} did not contain`
      : `line ${formatCount(line)} is past the end, and`;
    if (holders.length === 0) {
      return {
        ok: false,
        error: `text to replace not found: ${quoteShown(find)} (not on line ${
          formatCount(line)
        } nor on any other line); nothing changed`,
      };
    }
    if (holders.length > 1) {
      return {
        ok: false,
        error: `${where} ${quoteShown(find)}, and ${holders.length} lines do (${
          holders.slice(0, 5).join(", ")
        }${holders.length > 5 ? ", …" : ""}); name the line; nothing changed`,
      };
    }
    used = holders[0];
    if (onLine(used).length > 1) {
      return {
        ok: false,
        error: `text to replace occurs ${
          onLine(used).length
        } times on line ${used}, include more surrounding text: ${quoteShown(find)}`,
      };
    }
    reconciled = { named: line, used, find };
  }
  const offset = starts[used - 1] + onLine(used)[0];
  const edit = planFindEdit(original, starts, offset, find, content);
  return { ok: true, edit: { ...edit, reconciled, lineEdit: true } };
}

function sameLine(a: TextLine, b: TextLine): boolean {
  return a.text === b.text && a.ending === b.ending;
}

/**
 * The guard: null when the edited text differs from the original only where
 * the edit says, else the reason to refuse. It recomputes everything from the
 * two texts, so a fault in building the edit refuses instead of losing data.
 */
export function guardEdit(original: string, edit: PlannedEdit): string | null {
  const before = splitLines(original);
  const after = splitLines(edit.text);
  const expectedBreaks = countBreaks(original) - edit.breaksRemoved + edit.breaksAdded;
  const actualBreaks = countBreaks(edit.text);
  if (actualBreaks !== expectedBreaks) {
    return `the file would have ${formatCount(actualBreaks)} line break${
      actualBreaks === 1 ? "" : "s"
    }, not ${formatCount(expectedBreaks)}, more than the edit names`;
  }
  for (let i = 0; i < edit.from - 1; i++) {
    if (i >= after.length || !sameLine(before[i], after[i])) {
      return `line ${i + 1}, which the edit does not name, would change`;
    }
  }
  const suffix = before.length - edit.to;
  if (after.length - suffix < edit.from - 1) return "the lines after the edit would move into it";
  for (let k = 1; k <= suffix; k++) {
    const b = before[before.length - k];
    const a = after[after.length - k];
    if (!a || !sameLine(a, b)) {
      return `line ${before.length - k + 1}, which the edit does not name, would change`;
    }
  }
  const regionEnd = after.length - suffix; // exclusive, 0-based
  if (edit.lineEdit && regionEnd > edit.from - 1) {
    const was = before[edit.to - 1].ending;
    const now = after[regionEnd - 1].ending;
    // A last line without a break may stay without one only if it is still last.
    if (was !== now) return `the ending of line ${edit.to} would change`;
  }
  return null;
}

// ---------------------------------------------------------------------------
// The result line.

/** The edited region as it now reads: its first three lines, and how many more. */
function editedLinesShown(original: string, edit: PlannedEdit): string {
  const before = splitLines(original);
  const after = splitLines(edit.text);
  const suffix = before.length - edit.to;
  const count = Math.max(0, after.length - suffix - (edit.from - 1));
  const first = edit.from;
  if (count === 0) return `line ${formatCount(first)} removed`;
  const shown = after.slice(first - 1, first - 1 + Math.min(3, count)).map((l) =>
    quoteShown(l.text)
  );
  if (count === 1) return `line ${formatCount(first)} now: ${shown[0]}`;
  const more = count > 3 ? ` and ${formatCount(count - 3)} more` : "";
  return `lines ${formatCount(first)}–${formatCount(first + count - 1)} now: ${
    shown.join(", ")
  }${more}`;
}

export function describeReplacement(
  path: string,
  original: string,
  edit: PlannedEdit,
  bytesAfter: number,
): string {
  const shown = editedLinesShown(original, edit);
  const size = `now ${sizeText(bytesAfter)}`;
  if (edit.reconciled) {
    return `line ${formatCount(edit.reconciled.named)} did not contain ${
      quoteShown(edit.reconciled.find)
    }; replaced line ${
      formatCount(edit.reconciled.used)
    } of ${path}, the one line that does; ${size}; ${shown}`;
  }
  const where = edit.to > edit.from
    ? `lines ${formatCount(edit.from)}–${formatCount(edit.to)}`
    : `line ${formatCount(edit.from)}`;
  const kept = edit.indentation !== undefined
    ? `, keeping the line's indentation (${describeIndentation(edit.indentation)})`
    : "";
  return `replaced at ${where} of ${path}${kept}; ${size}; ${shown}`;
}

// ---------------------------------------------------------------------------
// Confinement.

export type Confinement =
  | { ok: true }
  | { ok: false; reason: "home" | "outside"; roots?: string[] }
  | { ok: false; reason: "protected"; protection: Protection };

/**
 * Where a canonical path may be written: never wisp's home; inside the roots
 * unless confinement is off, and never a protected path inside them
 * (src/platform/protected.ts) — the same rule the sandbox applies to a
 * command, so an edit cannot plant what a command may not.
 */
export function confine(
  canonical: string,
  homes: string[],
  roots: string[] | null,
  protections: Protection[] = [],
): Confinement {
  if (homes.some((home) => isWithin(canonical, home))) return { ok: false, reason: "home" };
  if (roots === null) return { ok: true };
  const protection = protections.find((p) => isWithin(canonical, p.path));
  if (protection) return { ok: false, reason: "protected", protection };
  if (roots.some((root) => isWithin(canonical, root))) return { ok: true };
  return { ok: false, reason: "outside", roots };
}

function confinementError(given: string, result: Confinement): ToolResult {
  if (result.ok) throw new Error("not a refusal");
  if (result.reason === "home") {
    return errorResult(`cannot write ${given}: it is in wisp's own home, which edits never change`);
  }
  if (result.reason === "protected") {
    const { path, why } = result.protection;
    return errorResult(
      `cannot write ${given}: ${path} is protected (${why}); edit it yourself if it must change`,
    );
  }
  return errorResult(
    `cannot write ${given}: outside the writable directories (${(result.roots ?? []).join(", ")})`,
  );
}

function sandboxOff(ctx: ToolContext): boolean {
  return ctx.unsafe === true || ctx.config.commandPolicy.sandbox.enabled === false;
}

// ---------------------------------------------------------------------------
// Running it.

export interface EditOptions {
  /** Tests stand in for a concurrent writer here. */
  hooks?: WriteHooks & { afterRead?: () => void };
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

function describeError(error: unknown): string {
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (error instanceof Deno.errors.NotCapable) return "wisp's permission fence refused it";
  return error instanceof Error ? error.message : String(error);
}

export async function editFile(
  args: EditFileArgs,
  ctx: ToolContext,
  options: EditOptions = {},
): Promise<ToolResult> {
  const given = args.path;
  const mode = args.mode;
  if (mode !== "replace" && (args.find !== undefined || args.line !== undefined)) {
    return errorResult(
      `find and line belong to mode replace; ${mode} takes only content; nothing changed`,
    );
  }
  if (encoder.encode(args.content).length > EDIT_MAX_BYTES) {
    return errorResult(
      `content is larger than ${formatBytes(EDIT_MAX_BYTES)}; write it in parts with append`,
    );
  }
  if (/\/$/.test(given)) {
    return errorResult(`cannot write ${given}: a path ending in / names a folder; name the file`);
  }
  const absolute = resolve(ctx.cwd, expandTilde(given));
  // Where the write lands, every symlink resolved; checked before any file is touched.
  let canonical: string;
  let homes: string[];
  try {
    canonical = canonicalPath(absolute);
    homes = [...new Set([resolve(ctx.home.root), canonicalPath(ctx.home.root)])];
  } catch (error) {
    return errorResult(`cannot write ${given}: ${describeError(error)}`);
  }
  if (homes.some((home) => isWithin(absolute, home))) {
    return confinementError(given, { ok: false, reason: "home" });
  }
  // The very set the sandbox profile is built from, so an edit and a command agree.
  const set = sandboxOff(ctx)
    ? undefined
    : writableSet({ config: ctx.config, root: ctx.root, home: ctx.home.root });
  const roots = sandboxOff(ctx) ? null : (ctx.writableRoots ?? set!.roots);
  const protections = [...(set?.protected ?? []), ...(set?.unguarded ?? [])];
  const confined = confine(canonical, homes, roots, protections);
  if (!confined.ok) return confinementError(given, confined);
  // A link that still resolves to itself dangles: refused before anyone is asked about it.
  if (lstatOrNull(canonical)?.isSymlink) {
    return errorResult(
      `cannot write ${given}: is a symlink to a file that does not exist; write the real path instead`,
    );
  }

  if (!ctx.gate) {
    return errorResult("edit not approved: no approval gate is set up for this session");
  }
  const verdict = await ctx.gate.check(`edit_file ${mode} ${quoteWord(absolute)}`, {
    origin: "model",
    cwd: ctx.cwd,
    tool: "edit_file",
    mode,
    path: absolute,
    realPath: canonical,
    signal: ctx.signal,
  });
  if (!verdict.allowed) {
    return gateRefusal("edit", verdict.refusal);
  }
  if (ctx.signal?.aborted) {
    return errorResult("the edit was stopped before it was made; nothing changed");
  }

  let target: WriteTarget;
  try {
    if (mode !== "replace") makeFolders(dirname(canonical));
    target = resolveWriteTarget(canonical, ctx.cwd);
    // The target as resolved now must pass the same checks (a link may have appeared).
    const again = confine(target.path, homes, roots, protections);
    if (!again.ok) return confinementError(given, again);
  } catch (error) {
    if (error instanceof UnsafePath) {
      return errorResult(`cannot write ${given}: ${error.message.slice(error.path.length + 1)}`);
    }
    return errorResult(`cannot write ${given}: ${describeError(error)}`);
  }

  try {
    const result = mode === "replace"
      ? runReplace(target, args, options)
      : runWriteOrAppend(target, args, options);
    if (result.ok && result.meta) {
      ctx.audit.record("file.write", {
        path: target.path,
        mode,
        created: result.meta.created as boolean,
        bytesBefore: result.meta.bytesBefore as number,
        bytesAfter: result.meta.bytesAfter as number,
        how: result.meta.how as string,
      });
    }
    return result;
  } catch (error) {
    if (error instanceof ConcurrentChange) {
      return errorResult(`${error.message}; nothing changed: read it again and redo the edit`);
    }
    if (error instanceof UnsafePath) {
      return errorResult(`cannot write ${given}: ${error.message.slice(error.path.length + 1)}`);
    }
    return errorResult(`cannot write ${given}: ${describeError(error)}`);
  }
}

function runWriteOrAppend(
  target: WriteTarget,
  args: EditFileArgs,
  options: EditOptions,
): ToolResult {
  const bytes = encoder.encode(args.content);
  const hooks = options.hooks ?? {};
  const before = target.existing?.size ?? 0;
  let outcome;
  if (args.mode === "append") outcome = appendToFile(target, bytes, hooks);
  else if (target.existing === null) outcome = createNewFile(target, bytes, hooks);
  else outcome = replaceFile(target, target.existing, bytes, hooks);
  const created = outcome.how === "created";
  const size = `now ${sizeText(outcome.bytesAfter)}`;
  const text = created
    ? `created ${target.path}; ${size}`
    : args.mode === "append"
    ? `appended to ${target.path}; ${size}`
    : `wrote ${target.path}; ${size} (was ${sizeText(before)}${
      outcome.how === "in place" ? ", written in place" : ""
    })`;
  return {
    text,
    ok: true,
    meta: {
      created,
      bytesBefore: created ? 0 : before,
      bytesAfter: outcome.bytesAfter,
      how: outcome.how,
    },
  };
}

function runReplace(target: WriteTarget, args: EditFileArgs, options: EditOptions): ToolResult {
  if (target.existing === null) {
    return errorResult(
      `cannot replace in ${target.path}: no such file (use mode write to create it)`,
    );
  }
  const opened = openForRead(target.path);
  let bytes: Uint8Array;
  let stamp: FileStamp;
  try {
    stamp = opened.stamp;
    if (!sameFile(stamp, target.existing)) {
      throw new ConcurrentChange(target.path, "it was replaced while being opened");
    }
    try {
      bytes = readAllBounded(opened.file, EDIT_MAX_BYTES);
    } catch (error) {
      if (error instanceof RangeError) {
        return errorResult(
          `cannot replace in ${target.path}: it is larger than ${formatBytes(EDIT_MAX_BYTES)}; ` +
            "use run_command (sed, a script) for a file this size",
        );
      }
      throw error;
    }
  } finally {
    opened.file.close();
  }
  if (bytes.includes(0)) {
    return errorResult(`cannot edit ${target.path}: it is binary (it holds NUL bytes)`);
  }
  let original: string;
  try {
    original = decoder.decode(bytes);
  } catch {
    return errorResult(`cannot edit ${target.path}: it is not UTF-8 text`);
  }
  options.hooks?.afterRead?.();
  const plan = planReplace(original, args);
  if (!plan.ok) return errorResult(plan.error);
  const refusal = guardEdit(original, plan.edit);
  if (refusal) {
    return errorResult(`edit at line ${plan.edit.from} refused: ${refusal}; nothing changed`);
  }
  const newBytes = encoder.encode(plan.edit.text);
  const hooks: WriteHooks = {
    beforeCommit: () => {
      options.hooks?.beforeCommit?.();
      // The version read must still be there, byte for byte (size and mtime can coincide).
      const now = openForRead(target.path);
      try {
        const current = readAllBounded(now.file, EDIT_MAX_BYTES);
        if (!sameFile(now.stamp, stamp) || !equalBytes(current, bytes)) {
          throw new ConcurrentChange(target.path, "it was written by something else");
        }
      } catch (error) {
        if (error instanceof RangeError) throw new ConcurrentChange(target.path, "it grew");
        throw error;
      } finally {
        now.file.close();
      }
    },
  };
  const outcome = replaceFile(target, stamp, newBytes, hooks);
  return {
    text: describeReplacement(target.path, original, plan.edit, outcome.bytesAfter),
    ok: true,
    meta: {
      created: false,
      bytesBefore: bytes.length,
      bytesAfter: outcome.bytesAfter,
      how: outcome.how,
    },
  };
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function editLimits(config: Config): string[] {
  const sandbox = config.commandPolicy.sandbox;
  const extra = sandbox.writablePaths.length > 0 ? `, and ${sandbox.writablePaths.join(", ")}` : "";
  return [
    sandbox.enabled
      ? `Writes only under the sandbox's writable directories: the launch directory, the temporary directory, ` +
        `the user cache directory${extra}; symlinks are resolved before the check.`
      : "The sandbox is off here, so writes are not confined to the writable directories.",
    "Never writes wisp's own home, sandbox or not.",
    `replace reads files up to ${formatBytes(EDIT_MAX_BYTES)}; content is at most ${
      formatBytes(EDIT_MAX_BYTES)
    }.`,
    "Every edit is judged by the approval gate as edit_file <mode> '<path>' (at least moderate; credential paths " +
    "dangerous); where nobody can answer, it is refused and the file is untouched.",
    "A file that changes while an edit is prepared is left alone and the edit refused; a file with several hard " +
    "links is rewritten in place, others through a temporary file and a rename; the mode is kept.",
  ];
}

export const editFileTool: Tool<EditFileArgs> = {
  name: "edit_file",
  description:
    "Writes a text file: the whole file (mode write), an addition at the end (mode append), or one " +
    "exact replacement (mode replace). For replace, read the file with read_file first, then give line (the " +
    "number read_file showed) with content as the new text of that line, or find with the exact text to replace.",
  schema: editFileSchema,
  parallelSafe: false,
  gatesBeforeEffect: true,
  limits: editLimits,
  examplePrompt:
    "Use read_file to read notes.md. Then use edit_file with mode replace on notes.md, with line set " +
    "to the number read_file showed for the title and content `# Notes`. Report the tool results verbatim.",
  run: (args, ctx) => editFile(args, ctx),
};

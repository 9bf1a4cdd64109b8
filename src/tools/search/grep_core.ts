/**
 * grep's search. Literal patterns use the string search; regular expressions
 * use RE2's linear-time engine (re2js), because V8's backtracking engine can
 * take exponential time on a pattern like ^(a+)+$ and cannot be interrupted
 * once it has started, not even by terminating a worker. With a linear engine
 * the time limit is checked between lines and always holds
 * (docs/adr/0005-search-traversal.md).
 */
import { RE2JS } from "re2js";
import { describeNotes, newNotes, walk } from "../../util/walk.ts";
import { type LineTest, scanFile } from "./scan.ts";

export interface GrepRequest {
  root: string;
  /** When the root is a file, just that file. */
  rootIsFile: boolean;
  pattern: string;
  regex: boolean;
  ignoreCase: boolean;
  context: number;
  maxMatches: number;
  /** Only files whose name matches this glob's regex source, when given. */
  include?: string;
  deadline: number;
}

export type GrepMessage =
  | {
    type: "file";
    path: string;
    lines: Array<{ line: number; text: string; match: boolean; cut: boolean }>;
    total: number;
  }
  | { type: "done"; files: number; skippedBinary: number; notes: string[] };

/** Compile a regular expression in RE2 syntax; throws with RE2's reason when it is not one. */
export function compileRegex(pattern: string, ignoreCase: boolean): RE2JS {
  return RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
}

function lineTest(request: Pick<GrepRequest, "pattern" | "regex" | "ignoreCase">): LineTest {
  if (request.regex) {
    const re = compileRegex(request.pattern, request.ignoreCase);
    return (line) => re.matcher(line).find();
  }
  if (request.ignoreCase) {
    const needle = request.pattern.toLowerCase();
    return (line) => line.toLowerCase().includes(needle);
  }
  return (line) => line.includes(request.pattern);
}

/** For a literal pattern, one search of a whole file says whether any line can match. */
function wholeTextCheck(
  request: Pick<GrepRequest, "pattern" | "regex" | "ignoreCase">,
): ((text: string) => boolean) | undefined {
  if (request.regex || request.pattern.includes("\n")) return undefined;
  if (!request.ignoreCase) return (text) => text.includes(request.pattern);
  const needle = request.pattern.toLowerCase();
  return (text) => text.toLowerCase().includes(needle);
}

export function runGrep(request: GrepRequest, emit: (m: GrepMessage) => void): void {
  const test = lineTest(request);
  const mayMatch = wholeTextCheck(request);
  const include = request.include ? new RegExp(request.include) : undefined;
  const notes = newNotes();
  let files = 0;
  let skippedBinary = 0;
  let matched = 0;
  const entries = request.rootIsFile
    ? [{
      relative: request.root.slice(request.root.lastIndexOf("/") + 1),
      absolute: request.root,
      isDir: false,
      size: 0,
    }]
    : walk({ root: request.root, deadline: request.deadline }, notes);
  for (const entry of entries) {
    if (include && !include.test(entry.relative.slice(entry.relative.lastIndexOf("/") + 1))) {
      continue;
    }
    if (Date.now() > request.deadline) {
      notes.stopped = "the time limit";
      break;
    }
    files++;
    const result = scanFile(entry.absolute, test, {
      maxMatches: request.maxMatches - matched,
      context: request.context,
      deadline: request.deadline,
      mayMatch,
    });
    if (result === undefined) {
      skippedBinary++;
      continue;
    }
    if (result.timedOut) notes.stopped = "the time limit";
    if (result.total > 0) {
      matched += Math.min(result.total, request.maxMatches - matched);
      emit({ type: "file", path: entry.relative, lines: result.matches, total: result.total });
      if (matched >= request.maxMatches) {
        notes.stopped = `${request.maxMatches} matches`;
        break;
      }
    }
    if (result.timedOut) break;
  }
  emit({ type: "done", files, skippedBinary, notes: describeNotes(notes) });
}

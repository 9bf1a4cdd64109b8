/**
 * Diff-aware scanning: the lines a unified diff adds are scanned and located
 * in the new file as path:line; the lines it removes are scanned too, located
 * in the old file, and marked `history`: taking a secret out of a file does
 * not take it out of the repository's history, so it still has to be
 * rotated. Offsets stay offsets into the diff text.
 */
import type { ScanOptions, SecretFinding } from "./types.ts";
import { scanText } from "./scanner.ts";

export interface AddedLine {
  path: string;
  /** Line number in the new file (in the old file for a removed line). */
  line: number;
  /** Offset in the diff of the line's first character after the `+`. */
  offset: number;
  text: string;
}

/** Whether a text is a unified diff (git's or diff -u's). */
export function looksLikeDiff(text: string): boolean {
  const head = text.slice(0, 64 * 1024);
  if (!head.includes("\n@@ ") && !head.startsWith("@@ ")) return false;
  return /^diff --git /m.test(head) || /^--- [^\n]*\n\+\+\+ [^\n]*\n@@ -\d/m.test(head);
}

function pathFromHeader(header: string): string | null {
  let path = header.slice(4).replace(/\t.*$/, "").trim();
  if (path.startsWith('"') && path.endsWith('"')) path = path.slice(1, -1);
  if (path === "/dev/null") return null;
  return path.replace(/^[ab]\//, "");
}

/** The added lines of a unified diff, with their file and new line numbers. */
export function addedLines(diff: string): AddedLine[] {
  return changedLines(diff).added;
}

/**
 * The lines a unified diff adds (with the new file's path and line numbers) and removes (with the
 * old file's path and line numbers).
 */
function changedLines(diff: string): { added: AddedLine[]; removed: AddedLine[] } {
  const out: AddedLine[] = [];
  const removed: AddedLine[] = [];
  let path: string | null = null;
  let oldPath: string | null = null;
  let oldLine = 0;
  let newLine = 0;
  let oldLeft = 0;
  let newLeft = 0;
  let offset = 0;
  while (offset <= diff.length) {
    let end = diff.indexOf("\n", offset);
    if (end === -1) end = diff.length;
    const line = diff.slice(offset, end).replace(/\r$/, "");
    if (oldLeft > 0 || newLeft > 0) {
      const mark = line[0];
      if (mark === "+") {
        if (path !== null) {
          out.push({ path, line: newLine, offset: offset + 1, text: line.slice(1) });
        }
        newLine++;
        newLeft--;
      } else if (mark === "-") {
        const from = oldPath ?? path;
        if (from !== null) {
          removed.push({ path: from, line: oldLine, offset: offset + 1, text: line.slice(1) });
        }
        oldLine++;
        oldLeft--;
      } else if (mark === "\\") {
        // "\ No newline at end of file"
      } else {
        newLine++;
        oldLine++;
        newLeft--;
        oldLeft--;
      }
    } else if (line.startsWith("+++ ")) {
      path = pathFromHeader(line);
    } else if (line.startsWith("--- ")) {
      oldPath = pathFromHeader(line);
    } else if (line.startsWith("@@ ")) {
      const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (m) {
        oldLine = Number(m[1]);
        oldLeft = m[2] === undefined ? 1 : Number(m[2]);
        newLine = Number(m[3]);
        newLeft = m[4] === undefined ? 1 : Number(m[4]);
      }
    } else if (line.startsWith("diff --git ")) {
      const m = / b\/(.+)$/.exec(line);
      path = m ? m[1] : null;
      oldPath = null;
    }
    if (end === diff.length) break;
    offset = end + 1;
  }
  return { added: out, removed };
}

export interface DiffOptions extends Omit<ScanOptions, "path"> {
  /** Also scan the removed lines (findings marked `history`); on unless false. */
  history?: boolean;
}

/**
 * Scan the lines a diff adds (each finding carries the new file's path and line) and, unless
 * `history` is false, the lines it removes (the old file's path and line, marked `history`).
 */
export function scanDiff(diff: string, options: DiffOptions = {}): SecretFinding[] {
  const { history, ...scan } = options;
  const { added, removed } = changedLines(diff);
  const findings = scanLines(added, scan);
  if (history !== false) {
    for (const f of scanLines(removed, scan)) findings.push({ ...f, history: true });
  }
  return findings.sort((a, b) => a.start - b.start);
}

/** Scan lines taken from a diff, one text per file, each finding located at its line. */
function scanLines(changed: AddedLine[], options: Omit<ScanOptions, "path">): SecretFinding[] {
  const byPath = new Map<string, AddedLine[]>();
  for (const added of changed) {
    const list = byPath.get(added.path);
    if (list) list.push(added);
    else byPath.set(added.path, [added]);
  }
  const findings: SecretFinding[] = [];
  for (const [path, lines] of byPath) {
    // One text per file; a blank line between runs that are not adjacent keeps
    // a multi-line match from joining lines that were never together.
    const starts: number[] = [];
    let text = "";
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) text += lines[i].line === lines[i - 1].line + 1 ? "\n" : "\n\n";
      starts.push(text.length);
      text += lines[i].text;
    }
    const lineAt = (pos: number): number => {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= pos) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    for (const f of scanText(text, { ...options, path })) {
      const first = lineAt(f.start);
      const last = lineAt(Math.max(f.start, f.end - 1));
      findings.push({
        ...f,
        path,
        line: lines[first].line,
        column: f.start - starts[first] + 1,
        start: lines[first].offset + (f.start - starts[first]),
        end: lines[last].offset + (f.end - starts[last]),
      });
    }
  }
  return findings;
}

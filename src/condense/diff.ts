/**
 * summarise_diff, exact part: a unified diff (git's or plain `diff -u`) read
 * into its files — status, renames, binary, mode changes, lines added and
 * removed, hunks, and the symbols the hunk headers name — and rendered as a
 * short bounded summary. No model: draft_change writes prose from this.
 */
import { BACKSLASH, DASH, PLUS, SPACE } from "./chars.ts";

export type FileStatus = "added" | "deleted" | "modified" | "renamed" | "copied";

export interface FileChange {
  path: string;
  /** For a rename or a copy: where it came from. */
  oldPath?: string;
  status: FileStatus;
  binary: boolean;
  added: number;
  removed: number;
  hunks: number;
  /** Function or section names from the hunk headers (`@@ … @@ fn name`), first seen first, at most 8. */
  symbols: string[];
  /** `100644 → 100755` when only or also the mode changed. */
  modeChange?: string;
}

export interface DiffSummary {
  files: FileChange[];
  totals: { files: number; added: number; removed: number };
  /** The summary as text, at most `maxLines` file lines. */
  text: string;
}

const GIT_HEADER = /^diff --git (?:"?a\/(.+?)"?) (?:"?b\/(.+?)"?)$/;
const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@ ?(.*)$/;

function stripPrefix(path: string): string {
  const p = path.replace(/\t.*$/, "").replace(/^"(.*)"$/, "$1");
  if (p === "/dev/null") return p;
  return p.replace(/^[ab]\//, "");
}

function newChange(path: string): FileChange {
  return { path, status: "modified", binary: false, added: 0, removed: 0, hunks: 0, symbols: [] };
}

/**
 * The files of a diff. A hunk is read by its header's line counts, so a
 * removed line that itself starts with "-- " (SQL, Lua) is never taken for
 * the next file's `---` header.
 */
export function parseDiff(diff: string): FileChange[] {
  const lines = diff.split("\n");
  const files: FileChange[] = [];
  let current: FileChange | undefined;
  let underGitHeader = false;
  let oldMode: string | undefined;
  let oldLeft = 0;
  let newLeft = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "");
    if (current && (oldLeft > 0 || newLeft > 0)) {
      const c = line.charCodeAt(0);
      if (c === PLUS) {
        current.added++;
        newLeft--;
      } else if (c === DASH) {
        current.removed++;
        oldLeft--;
      } else if (c === SPACE || line === "") {
        oldLeft--;
        newLeft--;
      } else if (c !== BACKSLASH /* \ No newline at end of file */) {
        oldLeft = newLeft = 0; // a malformed hunk: read the line as a header below
      }
      if (
        oldLeft > 0 || newLeft > 0 || c === PLUS || c === DASH || c === SPACE || c === BACKSLASH ||
        line === ""
      ) continue;
    }
    const git = GIT_HEADER.exec(line);
    if (git) {
      current = newChange(git[2]);
      files.push(current);
      underGitHeader = true;
      oldMode = undefined;
      continue;
    }
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      const from = stripPrefix(line.slice(4));
      const to = stripPrefix(lines[i + 1].slice(4));
      // Under git's header the pair names the same file; otherwise (plain diff -u) it starts one.
      if (!current || !underGitHeader || current.hunks > 0) {
        current = newChange(to === "/dev/null" ? from : to);
        files.push(current);
        underGitHeader = false;
      }
      if (from === "/dev/null") current.status = "added";
      else if (to === "/dev/null") {
        current.status = "deleted";
        current.path = from;
      }
      i++;
      continue;
    }
    if (!current) continue;
    const h = line.startsWith("@@ ") ? HUNK.exec(line) : null;
    if (h) {
      current.hunks++;
      oldLeft = h[1] === undefined ? 1 : Number(h[1]);
      newLeft = h[2] === undefined ? 1 : Number(h[2]);
      const symbol = h[3].trim();
      if (symbol && !current.symbols.includes(symbol) && current.symbols.length < 8) {
        current.symbols.push(symbol.slice(0, 80));
      }
      continue;
    }
    if (line.startsWith("new file mode")) current.status = "added";
    else if (line.startsWith("deleted file mode")) current.status = "deleted";
    else if (line.startsWith("rename from ")) {
      current.status = "renamed";
      current.oldPath = line.slice(12);
    } else if (line.startsWith("rename to ")) current.path = line.slice(10);
    else if (line.startsWith("copy from ")) {
      current.status = "copied";
      current.oldPath = line.slice(10);
    } else if (line.startsWith("copy to ")) current.path = line.slice(8);
    else if (line.startsWith("old mode ")) oldMode = line.slice(9);
    else if (line.startsWith("new mode ")) {
      current.modeChange = `${oldMode ?? "?"} → ${line.slice(9)}`;
    } else if (line.startsWith("Binary files ") || line === "GIT binary patch") {
      current.binary = true;
    }
  }
  return files;
}

function describe(f: FileChange): string {
  const name = f.oldPath ? `${f.oldPath} → ${f.path}` : f.path;
  const parts: string[] = [];
  if (f.status !== "modified") parts.push(f.status);
  if (f.binary) parts.push("binary");
  else if (f.added || f.removed) parts.push(`+${f.added} −${f.removed}`);
  if (f.modeChange) parts.push(`mode ${f.modeChange}`);
  const short = (s: string) => s.length > 40 ? s.slice(0, 39) + "…" : s;
  const where = f.symbols.length > 0
    ? `; in ${f.symbols.slice(0, 3).map(short).join(", ")}${f.symbols.length > 3 ? ", …" : ""}`
    : "";
  return `${name} (${parts.join(", ") || "no content change"}${where})`;
}

export function summariseDiff(diff: string, opts: { maxLines?: number } = {}): DiffSummary {
  const files = parseDiff(diff);
  const totals = {
    files: files.length,
    added: files.reduce((n, f) => n + f.added, 0),
    removed: files.reduce((n, f) => n + f.removed, 0),
  };
  const max = opts.maxLines ?? 40;
  // The largest changes first: they are what a reader of the summary needs most.
  const ordered = [...files].sort((a, b) => (b.added + b.removed) - (a.added + a.removed));
  const lines = [
    `${totals.files} ${
      totals.files === 1 ? "file" : "files"
    } changed, +${totals.added} −${totals.removed}`,
  ];
  for (const f of ordered.slice(0, max)) lines.push(`  ${describe(f)}`);
  if (ordered.length > max) lines.push(`  … and ${ordered.length - max} more files (held back)`);
  return { files, totals, text: lines.join("\n") };
}

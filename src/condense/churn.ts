/**
 * hot_paths from git churn: `git log --numstat` read into the files changed
 * most often (and by the most lines) over the history given, with how many
 * authors touched them. Renames in numstat's `{old => new}` form count for
 * the new path.
 */

export interface HotPath {
  path: string;
  commits: number;
  added: number;
  removed: number;
  authors: number;
}

/** The format to ask git for: one header line per commit (marked), then its numstat lines. */
export const CHURN_LOG_ARGS = ["log", "--no-merges", "--numstat", "--format=@@commit %H%x09%an"];

function renamed(path: string): string {
  // "src/{a => b}/x.ts" and "old.ts => new.ts"
  const brace = /^(.*)\{(.*) => (.*)\}(.*)$/.exec(path);
  if (brace) return `${brace[1]}${brace[3]}${brace[4]}`.replace(/\/\//g, "/");
  const plain = / => (.*)$/.exec(path);
  return plain ? plain[1] : path;
}

export function hotPaths(
  log: string,
  opts: { top?: number } = {},
): { paths: HotPath[]; commits: number; text: string } {
  const stats = new Map<
    string,
    { commits: number; added: number; removed: number; authors: Set<string> }
  >();
  let author = "";
  let commits = 0;
  for (const line of log.split("\n")) {
    if (line.startsWith("@@commit ")) {
      commits++;
      author = line.split("\t")[1] ?? "";
      continue;
    }
    const m = /^(\d+|-)\t(\d+|-)\t(.+)$/.exec(line);
    if (!m) continue;
    const path = renamed(m[3]);
    const s = stats.get(path) ?? { commits: 0, added: 0, removed: 0, authors: new Set<string>() };
    s.commits++;
    if (m[1] !== "-") s.added += Number(m[1]);
    if (m[2] !== "-") s.removed += Number(m[2]);
    if (author) s.authors.add(author);
    stats.set(path, s);
  }
  const paths = [...stats.entries()]
    .map(([path, s]) => ({
      path,
      commits: s.commits,
      added: s.added,
      removed: s.removed,
      authors: s.authors.size,
    }))
    .sort((a, b) =>
      b.commits - a.commits || (b.added + b.removed) - (a.added + a.removed) ||
      a.path.localeCompare(b.path)
    );
  const top = opts.top ?? 15;
  const lines = [`${commits} commits, ${paths.length} files changed; the most changed:`];
  for (const p of paths.slice(0, top)) {
    lines.push(
      `  ${p.path}: ${p.commits} commits, +${p.added} −${p.removed}, ${p.authors} ${
        p.authors === 1 ? "author" : "authors"
      }`,
    );
  }
  if (paths.length > top) lines.push(`  … ${paths.length - top} more files (held back)`);
  return { paths, commits, text: lines.join("\n") };
}

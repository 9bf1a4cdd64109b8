/**
 * What system_info's platform modules share: the error a topic throws, the
 * table and duration renderers, the statfs row of one file system, and the
 * bounded in-process folder walk (the same on every platform).
 */
import { statfsSync } from "node:fs";
import { renderTable } from "../../util/table.ts";
import { formatBytes } from "../../util/bytes.ts";

/** A topic's failure; the tool shows it as `error: <message>`. */
export class TopicError extends Error {}

export const table = (headers: string[], rows: string[][]) =>
  renderTable({ headers, rows, terminal: true }).trimEnd();

export function duration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  if (s < 86400) {
    return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  }
  return `${Math.floor(s / 86400)}d${String(Math.floor((s % 86400) / 3600)).padStart(2, "0")}h`;
}

/** SIZE, USED, FREE and USE% of the file system holding `path`, from statfs. */
export function statfsColumns(path: string): string[] {
  const s = statfsSync(path);
  const size = s.blocks * s.bsize;
  const free = s.bavail * s.bsize;
  const used = size - s.bfree * s.bsize;
  const pct = size > 0 ? Math.round((used / size) * 100) : 0;
  return [formatBytes(size), formatBytes(used), formatBytes(free), `${pct}%`];
}

/** Bounded walk: what fills a folder, by its immediate entries. */
export function folderReport(
  path: string,
  limit = 10,
  maxEntries = 200_000,
  maxMs = 5_000,
): string {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch {
    throw new TopicError(`${path} does not exist; give the path of a folder`);
  }
  if (!info.isDirectory) throw new TopicError(`${path} is not a folder; give the path of a folder`);
  const started = Date.now();
  let visited = 0;
  let cut = false;
  const sizeOf = (dir: string): number => {
    let total = 0;
    const stack = [dir];
    while (stack.length > 0) {
      const current = stack.pop()!;
      let entries: Iterable<Deno.DirEntry>;
      try {
        entries = Deno.readDirSync(current);
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (++visited > maxEntries || Date.now() - started > maxMs) {
          cut = true;
          return total;
        }
        const full = `${current}/${entry.name}`;
        if (entry.isSymlink) continue;
        if (entry.isDirectory) stack.push(full);
        else {
          try {
            total += Deno.lstatSync(full).size;
          } catch { /* gone */ }
        }
      }
    }
    return total;
  };
  const children: Array<{ name: string; bytes: number }> = [];
  for (const entry of Deno.readDirSync(path)) {
    const full = `${path.replace(/\/$/, "")}/${entry.name}`;
    if (entry.isSymlink) continue;
    let bytes = 0;
    if (entry.isDirectory) bytes = sizeOf(full);
    else {
      try {
        bytes = Deno.lstatSync(full).size;
      } catch { /* gone */ }
    }
    children.push({ name: entry.name + (entry.isDirectory ? "/" : ""), bytes });
    if (cut) break;
  }
  children.sort((a, b) => b.bytes - a.bytes);
  const total = children.reduce((n, c) => n + c.bytes, 0);
  const rows = children.slice(0, limit).map((c) => [formatBytes(c.bytes), c.name]);
  const more = children.length > limit ? `\n(+${children.length - limit} more entries)` : "";
  const note = cut
    ? `\nstopped early (${visited.toLocaleString("en")} entries or ${
      maxMs / 1000
    } s): sizes are at least these`
    : "";
  return `${path}: ${formatBytes(total)} in ${children.length} entries\n${
    table(["SIZE", "ENTRY"], rows)
  }${more}${note}`;
}

/** One platform's answers to each topic; arguments are checked before these are called. */
export interface Topics {
  port(port: number): Promise<string>;
  disk(path?: string): Promise<string>;
  folder(path: string, limit: number): Promise<string>;
  processes(sort: "cpu" | "memory", limit: number): Promise<string>;
  memory(): Promise<string>;
  process(name: string): Promise<string>;
  battery(): Promise<string>;
  os(): Promise<string>;
  network(): Promise<string>;
}

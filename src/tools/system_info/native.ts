/**
 * system_info's process topics through wisp's native library, the same on
 * macOS and Linux: `processes` (your busiest, by CPU or memory), `process`
 * (those matching a name) and `port` (its listeners). linux.ts and darwin.ts use these when
 * the library is there and fall back to their own readers when it is not.
 */
import {
  nativeListeners,
  type NativeProcess,
  nativeProcessDetails,
  nativeProcessTable,
} from "../../platform/native_processes.ts";
import { duration, table } from "./shared.ts";
import { formatBytes } from "../../util/bytes.ts";

function shortCommand(command: string, max = 60): string {
  return command.length > max ? command.slice(0, max - 1) + "…" : command;
}

/** The process's command line, or its name in brackets when its arguments cannot be read. */
function commandLine(process: NativeProcess): string {
  const args = nativeProcessDetails(process.pid)?.args;
  const line = args?.join(" ").trim();
  return line ? line : `[${process.name}]`;
}

/** Average CPU over the process's life, in percent. */
function cpuPercent(process: NativeProcess, now: number): number {
  const age = now - process.startTime;
  return age > 0 ? (process.cpuMs / 1000 / age) * 100 : 0;
}

/** Your busiest processes, or undefined without the library. */
export function nativeProcessesReport(
  sort: "cpu" | "memory",
  limit: number,
): string | undefined {
  const processes = nativeProcessTable();
  if (!processes) return undefined;
  const uid = Deno.uid();
  const now = Date.now() / 1000;
  const mine = processes.filter((p) => uid === null || p.uid === uid);
  mine.sort((a, b) =>
    sort === "memory" ? b.rssBytes - a.rssBytes : cpuPercent(b, now) - cpuPercent(a, now)
  );
  const rows = mine.slice(0, limit).map((p) => [
    String(p.pid),
    cpuPercent(p, now).toFixed(1),
    formatBytes(p.rssBytes),
    duration(p.cpuMs / 1000),
    shortCommand(commandLine(p)),
  ]);
  return `your ${
    Math.min(limit, mine.length)
  } busiest processes by ${sort} (of ${mine.length}; CPU% averaged over each one's life)\n` +
    table(["PID", "CPU%", "MEMORY", "CPU TIME", "COMMAND"], rows);
}

/** The processes whose name or command line holds `name`, or undefined without the library. */
export function nativeProcessReport(name: string): string | undefined {
  const processes = nativeProcessTable();
  if (!processes) return undefined;
  const needle = name.toLowerCase();
  const now = Date.now() / 1000;
  const matches = processes
    .filter((p) => p.pid !== Deno.pid)
    .map((p) => ({ process: p, line: commandLine(p) }))
    .filter(({ process, line }) =>
      process.name.toLowerCase().includes(needle) || line.toLowerCase().includes(needle)
    );
  if (matches.length === 0) return `no process matches '${name}'`;
  const rows = matches.slice(0, 20).map(({ process: p, line }) => [
    String(p.pid),
    String(p.ppid),
    p.state,
    formatBytes(p.rssBytes),
    duration(p.cpuMs / 1000),
    duration(Math.max(0, now - p.startTime)),
    shortCommand(line, 80),
  ]);
  const more = matches.length > 20 ? `\n(+${matches.length - 20} more)` : "";
  return `${matches.length} process${matches.length > 1 ? "es" : ""} matching '${name}'\n` +
    table(["PID", "PPID", "STATE", "MEMORY", "CPU TIME", "RUNNING", "COMMAND"], rows) + more;
}

/**
 * The listeners on a port and the processes holding them; undefined without
 * the library, or when nothing listens there (the platform's own reader then
 * looks for connections, which the library does not list).
 */
export function nativePortReport(port: number): string | undefined {
  const listeners = nativeListeners()?.filter((l) => l.port === port);
  if (!listeners || listeners.length === 0) return undefined;
  const names = new Map((nativeProcessTable() ?? []).map((p) => [p.pid, p.name]));
  const rows = listeners.map((l) => [
    l.proto,
    `${l.address}:${l.port}`,
    "",
    l.proto.startsWith("tcp") ? "LISTEN" : "UNCONN",
    l.pids.map((pid) => names.has(pid) ? `${pid} ${names.get(pid)}` : String(pid)).join(", ") ||
    "(another user's, or gone)",
  ]);
  return `port ${port}: ${listeners.length} listening socket${listeners.length > 1 ? "s" : ""}\n` +
    table(["PROTO", "LOCAL", "REMOTE", "STATE", "PROCESS"], rows);
}

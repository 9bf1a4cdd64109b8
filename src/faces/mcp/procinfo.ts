/**
 * What wisp can learn about another process of the same user: whether it
 * still runs, when it started, what its standard input is, and its argv.
 *
 * Deno refuses /proc to anything but --allow-all, and the binary's fence has
 * no unscoped --allow-run (so no Deno.kill, no ps). So the facts are read by
 * a fixed script started through the sandbox launcher, read-only and in the
 * host's PID namespace: bwrap on Linux (reading /proc), sandbox-exec on
 * macOS (running ps). Under --allow-all (tests) /proc is read directly.
 * `undefined` means "cannot tell", and callers fail closed on it.
 */

import { runHostView } from "../../platform/host_view.ts";

export interface ProcessFacts {
  alive: boolean;
  /** Start time as the platform states it (Linux: clock ticks since boot). */
  start?: string;
  /** Where its standard input leads: /dev/pts/3, pipe:[…], /dev/null. */
  stdin?: string;
  argv?: string[];
}

export type Prober = (pid: number) => Promise<ProcessFacts | undefined>;

/** A terminal device path. */
export function isTerminalPath(path: string | undefined): boolean {
  return path !== undefined &&
    (/^\/dev\/pts\/\d+$/.test(path) || /^\/dev\/tty[A-Za-z0-9]+$/.test(path) ||
      path === "/dev/console");
}

/** Field 22 of /proc/<pid>/stat (after the last ")", the state is field 3). */
export function startFromStat(stat: string): string | undefined {
  const close = stat.lastIndexOf(")");
  if (close === -1) return undefined;
  return stat.slice(close + 2).split(" ")[19];
}

/** Parse the Linux probe's output: alive|dead, start, stdin, then argv one per line. */
export function parseLinuxProbe(text: string): ProcessFacts | undefined {
  const lines = text.split("\n");
  if (lines[0] === "dead") return { alive: false };
  if (lines[0] !== "alive") return undefined;
  const argv = lines.slice(3).filter((a) => a !== "");
  return {
    alive: true,
    ...(lines[1] ? { start: lines[1] } : {}),
    ...(lines[2] ? { stdin: lines[2] } : {}),
    argv,
  };
}

/** Parse the macOS probe's output: alive|dead, lstart, tty (ttys003 or ??), command line. */
export function parseDarwinProbe(text: string): ProcessFacts | undefined {
  const lines = text.split("\n");
  if (lines[0] === "dead") return { alive: false };
  if (lines[0] !== "alive") return undefined;
  const tty = (lines[2] ?? "").trim();
  return {
    alive: true,
    ...(lines[1]?.trim() ? { start: lines[1].trim() } : {}),
    ...(tty && tty !== "??" ? { stdin: `/dev/${tty}` } : {}),
    argv: (lines[3] ?? "").trim().split(/\s+/).filter((a) => a !== ""),
  };
}

const LINUX_SCRIPT = 'p=/proc/$1; [ -r "$p/stat" ] || { echo dead; exit 0; }; echo alive; ' +
  'sed "s/.*) //" "$p/stat" | cut -d" " -f20; readlink "$p/fd/0" || echo; tr "\\0" "\\n" < "$p/cmdline"';
const DARWIN_SCRIPT = 'ps -p "$1" >/dev/null 2>&1 || { echo dead; exit 0; }; echo alive; ' +
  'ps -o lstart= -p "$1"; ps -o tty= -p "$1"; ps -o command= -p "$1"';

function directLinux(pid: number): ProcessFacts | undefined {
  let stat: string;
  try {
    stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { alive: false };
    return undefined; // NotCapable: ask the launcher
  }
  let stdin: string | undefined;
  try {
    stdin = Deno.readLinkSync(`/proc/${pid}/fd/0`);
  } catch { /* gone, or none */ }
  let argv: string[] = [];
  try {
    argv = Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0").filter((a) => a !== "");
  } catch { /* gone */ }
  const start = startFromStat(stat);
  return { alive: true, ...(start ? { start } : {}), ...(stdin ? { stdin } : {}), argv };
}

async function throughLauncher(pid: number): Promise<ProcessFacts | undefined> {
  const darwin = Deno.build.os === "darwin";
  const result = await runHostView([
    "/bin/sh",
    "-c",
    darwin ? DARWIN_SCRIPT : LINUX_SCRIPT,
    "sh",
    String(pid),
  ], 5000);
  if (!result.ok) return undefined;
  const text = new TextDecoder().decode(result.stdout);
  return darwin ? parseDarwinProbe(text) : parseLinuxProbe(text);
}

/** The facts about a process, or undefined when they cannot be had here. */
export async function probeProcess(pid: number): Promise<ProcessFacts | undefined> {
  if (!Number.isInteger(pid) || pid <= 0) return { alive: false };
  if (Deno.build.os === "linux") {
    const direct = directLinux(pid);
    if (direct) return direct;
  }
  if (Deno.build.os !== "linux" && Deno.build.os !== "darwin") return undefined;
  return await throughLauncher(pid);
}

/**
 * What wisp can learn about another process of the same user without
 * signalling it (Deno.kill needs an unscoped --allow-run, which the binary
 * does not have): whether it still runs, and what its standard input is.
 * Linux answers from /proc; where there is no /proc these return undefined
 * ("cannot tell") and callers fall back to a heartbeat.
 */

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

export function hasProc(): boolean {
  return readText("/proc/self/stat") !== undefined;
}

/** The start time of a process (clock ticks since boot, /proc/<pid>/stat field 22), as text. */
export function processStart(pid: number): string | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // The command name (field 2) is in parentheses and may hold spaces.
  const close = stat.lastIndexOf(")");
  if (close === -1) return undefined;
  const fields = stat.slice(close + 2).split(" ");
  // fields[0] is field 3 (state); field 22 is at index 19.
  return fields[19];
}

/**
 * Whether the process that recorded `start` still runs: true or false from
 * /proc, undefined where /proc cannot tell.
 */
export function processAlive(pid: number, start: string | undefined): boolean | undefined {
  if (!hasProc()) return undefined;
  const now = processStart(pid);
  if (now === undefined) return false;
  return start === undefined || start === now;
}

/** Where a process's standard input leads (/dev/pts/3, pipe:[…], /dev/null), when /proc says. */
export function stdinOf(pid: number): string | undefined {
  try {
    return Deno.readLinkSync(`/proc/${pid}/fd/0`);
  } catch {
    return undefined;
  }
}

/** A terminal device path. */
export function isTerminalPath(path: string | undefined): boolean {
  return path !== undefined && (/^\/dev\/pts\/\d+$/.test(path) || /^\/dev\/tty[A-Za-z0-9]*$/.test(path) ||
    /^\/dev\/console$/.test(path));
}

/** The process's argv, when /proc says. */
export function argvOf(pid: number): string[] | undefined {
  const text = readText(`/proc/${pid}/cmdline`);
  if (text === undefined) return undefined;
  return text.split("\0").filter((a) => a !== "");
}

/** This process's own terminal on stdin, as a path, when it has one and /proc says. */
export function ownStdin(): string | undefined {
  return stdinOf(Deno.pid) ?? (() => {
    try {
      return Deno.readLinkSync("/proc/self/fd/0");
    } catch {
      return undefined;
    }
  })();
}

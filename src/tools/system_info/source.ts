/**
 * Where system_info's Linux reads come from. In a process that may read /proc
 * (tests run with every permission) the files are read directly; inside the
 * binary's permission fence they are read by one fixed script through the
 * launcher's host view (src/platform/host_view.ts). Both give the same
 * snapshot: file contents by path, and which processes hold which sockets.
 */
import { runHostView } from "../../platform/host_view.ts";
import { socketOwners } from "../../platform/process_table.ts";

export interface ProcSnapshot {
  /** Path → content (bytes decoded as UTF-8, NULs kept). */
  files: Map<string, string>;
  /** Socket inode → the pids that hold it. */
  sockets: Map<number, number[]>;
}

/** What to read: fixed paths, and globs over /proc's numbered folders. */
export interface ProcRequest {
  /** Fixed files, e.g. /proc/net/tcp. */
  paths?: string[];
  /** Per-process files, e.g. "stat", "status", "cmdline": read for every pid. */
  perProcess?: string[];
  /** Map socket inodes to their pids (reads every process's fd links). */
  sockets?: boolean;
}

const HEADER = /^==> (.+) <==$/;

/** Parse `head -v` output: a header line before each file, a blank line between files. */
export function parseHeadOutput(text: string): Map<string, string> {
  const files = new Map<string, string>();
  const lines = text.split("\n");
  let current: string | undefined;
  let body: string[] = [];
  const flush = () => {
    if (current !== undefined) {
      // head puts a blank line before each header after the first.
      while (body.length > 0 && body[body.length - 1] === "") body.pop();
      files.set(current, body.join("\n") + (body.length > 0 ? "\n" : ""));
    }
  };
  for (const line of lines) {
    const match = HEADER.exec(line);
    if (match) {
      flush();
      current = match[1];
      body = [];
    } else if (current !== undefined) body.push(line);
  }
  flush();
  return files;
}

/** Parse `find -printf '%p %l\n'` lines: /proc/PID/fd/N socket:[INODE]. */
export function parseSocketLinks(text: string): Map<number, number[]> {
  const owners = new Map<number, number[]>();
  for (const line of text.split("\n")) {
    const match = /^\/proc\/(\d+)\/fd\/\d+ socket:\[(\d+)\]$/.exec(line.trim());
    if (!match) continue;
    const pid = Number(match[1]);
    const inode = Number(match[2]);
    const list = owners.get(inode) ?? [];
    if (!list.includes(pid)) list.push(pid);
    owners.set(inode, list);
  }
  return owners;
}

/** The fixed script: only constant paths and globs, never text from a caller. */
export function snapshotScript(request: ProcRequest): string {
  const parts: string[] = [];
  const allowed = /^\/(proc|sys)\/[A-Za-z0-9_*/.-]+$/;
  const fixed = (request.paths ?? []).filter((p) => allowed.test(p));
  const per = (request.perProcess ?? []).filter((f) => /^[a-z_]+$/.test(f)).map((f) =>
    `/proc/[0-9]*/${f}`
  );
  if (fixed.length + per.length > 0) {
    parts.push(`head -v -c 65536 -- ${[...fixed, ...per].join(" ")} 2>/dev/null`);
  }
  if (request.sockets) {
    parts.push(
      `echo '==> @sockets <=='; find /proc/[0-9]*/fd -maxdepth 1 -lname 'socket:*' -printf '%p %l\\n' 2>/dev/null`,
    );
  }
  parts.push("exit 0");
  return parts.join("; ");
}

function canReadProcDirectly(): boolean {
  try {
    Deno.readTextFileSync("/proc/self/stat");
    return true;
  } catch {
    return false;
  }
}

/** Expand `*` segments of a path by listing folders (as the shell would). */
function expandStars(path: string): string[] {
  const parts = path.split("/").filter(Boolean);
  let found = [""];
  for (const part of parts) {
    if (!part.includes("*")) {
      found = found.map((f) => `${f}/${part}`);
      continue;
    }
    const re = new RegExp(`^${part.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")}$`);
    const next: string[] = [];
    for (const dir of found) {
      try {
        for (const entry of Deno.readDirSync(dir || "/")) {
          if (re.test(entry.name)) next.push(`${dir}/${entry.name}`);
        }
      } catch { /* not a folder */ }
    }
    found = next.sort();
  }
  return found;
}

function readDirect(request: ProcRequest): ProcSnapshot {
  const files = new Map<string, string>();
  const read = (path: string) => {
    try {
      files.set(path, new TextDecoder().decode(Deno.readFileSync(path)));
    } catch { /* gone or unreadable */ }
  };
  for (const path of request.paths ?? []) for (const expanded of expandStars(path)) read(expanded);
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (/^\d+$/.test(entry.name)) pids.push(Number(entry.name));
  }
  for (const pid of pids) for (const name of request.perProcess ?? []) read(`/proc/${pid}/${name}`);
  const sockets = new Map<number, number[]>();
  if (request.sockets) {
    const lines: string[] = [];
    for (const pid of pids) {
      try {
        for (const fd of Deno.readDirSync(`/proc/${pid}/fd`)) {
          try {
            lines.push(
              `/proc/${pid}/fd/${fd.name} ${Deno.readLinkSync(`/proc/${pid}/fd/${fd.name}`)}`,
            );
          } catch { /* closed meanwhile */ }
        }
      } catch { /* another user's, or gone */ }
    }
    for (const [inode, owners] of parseSocketLinks(lines.join("\n"))) sockets.set(inode, owners);
  }
  return { files, sockets };
}

/** The socket owners of both reads, each pid once. */
function mergeOwners(
  a: Map<number, number[]>,
  b: Map<number, number[]> | undefined,
): Map<number, number[]> {
  const merged = new Map([...a].map(([inode, pids]) => [inode, [...pids]]));
  for (const [inode, pids] of b ?? []) {
    const list = merged.get(inode) ?? [];
    for (const pid of pids) if (!list.includes(pid)) list.push(pid);
    merged.set(inode, list);
  }
  return merged;
}

/** Read what the request names, directly when allowed, else through the launcher. */
export async function procSnapshot(
  request: ProcRequest,
  options: { viaLauncher?: boolean } = {},
): Promise<ProcSnapshot> {
  if (!options.viaLauncher && canReadProcDirectly()) return readDirect(request);
  const result = await runHostView(["/bin/sh", "-c", snapshotScript(request)]);
  if (!result.ok) {
    throw new Error("the process table could not be read through the sandbox launcher");
  }
  const text = new TextDecoder().decode(result.stdout);
  const split = text.indexOf("==> @sockets <==");
  const files = parseHeadOutput(split >= 0 ? text.slice(0, split) : text);
  const seen = split >= 0 ? parseSocketLinks(text.slice(split)) : new Map<number, number[]>();
  // The launcher of an ordinary user cannot read fd links (its user namespace); this process can.
  const sockets = request.sockets ? mergeOwners(seen, socketOwners()) : seen;
  return { files, sockets };
}

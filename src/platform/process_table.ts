/**
 * Facts the kernel keeps about a process of the same user: whether it runs,
 * when it started, its parent, its controlling terminal, its executable,
 * its argv and working folder. Read through the C library (libc.ts): on
 * Linux from /proc (which Deno's fence refuses to its own file calls), on
 * macOS from libproc (proc_pidinfo, proc_pidpath) and sysctl(KERN_PROCARGS2).
 * `undefined` means "cannot tell", and every caller fails closed on it.
 *
 * The decoders of what the kernel hands back are pure and exported, so the
 * macOS layouts are tested on Linux against bytes laid out as macOS does.
 */
import { cString, type DarwinLibc, darwinLibc, type LinuxLibc, linuxLibc } from "./libc.ts";

export interface ProcessFacts {
  alive: boolean;
  /** Start time as the platform states it (Linux: clock ticks since boot; macOS: sec.usec). */
  start?: string;
  ppid?: number;
  /** Whether the process has a controlling terminal of its own. */
  controllingTerminal?: boolean;
  /** The executable's path as the kernel names it (Linux adds " (deleted)" when it was replaced). */
  exe?: string;
  argv?: string[];
  /** Its working folder, where the platform tells (Linux). */
  cwd?: string;
  /** Where its standard input leads (Linux: /dev/pts/3, pipe:[…]). */
  stdin?: string;
}

/** The stat line's fields after the command name: index 0 is field 3 (state). */
function statFields(stat: string): string[] | undefined {
  const close = stat.lastIndexOf(")");
  if (close === -1) return undefined;
  return stat.slice(close + 2).trim().split(" ");
}

/** Parse /proc/PID/stat: parent (field 4), controlling tty (field 7), start (field 22). */
export function parseLinuxStat(
  stat: string,
): { ppid: number; ttyNr: number; start: string } | undefined {
  const f = statFields(stat);
  if (!f || f.length < 20) return undefined;
  const ppid = Number(f[1]);
  const ttyNr = Number(f[4]);
  if (!Number.isInteger(ppid) || !Number.isInteger(ttyNr)) return undefined;
  return { ppid, ttyNr, start: f[19] };
}

/**
 * Whether /proc/PID/stat describes a process that has ended but was not yet
 * reaped by its parent (state Z, or X while it goes): it runs no more.
 */
export function linuxStatEnded(stat: string): boolean {
  const state = statFields(stat)?.[0];
  return state === "Z" || state === "X";
}

const LINUX_READ_MAX = 256 * 1024;

function readProcFile(c: LinuxLibc, path: string): Uint8Array | undefined {
  const fd = c.open(cString(path), 0 /* O_RDONLY */);
  if (fd < 0) return undefined;
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    while (size < LINUX_READ_MAX) {
      const buf = new Uint8Array(16 * 1024);
      const n = Number(c.read(fd, buf, BigInt(buf.length)));
      if (n < 0) return undefined;
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      size += n;
    }
    const out = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  } finally {
    c.close(fd);
  }
}

function readLink(c: LinuxLibc | DarwinLibc, path: string): string | undefined {
  const buf = new Uint8Array(4096);
  const n = Number(c.readlink(cString(path), buf, BigInt(buf.length)));
  return n < 0 ? undefined : new TextDecoder().decode(buf.subarray(0, n));
}

function linuxFacts(c: LinuxLibc, pid: number): ProcessFacts | undefined {
  const statBytes = readProcFile(c, `/proc/${pid}/stat`);
  if (!statBytes) return { alive: false };
  const statText = new TextDecoder().decode(statBytes);
  // A zombie keeps its pid and stat line until it is reaped, but runs no more.
  if (linuxStatEnded(statText)) return { alive: false };
  const stat = parseLinuxStat(statText);
  if (!stat) return undefined;
  const cmdline = readProcFile(c, `/proc/${pid}/cmdline`);
  const argv = cmdline === undefined
    ? undefined
    : new TextDecoder().decode(cmdline).split("\0").filter((a, i, all) =>
      !(a === "" && i === all.length - 1)
    );
  const exe = readLink(c, `/proc/${pid}/exe`);
  const cwd = readLink(c, `/proc/${pid}/cwd`);
  const stdin = readLink(c, `/proc/${pid}/fd/0`);
  return {
    alive: true,
    start: stat.start,
    ppid: stat.ppid,
    controllingTerminal: stat.ttyNr !== 0,
    ...(exe !== undefined ? { exe } : {}),
    ...(argv !== undefined ? { argv } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
    ...(stdin !== undefined ? { stdin } : {}),
  };
}

/**
 * The names in a buffer getdents64 filled: struct linux_dirent64 records
 * (d_ino u64, d_off i64, d_reclen u16, d_type u8, then the NUL-terminated
 * name), one after another, each d_reclen bytes long.
 */
export function parseDirents(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const names: string[] = [];
  let at = 0;
  while (at + 19 <= bytes.length) {
    const length = view.getUint16(at + 16, true);
    if (length < 20 || at + length > bytes.length) break;
    const start = at + 19;
    let end = start;
    while (end < at + length && bytes[end] !== 0) end++;
    names.push(new TextDecoder().decode(bytes.subarray(start, end)));
    at += length;
  }
  return names;
}

/** The names in a folder, through getdents64; undefined when it cannot be listed. */
function listFolder(c: LinuxLibc, path: string): string[] | undefined {
  if (!c.getdents64) return undefined;
  const fd = c.open(cString(path), 0 /* O_RDONLY */);
  if (fd < 0) return undefined;
  try {
    const names: string[] = [];
    const buf = new Uint8Array(32 * 1024);
    for (;;) {
      const n = Number(c.getdents64(fd, buf, BigInt(buf.length)));
      if (n < 0) return undefined;
      if (n === 0) return names;
      names.push(
        ...parseDirents(buf.subarray(0, n)).filter((name) => name !== "." && name !== ".."),
      );
    }
  } finally {
    c.close(fd);
  }
}

/**
 * Which processes hold which sockets (socket inode → pids), read in this
 * process from /proc's fd links, as far as the kernel lets this user see
 * them. A sandbox launched by an ordinary user sits in a user namespace of
 * its own, where the kernel hides every outside process's fd links; this
 * process is outside it. Undefined where it cannot be read (not Linux, no
 * getdents64).
 */
export function socketOwners(): Map<number, number[]> | undefined {
  const c = linuxLibc();
  if (!c) return undefined;
  const pids = listFolder(c, "/proc")?.filter((name) => /^\d+$/.test(name));
  if (!pids) return undefined;
  const owners = new Map<number, number[]>();
  for (const pid of pids) {
    for (const fd of listFolder(c, `/proc/${pid}/fd`) ?? []) {
      const match = /^socket:\[(\d+)\]$/.exec(readLink(c, `/proc/${pid}/fd/${fd}`) ?? "");
      if (!match) continue;
      const inode = Number(match[1]);
      const list = owners.get(inode) ?? [];
      if (!list.includes(Number(pid))) list.push(Number(pid));
      owners.set(inode, list);
    }
  }
  return owners;
}

/** struct proc_bsdinfo (sys/proc_info.h): its size and the offsets wisp reads. */
export const DARWIN_BSDINFO = {
  size: 136,
  /** pbi_status: SZOMB (5) for a process that ended and was not yet reaped. */
  status: 4,
  ppid: 16,
  tdev: 108,
  startSec: 120,
  startUsec: 128,
  /** PROC_PIDTBSDINFO */
  flavor: 3,
} as const;
/** e_tdev when a process has no controlling terminal. */
const NODEV = 0xffffffff;

/** Whether struct proc_bsdinfo describes a zombie (pbi_status SZOMB): it runs no more. */
export function darwinBsdInfoEnded(bytes: Uint8Array): boolean {
  if (bytes.length < DARWIN_BSDINFO.size) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(DARWIN_BSDINFO.status, true) === 5;
}

/** Decode struct proc_bsdinfo as proc_pidinfo(PROC_PIDTBSDINFO) fills it. */
export function parseDarwinBsdInfo(
  bytes: Uint8Array,
): { ppid: number; controllingTerminal: boolean; start: string } | undefined {
  if (bytes.length < DARWIN_BSDINFO.size) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tdev = view.getUint32(DARWIN_BSDINFO.tdev, true);
  const sec = view.getBigUint64(DARWIN_BSDINFO.startSec, true);
  const usec = view.getBigUint64(DARWIN_BSDINFO.startUsec, true);
  return {
    ppid: view.getUint32(DARWIN_BSDINFO.ppid, true),
    controllingTerminal: tdev !== NODEV,
    start: `${sec}.${String(usec).padStart(6, "0")}`,
  };
}

/**
 * Decode sysctl(KERN_PROCARGS2): argc (int), the executable path, NUL
 * padding, then argc NUL-terminated arguments (the environment follows).
 */
export function parseDarwinProcArgs(bytes: Uint8Array): string[] | undefined {
  if (bytes.length < 4) return undefined;
  const argc = new DataView(bytes.buffer, bytes.byteOffset, 4).getInt32(0, true);
  let at = 4;
  while (at < bytes.length && bytes[at] !== 0) at++; // the exec path
  while (at < bytes.length && bytes[at] === 0) at++; // its padding
  const argv: string[] = [];
  const decoder = new TextDecoder();
  while (argv.length < argc && at < bytes.length) {
    let end = at;
    while (end < bytes.length && bytes[end] !== 0) end++;
    argv.push(decoder.decode(bytes.subarray(at, end)));
    at = end + 1;
  }
  return argv.length === argc ? argv : undefined;
}

function darwinFacts(c: DarwinLibc, pid: number): ProcessFacts | undefined {
  const info = new Uint8Array(DARWIN_BSDINFO.size);
  const n = c.proc_pidinfo(pid, DARWIN_BSDINFO.flavor, 0n, info, info.length);
  if (n <= 0 || darwinBsdInfoEnded(info)) return { alive: false };
  const bsd = parseDarwinBsdInfo(info);
  if (!bsd) return undefined;
  const path = new Uint8Array(4096); // PROC_PIDPATHINFO_MAXSIZE
  const len = c.proc_pidpath(pid, path, path.length);
  const exe = len > 0 ? new TextDecoder().decode(path.subarray(0, len)) : undefined;
  // CTL_KERN, KERN_PROCARGS2, pid
  const mib = new Int32Array([1, 49, pid]);
  const args = new Uint8Array(256 * 1024);
  const size = new BigUint64Array([BigInt(args.length)]);
  const ok = c.sysctl(
    new Uint8Array(mib.buffer),
    3,
    args,
    new Uint8Array(size.buffer),
    null,
    0n,
  );
  const argv = ok === 0 ? parseDarwinProcArgs(args.subarray(0, Number(size[0]))) : undefined;
  return {
    alive: true,
    start: bsd.start,
    ppid: bsd.ppid,
    controllingTerminal: bsd.controllingTerminal,
    ...(exe !== undefined ? { exe } : {}),
    ...(argv !== undefined ? { argv } : {}),
  };
}

/** The facts about a process, or undefined when they cannot be had here. */
export function processFacts(pid: number): ProcessFacts | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return { alive: false };
  const linux = linuxLibc();
  if (linux) return linuxFacts(linux, pid);
  const darwin = darwinLibc();
  if (darwin) return darwinFacts(darwin, pid);
  return undefined;
}

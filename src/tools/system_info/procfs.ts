/**
 * Linux's process table, sockets and memory, read from /proc. Each parser is
 * pure (text in, records out) and tested on captured text; the readers at the
 * bottom do the file I/O.
 */

export interface Socket {
  proto: "tcp" | "tcp6" | "udp" | "udp6";
  localAddress: string;
  localPort: number;
  remoteAddress: string;
  remotePort: number;
  state: string;
  uid: number;
  inode: number;
}

const TCP_STATES: Record<string, string> = {
  "01": "ESTABLISHED",
  "02": "SYN_SENT",
  "03": "SYN_RECV",
  "04": "FIN_WAIT1",
  "05": "FIN_WAIT2",
  "06": "TIME_WAIT",
  "07": "CLOSE",
  "08": "CLOSE_WAIT",
  "09": "LAST_ACK",
  "0A": "LISTEN",
  "0B": "CLOSING",
};

/** An address as /proc/net writes it: little-endian hex words. */
export function decodeAddress(hex: string): string {
  if (hex.length === 8) {
    const bytes = [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16));
    return bytes.join(".");
  }
  // IPv6: four 32-bit words, each little-endian.
  const groups: string[] = [];
  for (let word = 0; word < 4; word++) {
    const w = hex.slice(word * 8, word * 8 + 8);
    const bytes = [6, 4, 2, 0].map((i) => w.slice(i, i + 2));
    groups.push(bytes[0] + bytes[1], bytes[2] + bytes[3]);
  }
  const full = groups.map((g) => g.replace(/^0+(?=.)/, "").toLowerCase());
  const text = full.join(":");
  // IPv4-mapped (::ffff:a.b.c.d)
  if (/^0:0:0:0:0:ffff:/.test(text)) {
    const v4 = hex.slice(24, 32);
    return `::ffff:${decodeAddress(v4)}`;
  }
  return text.replace(/(^|:)0(:0)+(:|$)/, "::").replace(/:::+/, "::");
}

export function parseNetTable(text: string, proto: Socket["proto"]): Socket[] {
  const sockets: Socket[] = [];
  for (const line of text.split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const [local, remote] = [fields[1], fields[2]];
    const [localHex, localPortHex] = local.split(":");
    const [remoteHex, remotePortHex] = remote.split(":");
    const udp = proto.startsWith("udp");
    sockets.push({
      proto,
      localAddress: decodeAddress(localHex),
      localPort: parseInt(localPortHex, 16),
      remoteAddress: decodeAddress(remoteHex),
      remotePort: parseInt(remotePortHex, 16),
      state: udp
        ? (fields[3] === "07" ? "UNCONN" : "ESTABLISHED")
        : TCP_STATES[fields[3]] ?? fields[3],
      uid: Number(fields[7]),
      inode: Number(fields[9]),
    });
  }
  return sockets;
}

export interface ProcStat {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
  /** CPU time in clock ticks, user + system. */
  cpuTicks: number;
  /** Start time in clock ticks after boot. */
  startTicks: number;
  /** Resident set in pages. */
  rssPages: number;
}

/** /proc/PID/stat: the command name is in parentheses and may hold spaces and parentheses. */
export function parseProcStat(text: string): ProcStat | undefined {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const comm = text.slice(open + 1, close);
  const rest = text.slice(close + 2).trim().split(/\s+/);
  // rest[0] is field 3 (state); utime is field 14, stime 15, starttime 22, rss 24.
  const field = (n: number) => Number(rest[n - 3]);
  if (!Number.isFinite(pid) || rest.length < 22) return undefined;
  return {
    pid,
    comm,
    state: rest[0],
    ppid: field(4),
    cpuTicks: field(14) + field(15),
    startTicks: field(22),
    rssPages: field(24),
  };
}

/** /proc/meminfo as bytes per key. */
export function parseMeminfo(text: string): Record<string, number> {
  const values: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const match = /^(\w[\w()]*):\s+(\d+)(?:\s+kB)?$/.exec(line.trim());
    if (match) values[match[1]] = Number(match[2]) * (line.includes("kB") ? 1024 : 1);
  }
  return values;
}

/** /proc/PID/status's Uid line: the real uid. */
function parseStatusUid(text: string): number | undefined {
  const match = /^Uid:\s+(\d+)/m.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** /proc/net/route: the interface of the default route, if any. */
export function parseDefaultRoute(text: string): { iface: string; gateway: string } | undefined {
  for (const line of text.split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length >= 3 && fields[1] === "00000000") {
      return { iface: fields[0], gateway: decodeAddress(fields[2]) };
    }
  }
  return undefined;
}

// ---- from a snapshot ------------------------------------------------------

export interface ProcessInfo extends ProcStat {
  uid?: number;
  commandLine: string;
}

/** Every process in a snapshot that read stat, status and cmdline per process. */
export function processesFrom(files: Map<string, string>): ProcessInfo[] {
  const processes: ProcessInfo[] = [];
  for (const [path, text] of files) {
    const match = /^\/proc\/(\d+)\/stat$/.exec(path);
    if (!match) continue;
    const parsed = parseProcStat(text.trim());
    if (!parsed) continue;
    const cmdline = files.get(`/proc/${match[1]}/cmdline`) ?? "";
    const status = files.get(`/proc/${match[1]}/status`) ?? "";
    processes.push({
      ...parsed,
      uid: parseStatusUid(status),
      commandLine: cmdline.split("\0").filter(Boolean).join(" ").trim() || `[${parsed.comm}]`,
    });
  }
  return processes.sort((a, b) => a.pid - b.pid);
}

/** The sockets of the four /proc/net tables in a snapshot. */
export function socketsFrom(files: Map<string, string>): Socket[] {
  const sockets: Socket[] = [];
  for (const proto of ["tcp", "tcp6", "udp", "udp6"] as const) {
    const text = files.get(`/proc/net/${proto}`);
    if (text) sockets.push(...parseNetTable(text, proto));
  }
  return sockets;
}

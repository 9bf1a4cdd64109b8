/**
 * system_info's topics on Linux: fixed, read-only reads of /proc, /sys and
 * the file system, never a command the model composed. /proc and /sys come
 * through one snapshot (src/tools/system_info/source.ts), read in process
 * where Deno allows it and through the launcher's host view inside the
 * permission fence. Each topic returns a short report (a heading and a
 * table) or throws a TopicError the tool turns into `error: …`.
 */
import { parseDefaultRoute, processesFrom, type ProcessInfo, socketsFrom } from "./procfs.ts";
import { type ProcRequest, procSnapshot } from "./source.ts";
import { duration, folderReport, statfsColumns, table, TopicError, type Topics } from "./shared.ts";
import { formatBytes } from "../../util/bytes.ts";
import { nativePortReport, nativeProcessesReport, nativeProcessReport } from "./native.ts";

// The in-process folder walk and the topic error are shared with darwin.ts.
export { folderReport, TopicError };

/** Linux's clock ticks per second for /proc times (USER_HZ); 100 on every mainstream build. */
const TICKS = 100;
const PAGE = 4096;

export interface SourceOptions {
  /** Read through the launcher even where Deno could read /proc (tests of the fenced path). */
  viaLauncher?: boolean;
}

function shortCommand(command: string, max = 60): string {
  return command.length > max ? command.slice(0, max - 1) + "…" : command;
}

async function snapshot(request: ProcRequest, options: SourceOptions) {
  try {
    return await procSnapshot(request, options);
  } catch (error) {
    throw new TopicError(
      `cannot read the process table (${
        (error as Error).message
      }); wisp doctor checks the launcher`,
    );
  }
}

const PROCESS_FILES = ["stat", "status", "cmdline"];

export async function portReport(port: number, options: SourceOptions = {}): Promise<string> {
  const native = options.viaLauncher ? undefined : nativePortReport(port);
  if (native !== undefined) return native;
  const snap = await snapshot({
    paths: ["/proc/net/tcp", "/proc/net/tcp6", "/proc/net/udp", "/proc/net/udp6"],
    perProcess: PROCESS_FILES,
    sockets: true,
  }, options);
  const sockets = socketsFrom(snap.files).filter((s) =>
    s.localPort === port || s.remotePort === port
  );
  if (sockets.length === 0) return `nothing is listening on or connected to port ${port}`;
  const byPid = new Map(processesFrom(snap.files).map((p) => [p.pid, p]));
  const rows = sockets.map((s) => {
    const pids = snap.sockets.get(s.inode) ?? [];
    const process = pids.map((pid) => {
      const info = byPid.get(pid);
      return info ? `${pid} ${info.comm}` : String(pid);
    }).join(", ") || "(another user's, or gone)";
    const remote = s.remotePort === 0 ? "" : `${s.remoteAddress}:${s.remotePort}`;
    return [s.proto, `${s.localAddress}:${s.localPort}`, remote, s.state, process];
  });
  const listening = sockets.filter((s) =>
    s.localPort === port && (s.state === "LISTEN" || s.state === "UNCONN")
  );
  const heading = listening.length > 0
    ? `port ${port}: ${listening.length} listening socket${listening.length > 1 ? "s" : ""}`
    : `port ${port}: no listener; ${sockets.length} connection${sockets.length > 1 ? "s" : ""}`;
  return `${heading}\n${table(["PROTO", "LOCAL", "REMOTE", "STATE", "PROCESS"], rows)}`;
}

const REAL_FS =
  /^(ext[234]|xfs|btrfs|zfs|f2fs|vfat|exfat|ntfs3?|fuseblk|apfs|hfsplus|overlay|tmpfs)$/;

export async function diskReport(path?: string, options: SourceOptions = {}): Promise<string> {
  const rows: string[][] = [];
  const describe = (mount: string, fsType: string) => {
    rows.push([mount, fsType, ...statfsColumns(mount)]);
  };
  if (path) {
    try {
      describe(path, "");
    } catch (error) {
      throw new TopicError(
        `cannot read the disk of ${path} (${(error as Error).message}); give an existing path`,
      );
    }
    return `the file system holding ${path}\n${
      table(["PATH", "", "SIZE", "USED", "FREE", "USE%"], rows)
    }`;
  }
  const mounts = (await snapshot({ paths: ["/proc/mounts"] }, options)).files.get("/proc/mounts") ??
    "";
  const seen = new Set<string>();
  for (const line of mounts.split("\n")) {
    const [, mount, fsType] = line.split(" ");
    if (!mount || !REAL_FS.test(fsType ?? "") || seen.has(mount)) continue;
    if (fsType === "tmpfs" && !/^\/(tmp|dev\/shm)$/.test(mount)) continue;
    seen.add(mount);
    try {
      describe(mount.replace(/\\040/g, " "), fsType);
    } catch { /* unreadable mount */ }
    if (rows.length >= 20) break;
  }
  if (rows.length === 0) describe("/", "");
  return `mounted file systems\n${table(["MOUNT", "TYPE", "SIZE", "USED", "FREE", "USE%"], rows)}`;
}

async function allProcesses(
  options: SourceOptions,
): Promise<{ processes: ProcessInfo[]; uptime: number }> {
  const snap = await snapshot({ paths: ["/proc/uptime"], perProcess: PROCESS_FILES }, options);
  const uptime = Number((snap.files.get("/proc/uptime") ?? "").split(/\s+/)[0]) || Deno.osUptime();
  return { processes: processesFrom(snap.files), uptime };
}

export async function processesReport(
  sort: "cpu" | "memory" = "cpu",
  limit = 10,
  options: SourceOptions = {},
): Promise<string> {
  // Through the native library when it is there; the launcher's host view otherwise.
  const native = options.viaLauncher ? undefined : nativeProcessesReport(sort, limit);
  if (native !== undefined) return native;
  const uid = Deno.uid();
  const { processes, uptime } = await allProcesses(options);
  const mine = processes.filter((p) => uid === null || p.uid === uid);
  const cpuPercent = (p: ProcessInfo) => {
    const age = uptime - p.startTicks / TICKS;
    return age > 0 ? (p.cpuTicks / TICKS / age) * 100 : 0;
  };
  mine.sort((a, b) => sort === "memory" ? b.rssPages - a.rssPages : cpuPercent(b) - cpuPercent(a));
  const rows = mine.slice(0, limit).map((p) => [
    String(p.pid),
    cpuPercent(p).toFixed(1),
    formatBytes(p.rssPages * PAGE),
    duration(p.cpuTicks / TICKS),
    shortCommand(p.commandLine),
  ]);
  return `your ${
    Math.min(limit, mine.length)
  } busiest processes by ${sort} (of ${mine.length}; CPU% averaged over each one's life)\n` +
    table(["PID", "CPU%", "MEMORY", "CPU TIME", "COMMAND"], rows);
}

export async function processReport(name: string, options: SourceOptions = {}): Promise<string> {
  const native = options.viaLauncher ? undefined : nativeProcessReport(name);
  if (native !== undefined) return native;
  const needle = name.toLowerCase();
  const { processes, uptime } = await allProcesses(options);
  // The launcher's own helpers (sh, head, find) read the table too; they are not answers.
  const reader = /^(head -v -c 65536|\/bin\/sh -c head -v|bwrap --ro-bind \/ \/ --dev)/;
  const matches = processes.filter((p) =>
    (p.comm.toLowerCase().includes(needle) || p.commandLine.toLowerCase().includes(needle)) &&
    p.pid !== Deno.pid && !reader.test(p.commandLine)
  );
  if (matches.length === 0) return `no process matches '${name}'`;
  const rows = matches.slice(0, 20).map((p) => [
    String(p.pid),
    String(p.ppid),
    p.state,
    formatBytes(p.rssPages * PAGE),
    duration(p.cpuTicks / TICKS),
    duration(uptime - p.startTicks / TICKS),
    shortCommand(p.commandLine, 80),
  ]);
  const more = matches.length > 20 ? `\n(+${matches.length - 20} more)` : "";
  return `${matches.length} process${matches.length > 1 ? "es" : ""} matching '${name}'\n` +
    table(["PID", "PPID", "STATE", "MEMORY", "CPU TIME", "RUNNING", "COMMAND"], rows) + more;
}

export function memoryReport(): string {
  const m = Deno.systemMemoryInfo();
  const available = m.available || m.free;
  const rows = [
    ["memory", formatBytes(m.total), formatBytes(m.total - available), formatBytes(available)],
    [
      "swap",
      formatBytes(m.swapTotal),
      formatBytes(m.swapTotal - m.swapFree),
      formatBytes(m.swapFree),
    ],
  ];
  const pct = Math.round(((m.total - available) / m.total) * 100);
  return `memory: ${pct}% in use\n${table(["", "TOTAL", "USED", "AVAILABLE"], rows)}`;
}

export async function batteryReport(options: SourceOptions = {}): Promise<string> {
  const snap = await snapshot({
    paths: [
      "/sys/class/power_supply/*/type",
      "/sys/class/power_supply/*/capacity",
      "/sys/class/power_supply/*/status",
    ],
  }, options);
  const rows: string[][] = [];
  for (const [path, text] of snap.files) {
    const match = /^\/sys\/class\/power_supply\/([^/]+)\/type$/.exec(path);
    if (!match || text.trim() !== "Battery") continue;
    const base = `/sys/class/power_supply/${match[1]}`;
    rows.push([
      match[1],
      `${(snap.files.get(`${base}/capacity`) ?? "?").trim()}%`,
      (snap.files.get(`${base}/status`) ?? "unknown").trim(),
    ]);
  }
  if (rows.length === 0) return "no battery: this machine runs on mains power";
  return table(["BATTERY", "CHARGE", "STATUS"], rows);
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

export async function osReport(options: SourceOptions = {}): Promise<string> {
  const release = readText("/etc/os-release") ?? "";
  const pretty = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(release)?.[1] ?? "Linux";
  const cpuinfo =
    (await snapshot({ paths: ["/proc/cpuinfo"] }, options)).files.get("/proc/cpuinfo") ?? "";
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? Deno.build.arch;
  const cores = (cpuinfo.match(/^processor\s*:/gm) ?? []).length || navigator.hardwareConcurrency;
  const rows = [
    ["system", pretty],
    ["kernel", `Linux ${Deno.osRelease()} (${Deno.build.arch})`],
    ["host", Deno.hostname()],
    ["processor", `${model}, ${cores} cores`],
    ["memory", formatBytes(Deno.systemMemoryInfo().total)],
    ["up", duration(Deno.osUptime())],
    ["load", Deno.loadavg().map((n) => n.toFixed(2)).join(" ")],
  ];
  return table(["", ""], rows).split("\n").slice(1).join("\n");
}

export async function networkReport(options: SourceOptions = {}): Promise<string> {
  const interfaces = Deno.networkInterfaces();
  const routes =
    (await snapshot({ paths: ["/proc/net/route"] }, options)).files.get("/proc/net/route") ?? "";
  const route = parseDefaultRoute(routes);
  const rows = interfaces.map((i) => [
    i.name + (route?.iface === i.name ? " *" : ""),
    i.family,
    `${i.address}${i.cidr ? "/" + i.cidr.split("/")[1] : ""}`,
    i.mac === "00:00:00:00:00:00" ? "" : i.mac,
  ]);
  const heading = route
    ? `default route via ${route.gateway} on ${route.iface} (*)`
    : "no default route";
  return `${heading}\n${table(["INTERFACE", "FAMILY", "ADDRESS", "MAC"], rows)}`;
}

/** The Linux topics behind the one interface system_info.ts calls. */
export function linuxTopics(options: SourceOptions = {}): Topics {
  return {
    port: (port) => portReport(port, options),
    disk: (path) => diskReport(path, options),
    folder: (path, limit) => Promise.resolve(folderReport(path, limit)),
    processes: (sort, limit) => processesReport(sort, limit, options),
    memory: () => Promise.resolve(memoryReport()),
    process: (name) => processReport(name, options),
    battery: () => batteryReport(options),
    os: () => osReport(options),
    network: () => networkReport(options),
  };
}

/**
 * system_info's topics on macOS: fixed, read-only commands run through the
 * launcher's host view (sandbox-exec with a profile that may read everything
 * and write nothing), parsed by pure functions into the same reports the
 * Linux topics give. Deno's permission fence lets wisp start only the
 * launcher, so every command here is an argv built from constants and, for
 * port, one validated number: never a shell, never text the model wrote.
 *
 * ps and top are setuid and Seatbelt refuses to execute them, so nothing here
 * uses them. The busiest-processes topic waits for libproc through wisp's
 * native library; finding a process by name uses lsof, which is not setuid.
 *
 * The command runner is injected so the whole path runs on Linux in tests,
 * fed with the documented output of each command.
 */
import { basename } from "node:path";
import { runHostView } from "../../platform/host_view.ts";
import { formatBytes } from "../../util/bytes.ts";
import { duration, folderReport, statfsColumns, table, TopicError, type Topics } from "./shared.ts";
import { nativePortReport, nativeProcessesReport, nativeProcessReport } from "./native.ts";

/** Runs one fixed argv and returns its standard output. */
export type CommandRunner = (argv: string[]) => Promise<string>;

export interface DarwinOptions {
  /**
   * How commands run; the launcher's host view unless a test gives another.
   * A runner given here also stands in for the native library (libproc).
   */
  run?: CommandRunner;
  /** The machine's interfaces; Deno's own call unless a test gives others. */
  interfaces?: () => Deno.NetworkInterfaceInfo[];
}

// Absolute paths, so no PATH lookup can swap a program.
export const LSOF = "/usr/sbin/lsof";
const DF = "/bin/df";
export const MOUNT = "/sbin/mount";
const VM_STAT = "/usr/bin/vm_stat";
const SYSCTL = "/usr/sbin/sysctl";
const PMSET = "/usr/bin/pmset";
const SW_VERS = "/usr/bin/sw_vers";
const ROUTE = "/sbin/route";

// ---- the fixed argvs --------------------------------------------------------

/** lsof in field form (one field per line, documented for programs) for one port, TCP and UDP. */
export function portArgv(port: number): string[] {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new TopicError("topic port needs port, a number from 1 to 65535: call again with it");
  }
  return [LSOF, "-nP", "-w", "+c", "0", "-i", `TCP:${port}`, "-i", `UDP:${port}`, "-FpcftPnT"];
}

/** Every process's working folder: one record per process (pid, parent, command name). */
export const PROCESS_LIST_ARGV = [LSOF, "-nP", "-w", "+c", "0", "-d", "cwd", "-FpcR"];
export const DF_ARGV = [DF, "-k", "-P"];
export const MOUNT_ARGV = [MOUNT];
export const VM_STAT_ARGV = [VM_STAT];
export const MEMORY_SYSCTL_ARGV = [SYSCTL, "-n", "hw.memsize", "vm.swapusage"];
export const BATTERY_ARGV = [PMSET, "-g", "batt"];
export const SW_VERS_ARGV = [SW_VERS];
export const CPU_SYSCTL_ARGV = [SYSCTL, "-n", "machdep.cpu.brand_string", "hw.ncpu"];
export const ROUTE_ARGV = [ROUTE, "-n", "get", "default"];

/** Every fixed argv this module may run (the port one takes its number). */
export const FIXED_ARGVS: readonly string[][] = [
  PROCESS_LIST_ARGV,
  DF_ARGV,
  MOUNT_ARGV,
  VM_STAT_ARGV,
  MEMORY_SYSCTL_ARGV,
  BATTERY_ARGV,
  SW_VERS_ARGV,
  CPU_SYSCTL_ARGV,
  ROUTE_ARGV,
];

// lsof exits 1 when one of its selections matched nothing (the UDP side of a
// TCP port, say); route exits 1 when there is no default route.
const EXIT_ONE_IS_AN_ANSWER = new Set([LSOF, ROUTE]);

/** The real runner: the fixed argv through the launcher's read-only host view. */
export async function hostViewRunner(argv: string[]): Promise<string> {
  const result = await runHostView(argv);
  if (result.ok || (result.code === 1 && EXIT_ONE_IS_AN_ANSWER.has(argv[0]))) {
    return new TextDecoder().decode(result.stdout);
  }
  throw new Error(
    `${basename(argv[0])} exited with code ${result.code} inside the sandbox launcher`,
  );
}

// ---- pure parsers -------------------------------------------------------------

export interface LsofFile {
  fd: string;
  /** IPv4, IPv6, … */
  type?: string;
  /** TCP or UDP. */
  protocol?: string;
  name?: string;
  /** TCP state (TST=…). */
  state?: string;
}

export interface LsofProcess {
  pid: number;
  command: string;
  ppid?: number;
  files: LsofFile[];
}

/**
 * lsof's field output: a `p` line opens a process (then `c`, `R`, … about
 * it), an `f` line opens one of its files (then `t`, `P`, `n`, `T…`).
 */
export function parseLsofFields(text: string): LsofProcess[] {
  const processes: LsofProcess[] = [];
  let process: LsofProcess | undefined;
  let file: LsofFile | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    if (line === "") continue;
    const [key, value] = [line[0], line.slice(1)];
    if (key === "p") {
      process = { pid: Number(value), command: "", files: [] };
      file = undefined;
      if (Number.isInteger(process.pid)) processes.push(process);
      continue;
    }
    if (!process) continue;
    if (key === "f") {
      file = { fd: value };
      process.files.push(file);
    } else if (!file) {
      if (key === "c") process.command = value;
      else if (key === "R" && /^\d+$/.test(value)) process.ppid = Number(value);
    } else if (key === "t") file.type = value;
    else if (key === "P") file.protocol = value;
    else if (key === "n") file.name = value;
    else if (key === "T" && value.startsWith("ST=")) file.state = value.slice(3);
  }
  return processes;
}

export interface DarwinSocket {
  /** tcp, tcp6, udp, udp6: as the Linux table names them. */
  proto: string;
  local: string;
  remote: string;
  localPort: number;
  state: string;
  pid: number;
  command: string;
}

/** The port after the last colon of `host:port` or `[v6]:port`; NaN for `*`. */
function portOf(address: string): number {
  const match = /:(\d+)$/.exec(address);
  return match ? Number(match[1]) : NaN;
}

/** The internet sockets in lsof's field output. */
export function socketsFromLsof(processes: LsofProcess[]): DarwinSocket[] {
  const sockets: DarwinSocket[] = [];
  for (const p of processes) {
    for (const f of p.files) {
      const protocol = (f.protocol ?? "").toLowerCase();
      if ((protocol !== "tcp" && protocol !== "udp") || !f.name) continue;
      const [local, remote = ""] = f.name.split("->");
      const state = f.state ?? (protocol === "udp" ? (remote ? "ESTABLISHED" : "UNCONN") : "");
      sockets.push({
        proto: protocol + (f.type === "IPv6" ? "6" : ""),
        local,
        remote,
        localPort: portOf(local),
        state,
        pid: p.pid,
        command: p.command,
      });
    }
  }
  return sockets;
}

export interface DfRow {
  filesystem: string;
  kilobytes: number;
  usedKilobytes: number;
  availableKilobytes: number;
  capacity: number;
  mount: string;
}

/** `df -k -P`: a header, then one line per file system; names and mount points may hold spaces. */
export function parseDf(text: string): DfRow[] {
  const rows: DfRow[] = [];
  for (const line of text.split("\n").slice(1)) {
    const match = /^(.+?)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)%\s+(\/.*)$/.exec(line.trimEnd());
    if (!match) continue;
    rows.push({
      filesystem: match[1],
      kilobytes: Number(match[2]),
      usedKilobytes: Number(match[3]),
      availableKilobytes: Number(match[4]),
      capacity: Number(match[5]),
      mount: match[6],
    });
  }
  return rows;
}

/** `mount`: `<device> on <mount point> (<type>, <flags…>)` → mount point → type. */
export function parseMountTypes(text: string): Map<string, string> {
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    const on = line.indexOf(" on /");
    const open = line.lastIndexOf(" (");
    if (on < 0 || open < on) continue;
    const type = /^\(([^,)]+)/.exec(line.slice(open + 1))?.[1];
    if (type) types.set(line.slice(on + 4, open), type.trim());
  }
  return types;
}

/** vm_stat: the page size and each counter by its label (quotes dropped). */
export function parseVmStat(text: string): { pageSize: number; pages: Record<string, number> } {
  const pageSize = Number(/page size of (\d+) bytes/.exec(text)?.[1] ?? 4096);
  const pages: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const match = /^"?([^":]+)"?:\s+(\d+)\.?\s*$/.exec(line.trim());
    if (match) pages[match[1]] = Number(match[2]);
  }
  return { pageSize, pages };
}

const UNIT: Record<string, number> = { B: 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };

function sizeWithUnit(text: string | undefined): number {
  const match = /^([\d.]+)([BKMGT])?$/.exec(text ?? "");
  return match ? Math.round(Number(match[1]) * UNIT[match[2] ?? "B"]) : 0;
}

/** `sysctl -n hw.memsize vm.swapusage`: RAM in bytes, swap total/used/free in bytes. */
export function parseMemorySysctl(
  text: string,
): { memsize: number; swapTotal: number; swapUsed: number; swapFree: number } {
  const memsize = Number(/^\s*(\d+)\s*$/m.exec(text)?.[1] ?? NaN);
  const swap = (key: string) =>
    sizeWithUnit(new RegExp(`${key} = ([\\d.]+[BKMGT]?)`).exec(text)?.[1]);
  return { memsize, swapTotal: swap("total"), swapUsed: swap("used"), swapFree: swap("free") };
}

export interface BatteryRow {
  name: string;
  charge: number;
  status: string;
  remaining?: string;
}

/** `pmset -g batt`: the power source, then one line per battery (or UPS). */
export function parsePmsetBatt(text: string): { source?: string; batteries: BatteryRow[] } {
  const source = /drawing from '([^']+)'/.exec(text)?.[1];
  const batteries: BatteryRow[] = [];
  for (const line of text.split("\n")) {
    const match = /^\s*-(.+?)\s+\(id=\d+\)\s+(\d+)%;\s*([^;]+?)\s*(?:;\s*(.*))?$/.exec(line);
    if (!match) continue;
    const time = /(\d+:\d{2}) remaining/.exec(match[4] ?? "")?.[1];
    batteries.push({
      name: match[1],
      charge: Number(match[2]),
      status: match[3],
      ...(time && time !== "0:00" ? { remaining: time } : {}),
    });
  }
  return { source, batteries };
}

/** `Key: value` lines (sw_vers, route get). */
function parseColonPairs(text: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^\s*([A-Za-z][\w ]*?):\s+(.+?)\s*$/.exec(line);
    if (match && !(match[1] in pairs)) pairs[match[1]] = match[2];
  }
  return pairs;
}

/** `route -n get default`: the gateway and interface, if there is a default route. */
export function parseRouteGet(text: string): { gateway: string; iface: string } | undefined {
  const pairs = parseColonPairs(text);
  return pairs.interface
    ? { gateway: pairs.gateway ?? "(direct)", iface: pairs.interface }
    : undefined;
}

// ---- the topics ---------------------------------------------------------------

function commandRunner(options: DarwinOptions): CommandRunner {
  const run = options.run ?? hostViewRunner;
  return async (argv) => {
    try {
      return await run(argv);
    } catch (error) {
      throw new TopicError(
        `cannot run ${basename(argv[0])} (${
          (error as Error).message
        }); wisp doctor checks the launcher`,
      );
    }
  };
}

export async function portReport(port: number, options: DarwinOptions = {}): Promise<string> {
  const native = options.run ? undefined : nativePortReport(port);
  if (native !== undefined) return native;
  const argv = portArgv(port);
  const sockets = socketsFromLsof(parseLsofFields(await commandRunner(options)(argv)));
  if (sockets.length === 0) return `nothing is listening on or connected to port ${port}`;
  // Processes that share one socket (a server's forked workers) share a row.
  const rows = new Map<string, { socket: DarwinSocket; owners: string[] }>();
  for (const s of sockets) {
    const key = [s.proto, s.local, s.remote, s.state].join(" ");
    const row = rows.get(key) ?? { socket: s, owners: [] };
    const owner = `${s.pid} ${s.command}`;
    if (!row.owners.includes(owner)) row.owners.push(owner);
    rows.set(key, row);
  }
  const distinct = [...rows.values()];
  const listening = distinct.filter(({ socket: s }) =>
    s.localPort === port && (s.state === "LISTEN" || s.state === "UNCONN")
  );
  const heading = listening.length > 0
    ? `port ${port}: ${listening.length} listening socket${listening.length > 1 ? "s" : ""}`
    : `port ${port}: no listener; ${distinct.length} connection${distinct.length > 1 ? "s" : ""}`;
  return `${heading}\n${
    table(
      ["PROTO", "LOCAL", "REMOTE", "STATE", "PROCESS"],
      distinct.map((
        { socket: s, owners },
      ) => [s.proto, s.local, s.remote, s.state, owners.join(", ")]),
    )
  }`;
}

/** Pseudo file systems and the system's own APFS volumes that say nothing about free space. */
function isUserFacing(row: DfRow, type: string | undefined): boolean {
  if (type && /^(devfs|autofs|nullfs|fdesc)$/.test(type)) return false;
  if (row.filesystem.startsWith("map ") || row.kilobytes === 0) return false;
  return !row.mount.startsWith("/System/Volumes/") || row.mount === "/System/Volumes/Data";
}

export async function diskReport(path?: string, options: DarwinOptions = {}): Promise<string> {
  if (path) {
    let columns: string[];
    try {
      columns = statfsColumns(path);
    } catch (error) {
      throw new TopicError(
        `cannot read the disk of ${path} (${(error as Error).message}); give an existing path`,
      );
    }
    return `the file system holding ${path}\n${
      table(["PATH", "", "SIZE", "USED", "FREE", "USE%"], [[path, "", ...columns]])
    }`;
  }
  const run = commandRunner(options);
  const [df, mounts] = await Promise.all([run(DF_ARGV), run(MOUNT_ARGV)]);
  const types = parseMountTypes(mounts);
  const rows = parseDf(df)
    .filter((row) => isUserFacing(row, types.get(row.mount)))
    .slice(0, 20)
    .map((row) => [
      row.mount,
      types.get(row.mount) ?? "",
      formatBytes(row.kilobytes * 1024),
      formatBytes(row.usedKilobytes * 1024),
      formatBytes(row.availableKilobytes * 1024),
      `${row.capacity}%`,
    ]);
  if (rows.length === 0) {
    throw new TopicError("df listed no file systems; ask about one path with topic disk and path");
  }
  return `mounted file systems\n${table(["MOUNT", "TYPE", "SIZE", "USED", "FREE", "USE%"], rows)}`;
}

export async function memoryReport(options: DarwinOptions = {}): Promise<string> {
  const run = commandRunner(options);
  const [vm, sysctl] = await Promise.all([run(VM_STAT_ARGV), run(MEMORY_SYSCTL_ARGV)]);
  const { pageSize, pages } = parseVmStat(vm);
  const { memsize, swapTotal, swapUsed, swapFree } = parseMemorySysctl(sysctl);
  if (!Number.isFinite(memsize) || memsize <= 0 || pages["Pages free"] === undefined) {
    throw new TopicError(
      "could not make sense of vm_stat and sysctl's answers; try again, or ask about disk instead",
    );
  }
  // vm_stat's "Pages free" already leaves out speculative pages; free plus
  // inactive is what the system can hand out without swapping (as psutil counts it).
  const available = Math.min(
    memsize,
    ((pages["Pages free"] ?? 0) + (pages["Pages inactive"] ?? 0)) * pageSize,
  );
  const rows = [
    ["memory", formatBytes(memsize), formatBytes(memsize - available), formatBytes(available)],
    ["swap", formatBytes(swapTotal), formatBytes(swapUsed), formatBytes(swapFree)],
  ];
  const pct = Math.round(((memsize - available) / memsize) * 100);
  return `memory: ${pct}% in use\n${table(["", "TOTAL", "USED", "AVAILABLE"], rows)}`;
}

export async function batteryReport(options: DarwinOptions = {}): Promise<string> {
  const { batteries } = parsePmsetBatt(await commandRunner(options)(BATTERY_ARGV));
  if (batteries.length === 0) return "no battery: this machine runs on mains power";
  return table(
    ["BATTERY", "CHARGE", "STATUS"],
    batteries.map((
      b,
    ) => [
      b.name,
      `${b.charge}%`,
      b.remaining ? `${b.status}, ${b.remaining} remaining` : b.status,
    ]),
  );
}

export async function osReport(options: DarwinOptions = {}): Promise<string> {
  const run = commandRunner(options);
  const [vers, cpu] = await Promise.all([run(SW_VERS_ARGV), run(CPU_SYSCTL_ARGV)]);
  const v = parseColonPairs(vers);
  const [brand, ncpu] = cpu.split("\n").map((l) => l.trim()).filter(Boolean);
  const system = [
    v.ProductName ?? "macOS",
    v.ProductVersion,
    v.BuildVersion ? `(${v.BuildVersion})` : undefined,
  ]
    .filter(Boolean).join(" ");
  const cores = Number(ncpu) || navigator.hardwareConcurrency;
  const rows = [
    ["system", system],
    ["kernel", `Darwin ${Deno.osRelease()} (${Deno.build.arch})`],
    ["host", Deno.hostname()],
    ["processor", `${brand ?? Deno.build.arch}, ${cores} cores`],
    ["memory", formatBytes(Deno.systemMemoryInfo().total)],
    ["up", duration(Deno.osUptime())],
    ["load", Deno.loadavg().map((n) => n.toFixed(2)).join(" ")],
  ];
  return table(["", ""], rows).split("\n").slice(1).join("\n");
}

export async function networkReport(options: DarwinOptions = {}): Promise<string> {
  const interfaces = options.interfaces ? options.interfaces() : Deno.networkInterfaces();
  const route = parseRouteGet(await commandRunner(options)(ROUTE_ARGV));
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

export function processesReport(
  sort: "cpu" | "memory" = "cpu",
  limit = 10,
  options: DarwinOptions = {},
): Promise<string> {
  const native = options.run ? undefined : nativeProcessesReport(sort, limit);
  if (native !== undefined) return Promise.resolve(native);
  return Promise.reject(
    new TopicError(
      "on macOS the busiest processes need libproc through wisp's native library, which this build does not have " +
        "(ps and top are refused inside the sandbox); ask for topic process with a name, or topic memory, port or disk instead",
    ),
  );
}

/** The program names and parents of your processes (lsof lists one working folder per process). */
export async function processReport(name: string, options: DarwinOptions = {}): Promise<string> {
  const native = options.run ? undefined : nativeProcessReport(name);
  if (native !== undefined) return native;
  const needle = name.toLowerCase();
  const processes = parseLsofFields(await commandRunner(options)(PROCESS_LIST_ARGV));
  const seen = new Set<number>();
  const matches = processes.filter((p) => {
    if (seen.has(p.pid) || p.pid === Deno.pid) return false;
    seen.add(p.pid);
    // The reader itself (lsof in the launcher) is not an answer.
    return p.command.toLowerCase().includes(needle) && p.command !== "lsof" &&
      p.command !== "sandbox-exec";
  });
  if (matches.length === 0) return `no process matches '${name}'`;
  const rows = matches.slice(0, 20).map((
    p,
  ) => [String(p.pid), p.ppid === undefined ? "" : String(p.ppid), p.command]);
  const more = matches.length > 20 ? `\n(+${matches.length - 20} more)` : "";
  return `${matches.length} process${matches.length > 1 ? "es" : ""} matching '${name}'\n` +
    table(["PID", "PPID", "COMMAND"], rows) + more +
    "\n(memory and CPU time per process need libproc, which this build does not have)";
}

/** The macOS topics behind the one interface system_info.ts calls. */
export function darwinTopics(options: DarwinOptions = {}): Topics {
  return {
    port: (port) => portReport(port, options),
    disk: (path) => diskReport(path, options),
    folder: (path, limit) => Promise.resolve(folderReport(path, limit)),
    processes: (sort, limit) => processesReport(sort, limit, options),
    memory: () => memoryReport(options),
    process: (name) => processReport(name, options),
    battery: () => batteryReport(options),
    os: () => osReport(options),
    network: () => networkReport(options),
  };
}

// system_info's macOS topics, run on Linux: the parsers on hand-written
// output of the documented macOS formats (test/fixtures/system_info/darwin),
// the fixed argvs, the whole darwin path through an injected runner, and the
// lsof argvs against a real lsof where this machine has one.
import {
  assert,
  assertEquals,
  assertMatch,
  assertStringIncludes,
  assertThrows,
} from "../support/assert.ts";
import {
  BATTERY_ARGV,
  CPU_SYSCTL_ARGV,
  DF_ARGV,
  FIXED_ARGVS,
  hostViewRunner,
  LSOF,
  MEMORY_SYSCTL_ARGV,
  MOUNT_ARGV,
  parseDf,
  parseLsofFields,
  parseMemorySysctl,
  parseMountTypes,
  parsePmsetBatt,
  parseRouteGet,
  parseVmStat,
  portArgv,
  PROCESS_LIST_ARGV,
  ROUTE_ARGV,
  socketsFromLsof,
  SW_VERS_ARGV,
  VM_STAT_ARGV,
} from "../../src/tools/system_info/darwin.ts";
import { systemInfoReport } from "../../src/tools/system_info.ts";
import { TopicError } from "../../src/tools/system_info/shared.ts";

const FIXTURES = new URL("../fixtures/system_info/darwin/", import.meta.url);
const fixture = (name: string) => Deno.readTextFileSync(new URL(name, FIXTURES));

/** A runner that answers each expected argv with its fixture and records the calls; any other argv fails. */
function fakeRunner(answers: Map<string, string>) {
  const calls: string[][] = [];
  const run = (argv: string[]) => {
    calls.push(argv);
    const name = answers.get(JSON.stringify(argv));
    if (name === undefined) {
      return Promise.reject(new Error(`unexpected argv ${JSON.stringify(argv)}`));
    }
    return Promise.resolve(fixture(name));
  };
  return { run, calls };
}

const MAC_ANSWERS = new Map<string, string>([
  [JSON.stringify(portArgv(3000)), "lsof_port_3000.txt"],
  [JSON.stringify(portArgv(5353)), "lsof_port_5353.txt"],
  [JSON.stringify(portArgv(9)), "lsof_port_none.txt"],
  [JSON.stringify(PROCESS_LIST_ARGV), "lsof_cwd.txt"],
  [JSON.stringify(DF_ARGV), "df_kP.txt"],
  [JSON.stringify(MOUNT_ARGV), "mount.txt"],
  [JSON.stringify(VM_STAT_ARGV), "vm_stat.txt"],
  [JSON.stringify(MEMORY_SYSCTL_ARGV), "sysctl_memory.txt"],
  [JSON.stringify(BATTERY_ARGV), "pmset_batt_laptop.txt"],
  [JSON.stringify(SW_VERS_ARGV), "sw_vers.txt"],
  [JSON.stringify(CPU_SYSCTL_ARGV), "sysctl_cpu.txt"],
  [JSON.stringify(ROUTE_ARGV), "route_default.txt"],
]);

const EN0: Deno.NetworkInterfaceInfo = {
  family: "IPv4",
  name: "en0",
  address: "192.168.1.23",
  netmask: "255.255.255.0",
  scopeid: null,
  cidr: "192.168.1.23/24",
  mac: "a4:83:e7:12:34:56",
};
const LO0: Deno.NetworkInterfaceInfo = {
  ...EN0,
  name: "lo0",
  address: "127.0.0.1",
  cidr: "127.0.0.1/8",
  mac: "00:00:00:00:00:00",
};

Deno.test("darwin parsers: lsof field output, one record per process and file", () => {
  const processes = parseLsofFields(fixture("lsof_port_3000.txt"));
  assertEquals(processes.map((p) => [p.pid, p.command, p.files.length]), [
    [4711, "node", 3],
    [4712, "node", 1],
    [5120, "Google Chrome Helper", 1],
  ]);
  assertEquals(processes[0].files[1], {
    fd: "24",
    type: "IPv6",
    protocol: "TCP",
    name: "[::1]:3000",
    state: "LISTEN",
  });
  const sockets = socketsFromLsof(processes);
  assertEquals(sockets[2], {
    proto: "tcp",
    local: "127.0.0.1:3000",
    remote: "127.0.0.1:61012",
    localPort: 3000,
    state: "ESTABLISHED",
    pid: 4711,
    command: "node",
  });
  const udp = socketsFromLsof(parseLsofFields(fixture("lsof_port_5353.txt")));
  assertEquals(udp.map((s) => [s.proto, s.local, s.remote, s.state]), [
    ["udp", "*:5353", "", "UNCONN"],
    ["udp6", "*:5353", "", "UNCONN"],
  ]);
  const cwd = parseLsofFields(fixture("lsof_cwd.txt"));
  assertEquals(cwd.find((p) => p.pid === 4712)?.ppid, 4711);
  assertEquals(cwd.length, 7);
});

Deno.test("darwin parsers: df -k -P with spaces in names and mount points, mount types", () => {
  const rows = parseDf(fixture("df_kP.txt"));
  assertEquals(rows.length, 8);
  assertEquals(rows[0], {
    filesystem: "/dev/disk3s1s1",
    kilobytes: 482797652,
    usedKilobytes: 10234568,
    availableKilobytes: 287654320,
    capacity: 4,
    mount: "/",
  });
  assertEquals(rows[6].filesystem, "map auto_home");
  assertEquals(rows[7].mount, "/Volumes/My Backup");
  const types = parseMountTypes(fixture("mount.txt"));
  assertEquals(types.get("/"), "apfs");
  assertEquals(types.get("/dev"), "devfs");
  assertEquals(types.get("/Volumes/My Backup"), "msdos");
  assertEquals(types.get("/System/Volumes/Data/home"), "autofs");
});

Deno.test("darwin parsers: vm_stat, sysctl memory, pmset, route", () => {
  const vm = parseVmStat(fixture("vm_stat.txt"));
  assertEquals(vm.pageSize, 16384);
  assertEquals(vm.pages["Pages free"], 8192);
  assertEquals(vm.pages["Pages inactive"], 385024);
  assertEquals(vm.pages["Translation faults"], 987654321);
  assertEquals(parseMemorySysctl(fixture("sysctl_memory.txt")), {
    memsize: 17179869184,
    swapTotal: 2048 * 1024 ** 2,
    swapUsed: Math.round(1024.5 * 1024 ** 2),
    swapFree: Math.round(1023.5 * 1024 ** 2),
  });
  assertEquals(parsePmsetBatt(fixture("pmset_batt_laptop.txt")), {
    source: "Battery Power",
    batteries: [{
      name: "InternalBattery-0",
      charge: 87,
      status: "discharging",
      remaining: "5:12",
    }],
  });
  assertEquals(parsePmsetBatt(fixture("pmset_batt_desktop.txt")), {
    source: "AC Power",
    batteries: [],
  });
  assertEquals(
    parsePmsetBatt(
      "Now drawing from 'AC Power'\n -InternalBattery-0 (id=1)\t100%; charged; 0:00 remaining present: true\n",
    )
      .batteries,
    [{ name: "InternalBattery-0", charge: 100, status: "charged" }],
  );
  assertEquals(
    parsePmsetBatt(
      "Now drawing from 'AC Power'\n -InternalBattery-0 (id=1)\t80%; AC attached; not charging present: true\n" +
        " -InternalBattery-0 (id=1)\t41%; charging; (no estimate) present: true\n",
    ).batteries,
    [
      { name: "InternalBattery-0", charge: 80, status: "AC attached" },
      { name: "InternalBattery-0", charge: 41, status: "charging" },
    ],
  );
  assertEquals(parseRouteGet(fixture("route_default.txt")), {
    gateway: "192.168.1.1",
    iface: "en0",
  });
  assertEquals(parseRouteGet(""), undefined);
});

Deno.test("darwin argvs are fixed: absolute programs, constant flags, the port one validated element", () => {
  assertEquals(portArgv(3000), [
    LSOF,
    "-nP",
    "-w",
    "+c",
    "0",
    "-i",
    "TCP:3000",
    "-i",
    "UDP:3000",
    "-FpcftPnT",
  ]);
  for (const bad of [0, 65536, -1, 3.5, NaN, "3000; rm -rf /" as unknown as number]) {
    assertThrows(() => portArgv(bad), TopicError, "1 to 65535");
  }
  const programs = new Set([
    "/usr/sbin/lsof",
    "/bin/df",
    "/sbin/mount",
    "/usr/bin/vm_stat",
    "/usr/sbin/sysctl",
    "/usr/bin/pmset",
    "/usr/bin/sw_vers",
    "/sbin/route",
  ]);
  for (const argv of [...FIXED_ARGVS, portArgv(1), portArgv(65535)]) {
    assert(programs.has(argv[0]), `${argv[0]} is one of the fixed programs`);
    assert(!/(^|\/)(sh|bash|zsh|ps|top|env)$/.test(argv[0]), "no shell, no ps/top");
    for (const element of argv) {
      assertMatch(element, /^[A-Za-z0-9_./:+-]+$/, `no shell syntax in ${element}`);
    }
  }
  // Building an argv twice gives the same list: nothing in them depends on state.
  assertEquals(portArgv(8080), portArgv(8080));
});

Deno.test("the whole darwin path on Linux: every topic through a fake runner fed the fixtures", async () => {
  const { run, calls } = fakeRunner(MAC_ANSWERS);
  const options = { os: "darwin", darwin: { run, interfaces: () => [LO0, EN0] } };
  const ask = (args: Parameters<typeof systemInfoReport>[0]) =>
    systemInfoReport(args, "/", options);

  const port = await ask({ topic: "port", port: 3000 });
  assert(port.ok, port.text);
  const lines = port.text.split("\n");
  assertEquals(lines[0], "port 3000: 2 listening sockets");
  assertMatch(lines[1], /^PROTO\s+LOCAL\s+REMOTE\s+STATE\s+PROCESS$/);
  assertMatch(port.text, /^tcp\s+127\.0\.0\.1:3000\s+LISTEN\s+4711 node, 4712 node$/m);
  assertMatch(port.text, /^tcp6\s+\[::1\]:3000\s+LISTEN\s+4711 node$/m);
  assertMatch(
    port.text,
    /^tcp\s+127\.0\.0\.1:61012\s+127\.0\.0\.1:3000\s+ESTABLISHED\s+5120 Google Chrome Helper$/m,
  );
  assertEquals(lines.length, 6);
  const udp = await ask({ topic: "port", port: 5353 });
  assertMatch(udp.text, /^udp\s+\*:5353\s+UNCONN\s+388 mDNSResponder$/m);
  assertEquals(
    (await ask({ topic: "port", port: 9 })).text,
    "nothing is listening on or connected to port 9",
  );
  assertEquals((await ask({ topic: "port", port: 0 })).ok, false);

  const disk = await ask({ topic: "disk" });
  assert(disk.ok, disk.text);
  assertEquals(
    disk.text.split("\n").slice(2).map((l) => l.split(/\s{2,}/)[0]),
    ["/", "/System/Volumes/Data", "/Volumes/My Backup"],
  );
  assertMatch(disk.text, /^\/\s+apfs\s+460\.4 GiB\s+9\.8 GiB\s+274\.3 GiB\s+4%$/m);
  assertMatch(
    disk.text,
    /^\/Volumes\/My Backup\s+msdos\s+1\.9 GiB\s+793\.3 MiB\s+1\.1 GiB\s+42%$/m,
  );
  const oneDisk = await ask({ topic: "disk", path: "/" });
  assertStringIncludes(oneDisk.text, "the file system holding /");

  const memory = await ask({ topic: "memory" });
  assert(memory.ok, memory.text);
  // 16 GiB; free + inactive = 393,216 pages of 16 KiB = 6 GiB available.
  assertEquals(memory.text.split("\n")[0], "memory: 63% in use");
  assertMatch(memory.text, /^memory\s+16 GiB\s+10 GiB\s+6 GiB$/m);
  assertMatch(memory.text, /^swap\s+2 GiB\s+1 GiB\s+1023\.5 MiB$/m);

  const battery = await ask({ topic: "battery" });
  assertMatch(battery.text, /^InternalBattery-0\s+87%\s+discharging, 5:12 remaining$/m);

  const os = await ask({ topic: "os" });
  assertMatch(os.text, /^system\s+macOS 15\.1 \(24B83\)$/m);
  assertMatch(os.text, /^processor\s+Apple M2 Pro, 12 cores$/m);
  assertMatch(os.text, /^kernel\s+Darwin /m);

  const network = await ask({ topic: "network" });
  assertEquals(network.text.split("\n")[0], "default route via 192.168.1.1 on en0 (*)");
  assertMatch(network.text, /^en0 \*\s+IPv4\s+192\.168\.1\.23\/24\s+a4:83:e7:12:34:56$/m);
  assertMatch(network.text, /^lo0\s+IPv4\s+127\.0\.0\.1\/8$/m);

  const processes = await ask({ topic: "processes", sort: "memory" });
  assertEquals(processes.ok, false);
  assertMatch(
    processes.text,
    /^error: on macOS the busiest processes need libproc .* ask for topic process with a name/,
  );

  const node = await ask({ topic: "process", name: "NODE" });
  assert(node.ok, node.text);
  assertEquals(node.text.split("\n")[0], "2 processes matching 'NODE'");
  assertMatch(node.text, /^4711\s+4690\s+node$/m);
  assertMatch(node.text, /^4712\s+4711\s+node$/m);
  assertStringIncludes(node.text, "need libproc");
  assertEquals(
    (await ask({ topic: "process", name: "chrome" })).text.split("\n")[0],
    "2 processes matching 'chrome'",
  );
  assertEquals(
    (await ask({ topic: "process", name: "lsof" })).text,
    "no process matches 'lsof'",
    "the reader is not an answer",
  );

  const dir = await Deno.makeTempDir();
  try {
    Deno.writeFileSync(`${dir}/blob`, new Uint8Array(2048));
    const folder = await ask({ topic: "folder", path: dir });
    assertMatch(folder.text, /^2 KiB\s+blob$/m);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }

  // Every topic answered from the fixed argvs, and each of them was used.
  for (const argv of calls) assert(MAC_ANSWERS.has(JSON.stringify(argv)), JSON.stringify(argv));
  assertEquals(new Set(calls.map((argv) => JSON.stringify(argv))).size, MAC_ANSWERS.size);
});

Deno.test("darwin: a desktop without battery, a runner that fails, an unknown platform", async () => {
  const desktop = fakeRunner(new Map([[JSON.stringify(BATTERY_ARGV), "pmset_batt_desktop.txt"]]));
  assertEquals(
    (await systemInfoReport({ topic: "battery" }, "/", {
      os: "darwin",
      darwin: { run: desktop.run },
    })).text,
    "no battery: this machine runs on mains power",
  );
  const failing = (_argv: string[]) =>
    Promise.reject(new Error("sandbox-exec exited with code 71"));
  const report = await systemInfoReport({ topic: "memory" }, "/", {
    os: "darwin",
    darwin: { run: failing },
  });
  assertEquals(report.ok, false);
  assertEquals(
    report.text,
    "error: cannot run vm_stat (sandbox-exec exited with code 71); wisp doctor checks the launcher",
  );
  const nonsense = fakeRunner(
    new Map([[JSON.stringify(VM_STAT_ARGV), "route_default.txt"], [
      JSON.stringify(MEMORY_SYSCTL_ARGV),
      "sw_vers.txt",
    ]]),
  );
  assertStringIncludes(
    (await systemInfoReport({ topic: "memory" }, "/", {
      os: "darwin",
      darwin: { run: nonsense.run },
    })).text,
    "error: could not make sense of vm_stat",
  );
  const windows = await systemInfoReport({ topic: "os" }, "/", { os: "windows" });
  assertEquals(windows.ok, false);
  assertStringIncludes(windows.text, "system_info knows Linux and macOS, not windows");
});

Deno.test("the real runner goes through the launcher's host view and fails on a bad exit", async () => {
  assertEquals(await hostViewRunner(["/bin/echo", "read-only", "view"]), "read-only view\n");
  const error = await hostViewRunner(["/bin/sh", "-c", "exit 3"]).then(
    () => undefined,
    (e: Error) => e,
  );
  assertStringIncludes(String(error?.message), "sh exited with code 3");
});

const REAL_LSOF = ["/usr/bin/lsof", "/usr/sbin/lsof", "/bin/lsof"].find((p) => {
  try {
    return Deno.statSync(p).isFile;
  } catch {
    return false;
  }
});

/** Runs the darwin argv with this machine's lsof (its field output is the same on every dialect). */
async function realLsof(argv: string[]): Promise<string> {
  assertEquals(argv[0], LSOF);
  const out = await new Deno.Command(REAL_LSOF!, {
    args: argv.slice(1),
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  assert(out.code === 0 || out.code === 1, `lsof exited with ${out.code}`);
  return new TextDecoder().decode(out.stdout);
}

// Skipped only where the machine has no lsof at all (a minimal CI image).
Deno.test({
  name: "the lsof argvs on a real lsof: a real listener and a real child process are found",
  ignore: REAL_LSOF === undefined,
  async fn() {
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => new Response("x"),
    );
    const child = new Deno.Command("sleep", { args: ["8.5"], stdin: "null" }).spawn();
    try {
      const options = { os: "darwin", darwin: { run: realLsof } };
      const port = await systemInfoReport({ topic: "port", port: server.addr.port }, "/", options);
      assert(port.ok, port.text);
      assertEquals(port.text.split("\n")[0], `port ${server.addr.port}: 1 listening socket`);
      assertMatch(
        port.text,
        new RegExp(
          `^tcp\\s+127\\.0\\.0\\.1:${server.addr.port}\\s+LISTEN\\s+${Deno.pid} deno$`,
          "m",
        ),
      );
      const sleep = await systemInfoReport({ topic: "process", name: "sleep" }, "/", options);
      assertMatch(sleep.text, new RegExp(`^${child.pid}\\s+${Deno.pid}\\s+sleep$`, "m"));
    } finally {
      child.kill();
      await child.status;
      await server.shutdown();
    }
  },
});

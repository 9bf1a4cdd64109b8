import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import {
  decodeAddress,
  parseMeminfo,
  parseNetTable,
  parseProcStat,
} from "../../src/tools/system_info/procfs.ts";
import {
  parseHeadOutput,
  parseSocketLinks,
  snapshotScript,
} from "../../src/tools/system_info/source.ts";
import { DENO_CONFIG } from "../support/wisp.ts";
import { GENEROUS_MS, waitUntil, within } from "../support/wait.ts";
import { systemInfoReport, systemInfoTool } from "../../src/tools/system_info.ts";
import { builtinRegistry } from "../../src/tools/builtins.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { homePaths } from "../../src/config/home.ts";
import { AuditLog } from "../../src/audit/writer.ts";

const TCP =
  `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000000000000 100 0 0 10 0
   1: 0100007F:9C40 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 4343 1 0000000000000000 20 4 30 10 -1
`;
const TCP6 =
  `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:0050 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777 1 0000000000000000 100 0 0 10 0
   1: 0000000000000000FFFF00000100007F:0051 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 778 1 0000000000000000 100 0 0 10 0
`;

Deno.test("parsers: /proc/net tables, addresses in both families", () => {
  const v4 = parseNetTable(TCP, "tcp");
  assertEquals(v4[0], {
    proto: "tcp",
    localAddress: "127.0.0.1",
    localPort: 8080,
    remoteAddress: "0.0.0.0",
    remotePort: 0,
    state: "LISTEN",
    uid: 1000,
    inode: 4242,
  });
  assertEquals(v4[1].state, "ESTABLISHED");
  assertEquals(v4[1].remotePort, 8080);
  const v6 = parseNetTable(TCP6, "tcp6");
  assertEquals(v6[0].localAddress, "::1");
  assertEquals(v6[0].localPort, 80);
  assertEquals(v6[1].localAddress, "::ffff:127.0.0.1");
  assertEquals(decodeAddress("00000000"), "0.0.0.0");
});

Deno.test("parsers: a command name with spaces and parentheses in /proc/PID/stat", () => {
  const stat =
    "4321 (my (odd) prog) S 1 4321 4321 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 1 0 12345 1000000 512 18446744073709551615";
  const parsed = parseProcStat(stat)!;
  assertEquals(parsed.pid, 4321);
  assertEquals(parsed.comm, "my (odd) prog");
  assertEquals(parsed.state, "S");
  assertEquals(parsed.ppid, 1);
  assertEquals(parsed.cpuTicks, 300);
  assertEquals(parsed.startTicks, 12345);
  assertEquals(parsed.rssPages, 512);
  assertEquals(
    parseMeminfo("MemTotal:       16000 kB\nMemAvailable:    8000 kB\nHugePages_Total:       0\n"),
    {
      MemTotal: 16000 * 1024,
      MemAvailable: 8000 * 1024,
      HugePages_Total: 0,
    },
  );
});

Deno.test("port: names the process listening on a real port", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("x"),
  );
  try {
    const report = await systemInfoReport({ topic: "port", port: server.addr.port }, "/");
    assert(report.ok);
    assertStringIncludes(report.text, `127.0.0.1:${server.addr.port}`);
    assertStringIncludes(report.text, "LISTEN");
    assertStringIncludes(report.text, `${Deno.pid} deno`);
  } finally {
    await server.shutdown();
  }
  const free = await systemInfoReport({ topic: "port", port: 1 }, "/");
  assertEquals(free.text, "nothing is listening on or connected to port 1");
});

Deno.test("folder: sizes a folder's entries, largest first, bounded", async () => {
  const dir = await Deno.makeTempDir();
  Deno.mkdirSync(`${dir}/big/deeper`, { recursive: true });
  Deno.writeFileSync(`${dir}/big/deeper/blob`, new Uint8Array(300_000));
  Deno.writeFileSync(`${dir}/small.txt`, new Uint8Array(10));
  Deno.symlinkSync("/usr", `${dir}/link-not-followed`);
  const report = await systemInfoReport({ topic: "folder", path: dir }, "/");
  assert(report.ok);
  const lines = report.text.split("\n");
  assertMatch(lines[2], /^293 KiB\s+big\/$/);
  assertMatch(lines[3], /^10 bytes\s+small\.txt$/);
  assertEquals(report.text.includes("link-not-followed"), false);
  const relative = await systemInfoReport({ topic: "folder", path: "big" }, dir);
  assertStringIncludes(relative.text, `${dir}/big: 293 KiB`);
});

Deno.test("process and processes find a real child process", async () => {
  const child = new Deno.Command("sleep", { args: ["7.25"], stdin: "null" }).spawn();
  try {
    // The table is read in a moment through the native library: wait until the child has
    // become sleep and is asleep, or it may still be starting (state R).
    if (Deno.build.os === "linux") {
      await waitUntil(
        () => Deno.readTextFileSync(`/proc/${child.pid}/stat`).includes("(sleep) S "),
        "the child sleeps",
      );
    }
    // Other tests run sleeps too: look for this one's own command line.
    const report = await systemInfoReport({ topic: "process", name: "sleep 7.25" }, "/");
    assert(report.ok);
    assertMatch(
      report.text,
      new RegExp(`^${child.pid}\\s+${Deno.pid}\\s+S\\s.*sleep 7\\.25$`, "m"),
    );
    const top = await systemInfoReport({ topic: "processes", sort: "memory", limit: 50 }, "/");
    assertStringIncludes(top.text, "busiest processes by memory");
  } finally {
    child.kill();
    await child.status;
  }
});

Deno.test("memory, disk, os, network, battery answer with short tables", async () => {
  for (const topic of ["memory", "disk", "os", "network", "battery"] as const) {
    const report = await systemInfoReport({ topic }, "/");
    assert(report.ok, `${topic}: ${report.text}`);
    assert(report.text.split("\n").length <= 40, `${topic} is not short`);
  }
  assertMatch((await systemInfoReport({ topic: "memory" }, "/")).text, /^memory: \d+% in use/);
  assertStringIncludes((await systemInfoReport({ topic: "os" }, "/")).text, "kernel");
  assertStringIncludes((await systemInfoReport({ topic: "network" }, "/")).text, "127.0.0.1/8");
  assertStringIncludes(
    (await systemInfoReport({ topic: "disk", path: "/" }, "/")).text,
    "the file system holding /",
  );
});

Deno.test("errors say how to call again; called through the registry as the model would", async () => {
  assertEquals(
    (await systemInfoReport({ topic: "port", port: 70000 }, "/")).text,
    "error: topic port needs port, a number from 1 to 65535: call again with it",
  );
  assertStringIncludes(
    (await systemInfoReport({ topic: "folder" }, "/")).text,
    "topic folder needs path",
  );
  assertStringIncludes(
    (await systemInfoReport({ topic: "folder", path: "/etc/hostname" }, "/")).text,
    "is not a folder",
  );
  assertStringIncludes(
    (await systemInfoReport({ topic: "process", name: " " }, "/")).text,
    "topic process needs name",
  );
  const dir = await Deno.makeTempDir();
  const audit = new AuditLog({
    path: `${dir}/audit.jsonl`,
    enabled: true,
    maxBytes: 1 << 20,
    keep: 1,
  });
  const registry = builtinRegistry();
  assert(registry.get("system_info") === systemInfoTool, "system_info is a built-in");
  const ctx = {
    cwd: dir,
    root: dir,
    config: defaultConfig(),
    home: homePaths(dir),
    audit,
    budgetBytes: 4096,
    session: audit.session,
  };
  const bad = await registry.call("system_info", { topic: "weather" }, ctx);
  assertEquals(bad.ok, false);
  assertStringIncludes(bad.text, "topic must be one of port, disk");
  const good = await registry.call("system_info", '{"topic":"memory"}', ctx);
  assert(good.ok);
  assertMatch(good.text, /^memory:/);
});

Deno.test("the launcher's snapshot: head's headers and find's links parse; the script holds only fixed paths", () => {
  const files = parseHeadOutput(
    "==> /proc/1/stat <==\n1 (init) S 0\n\n==> /proc/1/cmdline <==\n/sbin/init\0splash\0\n",
  );
  assertEquals(files.get("/proc/1/stat"), "1 (init) S 0\n");
  assertEquals(files.get("/proc/1/cmdline"), "/sbin/init\0splash\0\n");
  assertEquals(
    [...parseSocketLinks(
      "/proc/42/fd/3 socket:[999]\n/proc/43/fd/7 socket:[999]\n/proc/43/fd/8 pipe:[5]\n",
    )],
    [[999, [42, 43]]],
  );
  const script = snapshotScript({
    paths: ["/proc/net/tcp", "/etc/passwd; rm -rf /", "/proc/$(x)"],
    perProcess: ["stat", "x;y"],
    sockets: true,
  });
  assertStringIncludes(script, "head -v -c 65536 -- /proc/net/tcp /proc/[0-9]*/stat");
  assertEquals(script.includes("passwd") || script.includes("$(") || script.includes("x;y"), false);
});

Deno.test("through the launcher's host view, the same answers as reading /proc directly", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("x"),
  );
  // A duration no other process on the machine runs (another copy of the suite may run beside
  // this one), so that exactly one process matches it.
  const seconds = `9.7${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
  const child = new Deno.Command("sleep", { args: [seconds], stdin: "null" }).spawn();
  try {
    // As above: the child is read once it has become sleep and is asleep.
    if (Deno.build.os === "linux") {
      await waitUntil(
        () => Deno.readTextFileSync(`/proc/${child.pid}/stat`).includes("(sleep) S "),
        "the child sleeps",
      );
    }
    const port = await systemInfoReport({ topic: "port", port: server.addr.port }, "/", {
      viaLauncher: true,
    });
    assertStringIncludes(port.text, `${Deno.pid} deno`);
    const proc = await systemInfoReport({ topic: "process", name: `sleep ${seconds}` }, "/", {
      viaLauncher: true,
    });
    assertMatch(
      proc.text,
      new RegExp(
        `^${child.pid}\\s+${Deno.pid}\\s+S\\s.*sleep ${seconds.replace(".", "\\.")}$`,
        "m",
      ),
    );
    assertEquals(proc.text.startsWith("1 process matching"), true, proc.text);
    for (const topic of ["processes", "disk", "os", "network", "battery"] as const) {
      const report = await systemInfoReport({ topic }, "/", { viaLauncher: true });
      assert(report.ok, `${topic}: ${report.text}`);
    }
  } finally {
    child.kill();
    await child.status;
    await server.shutdown();
  }
});

Deno.test("inside the binary's permission fence, every topic answers (through the launcher)", async () => {
  const probe = new URL("../fixtures/system_info_probe.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P=wisp", "--config", DENO_CONFIG, probe],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  const results = JSON.parse(new TextDecoder().decode(out.stdout)) as Record<
    string,
    { ok: boolean; text: string }
  >;
  for (const [topic, result] of Object.entries(results)) {
    assert(result.ok, `${topic}: ${result.text}`);
  }
  assertStringIncludes(results.port.text, "LISTEN");
  assertStringIncludes(results.port.text, " deno");
  assertMatch(results.memory.text, /^memory: \d+% in use/);
});

Deno.test("a fixed read through the launcher is bounded: past the cap it is cut and stopped", async () => {
  const { runLaunched, hostViewLaunch } = await import("../../src/platform/host_view.ts");
  // yes never ends, and its time limit is far beyond the deadline: only the
  // cap can stop it in time.
  const result = await within(
    runLaunched(hostViewLaunch(["/usr/bin/yes"]), 10 * GENEROUS_MS, 1024 * 1024),
    "the stop at the cap",
  );
  assertEquals(result.cut, true);
  assertEquals(result.ok, false);
  assertEquals(result.stdout.length, 1024 * 1024);
});

/**
 * libwisp's Linux build through the bindings: the process table, one
 * process's details and the listening ports agree with /proc and with
 * processes and sockets the test starts; killpg signals a real group; the
 * model functions say Linux has none; and the library loads under wisp's
 * own permission set.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { nativeLibraries } from "../support/native.ts";
import { DENO_CONFIG, PROJECT_ROOT } from "../support/wisp.ts";
import { fileExists, nativeFinding } from "../../src/doctor/native.ts";
import { loadAbiVersion } from "../../src/platform/libc.ts";
import { waitUntil } from "../support/wait.ts";
import {
  killGroup,
  type Libwisp,
  listeningPorts,
  openLibwisp,
  processDetails,
  processTable,
} from "../../src/ffi/libwisp.ts";
import { modelAvailability, NativeSession } from "../../src/ffi/model.ts";
import { LibwispError } from "../../src/ffi/libwisp.ts";

const linux = Deno.build.os === "linux";

async function library(): Promise<Libwisp> {
  return openLibwisp((await nativeLibraries()).libwisp);
}

function procPids(): Set<number> {
  const pids = new Set<number>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (/^\d+$/.test(entry.name)) pids.add(Number(entry.name));
  }
  return pids;
}

Deno.test({
  name: "the process table lists every process /proc lists, with this one's parent and owner",
  ignore: !linux,
  async fn() {
    const lib = await library();
    const before = procPids();
    const table = processTable(lib);
    const after = procPids();
    const listed = new Set(table.map((p) => p.pid));
    // A process in /proc both before and after the call was there while it read.
    const missing = [...before].filter((pid) => after.has(pid) && !listed.has(pid));
    assertEquals(missing, []);
    const self = table.find((p) => p.pid === Deno.pid);
    assert(self, "this process is not listed");
    const stat = Deno.readTextFileSync("/proc/self/stat");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    assertEquals(self.ppid, ppid);
    assertEquals(self.uid, Deno.uid());
    assert(/^[RSD]$/.test(self.state), `state ${self.state}`);
    assert(self.rssBytes > 1024 * 1024, `rss ${self.rssBytes}`);
    const age = Date.now() / 1000 - self.startTime;
    assert(age >= -2 && age < 24 * 3600, `started ${age} s ago`);
  },
});

Deno.test({
  name: "one process's details: its executable, working folder and arguments as /proc has them",
  ignore: !linux,
  async fn() {
    const lib = await library();
    const dir = Deno.makeTempDirSync();
    // A shell that stays (the `; :` keeps it from exec'ing sleep), with an argument holding a space.
    const child = new Deno.Command("sh", {
      args: ["-c", "sleep 31.5; :", "one two"],
      cwd: dir,
      stdin: "null",
    }).spawn();
    try {
      // Until the child has become the shell, /proc shows the fork that starts it.
      await waitUntil(
        () => Deno.readTextFileSync(`/proc/${child.pid}/cmdline`).includes("one two"),
        "the child runs the shell",
      );
      const details = processDetails(lib, child.pid);
      assert(details);
      assertEquals(details.pid, child.pid);
      assertEquals(details.ppid, Deno.pid);
      const cmdline = Deno.readTextFileSync(`/proc/${child.pid}/cmdline`).split("\0");
      assertEquals(details.args, cmdline.slice(0, -1));
      assertEquals(details.args?.slice(1), ["-c", "sleep 31.5; :", "one two"]);
      assertEquals(details.cwd, Deno.realPathSync(dir));
      assertEquals(details.path, Deno.readLinkSync(`/proc/${child.pid}/exe`));
      assertEquals(details.name, Deno.readTextFileSync(`/proc/${child.pid}/comm`).trim());
    } finally {
      child.kill();
      await child.status;
      Deno.removeSync(dir);
    }
    assertEquals(processDetails(lib, 0), undefined);
    assertEquals(processDetails(lib, 2 ** 31 - 1), undefined);
  },
});

Deno.test({
  name: "the listening ports hold a listener this test opened, with this process",
  ignore: !linux,
  async fn() {
    const lib = await library();
    const tcp = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const ports = listeningPorts(lib);
      const tcpPort = (tcp.addr as Deno.NetAddr).port;
      const tcpRow = ports.find((l) => l.proto === "tcp" && l.port === tcpPort);
      assertEquals(tcpRow?.address, "127.0.0.1");
      assert(tcpRow?.pids.includes(Deno.pid), JSON.stringify(tcpRow));
    } finally {
      tcp.close();
    }
    const closed = listeningPorts(lib);
    assertEquals(
      closed.some((l) => l.port === (tcp.addr as Deno.NetAddr).port && l.proto === "tcp"),
      false,
    );
  },
});

Deno.test({
  name: "killpg signals a whole process group and refuses group 0 and init's",
  ignore: !linux,
  async fn() {
    const lib = await library();
    // setsid makes the shell lead a group of its own; its sleep is in the group too.
    const child = new Deno.Command("setsid", {
      args: ["sh", "-c", "sleep 40 & wait"],
      stdin: "null",
    }).spawn();
    try {
      // Until setsid has run, the group does not exist yet.
      await waitUntil(() => {
        const stat = Deno.readTextFileSync(`/proc/${child.pid}/stat`);
        const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
        return pgrp === child.pid &&
          Deno.readTextFileSync(`/proc/${child.pid}/cmdline`).startsWith("sh");
      }, "the child leads a group of its own");
      assertEquals(killGroup(lib, child.pid, 15), 0);
      const status = await child.status;
      assertEquals(status.signal, "SIGTERM");
    } finally {
      try {
        child.kill();
      } catch { /* ended */ }
    }
    assertEquals(killGroup(lib, 0, 0), 22); // EINVAL
    assertEquals(killGroup(lib, 1, 0), 22);
    assertEquals(killGroup(lib, 2 ** 31 - 1, 0), 3); // ESRCH
  },
});

Deno.test({
  name: "the shipped Linux library says there is no on-device model",
  ignore: !linux,
  async fn() {
    const lib = await library();
    assertEquals(modelAvailability(lib), {
      available: false,
      reason: "unavailable: no on-device model on Linux",
    });
    let error: unknown;
    try {
      NativeSession.open(lib, "", []);
    } catch (e) {
      error = e;
    }
    assert(error instanceof LibwispError);
    assertEquals(error.code, "unavailable");
  },
});

Deno.test({
  name:
    "under wisp's permission set libwisp loads from the build folder and system_info reads through it",
  ignore: !linux,
  async fn() {
    await nativeLibraries();
    const probe = new URL("../fixtures/libwisp_probe.ts", import.meta.url).pathname;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-q", "-P=wisp", "--config", DENO_CONFIG, probe],
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
      env: { WISP_LIBWISP: "" },
    }).output();
    assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
    const result = JSON.parse(new TextDecoder().decode(out.stdout));
    assertStringIncludes(result.path, "/ffi/build/libwisp.so");
    assert(result.listed > 1);
    assertEquals(result.selfListed, true);
    assertStringIncludes(result.processes, "busiest processes by cpu");
    assertEquals(result.portFound, true, result.port);
    // The test build is not in the permission set, and a callback needs unscoped FFI.
    assertEquals(result.testModel, "NotCapable");
    assertEquals(result.callback, "NotCapable");
  },
});

Deno.test({
  name: "doctor finds the library the source build made and reads its ABI version",
  ignore: !linux,
  async fn() {
    const { libwisp } = await nativeLibraries();
    const finding = nativeFinding({
      os: "linux",
      env: () => undefined,
      sourceRoot: PROJECT_ROOT,
      exists: fileExists,
      abiVersion: loadAbiVersion,
    });
    assertEquals(finding, {
      ok: true,
      name: "native library",
      detail: `${libwisp} (the source build) loads; ABI version 1`,
    });
  },
});

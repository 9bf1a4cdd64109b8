/**
 * The C library binding and what is decoded from it: the symbol list holds
 * nothing that starts, signals or replaces a process; no other module loads
 * a native library; the macOS layouts (sockaddr_un, proc_bsdinfo,
 * KERN_PROCARGS2) are decoded from bytes laid out as macOS lays them out;
 * and on this machine the socket names its real peer.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { PROJECT_ROOT } from "../support/wisp.ts";
import { DARWIN_SYMBOLS, LINUX_SYMBOLS } from "../../src/platform/libc.ts";
import {
  connectLocal,
  parsePeer,
  PeerListener,
  sockaddrUn,
} from "../../src/platform/peer_socket.ts";
import {
  DARWIN_BSDINFO,
  darwinBsdInfoEnded,
  linuxStatEnded,
  parseDarwinBsdInfo,
  parseDarwinProcArgs,
  parseDirents,
  processFacts,
  socketOwners,
} from "../../src/platform/process_table.ts";

Deno.test("the binding declares no call that starts, signals or replaces a process", () => {
  const names = [...Object.keys(LINUX_SYMBOLS), ...Object.keys(DARWIN_SYMBOLS)];
  for (const name of names) {
    assert(
      !/exec|spawn|fork|system|popen|kill|ptrace|dlopen|dlsym|mmap|mprotect|setuid|chmod|unlink|write$/
        .test(name),
      name,
    );
  }
});

Deno.test("no module but src/platform/libc.ts and src/ffi/libwisp.ts loads a native library", () => {
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path);
      else if (
        entry.name.endsWith(".ts") && /Deno\.dlopen\s*\(/.test(Deno.readTextFileSync(path))
      ) {
        offenders.push(path.slice(PROJECT_ROOT.length));
      }
    }
  };
  walk(join(PROJECT_ROOT, "src"));
  assertEquals(offenders.sort(), ["src/ffi/libwisp.ts", "src/platform/libc.ts"]);
});

Deno.test("sockaddr_un as Linux and macOS lay it out; a path too long is refused", () => {
  const linux = sockaddrUn("/a/b", "linux");
  assertEquals([...linux.subarray(0, 7)], [1, 0, 0x2f, 0x61, 0x2f, 0x62, 0]);
  assertEquals(linux.length, 110);
  const darwin = sockaddrUn("/a/b", "darwin");
  assertEquals([...darwin.subarray(0, 7)], [106, 1, 0x2f, 0x61, 0x2f, 0x62, 0]);
  let threw = false;
  try {
    sockaddrUn("/" + "x".repeat(110), "linux");
  } catch {
    threw = true;
  }
  assert(threw);
});

Deno.test("peer credentials: Linux ucred and macOS LOCAL_PEERPID + xucred", () => {
  const ucred = new Uint8Array(12);
  new DataView(ucred.buffer).setInt32(0, 4321, true);
  new DataView(ucred.buffer).setUint32(4, 501, true);
  assertEquals(parsePeer("linux", ucred, ucred), { pid: 4321, uid: 501 });
  const pid = new Uint8Array(4);
  new DataView(pid.buffer).setInt32(0, 777, true);
  const xucred = new Uint8Array(76);
  new DataView(xucred.buffer).setUint32(0, 0, true); // XUCRED_VERSION
  new DataView(xucred.buffer).setUint32(4, 502, true);
  assertEquals(parsePeer("darwin", pid, xucred), { pid: 777, uid: 502 });
});

Deno.test("macOS proc_bsdinfo: parent, controlling terminal (NODEV is none), start time", () => {
  const bytes = new Uint8Array(DARWIN_BSDINFO.size);
  const view = new DataView(bytes.buffer);
  view.setUint32(12, 900, true); // pbi_pid
  view.setUint32(DARWIN_BSDINFO.ppid, 812, true);
  view.setUint32(DARWIN_BSDINFO.tdev, 0x10000003, true); // ttys003
  view.setBigUint64(DARWIN_BSDINFO.startSec, 1764620000n, true);
  view.setBigUint64(DARWIN_BSDINFO.startUsec, 42n, true);
  assertEquals(parseDarwinBsdInfo(bytes), {
    ppid: 812,
    controllingTerminal: true,
    start: "1764620000.000042",
  });
  view.setUint32(DARWIN_BSDINFO.tdev, 0xffffffff, true);
  assertEquals(parseDarwinBsdInfo(bytes)?.controllingTerminal, false);
  assertEquals(parseDarwinBsdInfo(bytes.subarray(0, 100)), undefined);
});

Deno.test("macOS KERN_PROCARGS2: argc, the exec path and its padding, then argv", () => {
  const enc = new TextEncoder();
  const parts = [
    new Uint8Array([4, 0, 0, 0]),
    enc.encode("/usr/local/bin/wisp\0\0\0\0"),
    enc.encode("wisp\0approvals\0approve\0a1b2c3d4\0"),
    enc.encode("HOME=/Users/me\0"),
  ];
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  assertEquals(parseDarwinProcArgs(bytes), ["wisp", "approvals", "approve", "a1b2c3d4"]);
  assertEquals(parseDarwinProcArgs(bytes.subarray(0, 30)), undefined, "cut short");
});

Deno.test("on this machine: the socket names the connecting process, and the facts are real", async () => {
  if (Deno.build.os !== "linux" && Deno.build.os !== "darwin") return;
  const dir = await Deno.makeTempDir({ prefix: "wisp-sock-" });
  try {
    const listener = PeerListener.open(join(dir, "a.sock"));
    assertEquals(Deno.statSync(join(dir, "a.sock")).mode! & 0o777, 0o600);
    const client = connectLocal(join(dir, "a.sock"));
    assert(client);
    client.writeLine("hello");
    const conn = listener.accept();
    assert(conn);
    assertEquals(conn.peer.pid, Deno.pid);
    assertEquals(conn.peer.uid, Deno.uid());
    assertEquals(conn.readLine(), "hello");
    conn.writeLine("back");
    assertEquals(client.readLine(), "back");
    assertEquals(conn.peerGone(), false);
    client.close();
    assertEquals(conn.peerGone(), true);
    conn.close();
    listener.close();
    assertEquals(connectLocal(join(dir, "a.sock")), undefined, "nobody listens any more");
    const own = processFacts(Deno.pid);
    assert(own?.alive && own.ppid !== undefined && own.ppid > 0);
    assertEquals(own.exe, Deno.realPathSync(Deno.execPath()));
    assertEquals(processFacts(2 ** 22 + 12345)?.alive, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a process that ended but was not reaped yet (a zombie) is not alive", async () => {
  assertEquals(linuxStatEnded("4242 (sh) Z 1 4242 4242 0 -1 4194564 0 0"), true);
  assertEquals(linuxStatEnded("4242 (a) Z) S 1 4242 4242 0 -1 4194564 0 0"), false);
  assertEquals(linuxStatEnded("4242 (sh) S 1 4242 4242 0 -1 4194564 0 0"), false);
  const bsd = new Uint8Array(DARWIN_BSDINFO.size);
  assertEquals(darwinBsdInfoEnded(bsd), false);
  new DataView(bsd.buffer).setUint32(DARWIN_BSDINFO.status, 5, true); // SZOMB
  assertEquals(darwinBsdInfoEnded(bsd), true);
  if (Deno.build.os !== "linux") return;
  // The background sleep's parent execs into a sleep that never reaps it.
  const parent = new Deno.Command("sh", {
    args: ["-c", "sleep 0.1 & echo $!; exec sleep 60"],
    stdout: "piped",
    stdin: "null",
  }).spawn();
  const reader = parent.stdout.getReader();
  try {
    const { value } = await reader.read();
    const pid = Number(new TextDecoder().decode(value).trim());
    assert(pid > 0);
    const state = () => {
      try {
        return Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1]?.[0];
      } catch {
        return undefined;
      }
    };
    for (let i = 0; i < 600 && state() !== "Z"; i++) await new Promise((r) => setTimeout(r, 50));
    assertEquals(state(), "Z", "the child became a zombie");
    assertEquals(processFacts(pid)?.alive, false);
    assertEquals(processFacts(parent.pid)?.alive, true);
  } finally {
    reader.releaseLock();
    parent.kill("SIGKILL");
    await parent.status;
    await parent.stdout.cancel();
  }
});

Deno.test("getdents64 records: names by their record lengths, a truncated record ends the list", () => {
  const record = (name: string) => {
    const bytes = new TextEncoder().encode(name);
    const length = Math.ceil((19 + bytes.length + 1) / 8) * 8;
    const out = new Uint8Array(length);
    const view = new DataView(out.buffer);
    view.setBigUint64(0, 42n, true); // d_ino
    view.setUint16(16, length, true); // d_reclen
    out[18] = 4; // d_type: a folder
    out.set(bytes, 19);
    return out;
  };
  const parts = [record("."), record(".."), record("1234"), record("a-longer-name.txt")];
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  assertEquals(parseDirents(all), [".", "..", "1234", "a-longer-name.txt"]);
  assertEquals(parseDirents(all.subarray(0, all.length - 3)), [".", "..", "1234"]);
});

Deno.test("socket owners read through the C library name this process's listening socket", () => {
  if (Deno.build.os !== "linux") return;
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const port = (listener.addr as Deno.NetAddr).port;
    const hex = port.toString(16).toUpperCase().padStart(4, "0");
    const row = Deno.readTextFileSync("/proc/net/tcp").split("\n")
      .find((line) => line.trim().split(/\s+/)[1] === `0100007F:${hex}`);
    assert(row, "the listener's row in /proc/net/tcp");
    const inode = Number(row.trim().split(/\s+/)[9]);
    const owners = socketOwners();
    assert(owners, "getdents64 is there on this machine");
    assertEquals(owners.get(inode), [Deno.pid]);
  } finally {
    listener.close();
  }
});

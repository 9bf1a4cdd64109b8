/**
 * A local (Unix domain) stream socket that learns from the kernel which
 * process connected: SO_PEERCRED on Linux, LOCAL_PEERPID and LOCAL_PEERCRED
 * on macOS. Deno's own unix listener has no call for peer credentials and no
 * way to reach its descriptor, so the listening side is made with the C
 * library (libc.ts, ADR 0270). The connecting side uses it too (`connectLocal`): Deno's
 * `Deno.connect({ transport: "unix" })` would need a net permission for the path.
 *
 * Nothing here blocks the event loop: the owner calls `accept()` and
 * `readLine()` when it polls (poll(2) with a zero timeout first), and a reply
 * is one short line, which a local socket's buffer always takes.
 */
import { type Libc, libc } from "./libc.ts";
import { hostOs } from "./os.ts";

interface Constants {
  solSocket: number;
  /** Level and option that give the peer's pid (and, on Linux, its uid). */
  peerLevel: number;
  peerPidOption: number;
  peerCredOption: number;
  peerCredSize: number;
  sendFlags: number;
  noSigPipe?: number;
  maxPath: number;
}

/** The numbers each platform's headers give (sys/socket.h, sys/un.h). */
const SOCKET_CONSTANTS: Record<string, Constants> = {
  linux: {
    solSocket: 1,
    peerLevel: 1, // SOL_SOCKET
    peerPidOption: 17, // SO_PEERCRED: struct ucred { pid, uid, gid }
    peerCredOption: 17,
    peerCredSize: 12,
    sendFlags: 0x4000, // MSG_NOSIGNAL
    maxPath: 107,
  },
  darwin: {
    solSocket: 0xffff,
    peerLevel: 0, // SOL_LOCAL
    peerPidOption: 2, // LOCAL_PEERPID: int
    peerCredOption: 1, // LOCAL_PEERCRED: struct xucred { version, uid, ngroups, groups[16] }
    peerCredSize: 76,
    sendFlags: 0,
    noSigPipe: 0x1022, // SO_NOSIGPIPE
    maxPath: 103,
  },
};

const POLLIN = 0x1;
const POLLERR = 0x8;
const POLLHUP = 0x10;

/** struct sockaddr_un for `path`, as each platform lays it out (pure). */
export function sockaddrUn(path: string, os: string): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(path);
  const c = SOCKET_CONSTANTS[os];
  if (!c) throw new Error(`local sockets with peer credentials are not supported on ${os}`);
  if (bytes.length > c.maxPath) {
    throw new Error(`the socket path is longer than ${c.maxPath} bytes: ${path}`);
  }
  if (os === "darwin") {
    const out = new Uint8Array(2 + 104);
    out[0] = out.length; // sun_len
    out[1] = 1; // AF_UNIX
    out.set(bytes, 2);
    return out;
  }
  const out = new Uint8Array(2 + 108);
  out[0] = 1; // sa_family_t AF_UNIX, little-endian
  out.set(bytes, 2);
  return out;
}

/** Decode what getsockopt gave for the peer (pure): Linux ucred, or macOS pid + xucred. */
export function parsePeer(
  os: string,
  pidBytes: Uint8Array,
  credBytes: Uint8Array,
): { pid: number; uid: number } {
  const pid = new DataView(pidBytes.buffer, pidBytes.byteOffset, 4).getInt32(0, true);
  const credView = new DataView(credBytes.buffer, credBytes.byteOffset, credBytes.byteLength);
  // Linux: ucred.uid at 4. macOS: xucred.cr_uid at 4 (after cr_version).
  const uid = credView.getUint32(4, true);
  return { pid, uid: os === "linux" || os === "darwin" ? uid : -1 };
}

function pollOne(c: Libc, fd: number): number {
  const pfd = new Uint8Array(8);
  const view = new DataView(pfd.buffer);
  view.setInt32(0, fd, true);
  view.setInt16(4, POLLIN, true);
  const n = c.poll(pfd, 1n, 0);
  return n > 0 ? view.getInt16(6, true) : 0;
}

/** One accepted connection, with the peer the kernel named when it connected. */
export class PeerConnection {
  #buffer = new Uint8Array(0);
  #closed = false;

  constructor(
    private readonly c: Libc,
    private readonly os: string,
    readonly fd: number,
    /** The connecting process, as the kernel recorded it at connect(). */
    readonly peer: { pid: number; uid: number },
  ) {}

  /** The first line the peer sent, once it has all arrived; undefined until then. */
  readLine(maxBytes = 64 * 1024): string | undefined {
    for (;;) {
      const newline = this.#buffer.indexOf(0x0a);
      if (newline >= 0) return new TextDecoder().decode(this.#buffer.subarray(0, newline));
      if (this.#closed || this.#buffer.length > maxBytes) return undefined;
      const events = pollOne(this.c, this.fd);
      if (!(events & POLLIN)) {
        if (events & (POLLHUP | POLLERR)) this.#closed = true;
        return undefined;
      }
      const chunk = new Uint8Array(4096);
      const n = Number(this.c.recv(this.fd, chunk, BigInt(chunk.length), 0));
      if (n <= 0) {
        this.#closed = true;
        return undefined;
      }
      const next = new Uint8Array(this.#buffer.length + n);
      next.set(this.#buffer);
      next.set(chunk.subarray(0, n), this.#buffer.length);
      this.#buffer = next;
    }
  }

  /** Whether the peer has hung up (so its pid may no longer be the process that connected). */
  peerGone(): boolean {
    if (this.#closed) return true;
    const events = pollOne(this.c, this.fd);
    if (events & (POLLHUP | POLLERR)) return true;
    if (events & POLLIN) {
      // Data after the line, or end of file: look without taking it.
      const peek = new Uint8Array(1);
      const n = Number(this.c.recv(this.fd, peek, 1n, 2 /* MSG_PEEK */));
      return n <= 0;
    }
    return false;
  }

  /** Send one line (best effort: a peer that left loses it). */
  writeLine(text: string): void {
    if (this.fd < 0) return;
    const bytes = new TextEncoder().encode(text.endsWith("\n") ? text : text + "\n");
    this.c.send(this.fd, bytes, BigInt(bytes.length), SOCKET_CONSTANTS[this.os].sendFlags);
  }

  close(): void {
    if (this.fd >= 0) this.c.close(this.fd);
    (this as { fd: number }).fd = -1;
  }
}

/**
 * Connect to a listening socket at `path`; undefined when nobody listens
 * there (the file is gone, or its server stopped). Throws with a sentence
 * when the socket exists but may not be reached (its mode or folder).
 */
export function connectLocal(path: string): PeerConnection | undefined {
  const loaded = libc();
  const os = hostOs();
  if (!loaded || !SOCKET_CONSTANTS[os]) {
    throw new Error(
      "the C library could not be loaded (wisp needs the ffi permission for local sockets)",
    );
  }
  const c = loaded.symbols;
  const address = sockaddrUn(path, os);
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new Error(`${path} cannot be reached (${describe(error)})`);
  }
  if (!info.isSocket) throw new Error(`${path} is not a socket`);
  const fd = c.socket(1, /* AF_UNIX */ 1, /* SOCK_STREAM */ 0);
  if (fd < 0) throw new Error("the system refused a local socket");
  if (c.connect(fd, address, address.length) !== 0) {
    c.close(fd);
    return undefined;
  }
  const k = SOCKET_CONSTANTS[os];
  if (k.noSigPipe !== undefined) {
    const one = new Int32Array([1]);
    c.setsockopt(fd, k.solSocket, k.noSigPipe, new Uint8Array(one.buffer), 4);
  }
  return new PeerConnection(c, os, fd, { pid: 0, uid: -1 });
}

function describe(error: unknown): string {
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  return (error as Error).message;
}

/** A listening socket at a path (mode 0600) that names each connecting process. */
export class PeerListener {
  private constructor(
    private readonly c: Libc,
    private readonly os: string,
    private fd: number,
    readonly path: string,
  ) {}

  /** Listen at `path` (replacing a stale socket there); throws with a sentence when it cannot. */
  static open(path: string): PeerListener {
    const loaded = libc();
    const os = hostOs();
    if (!loaded || !SOCKET_CONSTANTS[os]) {
      throw new Error(
        "the C library could not be loaded (wisp needs the ffi permission for local sockets)",
      );
    }
    const c = loaded.symbols;
    const address = sockaddrUn(path, os);
    try {
      Deno.removeSync(path);
    } catch { /* none there */ }
    const fd = c.socket(1, /* AF_UNIX */ 1, /* SOCK_STREAM */ 0);
    if (fd < 0) throw new Error("the system refused a local socket");
    if (c.bind(fd, address, address.length) !== 0 || c.listen(fd, 8) !== 0) {
      c.close(fd);
      throw new Error(`could not listen at ${path}`);
    }
    try {
      Deno.chmodSync(path, 0o600);
    } catch { /* the folder is 0700 already */ }
    return new PeerListener(c, os, fd, path);
  }

  /** A connection waiting to be accepted, with its peer; undefined when none waits. */
  accept(): PeerConnection | undefined {
    if (this.fd < 0 || !(pollOne(this.c, this.fd) & POLLIN)) return undefined;
    const fd = this.c.accept(this.fd, null, null);
    if (fd < 0) return undefined;
    const k = SOCKET_CONSTANTS[this.os];
    const pidBytes = new Uint8Array(this.os === "linux" ? k.peerCredSize : 4);
    const credBytes = new Uint8Array(k.peerCredSize);
    const pidLen = new Uint32Array([pidBytes.length]);
    const credLen = new Uint32Array([credBytes.length]);
    const pidOk = this.c.getsockopt(
      fd,
      k.peerLevel,
      k.peerPidOption,
      pidBytes,
      new Uint8Array(pidLen.buffer),
    ) === 0;
    const credOk = this.c.getsockopt(
      fd,
      k.peerLevel,
      k.peerCredOption,
      credBytes,
      new Uint8Array(credLen.buffer),
    ) === 0;
    if (k.noSigPipe !== undefined) {
      const one = new Int32Array([1]);
      this.c.setsockopt(fd, k.solSocket, k.noSigPipe, new Uint8Array(one.buffer), 4);
    }
    // No credentials, no answer: a peer of pid 0 is checked and refused.
    const peer = pidOk && credOk ? parsePeer(this.os, pidBytes, credBytes) : { pid: 0, uid: -1 };
    return new PeerConnection(this.c, this.os, fd, peer);
  }

  /** Stop listening and remove the socket file. */
  close(): void {
    if (this.fd >= 0) this.c.close(this.fd);
    this.fd = -1;
    try {
      Deno.removeSync(this.path);
    } catch { /* gone */ }
  }
}

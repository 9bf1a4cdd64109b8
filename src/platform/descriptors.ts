/**
 * What wisp's own standard descriptors are, asked of the kernel in process
 * (Linux): the kind of file each is open on, whether that file is /dev/null,
 * and whether it was opened for writing. Deno's fence refuses /proc/self to
 * anything short of --allow-all, so the questions go through the C library
 * (src/platform/libc.ts): `statx` on the descriptor itself, and its
 * /proc/self/fdinfo entry for the open flags. `wisp sandbox` decides from
 * these which descriptors its program may have as they are
 * (src/exec/passthrough.ts); asking here spares a launcher start before the
 * command's own (docs/adr/0680).
 */
import { cString, libcCalls, type LinuxLibc } from "./libc.ts";
import { hostOs } from "./os.ts";

/** The calls asked of the C library here. */
type Calls = { [P in "statx" | "open" | "read" | "close"]: NonNullable<LinuxLibc[P]> };

/** What one open descriptor is. */
export interface DescriptorFacts {
  fifo: boolean;
  regular: boolean;
  /** The same file as /dev/null. */
  devNull: boolean;
  /** Opened for writing (O_WRONLY or O_RDWR). */
  writable: boolean;
}

/** statx's flag for "the descriptor itself" (an empty path), and the fields asked for. */
const AT_EMPTY_PATH = 0x1000;
const STATX_TYPE = 0x1;
const STATX_INO = 0x100;
/** struct statx: 256 bytes, one layout on every architecture (linux/stat.h). */
const STATX_SIZE = 256;
const MODE_AT = 28;
const INO_AT = 32;
const DEV_MAJOR_AT = 136;
const DEV_MINOR_AT = 140;

const S_IFMT = 0o170000;
const S_IFIFO = 0o010000;
const S_IFREG = 0o100000;

/** The type, inode and device statx gives; undefined when the call fails. */
function identity(
  c: Calls,
  dirFd: number,
  path: string,
  flags: number,
): { type: number; file: string } | undefined {
  const buf = new Uint8Array(STATX_SIZE);
  if (c.statx(dirFd, cString(path), flags, STATX_TYPE | STATX_INO, buf) !== 0) return undefined;
  const view = new DataView(buf.buffer);
  const type = view.getUint16(MODE_AT, true) & S_IFMT;
  const file = `${view.getUint32(DEV_MAJOR_AT, true)}:${view.getUint32(DEV_MINOR_AT, true)}:${
    view.getBigUint64(INO_AT, true)
  }`;
  return { type, file };
}

/** The `flags:` line of /proc/self/fdinfo/FD (octal); undefined when it cannot be read. */
function openFlags(c: Calls, fd: number): number | undefined {
  const file = c.open(cString(`/proc/self/fdinfo/${fd}`), 0 /* O_RDONLY */);
  if (file < 0) return undefined;
  try {
    const buf = new Uint8Array(4096);
    const n = Number(c.read(file, buf, BigInt(buf.length)));
    if (n <= 0) return undefined;
    const text = new TextDecoder().decode(buf.subarray(0, n));
    const match = /^flags:\s*([0-7]+)$/m.exec(text);
    return match ? parseInt(match[1], 8) : undefined;
  } finally {
    c.close(file);
  }
}

/**
 * The facts of descriptor `fd` of this process; `null` when it is not open
 * (or the kernel will not say); undefined when they cannot be asked here (not
 * Linux, no FFI permission, a C library without statx): the caller asks
 * another way.
 */
export function descriptorFacts(fd: number): DescriptorFacts | null | undefined {
  const c = hostOs() === "linux" ? libcCalls("statx", "open", "read", "close") : undefined;
  if (!c) return undefined;
  const own = identity(c, fd, "", AT_EMPTY_PATH);
  if (!own) return null;
  const devNull = identity(c, -100, /* AT_FDCWD */ "/dev/null", 0);
  const flags = own.type === S_IFREG ? openFlags(c, fd) : undefined;
  return {
    fifo: own.type === S_IFIFO,
    regular: own.type === S_IFREG,
    devNull: devNull !== undefined && devNull.file === own.file,
    // O_ACCMODE: 1 is O_WRONLY, 2 O_RDWR.
    writable: flags !== undefined && (flags & 3) !== 0,
  };
}

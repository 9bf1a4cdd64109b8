/**
 * The names in a folder that start with one of a few prefixes, without
 * making a string and an entry object for every other name. The platform's
 * socket listing (paths.ts) looks in /tmp for the few folders agents and
 * editors keep their sockets in; a shared /tmp often holds thousands of
 * entries, and listing it with Deno.readDirSync was a few milliseconds of
 * every `wisp sandbox` (docs/adr/0680). On Linux the folder is read with
 * getdents64 into a buffer and only matching names are decoded; elsewhere,
 * or when the C library cannot be used, Deno lists it.
 */
import { cString, libcCalls } from "./libc.ts";
import { hostOs } from "./os.ts";

const BUFFER_BYTES = 64 * 1024;

/** Where a struct linux_dirent64's fields sit: d_reclen (u16) at 16, the name from 19. */
const RECORD_LENGTH_AT = 16;
const NAME_AT = 19;

/**
 * The names in `dir` that start with one of `prefixes`, in no set order;
 * empty when the folder cannot be listed.
 */
export function namesStartingWith(dir: string, prefixes: readonly string[]): string[] {
  const fromKernel = hostOs() === "linux" ? listWithGetdents(dir, prefixes) : undefined;
  if (fromKernel) return fromKernel;
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name)
      .filter((name) => prefixes.some((p) => name.startsWith(p)));
  } catch {
    return []; // no such folder, or not ours to list
  }
}

/** getdents64's listing, matching prefixes on the raw bytes; undefined when it cannot be used. */
function listWithGetdents(dir: string, prefixes: readonly string[]): string[] | undefined {
  const c = libcCalls("open", "getdents64", "close");
  if (!c) return undefined;
  const wanted = prefixes.map((p) => new TextEncoder().encode(p));
  // Most names start with a byte no prefix starts with: one look settles them. This loop runs
  // before the JIT has compiled it, so what it does per name is what it costs.
  const firstBytes = new Uint8Array(256);
  for (const prefix of wanted) firstBytes[prefix[0] ?? 0] = 1;
  const anyName = wanted.some((prefix) => prefix.length === 0);
  const fd = c.open(cString(dir), 0 /* O_RDONLY */);
  if (fd < 0) return [];
  try {
    const names: string[] = [];
    const buf = new Uint8Array(BUFFER_BYTES);
    const view = new DataView(buf.buffer);
    const decoder = new TextDecoder();
    for (;;) {
      const filled = Number(c.getdents64(fd, buf, BigInt(buf.length)));
      if (filled < 0) return undefined; // not a folder after all, or the call failed: ask Deno
      if (filled === 0) return names;
      for (let at = 0; at + NAME_AT < filled;) {
        const length = view.getUint16(at + RECORD_LENGTH_AT, true);
        if (length <= NAME_AT || at + length > filled) return undefined; // not the layout we know
        const start = at + NAME_AT;
        const candidate = anyName || firstBytes[buf[start]] === 1;
        if (
          candidate && wanted.some((prefix) => startsWithBytes(buf, start, at + length, prefix))
        ) {
          let end = start;
          while (end < at + length && buf[end] !== 0) end++;
          names.push(decoder.decode(buf.subarray(start, end)));
        }
        at += length;
      }
    }
  } finally {
    c.close(fd);
  }
}

/** Whether the bytes from `start` (before `limit`) begin with `prefix`. */
function startsWithBytes(buf: Uint8Array, start: number, limit: number, prefix: Uint8Array) {
  if (start + prefix.length > limit) return false;
  for (let i = 0; i < prefix.length; i++) {
    if (buf[start + i] !== prefix[i]) return false;
  }
  return true;
}

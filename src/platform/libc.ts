/**
 * The few C library calls wisp makes itself, through Deno's FFI (ADR 0270):
 * a local socket whose peer the kernel names, and the process table facts
 * Deno's fence does not give (Deno refuses /proc, and has no getsockopt).
 *
 * This is the only module that loads a native library (the C library here,
 * and wisp's own libwisp only to ask its ABI version). Its symbol list is
 * fixed here and holds nothing that starts, signals or replaces a process
 * (test/platform/libc_test.ts checks that), so a bug elsewhere in wisp cannot
 * reach exec or kill through it. Every call takes and fills plain byte
 * buffers: no pointer views, so the path-scoped `ffi` permission suffices.
 * The binding can move into the native library (ffi/) when it exists.
 */
import { hostOs } from "./os.ts";

/** Where the C library lives, per platform; deno.json's `ffi` permission names the same paths. */
const LIBC_CANDIDATES: Record<string, string[]> = {
  linux: [
    "/lib/x86_64-linux-gnu/libc.so.6",
    "/lib/aarch64-linux-gnu/libc.so.6",
    "/usr/lib/x86_64-linux-gnu/libc.so.6",
    "/usr/lib/aarch64-linux-gnu/libc.so.6",
    "/lib64/libc.so.6",
    "/usr/lib64/libc.so.6",
    "/usr/lib/libc.so.6",
  ],
  darwin: ["/usr/lib/libSystem.B.dylib"],
};

/** Calls both platforms have (the socket and file calls). */
const COMMON_SYMBOLS = {
  socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
  bind: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  listen: { parameters: ["i32", "i32"], result: "i32" },
  connect: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  accept: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
  poll: { parameters: ["buffer", "u64", "i32"], result: "i32" },
  getsockopt: { parameters: ["i32", "i32", "i32", "buffer", "buffer"], result: "i32" },
  setsockopt: { parameters: ["i32", "i32", "i32", "buffer", "u32"], result: "i32" },
  recv: { parameters: ["i32", "buffer", "usize", "i32"], result: "isize" },
  send: { parameters: ["i32", "buffer", "usize", "i32"], result: "isize" },
  close: { parameters: ["i32"], result: "i32" },
  readlink: { parameters: ["buffer", "buffer", "usize"], result: "isize" },
  getuid: { parameters: [], result: "u32" },
  // Whether a path exists (mode F_OK), answered in a return value instead of a thrown error.
  access: { parameters: ["buffer", "i32"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** Linux: /proc is read with open/read (open's third argument is unused with O_RDONLY). */
export const LINUX_SYMBOLS = {
  ...COMMON_SYMBOLS,
  open: { parameters: ["buffer", "i32"], result: "i32" },
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  // Lists a folder into a buffer of ours (glibc 2.30 and later; absent, the symbol is null).
  getdents64: { parameters: ["i32", "buffer", "usize"], result: "isize", optional: true },
  // What an open descriptor is (glibc 2.28 and later; absent, the symbol is null). Its struct has
  // one layout on every architecture, unlike stat's.
  statx: { parameters: ["i32", "buffer", "i32", "u32", "buffer"], result: "i32", optional: true },
} as const satisfies Deno.ForeignLibraryInterface;

/** macOS: the process table through libproc and sysctl (all in libSystem). */
export const DARWIN_SYMBOLS = {
  ...COMMON_SYMBOLS,
  proc_pidpath: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  proc_pidinfo: { parameters: ["i32", "i32", "u64", "buffer", "i32"], result: "i32" },
  sysctl: { parameters: ["buffer", "u32", "buffer", "buffer", "buffer", "usize"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

export type LinuxLibc = Deno.DynamicLibrary<typeof LINUX_SYMBOLS>["symbols"];
export type DarwinLibc = Deno.DynamicLibrary<typeof DARWIN_SYMBOLS>["symbols"];
export type Libc = Deno.DynamicLibrary<typeof COMMON_SYMBOLS>["symbols"];

let loaded: { symbols: Libc; os: string } | null | undefined;

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    // libSystem lives in the dyld shared cache on recent macOS: not on disk, still loadable.
    return hostOs() === "darwin";
  }
}

/** The C library opened with `symbols`; undefined where it cannot be (no FFI permission, unknown OS). */
function openLibc<S extends Deno.ForeignLibraryInterface>(
  os: string,
  symbols: S,
): Deno.DynamicLibrary<S>["symbols"] | undefined {
  for (const path of LIBC_CANDIDATES[os] ?? []) {
    if (!exists(path)) continue;
    try {
      return Deno.dlopen(path, symbols).symbols;
    } catch { /* not this one, or FFI refused: try the next */ }
  }
  return undefined;
}

/** The C library, loaded once; undefined where it cannot be (no FFI permission, unknown OS). */
export function libc(): { symbols: Libc; os: string } | undefined {
  if (loaded !== undefined) return loaded ?? undefined;
  loaded = null;
  const os = hostOs();
  const symbols = openLibc(os, os === "darwin" ? DARWIN_SYMBOLS : LINUX_SYMBOLS);
  if (symbols) loaded = { symbols: symbols as unknown as Libc, os };
  return loaded ?? undefined;
}

const subsets = new Map<string, unknown>();

/**
 * Only the named calls of this platform's symbol list, loaded once per set.
 * Deno prepares every symbol a library is opened with, about half a
 * millisecond each, so opening the whole list costs 10–20 ms; a caller on a
 * start-up path (the gate's existence checks, `wisp sandbox`'s descriptor
 * facts) asks for the few it makes. Undefined where the library cannot be
 * loaded, or a named call is missing from this platform's list or its
 * library (an optional symbol).
 */
export function libcCalls<K extends keyof typeof LINUX_SYMBOLS & string>(
  ...names: K[]
): { [P in K]: NonNullable<LinuxLibc[P]> } | undefined;
export function libcCalls(...names: string[]): Record<string, unknown> | undefined {
  const os = hostOs();
  const key = `${os}:${names.join(",")}`;
  if (subsets.has(key)) return (subsets.get(key) ?? undefined) as Record<string, unknown>;
  const list: Record<string, Deno.ForeignFunction> = os === "darwin"
    ? DARWIN_SYMBOLS
    : LINUX_SYMBOLS;
  const wanted: Record<string, Deno.ForeignFunction> = {};
  for (const name of names) {
    if (!(name in list)) {
      subsets.set(key, null);
      return undefined;
    }
    wanted[name] = list[name];
  }
  const symbols = openLibc(os, wanted) as Record<string, unknown> | undefined;
  const complete = symbols !== undefined && names.every((name) => symbols[name] !== null);
  subsets.set(key, complete ? symbols : null);
  return complete ? symbols : undefined;
}

/** The Linux-only symbols; undefined elsewhere. */
export function linuxLibc(): LinuxLibc | undefined {
  const l = libc();
  return l?.os === "linux" ? l.symbols as unknown as LinuxLibc : undefined;
}

/** The macOS-only symbols; undefined elsewhere. */
export function darwinLibc(): DarwinLibc | undefined {
  const l = libc();
  return l?.os === "darwin" ? l.symbols as unknown as DarwinLibc : undefined;
}

/** A NUL-terminated copy of a string, for a `buffer` argument. */
export function cString(text: string): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(text);
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  return out;
}

/**
 * Ask wisp's own native library (libwisp) its ABI version, closing it again;
 * doctor's native-library finding calls it. It throws when the file does not
 * load or has no `wisp_abi_version`.
 */
export function loadAbiVersion(path: string): number {
  const library = Deno.dlopen(
    path,
    {
      wisp_abi_version: { parameters: [], result: "u32" },
    } as const,
  );
  try {
    return library.symbols.wisp_abi_version();
  } finally {
    library.close();
  }
}

/**
 * The process table and listening ports through wisp's native library
 * (libwisp: libproc on macOS, /proc on Linux), the same calls on both
 * platforms. Each answers undefined when the library is not there, so a
 * caller can fall back to what it read before; a library that is there but
 * fails throws.
 */
import {
  libwisp,
  listeningPorts,
  type NativeListener,
  type NativeProcess,
  type NativeProcessDetails,
  processDetails,
  processTable,
} from "../ffi/libwisp.ts";

export type { NativeListener, NativeProcess, NativeProcessDetails };

/** Every process this user may see, or undefined without the library. */
export function nativeProcessTable(): NativeProcess[] | undefined {
  const lib = libwisp();
  return lib ? processTable(lib) : undefined;
}

/**
 * One process's details: undefined without the library, null when there is
 * no such process.
 */
export function nativeProcessDetails(pid: number): NativeProcessDetails | null | undefined {
  const lib = libwisp();
  if (!lib) return undefined;
  return processDetails(lib, pid) ?? null;
}

/** Every listening socket with the processes holding it, or undefined without the library. */
export function nativeListeners(): NativeListener[] | undefined {
  const lib = libwisp();
  return lib ? listeningPorts(lib) : undefined;
}

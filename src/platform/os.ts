/**
 * Small facts that differ by operating system, each a pure function of `os`
 * (tests pass one) whose default is the host's. The OS itself is read in
 * util/host_os.ts, the one place below platform that needs it too.
 */
import { hasModeBits, hostOs } from "../util/host_os.ts";

export { hasModeBits, hostOs };

/** A shared library's file name on `os`: `stem.dylib` on a Mac, `stem.so` elsewhere. */
export function sharedLibraryName(stem: string, os: string = hostOs()): string {
  return os === "darwin" ? `${stem}.dylib` : `${stem}.so`;
}

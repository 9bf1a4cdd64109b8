/**
 * Doctor's native library finding: libwisp, the small C ABI through which wisp
 * reaches Apple's on-device model and libproc on a Mac and /proc's twin on
 * Linux, found and answering its ABI version. It is looked for where the
 * native library's design puts it: the file WISP_LIBWISP names; beside wisp's
 * own executable (Homebrew's libexec); in the source tree's ffi/build folder
 * when wisp runs from source. The first that exists is loaded and asked
 * `wisp_abi_version()`.
 *
 * Where it looks is the bindings' own list (src/ffi/locate.ts). Not built is
 * ok on Linux, where wisp reads /proc itself, and not ok on a Mac, where the
 * on-device model cannot run without it.
 */
import { libwispCandidates as locateCandidates } from "../ffi/locate.ts";
import { hostOs, sharedLibraryName } from "../platform/os.ts";
import type { Finding } from "./finding.ts";

const NAME = "native library";

/** The library's file name on this platform. */
export function libwispName(os: string = hostOs()): string {
  return sharedLibraryName("libwisp", os);
}

/** What the finding reads from the world. */
export interface NativeWorld {
  os: string;
  env: (name: string) => string | undefined;
  /** The folder wisp's executable is in, for a compiled build; undefined when run from source. */
  binaryDir?: string;
  /** The source tree, when run from source. */
  sourceRoot?: string;
  exists: (path: string) => boolean;
  /** Load the library and return its ABI version; throws with the reason when it cannot. */
  abiVersion: (path: string) => number;
}

/** Where libwisp is looked for, in order, and who named each place (the bindings' list). */
export function libwispCandidates(world: NativeWorld): { path: string; from: string }[] {
  return locateCandidates(world);
}

/** The native library finding for a world. */
export function nativeFinding(world: NativeWorld): Finding {
  const candidates = libwispCandidates(world);
  const named = candidates.find((c) => c.from === "WISP_LIBWISP");
  if (named && !world.exists(named.path)) {
    return {
      ok: false,
      name: NAME,
      detail: `WISP_LIBWISP names ${named.path}, which does not exist`,
      fix: `unset WISP_LIBWISP, or point it at a ${libwispName(world.os)} that exists`,
    };
  }
  const found = candidates.find((c) => world.exists(c.path));
  if (!found) {
    const looked = candidates.map((c) => c.path).join(", ") || "nowhere";
    return world.os === "darwin"
      ? {
        ok: false,
        name: NAME,
        detail: `not built: no ${libwispName(world.os)} at ${looked}`,
        fix:
          "the on-device model needs it; reinstall wisp (brew reinstall wisp) or build it from source",
      }
      : {
        ok: true,
        name: NAME,
        detail: `not built (looked at ${looked}); wisp reads processes and ports from /proc itself`,
      };
  }
  try {
    const version = world.abiVersion(found.path);
    return {
      ok: true,
      name: NAME,
      detail: `${found.path} (${found.from}) loads; ABI version ${version}`,
    };
  } catch (error) {
    const fenced = error instanceof Deno.errors.NotCapable ||
      error instanceof Deno.errors.PermissionDenied;
    if (fenced) {
      return {
        ok: false,
        name: NAME,
        detail: `${found.path} (${found.from}) is there, but wisp may not load it`,
        fix: "wisp's permission set does not allow it; run the build that ships with it",
      };
    }
    // The loader's own message names the call and the ELF details; say what it means instead.
    const message = error instanceof Error ? error.message : String(error);
    const what = message.includes("wisp_abi_version")
      ? "is a library without wisp_abi_version, so not libwisp"
      : "does not load as a library";
    return {
      ok: false,
      name: NAME,
      detail: `${found.path} (${found.from}) ${what}`,
      fix: `reinstall wisp or rebuild ${libwispName(world.os)}`,
    };
  }
}

/** Whether a file exists (following links). */
export function fileExists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

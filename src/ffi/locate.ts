/**
 * Where libwisp is looked for, in order: the file WISP_LIBWISP names; beside
 * wisp's own executable for a compiled build (Homebrew puts both in
 * libexec, and its version-free opt/wisp link is tried first); the source tree's ffi/build folder (`deno task native`) when
 * wisp runs from source. Doctor reports from the same list.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILD } from "../build_info.ts";
import { hostOs } from "../util/host_os.ts";

/** The library's file name on a platform. */
export function libwispName(os: string = hostOs()): string {
  return os === "darwin" ? "libwisp.dylib" : "libwisp.so";
}

/** What the locator reads from the world. */
export interface LocateWorld {
  os: string;
  env: (name: string) => string | undefined;
  /** The folder wisp's executable is in, for a compiled build; undefined when run from source. */
  binaryDir?: string;
  /** The source tree, when run from source. */
  sourceRoot?: string;
}

/** One place libwisp may be, and who named it. */
export interface Candidate {
  path: string;
  from: "WISP_LIBWISP" | "Homebrew" | "beside wisp" | "the source build";
}

/** Where libwisp is looked for, in order. */
export function libwispCandidates(world: LocateWorld): Candidate[] {
  const out: Candidate[] = [];
  const named = world.env("WISP_LIBWISP");
  if (named && named.trim() !== "") out.push({ path: named, from: "WISP_LIBWISP" });
  const file = libwispName(world.os);
  // Homebrew keeps wisp in <prefix>/Cellar/wisp/<version>/libexec; the permission set names the
  // library by the version-free <prefix>/opt/wisp link, so that path is asked for first.
  const cellar = world.binaryDir?.match(/^(.*)\/Cellar\/wisp\/[^/]+\/libexec\/?$/);
  if (cellar) out.push({ path: join(cellar[1], "opt", "wisp", "libexec", file), from: "Homebrew" });
  if (world.binaryDir) out.push({ path: join(world.binaryDir, file), from: "beside wisp" });
  if (world.sourceRoot) {
    out.push({ path: join(world.sourceRoot, "ffi", "build", file), from: "the source build" });
  }
  return out;
}

/** This process's world: compiled or from source, and its environment. */
export function hereWorld(): LocateWorld {
  const compiled = BUILD.kind !== "source";
  return {
    os: hostOs(),
    env: (name) => {
      try {
        return Deno.env.get(name);
      } catch {
        return undefined; // the fence refuses the variable: as if unset
      }
    },
    binaryDir: compiled ? dirname(Deno.execPath()) : undefined,
    sourceRoot: compiled ? undefined : fileURLToPath(new URL("../..", import.meta.url)),
  };
}

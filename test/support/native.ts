/**
 * The native libraries for tests: built from ffi/ into the source tree's
 * ffi/build (the folder the permission set names) once per test process,
 * so that a clean clone passes without `deno task native` first. On Linux
 * both builds (libwisp.so and the scripted libwisp_test_model.so); on macOS
 * libwisp.dylib, and no test model.
 */
import { join } from "node:path";
import { BUILD_DIR, buildNative } from "../../scripts/native.ts";
import { libwispName } from "../../src/ffi/locate.ts";

let built: Promise<void> | undefined;

/** Build this platform's libraries (once per process) and return their paths. */
export async function nativeLibraries(): Promise<{ libwisp: string; testModel?: string }> {
  built ??= buildNative().then(() => {});
  await built;
  return {
    libwisp: join(BUILD_DIR, libwispName()),
    ...(Deno.build.os === "linux" ? { testModel: join(BUILD_DIR, "libwisp_test_model.so") } : {}),
  };
}

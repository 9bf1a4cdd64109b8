/**
 * The native libraries for tests: built from ffi/ into the source tree's
 * ffi/build (the folder the permission set names) once per test process,
 * so that a clean clone passes without `deno task native` first.
 */
import { join } from "node:path";
import { BUILD_DIR, buildNative } from "../../scripts/native.ts";

let built: Promise<void> | undefined;

/** Build both Linux libraries (once per process) and return their paths. */
export async function nativeLibraries(): Promise<{ libwisp: string; testModel: string }> {
  built ??= buildNative().then(() => {});
  await built;
  return {
    libwisp: join(BUILD_DIR, "libwisp.so"),
    testModel: join(BUILD_DIR, "libwisp_test_model.so"),
  };
}

/**
 * `deno task native [--out DIR]`: builds wisp's native library from ffi/.
 *
 * On Linux it compiles, with the system C compiler (`cc`, else `gcc`), two
 * libraries into ffi/build/ (or DIR): libwisp.so, the shipped one (the
 * process and port functions over /proc; the model functions answer that
 * Linux has no on-device model), and libwisp_test_model.so, a build for
 * tests only whose model replays a script (ffi/linux/model_script.c). On
 * macOS it runs ffi/build.sh, which builds libwisp.dylib from ffi/darwin with
 * swiftc.
 * A compiler error is printed as the compiler wrote it and the task exits 1.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The source tree's root. */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Where the libraries are built by default (doctor and the locator look here too). */
export const BUILD_DIR = join(ROOT, "ffi", "build");

/** The C sources every Linux build shares, and the model half each one adds. */
export const LINUX_LIBRARIES: Record<string, string[]> = {
  "libwisp.so": ["text.c", "procs.c", "model_none.c"],
  "libwisp_test_model.so": ["text.c", "procs.c", "model_script.c"],
};

function compilerName(): string {
  for (const name of ["cc", "gcc"]) {
    for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
      try {
        if (Deno.statSync(join(dir, name)).isFile) return name;
      } catch { /* not here */ }
    }
  }
  throw new Error("no C compiler found (cc or gcc); install one (apt install gcc libc6-dev)");
}

async function run(cmd: string, args: string[]): Promise<void> {
  const { code, stderr } = await new Deno.Command(cmd, { args, stdout: "inherit", stderr: "piped" })
    .output();
  if (code !== 0) {
    throw new Error(`${cmd} failed:\n${new TextDecoder().decode(stderr).trimEnd()}`);
  }
}

/** Build the native libraries for this platform into `out`; returns the paths built. */
export async function buildNative(out: string = BUILD_DIR): Promise<string[]> {
  await Deno.mkdir(out, { recursive: true });
  if (Deno.build.os === "darwin") {
    await run("bash", [join(ROOT, "ffi", "build.sh"), "--out", out]);
    return [join(out, "libwisp.dylib")];
  }
  const cc = compilerName();
  const built: string[] = [];
  for (const [name, sources] of Object.entries(LINUX_LIBRARIES)) {
    const target = join(out, name);
    // Build beside the target under a name of this run's own and rename, so that a loaded
    // library is never rewritten in place and two builds at once do not write one file.
    const partial = `${target}.${Deno.pid}-${crypto.randomUUID().slice(0, 8)}.partial`;
    await run(cc, [
      "-std=c11",
      "-O2",
      "-Wall",
      "-Wextra",
      "-Werror",
      "-fPIC",
      "-shared",
      "-pthread",
      "-o",
      partial,
      ...sources.map((s) => join(ROOT, "ffi", "linux", s)),
    ]);
    await Deno.rename(partial, target);
    built.push(target);
  }
  return built;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--out");
  const out = at >= 0 ? Deno.args[at + 1] : BUILD_DIR;
  try {
    for (const path of await buildNative(out)) console.log(`built ${path}`);
  } catch (error) {
    console.error(`native: ${(error as Error).message}`);
    Deno.exit(1);
  }
}

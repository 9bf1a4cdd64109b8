/**
 * The OS facts in src/platform/os.ts, each asked for an OS by name, and the
 * boundary they keep: outside src/platform/ only util/host_os.ts reads
 * Deno.build.os, and only the platform's helper start and the model-command
 * runner construct a Deno.Command.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { hasModeBits, hostOs, sharedLibraryName } from "../../src/platform/os.ts";
import { signalFamily, stopSignals } from "../../src/platform/signals.ts";

Deno.test("hostOs is the OS Deno reports", () => {
  assertEquals(hostOs(), Deno.build.os);
});

Deno.test("the OS facts differ as documented", () => {
  assertEquals(stopSignals("linux"), ["SIGINT", "SIGTERM", "SIGHUP"]);
  assertEquals(stopSignals("darwin"), ["SIGINT", "SIGTERM", "SIGHUP"]);
  assertEquals(stopSignals("windows"), []);
  assertEquals(signalFamily("darwin"), "darwin");
  assertEquals(signalFamily("freebsd"), "darwin");
  assertEquals(signalFamily("linux"), "linux");
  assertEquals(sharedLibraryName("libwisp", "darwin"), "libwisp.dylib");
  assertEquals(sharedLibraryName("libwisp", "linux"), "libwisp.so");
  assertEquals(hasModeBits("linux"), true);
  assertEquals(hasModeBits("darwin"), true);
  assertEquals(hasModeBits("windows"), false);
});

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...sourceFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** The files under src/ whose code (comments aside, roughly) contains `needle`. */
function filesUsing(needle: string): string[] {
  return sourceFiles(SRC)
    .filter((path) =>
      Deno.readTextFileSync(path).split("\n").some((line) =>
        line.includes(needle) && !/^\s*(\*|\/\/)/.test(line)
      )
    )
    .map((path) => relative(SRC, path))
    .sort();
}

Deno.test("outside src/platform only util/host_os.ts asks which OS this is", () => {
  const outside = filesUsing("Deno.build.os").filter((path) => !path.startsWith("platform/"));
  assertEquals(outside, ["util/host_os.ts"]);
});

Deno.test("only the helper start and the model-command runner start processes", () => {
  assertEquals(filesUsing("Deno.Command("), ["exec/runner.ts", "platform/helper_process.ts"]);
  assert(filesUsing("Deno.run(").length === 0);
});

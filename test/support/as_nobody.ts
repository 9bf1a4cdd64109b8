/**
 * Runs a small Deno script as the unprivileged user `nobody`, for tests that
 * play an ordinary user while the suite runs as root. The clone may lie where
 * nobody cannot reach (a 0700 folder from `mktemp -d`, another user's home),
 * and so may the deno binary (npx puts it under root's home), so the script
 * never touches either: the source modules it imports are copied into a
 * world-readable scratch folder the test made, and deno itself is run from a
 * link or copy there when nobody cannot start it where it is.
 */
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PROJECT_ROOT } from "./wisp.ts";

/** nobody's user and group id on Linux. */
export const NOBODY = 65534;

interface InfoModule {
  specifier: string;
  local?: string;
  kind?: string;
  error?: string;
}

/**
 * Copies `entry` and every local module it imports, at the same paths
 * relative to the project root, into `into` (created readable to all).
 * Returns the copy's file URL, for the script's import. A module that is not
 * a local file or a built-in (an npm or remote import) is refused: nobody
 * could not read the clone's node_modules or deno's cache either.
 */
export async function copyModuleGraph(entry: URL, into: string): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", fileURLToPath(entry)],
    cwd: PROJECT_ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`deno info failed: ${new TextDecoder().decode(out.stderr)}`);
  const modules: InfoModule[] = JSON.parse(new TextDecoder().decode(out.stdout)).modules;
  for (const module of modules) {
    if (module.specifier.startsWith("node:")) continue;
    if (module.error || !module.specifier.startsWith("file:") || !module.local) {
      throw new Error(`${module.specifier} cannot be copied for nobody (only local modules can)`);
    }
    const target = join(into, relative(PROJECT_ROOT, module.local));
    if (target.startsWith("..")) throw new Error(`${module.local} lies outside the project`);
    makeReadableDirs(into, dirname(target));
    Deno.copyFileSync(module.local, target);
    Deno.chmodSync(target, 0o644);
  }
  return pathToFileURL(join(into, relative(PROJECT_ROOT, fileURLToPath(entry)))).href;
}

function makeReadableDirs(base: string, dir: string): void {
  Deno.mkdirSync(dir, { recursive: true });
  for (let d = dir; d.length >= base.length; d = dirname(d)) {
    Deno.chmodSync(d, 0o755);
    if (d === base) break;
  }
}

/** A deno binary nobody can start: deno itself, or a link or copy of it in `scratch`. */
async function denoForNobody(scratch: string): Promise<string> {
  const started = await new Deno.Command("setpriv", {
    args: [...dropArgs(), Deno.execPath(), "--version"],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output().catch(() => undefined);
  if (started?.success) return Deno.execPath();
  const copy = join(scratch, "deno");
  try {
    Deno.linkSync(Deno.execPath(), copy);
  } catch {
    Deno.copyFileSync(Deno.execPath(), copy);
  }
  Deno.chmodSync(copy, 0o755);
  return copy;
}

function dropArgs(): string[] {
  return [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"];
}

/**
 * Runs `scriptPath` (which must be readable to all) with `deno run -A` as
 * nobody, with HOME and DENO_DIR in `scratch` (a folder readable to all, made
 * by the test). Returns what it printed and its exit code.
 */
export async function runDenoAsNobody(
  scratch: string,
  scriptPath: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const denoDir = join(scratch, "deno-dir");
  Deno.mkdirSync(denoDir, { recursive: true });
  Deno.chmodSync(denoDir, 0o777);
  const deno = await denoForNobody(scratch);
  const out = await new Deno.Command("setpriv", {
    args: [...dropArgs(), deno, "run", "-A", "--no-lock", "--no-config", scriptPath],
    cwd: scratch,
    env: { HOME: scratch, DENO_DIR: denoDir, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/**
 * `deno task install [--prefix DIR]`: puts a small `wisp` launcher in
 * ~/.local/bin (or DIR) that runs this checkout from source, from any
 * folder, under exactly the permission set the compiled binary gets
 * (deno.json "permissions.wisp", passed as -P=wisp). It is for using wisp in
 * your own projects before a release; the launcher names this checkout and
 * the Deno that ran the install, falling back to `deno` on PATH when that
 * one is gone.
 *
 * A file already at the path is replaced only when it is a launcher this
 * script wrote (it carries LAUNCHER_MARKER); anything else is left alone.
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");

/** The line that marks a file as this script's launcher. */
export const LAUNCHER_MARKER = "# wisp launcher, written by deno task install";

const USAGE = "usage: deno task install [--prefix DIR]";

/** A POSIX single-quoted word. */
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The launcher's text: a POSIX shell script that execs Deno on this checkout's main.ts. */
export function launcherScript(options: { deno: string; root: string }): string {
  return `#!/bin/sh
${LAUNCHER_MARKER}: runs the wisp checkout below from source,
# from any folder, under wisp's permission set (deno.json "permissions.wisp").
# Run deno task install in the checkout again to rewrite it.
root=${quote(options.root)}
deno=${quote(options.deno)}
if [ ! -x "$deno" ]; then
  deno=$(command -v deno) || {
    echo "wisp: no Deno at ${
    options.deno.replaceAll('"', "")
  } nor on PATH; install Deno 2.9, then run deno task install again" >&2
    exit 1
  }
fi
if [ ! -f "$root/main.ts" ]; then
  echo "wisp: the checkout at $root is gone; run deno task install from a checkout again" >&2
  exit 1
fi
exec "$deno" run -q -P=wisp --config "$root/deno.json" "$root/main.ts" "$@"
`;
}

/** Parsed arguments: the folder to install into, or a usage problem. */
export function parseArgs(
  args: readonly string[],
  env: (name: string) => string | undefined,
): { dir: string } | { problem: string } {
  let prefix: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--prefix") {
      prefix = args[++i];
      if (!prefix) return { problem: `--prefix needs a folder (${USAGE})` };
    } else if (arg.startsWith("--prefix=")) {
      prefix = arg.slice("--prefix=".length);
      if (!prefix) return { problem: `--prefix needs a folder (${USAGE})` };
    } else {
      return { problem: `unknown argument '${arg}' (${USAGE})` };
    }
  }
  // A task runs in the checkout; a relative folder is taken from where it was called.
  const from = env("INIT_CWD") || Deno.cwd();
  if (prefix !== undefined) return { dir: isAbsolute(prefix) ? prefix : resolve(from, prefix) };
  const home = env("HOME");
  if (!home) return { problem: `HOME is not set; name the folder with --prefix DIR (${USAGE})` };
  return { dir: join(home, ".local", "bin") };
}

/** Whether `dir` is one of PATH's folders. */
function onPath(dir: string, path: string | undefined): boolean {
  return (path ?? "").split(":").some((entry) => entry && resolve(entry) === resolve(dir));
}

/** Write the launcher into `dir`; a sentence for what happened, or a refusal. */
export function installLauncher(
  dir: string,
  text: string,
): { ok: true; path: string; written: boolean } | { ok: false; problem: string } {
  const path = join(dir, "wisp");
  let existing: string | undefined;
  try {
    const info = Deno.lstatSync(path);
    if (!info.isFile) {
      return { ok: false, problem: `${path} exists and is not a file; it was left as it is` };
    }
    existing = Deno.readTextFileSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      return {
        ok: false,
        problem: `cannot read ${path} (${(error as Error).name}); nothing was written`,
      };
    }
  }
  if (
    existing !== undefined && !existing.split("\n", 3).some((l) => l.startsWith(LAUNCHER_MARKER))
  ) {
    return {
      ok: false,
      problem:
        `${path} exists and is not a wisp launcher; it was left as it is (move it away, or choose another folder with --prefix)`,
    };
  }
  if (existing === text) return { ok: true, path, written: false };
  const temp = join(dirname(path), `.wisp.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    Deno.mkdirSync(dir, { recursive: true });
    Deno.writeTextFileSync(temp, text, { mode: 0o755 });
    Deno.chmodSync(temp, 0o755);
    Deno.renameSync(temp, path);
  } catch (error) {
    try {
      Deno.removeSync(temp);
    } catch { /* never made */ }
    return {
      ok: false,
      problem: `cannot write ${path} (${(error as Error).name}); nothing was changed`,
    };
  }
  return { ok: true, path, written: true };
}

if (import.meta.main) {
  const env = (name: string) => Deno.env.get(name);
  const parsed = parseArgs(Deno.args, env);
  if ("problem" in parsed) {
    console.error(`error: ${parsed.problem}`);
    Deno.exit(64);
  }
  const result = installLauncher(parsed.dir, launcherScript({ deno: Deno.execPath(), root: ROOT }));
  if (!result.ok) {
    console.error(`error: ${result.problem}`);
    Deno.exit(1);
  }
  console.log(
    result.written
      ? `wrote the wisp launcher to ${result.path}; it runs the checkout in ${ROOT}`
      : `the wisp launcher at ${result.path} is current; it runs the checkout in ${ROOT}`,
  );
  if (!onPath(parsed.dir, env("PATH"))) {
    console.log(`${parsed.dir} is not on your PATH; add it in your shell's start-up file:`);
    console.log(`  export PATH="${parsed.dir}:$PATH"`);
  }
  console.log("then try: wisp doctor (and wisp completions install for Tab completion)");
}

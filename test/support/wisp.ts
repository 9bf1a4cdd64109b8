/**
 * Runs wisp as the installed binary would run: a real process, under exactly
 * the permission set the `wisp` and `compile` tasks use (deno.json
 * "permissions.wisp"), started in a directory of the test's choosing, with a
 * scratch WISP_HOME.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const PROJECT_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const DENO_CONFIG = join(PROJECT_ROOT, "deno.json");
export const MAIN = join(PROJECT_ROOT, "main.ts");

/** The argv prefix that starts wisp from source under the binary's permission set. */
export function wispCommand(): string[] {
  return [Deno.execPath(), "run", "-q", "-P=wisp", "--config", DENO_CONFIG, MAIN];
}

export interface WispRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface WispOptions {
  home?: string;
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string;
  /** Keep the caller's environment (by default only PATH, HOME and TERM=dumb pass). */
  inheritEnv?: boolean;
}

/**
 * Runs wisp and waits for it. Without a home (options.home, or WISP_HOME or
 * HOME in options.env) it gets a throwaway one, so that no run reaches the
 * person's own ~/.wisp.
 */
export async function runWisp(args: string[], options: WispOptions = {}): Promise<WispRun> {
  const named = options.home ?? options.env?.WISP_HOME ?? options.env?.HOME;
  const throwaway = named === undefined ? await tempDir("wisp-home-") : undefined;
  try {
    return await runWispIn(args, options, options.home ?? throwaway);
  } finally {
    if (throwaway) await Deno.remove(throwaway, { recursive: true });
  }
}

async function runWispIn(
  args: string[],
  options: WispOptions,
  home: string | undefined,
): Promise<WispRun> {
  const [cmd, ...rest] = wispCommand();
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/root",
    TERM: "dumb",
    NO_COLOR: "1",
    ...(home ? { WISP_HOME: home } : {}),
    ...options.env,
  };
  const child = new Deno.Command(cmd, {
    args: [...rest, ...args],
    cwd: options.cwd ?? PROJECT_ROOT,
    env,
    clearEnv: !options.inheritEnv,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const result = await child.output();
  return {
    code: result.code,
    stdout: new TextDecoder().decode(result.stdout),
    stderr: new TextDecoder().decode(result.stderr),
  };
}

/** A fresh scratch folder that the test removes. */
export async function tempDir(prefix = "wisp-test-"): Promise<string> {
  return await Deno.makeTempDir({ prefix });
}

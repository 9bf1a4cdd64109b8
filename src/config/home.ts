/**
 * wisp's home: ~/.wisp, or $WISP_HOME. Every path wisp keeps is named here and
 * nowhere else. Reading never creates the home; `ensureHome` does, 0700, and is
 * called only by commands that write.
 */
import { joinPath as join, resolvePath as resolve } from "./posix_path.ts";
import { hasModeBits } from "../util/host_os.ts";
import { homeWriteError } from "../util/errors.ts";

export interface HomePaths {
  root: string;
  config: string;
  logs: string;
  auditLog: string;
  output: string;
  pending: string;
  /** One file per running `wisp mcp` with the approvals it holds in memory (faces/mcp/live_approvals.ts). */
  servers: string;
  approvals: string;
  facts: string;
  transcripts: string;
  classifiers: string;
  models: string;
}

function userHomeDir(env: (name: string) => string | undefined = Deno.env.get): string {
  const home = env("HOME") ?? env("USERPROFILE");
  if (!home) throw new Error("HOME is not set; set HOME or WISP_HOME");
  return home;
}

/** Expand a leading `~` or `~/` to the user's home directory. */
export function expandTilde(path: string, home = userHomeDir()): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return path;
}

export function homeRoot(env: (name: string) => string | undefined = Deno.env.get): string {
  const override = env("WISP_HOME");
  if (override && override.trim() !== "") {
    // An absolute WISP_HOME needs no HOME: MCP clients often start servers without one.
    const tilde = override === "~" || override.startsWith("~/");
    return resolve(tilde ? expandTilde(override, userHomeDir(env)) : override);
  }
  return join(userHomeDir(env), ".wisp");
}

export function homePaths(root = homeRoot()): HomePaths {
  const logs = join(root, "logs");
  return {
    root,
    config: join(root, "config.json"),
    logs,
    auditLog: join(logs, "audit.jsonl"),
    output: join(root, "output"),
    pending: join(root, "pending"),
    servers: join(root, "servers"),
    approvals: join(root, "approvals.json"),
    facts: join(root, "facts.json"),
    transcripts: join(root, "transcripts"),
    classifiers: join(root, "classifiers"),
    models: join(root, "models"),
  };
}

/**
 * Create a directory (and its parents) with mode 0700, tightening an existing
 * one (never widening it). A failure is one sentence naming the folder (util/errors.ts).
 */
export function ensurePrivateDir(path: string, what = "wisp's home folder"): void {
  try {
    Deno.mkdirSync(path, { recursive: true, mode: 0o700 });
    // Tighten only: group and other bits are taken away, the owner's are left as they are (a
    // home its owner made read-only stays so, and writing to it then fails with a sentence).
    // chmod only when something changes: a folder already private may be one we cannot change.
    const mode = (Deno.statSync(path).mode ?? 0) & 0o777;
    if (hasModeBits() && (mode & 0o077) !== 0) Deno.chmodSync(path, mode & 0o700);
  } catch (error) {
    throw homeWriteError(error, path, what);
  }
}

/** Create the home (0700) and, when given, subfolders of it. */
export function ensureHome(paths: HomePaths, ...subdirs: string[]): void {
  ensurePrivateDir(paths.root);
  for (const dir of subdirs) ensurePrivateDir(dir);
}

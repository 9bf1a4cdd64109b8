/**
 * A read-only look at the host, for fixed reads Deno's permission fence does
 * not allow in process: Deno refuses /proc and /sys to anything short of
 * --allow-all, and the binary may start only the sandbox launcher. So a fixed
 * script (never a line the model wrote) runs through the launcher with a
 * profile that can read everything, write nothing, and sees the host's
 * processes and sockets: no PID or network namespace of its own.
 */
import type { Launch } from "./types.ts";
import { BWRAP } from "./linux/bwrap.ts";
import { SANDBOX_EXEC } from "./darwin/seatbelt.ts";
import { HELPER_MAX_BYTES, HELPER_TIMEOUT_MS, runHelper } from "./helper_process.ts";
import { hostOs } from "./os.ts";

const DARWIN_READ_ONLY_PROFILE = '(version 1) (allow default) (deny file-write* (subpath "/"))';

/** The launch of a fixed argv in the host view (pure). */
export function hostViewLaunch(argv: string[], os: string = hostOs()): Launch {
  if (os === "darwin") {
    return { program: SANDBOX_EXEC, args: ["-p", DARWIN_READ_ONLY_PROFILE, ...argv] };
  }
  return {
    program: BWRAP,
    // No --cap-drop: reading another process's fd links needs the ptrace
    // access check a capability-less root fails; the argv is fixed and the
    // whole file system is bound read-only.
    args: [
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--die-with-parent",
      "--new-session",
      "--",
      ...argv,
    ],
  };
}

export interface HostViewResult {
  ok: boolean;
  stdout: Uint8Array;
  code: number;
  /** The output passed HOST_VIEW_MAX_BYTES: it was cut there and the program stopped. */
  cut?: boolean;
}

/** What a fixed read may print at most; past it the program is stopped and the result says so. */
export const HOST_VIEW_MAX_BYTES = HELPER_MAX_BYTES;

/** Start a launch with no input, collect its stdout (bounded), and kill it after `timeoutMs`. */
export async function runLaunched(
  launch: Launch,
  timeoutMs = HELPER_TIMEOUT_MS,
  maxBytes = HOST_VIEW_MAX_BYTES,
): Promise<HostViewResult> {
  const result = await runHelper(launch, { stdout: "keep", timeoutMs, maxBytes });
  if (!result.started) return { ok: false, stdout: new Uint8Array(), code: 127 };
  const { ok, stdout, code, cut } = result;
  return { ok, stdout, code, ...(cut ? { cut } : {}) };
}

/** Run a fixed argv in the host view, killed after `timeoutMs`. */
export function runHostView(
  argv: string[],
  timeoutMs = HELPER_TIMEOUT_MS,
): Promise<HostViewResult> {
  return runLaunched(hostViewLaunch(argv), timeoutMs);
}

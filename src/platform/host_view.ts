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

const DARWIN_READ_ONLY_PROFILE =
  '(version 1) (allow default) (deny file-write* (subpath "/"))';

/** The launch of a fixed argv in the host view (pure). */
export function hostViewLaunch(argv: string[], os: string = Deno.build.os): Launch {
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
const HOST_VIEW_MAX_BYTES = 32 * 1024 * 1024;

/** Start a launch with no input, collect its stdout (bounded), and kill it after `timeoutMs`. */
export async function runLaunched(
  launch: Launch,
  timeoutMs = 10_000,
  maxBytes = HOST_VIEW_MAX_BYTES,
): Promise<HostViewResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(launch.program, {
      args: launch.args,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      cwd: "/",
    }).spawn();
  } catch {
    return { ok: false, stdout: new Uint8Array(), code: 127 };
  }
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch { /* ended */ }
  };
  const timer = setTimeout(kill, timeoutMs);
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for await (const chunk of child.stdout) {
    if (cut) continue;
    if (size + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      size = maxBytes;
      cut = true;
      kill();
      continue;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  const status = await child.status;
  clearTimeout(timer);
  const stdout = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    stdout.set(chunk, offset);
    offset += chunk.length;
  }
  return { ok: status.success && !cut, stdout, code: status.code, ...(cut ? { cut } : {}) };
}

/** Run a fixed argv in the host view, killed after `timeoutMs`. */
export function runHostView(argv: string[], timeoutMs = 10_000): Promise<HostViewResult> {
  return runLaunched(hostViewLaunch(argv), timeoutMs);
}

/**
 * The Linux launcher: bubblewrap. Confined, the whole file system is bound
 * read-only, each writable root is bound read-write over it, the directories
 * leading from a root down to wisp's home are bound onto themselves (so they
 * cannot be renamed to move the home aside), and the home and the protected
 * paths (wisp's own code, Deno's cache, start-up files, git hooks …; the
 * folders leading to them pinned the same way) are bound read-only last, so
 * they win wherever they lie. The command gets its own /dev and /proc,
 * its own PID namespace (the supervisor is its PID 1: when it exits, the
 * kernel kills everything left), a new session (no terminal to push keys
 * into), no capabilities, its own System V IPC and POSIX message queues, and
 * no network when the config says so.
 *
 * "Open" is the allow-all profile for commands a person approved to run
 * outside the sandbox (and for sandbox.enabled false or --unsafe): the real
 * file system read-write, the real /dev, but still a PID namespace and a new
 * session, so stopping and cleaning up work the same way.
 */
import type { Launch, LaunchSpec } from "../types.ts";
import { homeAncestorsInside } from "../paths.ts";

export const BWRAP = "bwrap";

/** Parts of /proc that change the machine, not the process: read-only inside. */
const PROC_COVERED = [
  "sys",
  "sysrq-trigger",
  "mtrr",
  "irq",
  "bus",
  "acpi",
  "scsi",
  "fs",
  "driver",
];

/** The bubblewrap arguments for a launch (pure: the same spec gives the same argv). */
export function bwrapArgs(spec: LaunchSpec): string[] {
  const args: string[] = [];
  if (spec.mode === "open") {
    args.push("--bind", "/", "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc");
  } else {
    args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
    // The kernel's own settings: a process running as uid 0 may write most of
    // /proc/sys by file mode alone, with no capability (kernel.core_pattern
    // would run a program of its choice outside the sandbox). Cover them.
    for (const dir of PROC_COVERED) args.push("--ro-bind-try", `/proc/${dir}`, `/proc/${dir}`);
    for (const root of spec.writable.roots) args.push("--bind", root, root);
    for (const dir of homeAncestorsInside(spec.writable)) args.push("--bind", dir, dir);
    for (const dir of spec.writable.pinned ?? []) args.push("--bind", dir, dir);
    args.push("--ro-bind", spec.writable.home, spec.writable.home);
    // The protected paths (src/platform/protected.ts): after every read-write
    // bind, so each wins over the root it lies in.
    for (const p of spec.writable.protected ?? []) args.push("--ro-bind", p.path, p.path);
    for (const socket of spec.writable.masked ?? []) args.push("--ro-bind", "/dev/null", socket);
    if (!spec.allowNetwork) args.push("--unshare-net");
    // System V IPC and POSIX message queues of its own: the host's segments,
    // semaphores and queues (a database's shared buffers) are out of reach.
    args.push("--unshare-ipc");
    args.push("--cap-drop", "ALL");
  }
  args.push(
    "--unshare-pid",
    "--as-pid-1",
    "--die-with-parent",
    "--new-session",
    "--chdir",
    spec.cwd,
    "--",
    ...spec.inner,
  );
  return args;
}

export function bwrapLaunch(spec: LaunchSpec): Launch {
  return { program: BWRAP, args: bwrapArgs(spec) };
}

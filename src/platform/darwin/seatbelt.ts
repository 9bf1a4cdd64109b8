/**
 * The macOS launcher: sandbox-exec with a Seatbelt profile generated per
 * command. Seatbelt applies the last rule that matches, so the profile reads
 * top to bottom as the invariant: everything allowed (reads, execution,
 * processes), every write denied, writes under the writable roots allowed
 * again, and then wisp's home denied after them, so it stays read-only even
 * when it lies inside a root. The directories from a root down to the home
 * are denied as literals (their entries cannot be renamed or removed, while
 * what is inside them stays writable), so the home cannot be moved aside and
 * replaced. The protected paths (src/platform/protected.ts) are denied last
 * in the same way, by path, so one that does not exist yet cannot be created
 * either, and the folders leading to them are denied as literals.
 * Then the sockets of host programs that would act for the command
 * are denied (as Linux hides them), and System V IPC and writes to POSIX
 * shared memory (Linux gives the command IPC of its own instead; Seatbelt has
 * no namespace, so a deny is the nearest).
 *
 * Paths are not spliced into the profile text: each is passed as a parameter
 * (-D NAME=VALUE) and referenced with (param "NAME"), so no path can change
 * the profile's meaning. They are realpath'd first (Seatbelt matches real
 * paths: /tmp is /private/tmp).
 */
import type { Launch, LaunchSpec } from "../types.ts";
import { homeAncestorsInside } from "../paths.ts";

export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/** Devices every command may write (its output, /dev/null, its terminal). */
const DEVICE_RULES = [
  '(literal "/dev/null")',
  '(literal "/dev/zero")',
  '(literal "/dev/dtracehelper")',
  '(literal "/dev/ptmx")',
  '(regex #"^/dev/tty")',
  '(regex #"^/dev/fd/")',
];

export interface SeatbeltProfile {
  text: string;
  /** Parameters, in order: name and value. */
  params: Array<[string, string]>;
}

/** The profile text and its parameters for a launch (pure). */
export function seatbeltProfile(spec: LaunchSpec): SeatbeltProfile {
  const params: Array<[string, string]> = [];
  const lines: string[] = [
    "(version 1)",
    "; wisp's command sandbox (generated; see docs/sandbox.md)",
  ];
  if (spec.mode === "open") {
    lines.push(
      "; outside the sandbox: everything allowed, as the person approved",
      "(allow default)",
    );
    return { text: lines.join("\n") + "\n", params };
  }
  lines.push("(allow default)", "(deny file-write*)");
  const rootRefs = spec.writable.roots.map((root, i) => {
    const name = `WRITABLE_ROOT_${i}`;
    params.push([name, root]);
    return `  (subpath (param "${name}"))`;
  });
  if (rootRefs.length > 0) {
    lines.push(
      "(allow file-write*",
      ...rootRefs.map((r, i) => i === rootRefs.length - 1 ? r + ")" : r),
    );
  }
  lines.push(
    "(allow file-write-data",
    ...DEVICE_RULES.map((r, i) => `  ${r}${i === DEVICE_RULES.length - 1 ? ")" : ""}`),
  );
  const ancestors = homeAncestorsInside(spec.writable);
  if (ancestors.length > 0) {
    lines.push("; the folders leading to wisp's home cannot be renamed or removed");
    const refs = ancestors.map((dir, i) => {
      const name = `HOME_ANCESTOR_${i}`;
      params.push([name, dir]);
      return `  (literal (param "${name}"))`;
    });
    lines.push("(deny file-write*", ...refs.map((r, i) => i === refs.length - 1 ? r + ")" : r));
  }
  if (spec.writable.homeInsideRoot) {
    lines.push(
      "; note: wisp's home lies inside a writable root; the rule below denies it all the same",
    );
  }
  const pinned = spec.writable.pinned ?? [];
  if (pinned.length > 0) {
    lines.push("; the folders leading to protected paths cannot be renamed or removed");
    lines.push(...denyRules(pinned, "PROTECTED_ANCESTOR", "literal", params));
  }
  params.push(["WISP_HOME", spec.writable.home]);
  lines.push("(deny file-write*", '  (subpath (param "WISP_HOME")))');
  const protectedPaths = (spec.writable.protected ?? []).map((p) => p.path);
  if (protectedPaths.length > 0) {
    lines.push(
      "; protected: code that runs later outside the sandbox (src/platform/protected.ts);",
      "; denied by path, so one that does not exist yet cannot be created either",
    );
    lines.push(...denyRules(protectedPaths, "PROTECTED", "subpath", params));
  }
  const sockets = (spec.writable.masked ?? []).map((socket, i) => {
    const name = `HIDDEN_SOCKET_${i}`;
    params.push([name, socket]);
    return `  (remote unix-socket (path-literal (param "${name}")))`;
  });
  if (sockets.length > 0) {
    lines.push(
      "; host programs that would act for the command (docs/sandbox.md): no connection",
      "(deny network-outbound",
      ...sockets.map((r, i) => i === sockets.length - 1 ? r + ")" : r),
    );
  }
  lines.push(
    "; System V IPC reaches other programs' segments, semaphores and queues by key: none of it;",
    "; POSIX shared memory can be read, not created, written or removed",
    "(deny ipc-sysv*)",
    "(deny ipc-posix-shm-write-create ipc-posix-shm-write-data ipc-posix-shm-write-unlink)",
  );
  if (!spec.allowNetwork) {
    lines.push(
      "; the network is off (commandPolicy.sandbox.allowNetwork is false)",
      "(deny network*)",
    );
  }
  return { text: lines.join("\n") + "\n", params };
}

/** One `(deny file-write* …)` rule over `paths`, each passed as a parameter. */
function denyRules(
  paths: string[],
  prefix: string,
  filter: "literal" | "subpath",
  params: Array<[string, string]>,
): string[] {
  const refs = paths.map((path, i) => {
    const name = `${prefix}_${i}`;
    params.push([name, path]);
    return `  (${filter} (param "${name}"))`;
  });
  return ["(deny file-write*", ...refs.map((r, i) => i === refs.length - 1 ? r + ")" : r)];
}

export function sandboxExecLaunch(spec: LaunchSpec): Launch {
  const profile = seatbeltProfile(spec);
  const args = ["-p", profile.text];
  for (const [name, value] of profile.params) args.push("-D", `${name}=${value}`);
  // sandbox-exec has no --chdir: the runner starts it in spec.cwd.
  args.push(...spec.inner);
  return { program: SANDBOX_EXEC, args, profile: profile.text };
}

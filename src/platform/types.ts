/**
 * What the rest of wisp asks of the platform: how to start a command under
 * the OS sandbox (or deliberately without it), and which paths it may write.
 * One interface, two implementations: linux/ (bubblewrap) and darwin/
 * (sandbox-exec with a generated Seatbelt profile).
 */

import type { Protection } from "./protected.ts";

/** The writable set, every path realpath'd as the kernel will see it. */
export interface WritableSet {
  /** Roots a confined command may write under (deduplicated, parents before children). */
  roots: string[];
  /** wisp's own home, realpath'd: never writable, even when it lies inside a root. */
  home: string;
  /** The home lies inside one of the roots (the profile says so in a note). */
  homeInsideRoot: boolean;
  /** Configured writable paths that do not exist yet (darwin allows them by prefix; linux cannot bind them). */
  missing: string[];
  /** Roots refused because a symlink on their way lies where a command could have planted it. */
  refused?: string[];
  /** Daemon sockets hidden from confined commands (Linux). */
  masked?: string[];
  /**
   * Paths read-only even inside a root (src/platform/protected.ts), realpath'd, each inside
   * or above a root: on Linux the ones that exist, on a Mac all (denied by path).
   */
  protected?: Protection[];
  /** Protected paths inside a root that do not exist yet: bubblewrap cannot keep them from being created (Linux). */
  unguarded?: Protection[];
  /** Protections lifted by commandPolicy.sandbox.unprotectedPaths (warned at each launch). */
  unprotected?: string[];
  /** Folders between a root and a protected path, pinned so they cannot be renamed (paths.ts). */
  pinned?: string[];
  /** Protected files that share their inode with another name a command might write through. */
  shared?: string[];
}

/** How a command is started: confined by the profile, or through the launcher with everything allowed. */
export type LaunchMode = "confined" | "open";

export interface LaunchSpec {
  mode: LaunchMode;
  writable: WritableSet;
  allowNetwork: boolean;
  /** Where the command starts. */
  cwd: string;
  /** The program and arguments to run inside (the supervisor). */
  inner: string[];
}

export interface Launch {
  /** The launcher: the only program the permission fence lets wisp start. */
  program: string;
  args: string[];
  /** darwin: the generated profile text (for diagnostics and golden tests). */
  profile?: string;
}

export interface Platform {
  os: "linux" | "darwin";
  /** The launcher program (bwrap, sandbox-exec). */
  launcher: string;
  /** The argv that starts `spec.inner` as the spec says. */
  launch(spec: LaunchSpec): Launch;
  /** The shell script that supervises a command inside the launcher (src/exec/supervisor.ts). */
  supervisorFlavour: "pidns" | "pgroup";
}

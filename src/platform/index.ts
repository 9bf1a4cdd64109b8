/**
 * The platform: one interface (types.ts) and its two implementations, picked
 * by the OS wisp runs on. Also the nested-sandbox probe, decided once per
 * process by starting the launcher on `true` — never from a command's output.
 */
import type { Config } from "../config/schema.ts";
import type { HomePaths } from "../config/home.ts";
import type { LaunchSpec, Platform, WritableSet } from "./types.ts";
import { BWRAP, bwrapLaunch } from "./linux/bwrap.ts";
import { SANDBOX_EXEC, sandboxExecLaunch } from "./darwin/seatbelt.ts";
import { writableSet } from "./paths.ts";
import { runHelper } from "./helper_process.ts";
import { hostOs } from "./os.ts";

export type { Launch, LaunchMode, LaunchSpec, Platform, WritableSet } from "./types.ts";
export {
  homeAncestorsInside,
  isInside,
  realpathLongest,
  writableSet,
  writeAllowed,
} from "./paths.ts";

export const linux: Platform = {
  os: "linux",
  launcher: BWRAP,
  launch: bwrapLaunch,
  supervisorFlavour: "pidns",
};

export const darwin: Platform = {
  os: "darwin",
  launcher: SANDBOX_EXEC,
  launch: sandboxExecLaunch,
  supervisorFlavour: "pgroup",
};

export function currentPlatform(os: string = hostOs()): Platform {
  if (os === "darwin") return darwin;
  if (os === "linux") return linux;
  throw new Error(`wisp's sandbox runs on macOS and Linux, not on ${os}`);
}

/** The writable set for commands launched in `root` (what edit_file confines its writes to as well). */
export function writableRoots(config: Config, root: string, home: HomePaths): WritableSet {
  return writableSet({ config, root, home: home.root });
}

/** What the probe found. */
export type ProbeResult =
  | { state: "ok" }
  | { state: "nested"; detail: string }
  | { state: "missing"; detail: string };

function probeSpec(): LaunchSpec {
  return {
    mode: "confined",
    writable: { roots: [], home: "/", homeInsideRoot: false, missing: [] },
    allowNetwork: false,
    cwd: "/",
    inner: ["/usr/bin/true"],
  };
}

async function probe(platform: Platform): Promise<ProbeResult> {
  const launch = platform.launch(probeSpec());
  // The launcher on `true` ends at once; the limit is for a launcher that hangs.
  const out = await runHelper(launch, { stderr: "keep", timeoutMs: 30_000 });
  if (!out.started) {
    return {
      state: "missing",
      detail: out.notFound ? `${launch.program} is not installed` : out.reason,
    };
  }
  if (out.ok) return { state: "ok" };
  const detail = new TextDecoder().decode(out.stderr).trim().split("\n")[0] ?? "";
  return {
    state: "nested",
    detail: detail || `${launch.program} exited with status ${out.code}`,
  };
}

let probed: Promise<ProbeResult> | undefined;

/** Whether wisp runs inside another sandbox (its launcher cannot start), decided once per process. */
export function nestedSandboxProbe(platform: Platform = currentPlatform()): Promise<ProbeResult> {
  probed ??= probe(platform);
  return probed;
}

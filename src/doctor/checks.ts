/**
 * The findings `wisp doctor` reports about the install itself: the OS, the
 * sandbox launcher, config.json, wisp's home, and the permission fence.
 */
import { join } from "node:path";
import { hostOsCheck, launcherCheck } from "../platform/host_checks.ts";
import { hasModeBits } from "../platform/os.ts";
import { type Finding, notOkFrom } from "./finding.ts";
import { ensureHome, type HomePaths } from "../config/home.ts";
import { loadConfig } from "../config/load.ts";
import { writeFileAtomicSync } from "../util/atomic.ts";
import { messageOf } from "../util/errors.ts";

/** The OS name and version; macOS must be 27 or later for the on-device model. */
export function osFinding(): Finding {
  return hostOsCheck();
}

/** The sandbox launcher is there: sandbox-exec on a Mac, bwrap on PATH elsewhere. */
export function launcherFinding(): Finding {
  return launcherCheck();
}

/** config.json is absent (defaults apply) or parses and validates. */
export function configFinding(paths: HomePaths): Finding {
  try {
    const loaded = loadConfig(paths.config);
    return loaded.exists
      ? { ok: true, name: "config", detail: `${paths.config} parses` }
      : { ok: true, name: "config", detail: `no ${paths.config}; defaults apply` };
  } catch (error) {
    return notOkFrom("config", messageOf(error));
  }
}

/** The home exists (doctor creates it), is 0700, and takes a write. */
export function homeFinding(paths: HomePaths): Finding {
  try {
    ensureHome(paths);
    const probe = join(paths.root, ".doctor-probe");
    writeFileAtomicSync(probe, "probe\n");
    Deno.removeSync(probe);
    const mode = (Deno.statSync(paths.root).mode ?? 0o700) & 0o777;
    if (hasModeBits() && mode !== 0o700) {
      return {
        ok: false,
        name: "home",
        detail: `${paths.root} is mode ${mode.toString(8)}`,
        fix: `run chmod 700 ${paths.root} so only you can read it`,
      };
    }
    return { ok: true, name: "home", detail: `${paths.root} writable` };
  } catch (error) {
    return {
      ok: false,
      name: "home",
      detail: `${paths.root} is not writable (${messageOf(error)})`,
      fix: "fix its owner or set WISP_HOME",
    };
  }
}

type RunDescriptor = Deno.PermissionDescriptor;

function granted(descriptor: RunDescriptor): boolean {
  return Deno.permissions.querySync(descriptor).state === "granted";
}

/**
 * The permission fence (deno.json "permissions.wisp") is in force: wisp may
 * start only the sandbox launchers, and reach only loopback servers and the
 * Hugging Face Hub (for pulls).
 */
export function fenceFinding(): Finding {
  const problems: string[] = [];
  if (granted({ name: "run" })) problems.push("any program may be started");
  else if (granted({ name: "run", command: "sh" })) problems.push("sh may be started directly");
  if (granted({ name: "net" })) problems.push("any network host may be reached");
  else if (granted({ name: "net", host: "example.com" })) {
    problems.push("hosts other than loopback and the Hugging Face Hub may be reached");
  }
  if (granted({ name: "ffi" })) problems.push("native libraries may be loaded");
  if (problems.length > 0) {
    return {
      ok: false,
      name: "permission fence",
      detail: `not in force: ${problems.join(", ")}`,
      fix: "run wisp as built (deno task compile) or with deno task wisp",
    };
  }
  const launchers = ["bwrap", "sandbox-exec"].filter((c) => granted({ name: "run", command: c }));
  return {
    ok: true,
    name: "permission fence",
    detail: `starts only ${
      launchers.join(" and ") || "no program"
    }; network to loopback and the Hugging Face Hub only`,
  };
}

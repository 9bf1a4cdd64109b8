/**
 * What doctor checks about the host that depends on the OS: which OS it is
 * and whether it is one wisp supports (and, on a Mac, new enough for the
 * on-device model), and whether the sandbox launcher of that OS is there.
 * Each answer has the shape of a doctor finding, so doctor reports it as is.
 */
import { whichProgram } from "./which.ts";
import { SANDBOX_EXEC } from "./darwin/seatbelt.ts";
import { hostOs } from "./os.ts";

/** One check's answer: ok or not, what was found, and what to do when not ok. */
export interface HostCheck {
  ok: boolean;
  name: string;
  detail: string;
  fix?: string;
}

function readTextOr(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** The OS name and version; macOS must be 27 or later for the on-device model. */
export function hostOsCheck(os: string = hostOs()): HostCheck {
  if (os === "darwin") {
    const plist = readTextOr("/System/Library/CoreServices/SystemVersion.plist") ?? "";
    const version = /<key>ProductVersion<\/key>\s*<string>([^<]+)<\/string>/.exec(plist)?.[1];
    if (!version) {
      return {
        ok: false,
        name: "macOS",
        detail: "cannot read the macOS version",
        fix: "check that /System/Library/CoreServices/SystemVersion.plist is readable",
      };
    }
    const major = Number(version.split(".")[0]);
    return major >= 27 ? { ok: true, name: "macOS", detail: version } : {
      ok: false,
      name: "macOS",
      detail: version,
      fix: "wisp needs macOS 27 or later for the on-device model; update macOS",
    };
  }
  if (os === "linux") {
    const release = readTextOr("/etc/os-release") ?? "";
    const pretty = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(release)?.[1] ?? "Linux";
    return {
      ok: true,
      name: "os",
      detail:
        `${pretty}, kernel ${Deno.osRelease()}; no on-device model here: use Ollama, llama.cpp or LM Studio`,
    };
  }
  return {
    ok: false,
    name: "os",
    detail: `${os} is not supported`,
    fix: "wisp runs on macOS and Linux",
  };
}

/** The sandbox launcher is there: sandbox-exec on a Mac, bwrap on PATH elsewhere. */
export function launcherCheck(os: string = hostOs()): HostCheck {
  if (os === "darwin") {
    try {
      Deno.statSync(SANDBOX_EXEC);
      return { ok: true, name: "sandbox", detail: `${SANDBOX_EXEC} present` };
    } catch {
      return {
        ok: false,
        name: "sandbox",
        detail: `${SANDBOX_EXEC} is missing`,
        fix: "commands cannot be confined without it; restore it (it ships with macOS)",
      };
    }
  }
  const bwrap = whichProgram("bwrap");
  return bwrap ? { ok: true, name: "sandbox", detail: `${bwrap} present` } : {
    ok: false,
    name: "sandbox",
    detail: "bwrap (bubblewrap) is not on PATH",
    fix: "install it (apt install bubblewrap) so commands can be confined",
  };
}

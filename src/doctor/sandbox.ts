/**
 * Doctor's live sandbox probe: start the launcher as a command would be
 * started, confined to the writable set of this folder, and try two writes —
 * one into wisp's home, which must be refused, and one into the temporary
 * directory, which must succeed. A sandbox that lets the first through is
 * broken; one that refuses both would refuse every command.
 */
import { join } from "node:path";
import type { Config } from "../config/schema.ts";
import { ensureHome, type HomePaths } from "../config/home.ts";
import {
  currentPlatform,
  nestedSandboxProbe,
  type Platform,
  writableRoots,
} from "../platform/index.ts";
import { tempDirs } from "../platform/paths.ts";
import type { Finding } from "./finding.ts";
import { messageOf } from "../util/errors.ts";

/** The probe's shell line: prints which of the two writes succeeded. */
export function probeScript(outside: string, inside: string): string {
  const q = (p: string) => `'${p.replaceAll("'", `'\\''`)}'`;
  return `(echo x > ${q(outside)}) 2>/dev/null && echo outside-written; ` +
    `(echo x > ${q(inside)}) 2>/dev/null && echo inside-written; rm -f ${q(inside)}`;
}

export async function sandboxProbeFinding(
  config: Config,
  paths: HomePaths,
  root: string,
  platform: Platform = currentPlatform(),
): Promise<Finding> {
  const name = "sandbox probe";
  if (!config.commandPolicy.sandbox.enabled) {
    return {
      ok: false,
      name,
      detail:
        "the sandbox is off (commandPolicy.sandbox.enabled is false); commands can write anywhere you can",
    };
  }
  const nested = await nestedSandboxProbe(platform);
  if (nested.state === "missing") return { ok: false, name, detail: nested.detail };
  if (nested.state === "nested") {
    return {
      ok: true,
      name,
      detail: `wisp runs inside another sandbox (${nested.detail}); commands run under that one`,
    };
  }
  try {
    ensureHome(paths);
    const tag = crypto.randomUUID().slice(0, 8);
    const outside = join(paths.root, `.sandbox-probe-${tag}`);
    const temp = tempDirs(Deno.build.os, (n) => Deno.env.get(n))[0] ?? "/tmp";
    const inside = join(Deno.realPathSync(temp), `wisp-sandbox-probe-${tag}`);
    const launch = platform.launch({
      mode: "confined",
      writable: writableRoots(config, root, paths),
      allowNetwork: false,
      cwd: root,
      inner: ["/bin/sh", "-c", probeScript(outside, inside)],
    });
    const out = await new Deno.Command(launch.program, {
      args: launch.args,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      cwd: root,
    }).output();
    const said = new TextDecoder().decode(out.stdout);
    try {
      Deno.removeSync(outside);
    } catch { /* refused, as it should be */ }
    if (said.includes("outside-written")) {
      return {
        ok: false,
        name,
        detail:
          `a confined command wrote into ${paths.root}; the sandbox does not hold — do not run model commands until it does`,
      };
    }
    if (!said.includes("inside-written")) {
      return {
        ok: false,
        name,
        detail:
          `a confined command could not write into ${temp} either; every command would fail: check ${platform.launcher}`,
      };
    }
    return {
      ok: true,
      name,
      detail: `a write into wisp's home was refused, one into ${temp} went through`,
    };
  } catch (error) {
    return { ok: false, name, detail: `could not run ${platform.launcher} (${messageOf(error)})` };
  }
}

/**
 * Doctor's live sandbox probe: start the launcher as a command would be
 * started, confined to the writable set of this folder, and try the writes
 * that tell — one into wisp's home, which must be refused, one into the
 * temporary directory, which must succeed, and, when a protected folder lies
 * inside a root here (a repository's .git/hooks, wisp's own source tree), a
 * new file in it, which must be refused (src/platform/protected.ts). A
 * sandbox that lets a refused one through is broken; one that refuses the
 * temporary write would refuse every command.
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
import { isInside, tempDirs } from "../platform/paths.ts";
import { runHelper } from "../platform/helper_process.ts";
import { hostOs } from "../platform/os.ts";
import type { Protection } from "../platform/protected.ts";
import type { WritableSet } from "../platform/types.ts";
import type { Finding } from "./finding.ts";
import { messageOf } from "../util/errors.ts";

/** The probe's shell line: prints which of the writes succeeded. */
function probeScript(outside: string, inside: string, guarded?: string): string {
  const q = (p: string) => `'${p.replaceAll("'", `'\\''`)}'`;
  return `(echo x > ${q(outside)}) 2>/dev/null && echo outside-written; ` +
    (guarded ? `(echo x > ${q(guarded)}) 2>/dev/null && echo protected-written; ` : "") +
    `(echo x > ${q(inside)}) 2>/dev/null && echo inside-written; rm -f ${q(inside)}`;
}

/** A protected folder that exists inside a root, to try a new file in (none: that write is skipped). */
function protectedFolder(set: WritableSet, root: string): Protection | undefined {
  const folders = (set.protected ?? []).filter((p) => {
    try {
      return Deno.statSync(p.path).isDirectory && set.roots.some((r) => isInside(p.path, r));
    } catch {
      return false;
    }
  });
  // One of this folder's own (its repository's hooks) says the most about it.
  return folders.find((p) => isInside(p.path, root)) ?? folders[0];
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
        "the sandbox is off (commandPolicy.sandbox.enabled is false): commands can write anywhere you can",
      fix: "wisp config set commandPolicy.sandbox.enabled true",
    };
  }
  const nested = await nestedSandboxProbe(platform);
  if (nested.state === "missing") {
    return {
      ok: false,
      name,
      detail: nested.detail,
      fix: "install the launcher (the sandbox finding says which) so commands can be confined",
    };
  }
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
    const temp = tempDirs(hostOs(), (n) => Deno.env.get(n))[0] ?? "/tmp";
    const inside = join(Deno.realPathSync(temp), `wisp-sandbox-probe-${tag}`);
    const writable = writableRoots(config, root, paths);
    const folder = protectedFolder(writable, Deno.realPathSync(root));
    const guarded = folder ? join(folder.path, `.wisp-sandbox-probe-${tag}`) : undefined;
    const launch = platform.launch({
      mode: "confined",
      writable,
      allowNetwork: false,
      cwd: root,
      inner: ["/bin/sh", "-c", probeScript(outside, inside, guarded)],
    });
    // The script is three echoes; the limit is for a launcher that hangs.
    const out = await runHelper(launch, { cwd: root, stdout: "keep", timeoutMs: 30_000 });
    if (!out.started) throw new Error(out.reason);
    const said = new TextDecoder().decode(out.stdout);
    for (const path of [outside, guarded]) {
      try {
        if (path) Deno.removeSync(path);
      } catch { /* refused, as it should be */ }
    }
    if (said.includes("outside-written")) {
      return {
        ok: false,
        name,
        detail: `a confined command wrote into ${paths.root}; the sandbox does not hold`,
        fix:
          "do not run model commands until it does; check the launcher's version and the kernel's user namespaces",
      };
    }
    if (said.includes("protected-written")) {
      return {
        ok: false,
        name,
        detail: `a confined command wrote into ${folder!.path}, which must stay read-only (${
          folder!.why
        }); the sandbox does not hold`,
        fix: "do not run model commands until it does; check the launcher's version",
      };
    }
    if (!said.includes("inside-written")) {
      return {
        ok: false,
        name,
        detail:
          `a confined command could not write into ${temp} either, so every command would fail`,
        fix: `check ${platform.launcher} (run it by hand, as the sandbox finding names it)`,
      };
    }
    const also = folder ? `, so was one into ${folder.path} (protected)` : "";
    return {
      ok: true,
      name,
      detail: `a write into wisp's home was refused${also}, one into ${temp} went through`,
    };
  } catch (error) {
    return {
      ok: false,
      name,
      detail: `could not run ${platform.launcher} (${messageOf(error)})`,
      fix: "install it, or check that it is on PATH",
    };
  }
}

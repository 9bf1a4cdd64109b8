/**
 * `wisp doctor` — one line per finding, ok or not ok, each with a detail and,
 * when not ok, what to do; `--json` prints the same findings as objects for
 * scripts and bug reports. Exit 1 when any is not ok.
 */
import { dirname } from "node:path";
import { hostOs } from "../platform/os.ts";
import { loadAbiVersion } from "../platform/libc.ts";
import { fileURLToPath } from "node:url";
import { load } from "./lazy.ts";
import type { Command } from "commander";

/** The live probe needs a config that loads; a malformed one is reported by the config finding. */
async function sandboxFinding(paths: import("../config/home.ts").HomePaths) {
  const { loadConfig } = await load<typeof import("../config/load.ts")>(
    import.meta.resolve("../config/load.ts"),
  );
  const { sandboxProbeFinding } = await load<typeof import("../doctor/sandbox.ts")>(
    import.meta.resolve("../doctor/sandbox.ts"),
  );
  let config;
  try {
    config = loadConfig(paths.config).config;
  } catch {
    return [];
  }
  return [await sandboxProbeFinding(config, paths, Deno.cwd())];
}

/** The findings that read the world doctor runs in: front end, notifications, native library. */
async function hereFindings(paths: import("../config/home.ts").HomePaths) {
  const { loadConfig } = await load<typeof import("../config/load.ts")>(
    import.meta.resolve("../config/load.ts"),
  );
  const frontEnd = await load<typeof import("../doctor/front_end.ts")>(
    import.meta.resolve("../doctor/front_end.ts"),
  );
  const native = await load<typeof import("../doctor/native.ts")>(
    import.meta.resolve("../doctor/native.ts"),
  );
  const { notificationFinding } = await load<typeof import("../doctor/notify_route.ts")>(
    import.meta.resolve("../doctor/notify_route.ts"),
  );
  const { realWorld } = await load<typeof import("../notify/world.ts")>(
    import.meta.resolve("../notify/world.ts"),
  );
  const { NOT_BUILT } = await load<typeof import("./program.ts")>(
    import.meta.resolve("./program.ts"),
  );
  const { BUILD } = await load<typeof import("../build_info.ts")>(
    import.meta.resolve("../build_info.ts"),
  );
  // A compiled wisp is its executable; run from source, wisp is the source tree.
  const compiled = BUILD.kind !== "source";
  const sourceRoot = fileURLToPath(new URL("../..", import.meta.url));
  const binaryDir = compiled ? dirname(Deno.execPath()) : undefined;
  const findings = [
    frontEnd.frontEndFinding({
      chatBuilt: !NOT_BUILT.some((words) => words.length === 1 && words[0] === "chat"),
      stdinTerminal: Deno.stdin.isTerminal(),
      stdoutTerminal: Deno.stdout.isTerminal(),
      term: Deno.env.get("TERM"),
    }),
  ];
  let config;
  try {
    config = loadConfig(paths.config).config;
  } catch {
    findings.push({
      ok: false,
      name: "notifications",
      detail: "cannot tell the route: config.json is malformed (see the config finding)",
    });
  }
  if (config) {
    // As wisp respond and chat post them: with the terminal wisp runs in.
    findings.push(
      await notificationFinding(realWorld({ terminal: true }), config.notifications),
    );
  }
  findings.push(native.nativeFinding({
    os: hostOs(),
    env: (name) => Deno.env.get(name),
    binaryDir,
    sourceRoot: compiled ? undefined : sourceRoot,
    exists: native.fileExists,
    abiVersion: loadAbiVersion,
  }));
  return findings;
}

async function doctor(flags: { json?: boolean }): Promise<void> {
  const { homePaths } = await load<typeof import("../config/home.ts")>(
    import.meta.resolve("../config/home.ts"),
  );
  const checks = await load<typeof import("../doctor/checks.ts")>(
    import.meta.resolve("../doctor/checks.ts"),
  );
  const { renderFinding, findingJson } = await load<typeof import("../doctor/finding.ts")>(
    import.meta.resolve("../doctor/finding.ts"),
  );
  const { stateFindings } = await load<typeof import("../doctor/state_files.ts")>(
    import.meta.resolve("../doctor/state_files.ts"),
  );
  const { parseLiveFile } = await load<typeof import("../faces/mcp/live_approvals.ts")>(
    import.meta.resolve("../faces/mcp/live_approvals.ts"),
  );
  const { versionString } = await load<typeof import("./version.ts")>(
    import.meta.resolve("./version.ts"),
  );
  const { outLine, cliState, colourEnabled, palette, stdoutIsTerminal } = await load<
    typeof import("./io.ts")
  >(import.meta.resolve("./io.ts"));
  const paths = homePaths();
  const colour = palette(colourEnabled(stdoutIsTerminal()));
  const findings = [
    // The form the banner prints, so a report names the exact build.
    { ok: true, name: "version", detail: versionString() },
    checks.osFinding(),
    checks.launcherFinding(),
    ...(await sandboxFinding(paths)),
    checks.configFinding(paths),
    checks.homeFinding(paths),
    checks.fenceFinding(),
    ...(await (await load<typeof import("../doctor/model.ts")>(
      import.meta.resolve("../doctor/model.ts"),
    )).modelFindings(paths)),
    ...(await (await load<typeof import("../doctor/classifier.ts")>(
      import.meta.resolve("../doctor/classifier.ts"),
    )).classifierFindings(paths)),
    ...(await hereFindings(paths)),
    ...stateFindings(paths, { isLiveServerFile: (text) => parseLiveFile(text) !== undefined }),
  ];
  const ok = findings.every((f) => f.ok);
  if (flags.json) {
    outLine(JSON.stringify({ ok, findings: findings.map(findingJson) }, null, 2));
  } else {
    for (const finding of findings) outLine(renderFinding(finding, colour));
  }
  if (!ok) cliState.exitCode = 1;
}

/** Adds `wisp doctor` to the command line. */
export function register(program: Command): void {
  program
    .command("doctor")
    .description("check that this install can work; exits 1 when anything is not ok")
    .option("--json", 'print {"ok", "findings": [{"name", "ok", "detail", "fix"}]} on stdout')
    .action(doctor);
}

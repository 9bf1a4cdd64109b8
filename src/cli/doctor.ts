/**
 * `wisp doctor` — one line per finding, ok or not ok, each with a detail that
 * says what to do; exit 1 when any is not ok. Later work adds findings to
 * `doctorChecks`.
 */
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

async function doctor(flags: { json?: boolean }): Promise<void> {
  const { homePaths } = await load<typeof import("../config/home.ts")>(
    import.meta.resolve("../config/home.ts"),
  );
  const checks = await load<typeof import("../doctor/checks.ts")>(
    import.meta.resolve("../doctor/checks.ts"),
  );
  const { renderFinding } = await load<typeof import("../doctor/finding.ts")>(
    import.meta.resolve("../doctor/finding.ts"),
  );
  const { outLine, cliState, colourEnabled, palette, stdoutIsTerminal } = await load<
    typeof import("./io.ts")
  >(import.meta.resolve("./io.ts"));
  const paths = homePaths();
  const colour = palette(colourEnabled(stdoutIsTerminal()));
  const findings = [
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
  ];
  const ok = findings.every((f) => f.ok);
  if (flags.json) {
    outLine(JSON.stringify({ ok, findings }, null, 2));
  } else {
    for (const finding of findings) outLine(renderFinding(finding, colour));
  }
  if (!ok) cliState.exitCode = 1;
}

export function register(program: Command): void {
  program
    .command("doctor")
    .description("check that this install can work; exits 1 when anything is not ok")
    .option("--json", 'print {"ok", "findings": [{"name", "ok", "detail"}]} on stdout')
    .action(doctor);
}

/**
 * A doctor finding: ok or not, never a third state; a caveat on an ok goes in
 * its detail. Each check is its own function so later work can add findings
 * (model, classifier, native library, front end) without touching the others.
 */
import type { Config } from "../config/schema.ts";
import type { HomePaths } from "../config/home.ts";
import { loadConfig } from "../config/load.ts";

export interface Finding {
  ok: boolean;
  name: string;
  detail: string;
}

export function renderFinding(
  finding: Finding,
  colour: { ok(s: string): string; bad(s: string): string },
): string {
  // "ok" and "not ok" as the spec prints them: ok   name / not ok name.
  const status = finding.ok ? colour.ok("ok") + "  " : colour.bad("not ok");
  return `${status} ${finding.name}: ${finding.detail}`;
}

export type Check = () => Finding | Finding[] | Promise<Finding | Finding[]>;

/**
 * Findings that depend on config.json: `check` with the loaded config, or one
 * finding saying `what` cannot be told when the file is malformed (the config
 * finding names the fault; this one does not repeat it).
 */
export async function withConfig(
  paths: HomePaths,
  name: string,
  what: string,
  check: (config: Config) => Promise<Finding[]>,
): Promise<Finding[]> {
  let config: Config;
  try {
    config = loadConfig(paths.config).config;
  } catch {
    return [{
      ok: false,
      name,
      detail: `cannot tell ${what}: config.json is malformed (see the config finding)`,
    }];
  }
  return await check(config);
}

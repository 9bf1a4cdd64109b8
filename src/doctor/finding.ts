/**
 * A doctor finding: ok or not, never a third state; a caveat on an ok goes in
 * its detail. Each check is its own function so later work can add findings
 * (model, classifier, native library, front end) without touching the others.
 */
import type { Finding } from "./finding_type.ts";
import type { Config } from "../config/schema.ts";
import type { HomePaths } from "../config/home.ts";
import { loadConfig } from "../config/load.ts";

export type { Finding };

/** A finding as `wisp doctor --json` prints it: always all four fields. */
export interface FindingJson {
  name: string;
  ok: boolean;
  detail: string;
  fix: string | null;
}

/** The JSON form of a finding, for scripts and bug reports. */
export function findingJson(finding: Finding): FindingJson {
  return {
    name: finding.name,
    ok: finding.ok,
    detail: finding.detail,
    fix: finding.fix ?? null,
  };
}

/**
 * A finding from one of wisp's error sentences, which name the problem and
 * then, after "; ", what to do: the two halves become detail and fix. A
 * sentence without the second half takes `fallbackFix`.
 */
export function notOkFrom(name: string, message: string, fallbackFix?: string): Finding {
  const at = message.indexOf("; ");
  if (at > 0) return { ok: false, name, detail: message.slice(0, at), fix: message.slice(at + 2) };
  return { ok: false, name, detail: message, ...(fallbackFix ? { fix: fallbackFix } : {}) };
}

export function renderFinding(
  finding: Finding,
  colour: { ok(s: string): string; bad(s: string): string },
): string {
  // "ok" and "not ok" as the spec prints them: ok   name / not ok name.
  const status = finding.ok ? colour.ok("ok") + "  " : colour.bad("not ok");
  const fix = finding.fix ? `; ${finding.fix}` : "";
  return `${status} ${finding.name}: ${finding.detail}${fix}`;
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

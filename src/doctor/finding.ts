/**
 * A doctor finding: ok or not, never a third state; a caveat on an ok goes in
 * its detail. Each check is its own function so later work can add findings
 * (model, classifier, native library, front end) without touching the others.
 */
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

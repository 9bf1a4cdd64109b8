/** Shared helpers for the gate's tests: analyse a line the way the gate does. */
import { initShellParser, parseLine } from "../../src/gate/parse.ts";
import { analyse, type Analysis } from "../../src/gate/analyse.ts";
import { type Classification, classify } from "../../src/gate/rules.ts";
import {
  evaluatePolicy,
  type PolicyConfig,
  type PolicyContext,
  type PolicyDecision,
} from "../../src/gate/policy.ts";

export const USER_HOME = "/home/tester";
export const CWD = "/home/tester/project";
export const HOME = { root: "/home/tester/.wisp" };

await initShellParser();

export function analysed(line: string, cwd = CWD): Analysis {
  return analyse(parseLine(line), { cwd, userHome: USER_HOME, env: {} });
}

export function rate(line: string, cwd = CWD): Classification {
  return classify(analysed(line, cwd));
}

export function policy(
  line: string,
  config: Partial<PolicyConfig> = {},
  context: PolicyContext = {},
  cwd = CWD,
): PolicyDecision {
  return evaluatePolicy(analysed(line, cwd), { deny: [], allow: [], ...config }, HOME, context);
}

/** deny, or the rules' level, as `wisp classifier measure` reports it. */
export function verdict(line: string, cwd = CWD): string {
  const a = analysed(line, cwd);
  const p = evaluatePolicy(a, { deny: [], allow: [] }, HOME);
  return p.allowed ? classify(a).level : "deny";
}

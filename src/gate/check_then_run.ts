/**
 * The one "gate, then run" step. Every path that runs a command line — the
 * run_command tool and the custom tools built on it, the process tool's
 * background start, triage/draft/watch/flaky_tests' commands, `wisp
 * sandbox`, and the person's own `!` commands — goes through here:
 *
 *   1. the gate checks the whole line (policy, classifier, remembered
 *      approvals, the person); the gate records its own audit events;
 *   2. a refused line never runs, and the refusal is returned as the gate
 *      wrote it;
 *   3. a line approved after the caller's signal was aborted (the turn was
 *      stopped while the person was being asked) does not start;
 *   4. otherwise the caller's runner starts it, with the gate's decision at
 *      hand (the runner itself records the command's outcome).
 *
 * Which runner (wait for the result, start in the background, pass stdio
 * through) stays the caller's choice; what may run does not.
 */
/** What any gate's answer has: whether the line may run, and the refusal when not. */
export interface Verdict {
  allowed: boolean;
  refusal?: string;
}

/** Anything that checks a line: the gate itself, or the session's view of it for a tool. */
export interface LineChecker<C, D extends Verdict> {
  check(line: string, context: C): Promise<D>;
}

/** How a gated run ended. */
export type GatedRun<D extends Verdict, T> =
  | { ran: true; decision: D; result: T }
  | { ran: false; decision: D; refusal: string }
  | { ran: false; decision: D; stopped: true };

/** Check `line` with `gate`, then run it with `run` when, and only when, it may run. */
export async function checkThenRun<C, D extends Verdict, T>(
  gate: LineChecker<C, D>,
  line: string,
  context: C,
  run: (decision: D) => Promise<T>,
  signal?: AbortSignal,
): Promise<GatedRun<D, T>> {
  const decision = await gate.check(line, context);
  if (!decision.allowed) {
    return {
      ran: false,
      decision,
      refusal: decision.refusal ?? "error: command not approved",
    };
  }
  if (signal?.aborted) return { ran: false, decision, stopped: true };
  return { ran: true, decision, result: await run(decision) };
}

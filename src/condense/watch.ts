/**
 * `wisp watch`, the parts with no I/O: which changed paths count (the fixed
 * ignore list, editor scratch files, the root's .gitignore), the run line,
 * whether an outcome turned, and the notification text. The loop itself
 * (file events, timers, the gate and the runner, signals) is in
 * src/cli/watch.ts.
 */
import ignore from "ignore";

/** Folders whose changes never start a run: VCS, build output, dependencies, caches. */
const IGNORED_DIRS = new Set([
  ".git",
  ".hg",
  ".svn",
  ".build",
  ".swiftpm",
  "target",
  "node_modules",
  "DerivedData",
  ".venv",
  "venv",
  "__pycache__",
  "dist",
  ".next",
  ".cache",
  ".pytest_cache",
  ".mypy_cache",
  ".gradle",
  ".idea",
]);

/** Editor scratch files: vim swap and its 4913 probe, emacs locks and autosaves, backups, JetBrains and VS Code temp files. */
const SCRATCH =
  /(?:^\.?.*\.sw[a-p x]$|^4913$|^\.#|^#.*#$|~$|\.tmp$|\.crswap$|___jb_(?:tmp|old)___$|^\.DS_Store$)/;

function isScratch(name: string): boolean {
  return SCRATCH.test(name);
}

export interface ChangeFilter {
  /** Whether a change to this path (relative to the root, `/`-separated) starts a run. */
  counts(relative: string): boolean;
}

/** The fixed rules, plus the root's .gitignore when it has one. */
export function changeFilter(gitignore?: string): ChangeFilter {
  const ig = gitignore ? ignore().add(gitignore) : undefined;
  return {
    counts(relative: string): boolean {
      const rel = relative.replace(/\\/g, "/").replace(/^\.\//, "");
      if (rel === "" || rel.startsWith("../")) return false;
      const parts = rel.split("/");
      if (parts.some((p) => IGNORED_DIRS.has(p))) return false;
      if (isScratch(parts[parts.length - 1])) return false;
      if (ig) {
        try {
          if (ig.ignores(rel)) return false;
        } catch { /* a path the matcher refuses (absolute, ..): count it */ }
      }
      return true;
    },
  };
}

export type RunReason = "start" | "change" | "every";

export interface RunRecord {
  n: number;
  reason: RunReason;
  pass: boolean;
  exitStatus: number | null;
  seconds: number;
  /** When it started. */
  at: Date;
}

function clock(d: Date): string {
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((x) => String(x).padStart(2, "0")).join(
    ":",
  );
}

function seconds(s: number): string {
  return s < 10 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
}

/** `[22:15:34] run 2 (change): pass, exit 0, 1.3 s; was fail` */
export function runLine(run: RunRecord, previous?: RunRecord): string {
  const exit = run.exitStatus === null ? "no exit status" : `exit ${run.exitStatus}`;
  const was = previous && previous.pass !== run.pass
    ? `; was ${previous.pass ? "pass" : "fail"}`
    : "";
  return `[${clock(run.at)}] run ${run.n} (${run.reason}): ${
    run.pass ? "pass" : "fail"
  }, ${exit}, ${seconds(run.seconds)}${was}`;
}

/** The outcome turned: a notification is due. The first run turns nothing. */
export function turned(previous: RunRecord | undefined, run: RunRecord): boolean {
  return previous !== undefined && previous.pass !== run.pass;
}

/** A failure is triaged unless the one before failed too (and so nothing was announced). */
export function shouldTriage(previous: RunRecord | undefined, run: RunRecord): boolean {
  return !run.pass && (previous === undefined || previous.pass);
}

export function notificationFor(
  command: string,
  run: RunRecord,
  headline?: string,
): { title: string; message: string } {
  return {
    title: run.pass ? "wisp watch: passing again" : "wisp watch: now failing",
    message: run.pass
      ? `${command}: run ${run.n} passed`
      : `${command}: run ${run.n} failed${headline ? ` — ${headline}` : ""}`,
  };
}

/** What the watch does once a run has ended (the first run's refusal aside). */
export type AfterRun =
  | "max-runs-reached"
  | "interrupted"
  | "rerun-on-change"
  | "rerun-on-interval"
  | "wait";

/**
 * The plan after a run, pure: --max-runs reached (the exit status is the last
 * run's) or a Ctrl-C seen ends the watch; a change that came during the run schedules one more (after the
 * settle period), else an interval tick that came during it runs at once.
 */
export function afterRun(state: {
  runs: number;
  maxRuns?: number;
  interrupts: number;
  pendingChange: boolean;
  pendingEvery: boolean;
}): AfterRun {
  if (state.maxRuns !== undefined && state.runs >= state.maxRuns) return "max-runs-reached";
  if (state.interrupts > 0) return "interrupted";
  if (state.pendingChange) return "rerun-on-change";
  if (state.pendingEvery) return "rerun-on-interval";
  return "wait";
}

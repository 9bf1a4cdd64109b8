/**
 * The exit status as a result reports it: a signal negated (-15), a status
 * otherwise (docs/adr/0111-supervisor-inside-the-sandbox.md on 128+N).
 */
const SIGNALS: Record<number, string> = {
  1: "SIGHUP",
  2: "SIGINT",
  3: "SIGQUIT",
  4: "SIGILL",
  5: "SIGTRAP",
  6: "SIGABRT",
  7: "SIGBUS",
  8: "SIGFPE",
  9: "SIGKILL",
  10: "SIGUSR1",
  11: "SIGSEGV",
  12: "SIGUSR2",
  13: "SIGPIPE",
  14: "SIGALRM",
  15: "SIGTERM",
};
const SIGNAL_NUMBERS: Record<string, number> = Object.fromEntries(
  Object.entries(SIGNALS).map(([n, name]) => [name, Number(n)]),
);

/**
 * The exit status as the result reports it. A status of 128+N from the
 * shell means it (or the command it ran) was killed by signal N: shells
 * report a signal that way, and the launcher passes it on the same way, so
 * the two cannot be told apart (docs/adr/0111-supervisor-inside-the-sandbox.md).
 */
export function statusOf(
  code: number,
  signal: string | null,
): { exitStatus: number; signal?: string } {
  if (signal) {
    const n = SIGNAL_NUMBERS[signal];
    return { exitStatus: n ? -n : -1, signal };
  }
  if (code > 128 && code < 128 + 32) {
    const n = code - 128;
    return { exitStatus: -n, signal: SIGNALS[n] ?? `signal ${n}` };
  }
  return { exitStatus: code };
}

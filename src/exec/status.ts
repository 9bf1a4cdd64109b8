/**
 * The exit status as a result reports it: a signal negated (-15), a status
 * otherwise (docs/adr/0330-exit-status-or-signal.md on 128+N).
 */
import type { EndKind } from "./supervisor.ts";
import { signalFamily } from "../platform/os.ts";

/** Signal names by number: the first fifteen agree, then Linux and the BSDs (macOS) part. */
const LINUX_SIGNALS = [
  "HUP",
  "INT",
  "QUIT",
  "ILL",
  "TRAP",
  "ABRT",
  "BUS",
  "FPE",
  "KILL",
  "USR1",
  "SEGV",
  "USR2",
  "PIPE",
  "ALRM",
  "TERM",
  "STKFLT",
  "CHLD",
  "CONT",
  "STOP",
  "TSTP",
  "TTIN",
  "TTOU",
  "URG",
  "XCPU",
  "XFSZ",
  "VTALRM",
  "PROF",
  "WINCH",
  "IO",
  "PWR",
  "SYS",
];
const DARWIN_SIGNALS = [
  "HUP",
  "INT",
  "QUIT",
  "ILL",
  "TRAP",
  "ABRT",
  "EMT",
  "FPE",
  "KILL",
  "BUS",
  "SEGV",
  "SYS",
  "PIPE",
  "ALRM",
  "TERM",
  "URG",
  "STOP",
  "TSTP",
  "CONT",
  "CHLD",
  "TTIN",
  "TTOU",
  "IO",
  "XCPU",
  "XFSZ",
  "VTALRM",
  "PROF",
  "WINCH",
  "INFO",
  "USR1",
  "USR2",
];

/** The operating systems whose signal numbers differ. */
export type SignalTable = "linux" | "darwin";

/** SIGNAME for signal number `n` on `os`, or `signal N` for one it does not name. */
export function signalName(n: number, os: SignalTable = hostTable()): string {
  const name = (os === "darwin" ? DARWIN_SIGNALS : LINUX_SIGNALS)[n - 1];
  return name ? `SIG${name}` : `signal ${n}`;
}

/** The number of SIGNAME on `os`, or undefined. */
export function signalNumber(name: string, os: SignalTable = hostTable()): number | undefined {
  const at = (os === "darwin" ? DARWIN_SIGNALS : LINUX_SIGNALS).indexOf(name.replace(/^SIG/, ""));
  return at < 0 ? undefined : at + 1;
}

function hostTable(): SignalTable {
  return signalFamily();
}

/**
 * The exit status as the result reports it. `kind` is how the supervisor's
 * waiter saw the command end: after `exit`, the status is the command's own,
 * 129–159 included; after a `signal`, 128+N means signal N. Without it (`-`,
 * or no trailer: passthrough, a missing perl) a status of 128+N is read the
 * way shells write a signal, since the two cannot be told apart there
 * (docs/adr/0330-exit-status-or-signal.md).
 */
export function statusOf(
  code: number,
  signal: string | null,
  kind: EndKind = "-",
  os: SignalTable = hostTable(),
): { exitStatus: number; signal?: string } {
  if (signal) {
    const n = signalNumber(signal, os);
    return { exitStatus: n ? -n : -1, signal };
  }
  if (kind === "exit") return { exitStatus: code };
  if (kind === "signal" ? code > 128 && code < 256 : code > 128 && code < 128 + 32) {
    const n = code - 128;
    return { exitStatus: -n, signal: signalName(n, os) };
  }
  return { exitStatus: code };
}

/**
 * Signal numbers, which differ by OS: the first fifteen agree, then Linux
 * and the BSDs (macOS, FreeBSD) part. Pure functions of the numbering, whose
 * default is the host's.
 */
import { hostOs } from "./os.ts";

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
export function signalName(n: number, os: SignalTable = signalFamily()): string {
  const name = (os === "darwin" ? DARWIN_SIGNALS : LINUX_SIGNALS)[n - 1];
  return name ? `SIG${name}` : `signal ${n}`;
}

/** The number of SIGNAME on `os`, or undefined. */
export function signalNumber(name: string, os: SignalTable = signalFamily()): number | undefined {
  const at = (os === "darwin" ? DARWIN_SIGNALS : LINUX_SIGNALS).indexOf(name.replace(/^SIG/, ""));
  return at < 0 ? undefined : at + 1;
}

/** Whose signal numbering `os` uses: the BSD one (macOS, FreeBSD) or Linux's. */
export function signalFamily(os: string = hostOs()): SignalTable {
  return os === "darwin" || os === "freebsd" ? "darwin" : "linux";
}

/** The signals that end a long-running wisp server on `os` (none where signals do not exist). */
export function stopSignals(os: string = hostOs()): Deno.Signal[] {
  return os === "windows" ? [] : ["SIGINT", "SIGTERM", "SIGHUP"];
}

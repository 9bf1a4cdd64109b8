/**
 * The exit status as a result reports it: a signal negated (-15), a status
 * otherwise (docs/adr/0330-exit-status-or-signal.md on 128+N).
 */
import type { EndKind } from "./supervisor.ts";
import { signalFamily, signalName, signalNumber, type SignalTable } from "../platform/signals.ts";

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
  os: SignalTable = signalFamily(),
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

/**
 * What the MCP face asks of the process table: the kernel's facts about a
 * process of the same user (src/platform/process_table.ts, read through the
 * C library), behind a `Prober` so that tests can hand in facts of their own.
 * `undefined` means "cannot tell", and callers fail closed on it.
 */
import { type ProcessFacts, processFacts } from "./process_table.ts";

export type { ProcessFacts };

export type Prober = (pid: number) => Promise<ProcessFacts | undefined>;

/** The facts about a process, or undefined when they cannot be had here. */
export function probeProcess(pid: number): Promise<ProcessFacts | undefined> {
  try {
    return Promise.resolve(processFacts(pid));
  } catch {
    return Promise.resolve(undefined);
  }
}

/**
 * The shape of one doctor finding, in a module of its own that imports
 * nothing, so that a check with no other dependency (state.ts) can be run by
 * a test as an ordinary user. finding.ts re-exports it beside the functions that print it.
 */

/** One line of doctor's report; `--json` prints it with `fix` null when there is none. */
export interface Finding {
  ok: boolean;
  name: string;
  /** What was found, naming the file or program it is about. */
  detail: string;
  /** What to do about it, when it is not ok (printed after the detail, after "; "). */
  fix?: string;
}

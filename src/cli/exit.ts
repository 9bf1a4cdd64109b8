/**
 * What every way into the commands shares, without commander: the log's
 * secret mask, and how an error a command threw becomes its one line on
 * stderr and its exit code (run.ts for the command tree, quick.ts for the
 * forms read ahead of it).
 */
import { errLine } from "./io.ts";
import { EXIT, messageOf, WispError } from "../util/errors.ts";
import { setLogMask } from "../util/log.ts";
import { load } from "./lazy.ts";

/**
 * Diagnostics that may hold a secret (a command line, a launcher's argv) are
 * masked by the secrets scanner, loaded only when such a line is logged.
 */
export function installLogMask(): void {
  setLogMask(async (text) => {
    const { maskForLog } = await load<typeof import("../secrets/log_mask.ts")>(
      import.meta.resolve("../secrets/log_mask.ts"),
    );
    return await maskForLog(text);
  });
}

function debugEnabled(): boolean {
  try {
    return Deno.env.get("WISP_LOG") === "debug";
  } catch {
    return false;
  }
}

/**
 * Say what went wrong in one line on stderr (the stack only under
 * WISP_LOG=debug) and give the exit code: a WispError's own, 1 otherwise.
 */
export function reportError(error: unknown): number {
  if (error instanceof WispError) {
    errLine(`error: ${error.message}`);
    return error.exitCode;
  }
  if (error instanceof Deno.errors.NotCapable) {
    errLine(`error: wisp's permission fence refused an operation (${messageOf(error)})`);
    return EXIT.failure;
  }
  errLine(`error: ${messageOf(error)}`);
  if (debugEnabled() && error instanceof Error && error.stack) errLine(error.stack);
  return EXIT.failure;
}

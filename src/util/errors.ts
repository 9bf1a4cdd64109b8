/**
 * Errors that reach a person. Each carries the exit code wisp documents
 * (docs/exit-codes.md) and a message that is one sentence naming the problem
 * and what to do. main.ts prints `error: <message>` and exits with the code;
 * nothing else should print a stack trace at a user.
 */

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 64,
  interrupted: 130,
} as const;

export class WispError extends Error {
  constructor(message: string, readonly exitCode: number = EXIT.failure) {
    super(message);
    this.name = "WispError";
  }
}

/** A malformed argument, flag or invocation: exit 64. */
export class UsageError extends WispError {
  constructor(message: string) {
    super(message, EXIT.usage);
    this.name = "UsageError";
  }
}

/** A malformed config.json or a bad value in it: exit 64. */
export class ConfigError extends WispError {
  constructor(message: string) {
    super(message, EXIT.usage);
    this.name = "ConfigError";
  }
}

/** The message of anything thrown, without a stack. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * The one sentence for a file-system failure while writing wisp's own files
 * (its home, config.json, the audit log): which path, what is wrong with it,
 * and what to do. `what` names the thing ("wisp's home", "the audit log").
 * Errors that are already sentences pass through unchanged.
 */
export function homeWriteError(error: unknown, path: string, what: string): WispError {
  if (error instanceof WispError) return error;
  const code = (error as { code?: unknown })?.code;
  const subject = `${what} ${path}`;
  const elsewhere = "set WISP_HOME to a folder you own";
  if (error instanceof Deno.errors.NotCapable) {
    // Deno lets no program write under /proc, /sys or /dev without --allow-all.
    return new WispError(
      `${subject} is in a system folder no program may write to; ${elsewhere}`,
    );
  }
  if (error instanceof Deno.errors.IsADirectory || code === "EISDIR") {
    return new WispError(`${subject} is a folder where wisp keeps a file; move the folder aside`);
  }
  if (
    error instanceof Deno.errors.NotADirectory || error instanceof Deno.errors.AlreadyExists ||
    code === "ENOTDIR" || code === "EEXIST"
  ) {
    return new WispError(
      `${subject} cannot be made: a file is in the way of a folder it needs; move that file aside`,
    );
  }
  if (code === "EROFS") {
    return new WispError(`${subject} is on a read-only file system; ${elsewhere}`);
  }
  if (code === "ENOSPC" || code === "EDQUOT") {
    return new WispError(`${subject} cannot be written: the disk is full; free some space`);
  }
  if (error instanceof Deno.errors.PermissionDenied || code === "EPERM" || code === "EACCES") {
    return new WispError(
      `${subject} cannot be written (permission denied); check the owner and mode of it and its folders, and that none is immutable (lsattr -d; chattr -i), or ${elsewhere}`,
    );
  }
  const reason = messageOf(error).replace(/ \(os error \d+\)/, "").replace(/: \w+ '.*'$/, "");
  return new WispError(`${subject} cannot be written (${reason}); ${elsewhere}`);
}

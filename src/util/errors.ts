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

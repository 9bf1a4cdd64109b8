/**
 * Waiting for an event with a generous deadline, the way every test waits:
 * the deadline only turns a hang into a failure that says what never came,
 * it is never a speed goal (those are measured in bench/).
 */

/** How long a test waits for an event before it calls the event missing. */
export const GENEROUS_MS = 60_000;

/** `promise`'s value, or a failure naming `what` if it has not settled within `ms`. */
export async function within<T>(promise: Promise<T>, what: string, ms = GENEROUS_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `probe` until it returns something other than undefined or false; fails after `ms`. */
export async function waitUntil<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  ms = GENEROUS_MS,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Whether a file exists (for waiting on a marker a command writes). */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The assertions the suite uses, over node:assert (JSR's @std/assert is not
 * reachable from our build machines). Names follow @std/assert.
 */
import assertNode from "node:assert/strict";

export function assert(condition: unknown, message?: string): asserts condition {
  assertNode.ok(condition, message);
}

export function assertEquals<T>(actual: T, expected: T, message?: string): void {
  assertNode.deepStrictEqual(actual, expected, message);
}

export function assertNotEquals<T>(actual: T, expected: T, message?: string): void {
  assertNode.notDeepStrictEqual(actual, expected, message);
}

export function assertMatch(actual: string, expected: RegExp, message?: string): void {
  assertNode.match(actual, expected, message);
}

export function assertNotMatch(actual: string, expected: RegExp, message?: string): void {
  assertNode.doesNotMatch(actual, expected, message);
}

export function assertStringIncludes(actual: string, expected: string, message?: string): void {
  assertNode.ok(
    actual.includes(expected),
    message ??
      `expected ${JSON.stringify(actual.slice(0, 2000))} to include ${JSON.stringify(expected)}`,
  );
}

export function assertThrows(
  fn: () => unknown,
  errorClass?: new (...args: never[]) => Error,
  includes?: string,
): Error {
  try {
    fn();
  } catch (error) {
    if (errorClass) {
      assertNode.ok(error instanceof errorClass, `expected ${errorClass.name}, got ${error}`);
    }
    if (includes) assertStringIncludes((error as Error).message, includes);
    return error as Error;
  }
  throw new assertNode.AssertionError({ message: "expected the function to throw" });
}

export async function assertRejects(
  fn: () => Promise<unknown>,
  errorClass?: new (...args: never[]) => Error,
  includes?: string,
): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    if (errorClass) {
      assertNode.ok(error instanceof errorClass, `expected ${errorClass.name}, got ${error}`);
    }
    if (includes) assertStringIncludes((error as Error).message, includes);
    return error as Error;
  }
  throw new assertNode.AssertionError({ message: "expected the promise to reject" });
}

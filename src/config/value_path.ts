/** Reading a value out of a parsed config by its key path; it imports nothing, so readers stay light. */

/** The value at `path` (own properties only), or undefined when any step is missing. */
export function valueAtPath(object: unknown, path: string[]): unknown {
  let current = object;
  for (const key of path) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

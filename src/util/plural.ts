/** Counts written out for people: "1 file", "3 files". Pure. */

/** `n` and the noun in the form the count takes (`many` defaults to `one` with an s). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

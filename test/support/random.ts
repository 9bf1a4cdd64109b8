/**
 * A small seeded random generator for tests that draw their inputs: the same
 * seed gives the same draws, so a failure names an input that can be made
 * again. (mulberry32: 32 bits of state, good enough to spread test inputs.)
 */

/** A generator of numbers in [0, 1) from `seed`. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
